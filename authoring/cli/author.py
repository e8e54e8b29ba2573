"""Authoring commands: init, new scenario, import-setup, export-setup, docs format.

Thin (house style 2): each parses options, calls one function of `authoring.author`, prints, exits
0 (ok), 1 (data errors) or 2 (usage).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring import atomic
from authoring.atomic import write_text as atomic_write
from authoring.cli.args import Choice, OutPath, project_option, refuse
from authoring.cli.output import emit
from authoring.diagnostics import has_errors
from authoring.diagnostics.codes import render_reference
from authoring.readfile import read_limited
from authoring.safepath import UnsafePath, refuse_output, resolve_inside, writer_root


def _show(diags, root: Path | None = None) -> None:
    emit(diags, "full", root)


def _refused(exc) -> None:
    """The findings that stopped a writer (rendered against the text it did not write, when it was), and why."""
    if getattr(exc, "shown", ""):
        click.echo(exc.shown, err=True)
    else:
        _show(exc.diagnostics)
    click.echo(str(exc.message), err=True)


def _rel(p: Path) -> str:
    from authoring.load.project import display

    return display(Path(p))


@click.command()
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--from", "from_game", metavar="GAME", help="Start from a copy of a bundled game (e.g. bfm).")
@click.option("--id", "game_id", help="Game id [default: from the folder name].")
@click.option("--name", help="Game title [default: from the id].")
def init(directory: Path, from_game: str | None, game_id: str | None, name: str | None) -> None:
    """Create a new game project in DIRECTORY: a small working game (or a copy of --from GAME)."""
    from authoring.author.project import init_project
    from authoring.validate import validate_path

    plan = init_project(directory, from_game, game_id, name)
    for p in sorted(plan.files):
        click.echo(f"  created {_rel(p)}")
    _, diags, _ = validate_path(plan.dest)
    if has_errors(diags):  # pragma: no cover - the templates are tested to validate
        _show(diags, plan.dest)
        sys.exit(1)
    click.echo(
        f"\nGame {plan.game_id!r} is ready and passes every check. Next:\n"
        f"  cd {_rel(plan.dest)}\n  hexwright validate\n  hexwright watch {plan.game_id}\n"
        f"  hexwright build sheets {plan.game_id}"
    )


@click.group()
def new() -> None:
    """Add something new to a game (a scenario)."""


@new.command(name="scenario")
@click.argument("game")
@click.argument("name")
@click.option("--from", "from_scenario", metavar="SCENARIO", help="Copy this scenario of the game to vary it.")
@project_option
def new_scenario_cmd(game: str, name: str, from_scenario: str | None, project: Path) -> None:
    """Create scenarios/GAME/NAME.yaml: a skeleton, or a copy of --from SCENARIO."""
    from authoring.author.keep import NotWritten
    from authoring.author.scenario import new_scenario

    try:
        path = new_scenario(project, game, name, from_scenario)
    except NotWritten as exc:
        _refused(exc)
        sys.exit(1)
    click.echo(f"  created {_rel(path)}")
    what = "change what the variant does differently" if from_scenario else "fill in the turns and the set-up"
    click.echo(f"Open it, {what}, and run `hexwright validate` (or keep `hexwright watch {game}` running).")


@click.command(name="import-setup")
@click.argument("card", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--scenario", "scenario", required=True, help="Scenario id (or its file) to write the set-up into.")
@click.option("--side", help="The side the card sets up [default: the card's, or its units' side].")
@click.option("--game", help="The game, when several have a scenario of that id.")
@project_option
def import_setup_cmd(card: Path, scenario: str, side: str | None, game: str | None, project: Path) -> None:
    """Write a set-up card (CSV hex,unit,state or YAML setup-card) into a scenario's `setup:`."""
    from authoring.author.setup_io import CardError, find_scenario, import_setup

    sf = find_scenario(project, scenario, game)
    try:
        r = import_setup(card, sf, side)
    except CardError as exc:
        _refused(exc)
        sys.exit(1)
    click.echo(f"wrote {r.placements} placements ({r.units} units) for {r.side} into {_rel(r.path)}")
    if r.dropped_comments:
        click.echo(f"note: {r.dropped_comments} comment(s) between the old {r.side} placements were dropped", err=True)
    _show(r.findings)
    sys.exit(1 if has_errors(r.findings) else 0)


@click.command(name="export-setup")
@click.argument("scenario")
@click.option("--side", required=True, help="The side whose set-up to export.")
@click.option(
    "--format",
    "fmt",
    type=Choice(["csv", "yaml", "xlsx"]),
    default=None,
    help="csv, yaml or xlsx (a workbook with drop-down lists) [default: from --out's extension, else csv].",
)
@click.option(
    "--out",
    type=OutPath(dir_okay=False, path_type=Path),
    default=None,
    help="File to write [default: standard output].",
)
@click.option("--force", is_flag=True, help="Write even inside a data folder or over a file of another kind.")
@click.option("--game", help="The game, when several have a scenario of that id.")
@project_option
def export_setup_cmd(
    scenario: str, side: str, fmt: str | None, out: Path | None, force: bool, game: str | None, project: Path
) -> None:
    """Write a scenario's set-up for one side as CSV (hex,unit,state), a YAML setup-card, or an .xlsx workbook
    whose unit, state and hex cells offer drop-down lists (each row's hexes: where its unit may start)."""
    from authoring.author.setup_io import export_setup, find_scenario
    from authoring.load import find_root

    fmt = fmt or _format_of(out)
    if fmt == "xlsx" and out is None:
        raise click.UsageError("a workbook is written to a file: add --out CARD.xlsx")
    if out is not None:
        made = {"csv": (".csv", ".txt"), "yaml": (".yaml", ".yml"), "xlsx": (".xlsx",)}[fmt]
        refuse(refuse_output(find_root(project), out, made, "--out", force))
    card = export_setup(find_scenario(project, scenario, game), side, fmt)
    if out is None:
        click.echo(card, nl=False)
        return
    inside = writer_root(find_root(project), out)
    if isinstance(card, bytes):
        atomic.write_bytes(out, card, inside=inside)
    else:
        atomic_write(out, card, inside=inside)
    click.echo(f"wrote {_rel(out)}", err=True)


def _format_of(out: Path | None) -> str:
    """The card format an --out file's extension asks for (csv when it names none of the others)."""
    suffix = out.suffix.lower() if out is not None else ""
    return {".xlsx": "xlsx", ".yaml": "yaml", ".yml": "yaml"}.get(suffix, "csv")


@click.group()
def docs() -> None:
    """Generated documentation."""


@docs.command(name="format")
@click.option("--write", is_flag=True, help="Write docs/format.md instead of printing it.")
@click.option("--check", is_flag=True, help="Exit 1 if docs/format.md differs from the schemas.")
@project_option
def docs_format(write: bool, check: bool, project: Path) -> None:
    """The data format reference, generated from hexwright's schemas: printed, or written to the
    project's docs/format.md (--write), or compared with it (--check)."""
    from authoring.author.formatdoc import doc_path, render
    from authoring.load import find_root

    root = find_root(project)
    _generated_doc(render(), root, doc_path(root), "format", write, check)


@docs.command(name="codes")
@click.option("--write", is_flag=True, help="Write docs/codes.md instead of printing it.")
@click.option("--check", is_flag=True, help="Exit 1 if docs/codes.md differs from the catalogue.")
@project_option
def docs_codes(write: bool, check: bool, project: Path) -> None:
    """The reference of finding codes (meaning, severity, usual fix, where to read), generated from the
    catalogue: printed, or written to the project's docs/codes.md (--write), or compared with it (--check)."""
    from authoring.load import find_root

    root = find_root(project)
    _generated_doc(render_reference(), root, root / "docs" / "codes.md", "codes", write, check)


def _generated_doc(text: str, root: Path, path: Path, name: str, write: bool, check: bool) -> None:
    """Print a generated page, write it to `path` (never through a link out of the project at `root`), or exit 1
    when `path` differs from it."""
    if check:
        current = read_limited(path).decode("utf-8", errors="replace") if path.exists() else ""
        if current != text:
            click.echo(f"{_rel(path)} is out of date: run `hexwright docs {name} --write`", err=True)
            sys.exit(1)
        click.echo(f"{_rel(path)} is up to date")
    elif write:
        try:  # a `docs` folder or the page linked out of the project is not written through
            resolve_inside(root, str(path.relative_to(root)), f"the {name} reference")
        except UnsafePath as exc:
            raise click.UsageError(f"{exc}; nothing was written") from None
        atomic_write(path, text, inside=root, follow=True)
        click.echo(f"wrote {_rel(path)}")
    else:
        click.echo(text, nl=False)


COMMANDS = (init, new, import_setup_cmd, export_setup_cmd, docs)
