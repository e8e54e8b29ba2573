"""`hexwright check`: a scenario's set-up (or a set-up card) against the game's rules. Thin (house style 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring.cli.args import Choice, OutPath, project_option, refuse
from authoring.cli.output import emit

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
        from authoring.cli.art import check_map

        if image is not None:
            from authoring.load import find_root
            from authoring.safepath import refuse_output

            refuse(refuse_output(find_root(Path(scenario).parent), image, (".png",), "--image", force))
        return check_map(Path(scenario), fmt, image)
    from authoring.diagnostics import has_errors
    from authoring.diagnostics.suggest import suggest
    from authoring.load import load_card
    from authoring.load.target import TargetError, find_target
    from authoring.rules import check_scenario

    try:
        target = find_target(scenario, game_id, project)
    except TargetError as exc:
        raise click.UsageError(str(exc)) from None
    if image is not None:
        from authoring.safepath import refuse_output

        refuse(refuse_output(target.root, image, (".png",), "--image", force))
    if target.scenario is None or not target.result.checkable:  # the one test `validate` and `build` make too
        from authoring.load.project import card_findings

        found = list(target.diagnostics) + target.result.not_checked()
        if card is not None:  # the game's errors do not hide the card's own
            found += card_findings(card, target.result, target.scenario, side)
        emit(found, fmt, target.root)
        sys.exit(1)
    game, scen = target.result.game, target.scenario
    if side is not None and side not in {s.id for s in game.sides}:
        raise click.BadParameter(f"{side!r}; {suggest(side, [s.id for s in game.sides])}", param_hint="--side")
    unknown = [o for o in options if o not in {x.id for x in scen.options}]
    if unknown:
        raise click.BadParameter(
            f"{unknown[0]!r} is not an option of {scen.id}; {suggest(unknown[0], [x.id for x in scen.options])}",
            param_hint="--option",
        )
    diags = list(target.diagnostics)
    the_card = None
    if card is not None:
        the_card, card_diags = load_card(card, target.result, scen, side)
        diags += card_diags
        if the_card is None or has_errors(card_diags):  # the rules would only echo the card's own errors
            from authoring.load.project import display, not_checked

            emit(diags + [not_checked((display(card),), game.id)], fmt, target.root)
            sys.exit(1)
    diags += check_scenario(game, scen, the_card, options)
    if the_card is not None:  # one finding for a mistake down the card's column (no state column: every row)
        from authoring.diagnostics.rows import one_per_column

        diags = one_per_column(diags, game.counters)
    emit(diags, fmt, target.root)
    if the_card is not None:
        sys.stdout.flush()  # after the findings, on a terminal as in a log
        click.echo(_card_summary(game, scen, the_card, card), err=True)
    if image is not None:
        from authoring.render.maps.findings import findings_image
        from authoring.rules.board import with_card

        findings_image(game, with_card(game, scen, the_card), diags, image)
    sys.exit(1 if has_errors(diags) else 0)


def _card_summary(game, scen, the_card, card: Path) -> str:
    """Which sides the card set up and which came from the scenario, so a reader knows what was checked."""
    from authoring.load.project import display
    from authoring.rules.board import card_sides

    held = sorted(card_sides(the_card, game) or ())
    rest = [s.id for s in game.sides if s.id not in held]
    several = f" (the card holds units of {len(held)} sides: each is replaced)" if len(held) > 1 else ""
    line = f"checked: {', '.join(held) or 'no side'} from the card {display(card)}{several}"
    return line + (f"; {', '.join(rest)} as scenario {scen.id!r} sets up" if rest else "")
