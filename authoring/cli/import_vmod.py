"""`hexwright import-vmod MODULE.vmod [--out DIR]`: an existing VASSAL module as a project (issue 19).

Thin (house style 2): parse options, call `authoring.author.import_vmod`, print its own findings (what the
module does not say), validate what it would write and write it only when it validates, then print the
project's findings as `validate` counts them: exit 0 (imported; warnings for what needs filling in),
1 (a damaged module, or a project that would not validate: nothing written) or 2 (usage).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring.cli.args import OutPath
from authoring.cli.output import emit, render
from authoring.diagnostics.codes import HW_VMOD_001
from authoring.diagnostics.summary import summarised


@click.command(name="import-vmod")
@click.argument("module", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--out",
    type=OutPath(file_okay=False, path_type=Path),
    default=None,
    help="Project folder to create [default: the module's name beside it in the current folder].",
)
@click.option("--id", "game_id", help="Game id [default: from the module's name].")
def import_vmod_cmd(module: Path, out: Path | None, game_id: str | None) -> None:
    """Write a hexwright project from MODULE.vmod: boards as map art, pieces as counters, set-ups as scenarios."""
    from authoring.author.import_vmod import DamagedModule, diagnostics, plan_import
    from authoring.author.keep import NotWritten, write_project_checked

    dest = out or Path(module.stem)
    if dest.is_symlink():  # resolving it would put the project where it leads
        raise click.UsageError(f"{str(dest)!r} is a symbolic link; name a new or empty folder; nothing was written")
    try:
        plan = plan_import(module, dest, game_id)
    except DamagedModule as exc:
        emit(exc.diagnostics, "full")
        click.echo(str(exc.message), err=True)
        sys.exit(1)
    _said(diagnostics(plan, module))
    try:  # written only once it validates: a project that does not is a bug of the import, never left behind
        diags = write_project_checked(plan)
    except NotWritten as exc:
        click.echo(exc.shown, err=True)
        click.echo(str(exc.message), err=True)
        sys.exit(1)
    f = plan.figures
    click.echo(
        f"imported {module.name} into {dest}: {f['maps']} maps, {f['counters']} counters from "
        f"{f['slots']} piece slots, {f['scenarios']} scenarios (game id {plan.game_id!r})"
    )
    emit(summarised(diags), "concise", counted=diags)  # the project's findings, counted as `validate` counts them
    click.echo(f"The project validates. Next: cd {dest} && hexwright build module {plan.game_id}")


def _said(found: list) -> None:
    """The import's own findings (what the module does not say), closed by a line of their own: they are
    about the module, not counted among the project's findings, which `validate` and `build` report."""
    if not found:
        return
    lines = render(found, "concise").splitlines()[:-1]  # its "Found ..." line would count another set
    parts = _import_counts(found)
    click.echo("\n".join([*lines, f"The import: {parts}."]))


def _import_counts(found: list) -> str:
    skipped = sum(1 for d in found if d.code == HW_VMOD_001.code)
    todo = len(found) - skipped
    return ", ".join(
        part
        for part in (
            f"{skipped} part{'s' * (skipped != 1)} of the module imported only in part (HW-VMOD-001)"
            if skipped
            else "",
            f"{todo} TODO note{'s' * (todo != 1)} written to fill in (HW-VMOD-002)" if todo else "",
        )
        if part
    )
