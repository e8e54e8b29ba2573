"""`hexwright import-vmod MODULE.vmod [--out DIR]`: an existing VASSAL module as a project (issue 19).

Thin (house style 2): parse options, call `authoring.author.import_vmod`, print its warnings, validate
what it wrote, exit 0 (imported; warnings for what needs filling in) or 2 (usage).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring.cli.args import OutPath
from authoring.cli.output import emit


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
    from authoring.author.import_vmod import DamagedModule, diagnostics, import_vmod
    from authoring.diagnostics import has_errors
    from authoring.validate import validate_path

    dest = out or Path(module.stem)
    if dest.is_symlink():  # resolving it would put the project where it leads
        raise click.UsageError(f"{str(dest)!r} is a symbolic link; name a new or empty folder; nothing was written")
    try:
        plan = import_vmod(module, dest, game_id)
    except DamagedModule as exc:
        emit(exc.diagnostics, "full")
        click.echo(str(exc.message), err=True)
        sys.exit(1)
    f = plan.figures
    emit(diagnostics(plan, module), "concise")
    click.echo(
        f"imported {module.name} into {dest}: {f['maps']} maps, {f['counters']} counters from "
        f"{f['slots']} piece slots, {f['scenarios']} scenarios (game id {plan.game_id!r})"
    )
    _, diags, _ = validate_path(plan.dest, rules=True)
    if has_errors(diags):
        emit(diags, "full", plan.dest)
        sys.exit(1)
    click.echo(f"The project validates. Next: cd {dest} && hexwright build module {plan.game_id}")
