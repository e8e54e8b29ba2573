"""The one grammar of arguments shared by every command: a game (id or path) and `--project`."""

from __future__ import annotations

import math
from pathlib import Path

import click

from authoring.diagnostics.suggest import closest
from authoring.safepath import Unforcible

project_option = click.option(
    "--project",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=".",
    help="Project folder (holds scenarios/, maps/, counters/) [default: the one around the working folder].",
)
game_argument = click.argument("game", required=False, metavar="[GAME]")
GAME_HELP = "GAME is a game id (e.g. bfm) or a path: the project, a game's folder, or a file in a game."


def select(project: Path, game: str | None):
    """(project root, the games GAME names); a usage error (exit 2) with a did-you-mean otherwise."""
    from authoring.load import GameNotFound, select_games

    try:
        root, games = select_games(project, game)
    except GameNotFound as exc:
        empty = not select_games(project, None)[1]
        raise click.UsageError(str(exc) + start_hint(game, empty)) from None
    if not games and game is not None:
        from authoring.load.argpath import outside

        raise click.UsageError(str(outside(game, root)))
    if not games:
        raise click.UsageError(
            f"no game found at {root} (a game has scenarios/<game>/game.yaml)" + start_hint(game, True)
        )
    return root, games


def start_hint(game: str | None, empty: bool) -> str:
    """How to start where there is no project (`empty`), or when GAME is a bundled game the project lacks:
    the bundled games and the `init` that copies one."""
    from authoring.author.project import bundled_games

    ids = sorted(bundled_games())
    if not ids or not (empty or game in ids):
        return ""
    source = game if game in ids else ("bfm" if "bfm" in ids else ids[0])
    named = (
        f"{game!r} is one of hexwright's bundled games" if game in ids else f"the bundled games are {', '.join(ids)}"
    )
    return f"\n  = help: {named}; `hexwright init mygame --from {source}` copies it into a new project folder"


class Choice(click.Choice):
    """`click.Choice` whose refusal ends with the nearest valid value ("did you mean 'json'?")."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(choice_message(value, [str(c) for c in self.choices]), param, ctx)


def choice_message(value, choices: list[str]) -> str:
    """`'x' is not one of 'a', 'b'`, then the nearest of them when one is near."""
    near = closest(str(value), choices)
    listed = ", ".join(repr(c) for c in choices)
    return f"{value!r} is not one of {listed}" + (f"; did you mean {near!r}?" if near else "")


class Number(click.FloatRange):
    """A number option in its range, refusing `nan` and infinities: `nan` passes every comparison of
    `click.FloatRange` (nan < 0 and nan > 6 are both false), so a bare range lets it through."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def finite_pair(text: str, limit: float, unit: str) -> tuple[float, float]:
    """`X,Y` (Y defaults to 0) as two finite numbers from -`limit` to `limit`; ValueError with the reason."""
    x, _, y = text.partition(",")
    pair = float(x), float(y or 0)  # ValueError for anything that is not two numbers
    if not all(math.isfinite(v) and -limit <= v <= limit for v in pair):
        raise ValueError(f"{text!r} is out of range: each of X and Y is a number from {-limit:g} to {limit:g} {unit}")
    return pair


class OutPath(click.Path):
    """A path option that refuses an empty value (`--out ""` would otherwise mean the working folder)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("is empty: name a file or folder, or leave the option out for its default", param, ctx)
        return super().convert(value, param, ctx)


def refuse(message: str | None) -> None:
    """Stop with a usage error (exit 2) when a writer's target was refused (saying when --force would write)."""
    if message:
        hint = "" if isinstance(message, Unforcible) else " (add --force to write there anyway)"
        raise click.UsageError(f"{message}; nothing was written{hint}")
