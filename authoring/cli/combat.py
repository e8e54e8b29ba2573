"""`hexwright combat`: one battle of a scenario's units, resolved from the tables. Thin (house style 2)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from authoring.cli.args import Choice, project_option
from authoring.cli.output import emit
from authoring.diagnostics.text import printable

FORMATS = ("text", "json")
UNIT_HELP = "UNIT@HEX[:STATE[+MARKER...]]: a counter id, its hex, its face state and markers (repeatable)."


@click.command(name="combat")
@click.argument("scenario")
@click.option("--game", "game_id", help="Game id, when several games have a scenario of that id.")
@click.option("--turn", type=click.IntRange(min=0), help="The game turn (its weather and turn-record values).")
@click.option("--defender", "defenders", multiple=True, metavar="UNIT@HEX[:STATE]", help=UNIT_HELP)
@click.option("--attacker", "attackers", multiple=True, metavar="UNIT@HEX[:STATE]", help=UNIT_HELP)
@click.option("--roll", type=int, help="The die roll (default: the result of every roll).")
@click.option(
    "--weather", help="The weather rolled for the turn, where the turn record does not fix it (Typhoon 5.1.2)."
)
@click.option("--format", "fmt", type=Choice(FORMATS), default="text", show_default=True)
@project_option
def combat(
    scenario: str,
    game_id: str | None,
    turn: int | None,
    defenders: tuple[str, ...],
    attackers: tuple[str, ...],
    roll: int | None,
    weather: str | None,
    fmt: str,
    project: Path,
) -> None:
    """Resolve one battle of SCENARIO's units from the game's tables: odds, shifts and DRMs with their rules,
    the final column, the result of each roll (or of --roll) and what was not applied (docs/combat.md)."""
    from authoring import battles  # here, not at the top: it loads the loader and the rules (~90 ms)

    try:
        done = battles.calculate(scenario, game_id, project, turn, defenders, attackers, roll, weather)
    except battles.TargetError as exc:
        raise click.UsageError(str(exc)) from None
    if done.report is None:
        emit(list(done.findings), "json" if fmt == "json" else "full", done.root)
        sys.exit(1)
    if fmt == "json":
        click.echo(json.dumps(done.report, indent=2, ensure_ascii=False))
    else:
        for line in text(done.report).splitlines():
            click.echo(printable(line))
    sys.exit(0)


def text(report: dict) -> str:
    """The report as lines for a reader."""
    where = f"{report['game']}/{report['scenario']}" + (
        f", turn {report['turn']}" if report["turn"] is not None else ""
    )
    lines = [f"combat at {report['hex']} ({where}" + (f", {report['weather']}" if report["weather"] else "") + ")"]
    for role in ("defenders", "attackers"):
        for u in report[role]:
            state = (
                f" ({u['state']}{''.join('+' + m for m in u.get('markers', ()))})"
                if u["state"] or u.get("markers")
                else ""
            )
            lines.append(f"  {role[:-1]}: {u['unit']}{state} at {u['hex']}, strength {u['strength']}")
    lines.append(f"  attack {report['attack']} to defence {report['defence']}: odds {report['odds']}")
    for m in report["modifiers"]:
        lines.append(f"  {m['label']}" + (f" ({m['rule']})" if m["rule"] else ""))
    drm = f", DRM {report['drm']:+d}" if report["drm"] else ""
    lines.append(f"  final column {report['column']}{drm}")
    for r in report["results"]:
        row = f" (row {r['row']})" if r["row"] != r["roll"] else ""
        lines.append(f"  roll {r['roll']}{row}: {r['result'] if r['result'] is not None else 'not computed'}")
    for n in report["not_applied"]:
        lines.append(f"  not applied: {n['label']}" + (f" ({n['rule']})" if n.get("rule") else ""))
    return "\n".join(lines)
