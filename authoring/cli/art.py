"""`hexwright calibrate MAP` and `hexwright check MAP --image`: map art registration. Thin (house style 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring.cli.output import emit
from authoring.diagnostics import has_errors
from authoring.readfile import read_limited


@click.command(name="calibrate")
@click.argument("map_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--point",
    "points",
    multiple=True,
    metavar="HEX=X,Y",
    help="A hex centre read off the art, in image pixels (repeatable; adds to the map file's art.points).",
)
@click.option("--write", is_flag=True, help="Put the fitted registration into the map file's `art:` (comments kept).")
def calibrate(map_file: Path, points: tuple[str, ...], write: bool) -> None:
    """Fit MAP's art registration to three or more hex centres and print it with each point's residual.

    A point the others disagree with is named and left out of the fit; `--write` puts the registration
    into the map file (refused while the points disagree and no point explains it)."""
    from authoring.calibrate import calibrate as fit
    from authoring.calibrate import (
        find_map,
        labels,
        parse_point,
        registration_fields,
        registration_yaml,
        residual_lines,
        verdict,
    )

    target = find_map(map_file)
    m = target.map
    if m is None or m.art is None:
        if target.diagnostics:
            emit(list(target.diagnostics), "full")
        raise click.UsageError(f"{map_file} names no map art: add `art: {{image: ...}}` with `points:` first")
    try:
        extra = [parse_point(m, p) for p in points]
        cal = fit(m, extra)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"{len(cal.residuals)} points, {m.grid.spec.orientation}-top grid; residuals:")
    for line in residual_lines(m, cal):
        click.echo(line)
    worst = max(r.distance for r in cal.residuals if r.hex not in cal.outliers)
    without = f" without {labels(m, cal.outliers)}" if cal.outliers else ""
    click.echo(f"largest residual{without} {worst:.2f} px ({worst / cal.registration.hex_px:.1%} of a hex)\n")
    advice = verdict(m, cal)
    refused = write and cal.flagged and not cal.outliers
    if write and not refused:
        _write(map_file, registration_fields(m, cal.registration), target.result.files)
    done = "written into" if write and not refused else "for"
    click.echo(f"registration {done} {map_file} (under `art:`{', fitted' + without if without else ''}):")
    click.echo(registration_yaml(m, cal.registration))
    if advice:
        sys.stdout.flush()
        click.echo(f"warning: {advice}", err=True)
    if refused:
        click.echo(f"{map_file} was not written: no registration fits these points", err=True)
        sys.exit(1)


def _write(map_file: Path, fields: dict[str, str], files) -> None:
    """The registration into the map file, only when the game still loads as well with it (`keep`)."""
    from authoring.author.artblock import set_registration
    from authoring.author.fsutil import real_target
    from authoring.author.keep import NotWritten, replace_checked
    from authoring.author.yamlblock import BlockError

    target = real_target(map_file)
    text = read_limited(target).decode("utf-8")
    try:
        new = set_registration(text, fields, str(map_file))
    except BlockError as exc:
        raise click.ClickException(f"{map_file}: {exc}") from None
    if new == text:
        return
    path = next(p for p in files.maps if p.resolve() == map_file.resolve())
    try:
        replace_checked(files, path, new, "the registration")
    except NotWritten as exc:
        click.echo(exc.shown, err=True)
        click.echo(str(exc.message), err=True)
        sys.exit(1)


def check_map(map_file: Path, fmt: str, image: Path | None) -> None:
    """`check MAP`: the map file's findings; `--image` writes the registration overlay (grid and ids on the art)."""
    from authoring.calibrate import find_map

    target = find_map(map_file)
    diags = list(target.diagnostics)
    emit(diags, fmt, target.result.files.root if target.result.files else None)
    m = target.map
    if image is not None:
        if m is None or m.art is None or m.art.registration is None:
            raise click.UsageError(f"{map_file} has no registered map art to overlay")
        from authoring.render.shared.art import registration_overlay
        from authoring.render.shared.pdf import save_png

        save_png(registration_overlay(m), image)
        click.echo(f"{image}: grid and hex ids of {m.id!r} on its art", err=True)
    sys.exit(1 if has_errors(diags) else 0)
