"""`hexwright check`: a scenario's set-up (or a set-up card) against the game's rules. Thin (house style 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring.cli.args import Choice, OutPath, project_option, refuse
from authoring.cli.output import emit
from authoring.safepath import refuse_output

FORMATS = ("full", "concise", "json", "sarif")


@click.command(name="check")
@click.argument("scenario")
@click.option("--game", "game_id", help="Game id, when several games have a scenario of that id.")
@click.option(
    "--card",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A set-up card (YAML or CSV) to check in place of its side's set-up.",
)
@click.option("--side", help="The side a CSV card sets up (default: the one side of its units).")
@click.option("--option", "options", multiple=True, metavar="ID", help="Turn on a scenario option (repeatable).")
@click.option("--format", "fmt", type=Choice(FORMATS), default="full", show_default=True)
@click.option("--image", type=OutPath(dir_okay=False, path_type=Path), help="Also draw the findings on the map (PNG).")
@click.option("--force", is_flag=True, help="Write --image even inside a data folder or over a file of another kind.")
@project_option
def check(
    scenario: str,
    game_id: str | None,
    card: Path | None,
    side: str | None,
    options: tuple[str, ...],
    fmt: str,
    image: Path | None,
    force: bool,
    project: Path,
) -> None:
    """Check SCENARIO's set-up (a file, GAME/SCENARIO, or a scenario id) against the game's rules.

    Given a map file instead, check it; `--image` then draws its fitted grid and hex ids on its art."""
    from authoring.calibrate import is_map_file

    if is_map_file(scenario):
        return _check_map(Path(scenario), fmt, image, force)
    from authoring import checking  # here, not at the top: it loads the loader and the rules engine (~90 ms)

    try:
        found = checking.check(scenario, game_id, project, checking.Card(card) if card else None, side, options)
    except checking.TargetError as exc:
        raise click.UsageError(str(exc)) from None
    except checking.BadChoice as exc:
        raise click.BadParameter(str(exc), param_hint=f"--{exc.choice}") from None
    if image is not None:
        refuse(refuse_output(found.root, image, (".png",), "--image", force))
    emit(list(found.findings), fmt, found.root)
    if found.rules_ran and card is not None:
        sys.stdout.flush()  # after the findings, on a terminal as in a log
        click.echo(_card_summary(found, card), err=True)
    if image is not None and found.rules_ran:
        _draw(found, image)
    sys.exit(1 if found.failed or not found.rules_ran else 0)


def _check_map(path: Path, fmt: str, image: Path | None, force: bool) -> None:
    from authoring.cli.art import check_map
    from authoring.load import find_root

    if image is not None:
        refuse(refuse_output(find_root(path.parent), image, (".png",), "--image", force))
    check_map(path, fmt, image)


def _draw(found, image: Path) -> None:
    """The findings on the map the scenario (with the card) sets up."""
    from authoring.render.maps.findings import findings_image
    from authoring.rules.board import with_card

    game = found.result.valid_game
    findings_image(game, with_card(game, found.scenario, found.card), list(found.findings), image)


def _card_summary(found, card: Path) -> str:
    """Which sides the card set up and which came from the scenario, so a reader knows what was checked."""
    from authoring.load.project import display
    from authoring.rules.board import card_sides

    game, scen = found.result.valid_game, found.scenario
    held = sorted(card_sides(found.card, game) or ())
    rest = [s.id for s in game.sides if s.id not in held]
    several = f" (the card holds units of {len(held)} sides: each is replaced)" if len(held) > 1 else ""
    line = f"checked: {', '.join(held) or 'no side'} from the card {display(card)}{several}"
    return line + (f"; {', '.join(rest)} as scenario {scen.id!r} sets up" if rest else "")
