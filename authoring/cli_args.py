"""The one grammar of arguments shared by every command: a game (id or path) and `--project`."""
from __future__ import annotations

from pathlib import Path

import click

project_option = click.option(
    "--project", type=click.Path(exists=True, file_okay=False, path_type=Path), default=".",
    help="Project folder (holds scenarios/, maps/, counters/) [default: the one around the working folder].")
game_argument = click.argument("game", required=False, metavar="[GAME]")
GAME_HELP = "GAME is a game id (e.g. bfm) or a path: the project, a game's folder, or a file in a game."


def select(project: Path, game: str | None):
    """(project root, the games GAME names); a usage error (exit 2) with a did-you-mean otherwise."""
    from authoring.load import GameNotFound, select_games
    try:
        root, games = select_games(project, game)
    except GameNotFound as exc:
        raise click.UsageError(str(exc)) from None
    if not games and game is not None:
        from authoring.load.argpath import outside
        raise click.UsageError(str(outside(game, root)))
    if not games:
        raise click.UsageError(f"no game found at {root} (a game has scenarios/<game>/game.yaml)")
    return root, games


class OutPath(click.Path):
    """A path option that refuses an empty value (`--out ""` would otherwise mean the working folder)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("is empty: name a file or folder, or leave the option out for its default", param, ctx)
        return super().convert(value, param, ctx)


def refuse(message: str | None) -> None:
    """Stop with a usage error (exit 2) when a writer's target was refused."""
    if message:
        raise click.UsageError(f"{message}; nothing was written (add --force to write there anyway)")
