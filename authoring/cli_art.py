"""`hexwright calibrate MAP` and `hexwright check MAP --image`: map art registration. Thin (house style 2)."""
from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command(name="calibrate")
@click.argument("map_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--point", "points", multiple=True, metavar="HEX=X,Y",
              help="A hex centre read off the art, in image pixels (repeatable; adds to the map file's art.points).")
def calibrate(map_file: Path, points: tuple[str, ...]) -> None:
    """Fit MAP's art registration to three or more hex centres and print it with each point's residual."""
    from authoring.calibrate import calibrate as fit
    from authoring.calibrate import find_map, parse_point, registration_yaml, residual_lines
    from authoring.cli import _emit
    from authoring.load.resolve_art import POINT_TOLERANCE
    target = find_map(map_file)
    m = target.map
    if m is None or m.art is None:
        if target.diagnostics:
            _emit(list(target.diagnostics), "full")
        raise click.UsageError(f"{map_file} names no map art: add `art: {{image: ...}}` with `points:` first")
    try:
        extra = [parse_point(m, p) for p in points]
        reg, residuals = fit(m, extra)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"{len(residuals)} points, {m.grid.spec.orientation}-top grid; residuals:")
    for line in residual_lines(m, reg, residuals):
        click.echo(line)
    worst = max(r.distance for r in residuals)
    click.echo(f"largest residual {worst:.2f} px ({worst / reg.hex_px:.1%} of a hex)\n")
    click.echo(f"registration for {map_file} (under `art:`):")
    click.echo(registration_yaml(m, reg))
    if worst > POINT_TOLERANCE * reg.hex_px:
        click.echo("warning: some points are off by more than 5% of a hex: re-read them or check their hex ids",
                   err=True)


def check_map(map_file: Path, fmt: str, image: Path | None) -> None:
    """`check MAP`: the map file's findings; `--image` writes the registration overlay (grid and ids on the art)."""
    from authoring.calibrate import find_map
    from authoring.cli import _emit
    from authoring.diagnostics import has_errors
    target = find_map(map_file)
    diags = list(target.diagnostics)
    _emit(diags, fmt, target.result.files.root if target.result.files else None)
    m = target.map
    if image is not None:
        if m is None or m.art is None or m.art.registration is None:
            raise click.UsageError(f"{map_file} has no registered map art to overlay")
        from authoring.render.shared.art import registration_overlay
        from authoring.render.shared.pdf import save_png
        save_png(registration_overlay(m), image)
        click.echo(f"{image}: grid and hex ids of {m.id!r} on its art", err=True)
    sys.exit(1 if has_errors(diags) else 0)
