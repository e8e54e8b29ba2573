"""Map art registration from the designer's points (`hexwright calibrate`) and its proof image.

`calibrate` fits the registration (`hexgrid.registration.fit_registration`) to the hex centres a
designer reads off the art: those under `art.points` in the map file plus any given on the
command line. Each point's residual is reported; one off by more than 5% of a hex is flagged
(a misread point or a wrong hex id). One bad point pulls the least-squares fit towards itself and
makes every residual large, so each point is also left out in turn: when the others then fit and it
alone misses, it is the outlier, named, and the registration is the one fitted without it.
`registration_yaml` is the block for the map file (`calibrate --write` puts it there: `artblock`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_CLI_001
from authoring.hexgrid import Hex
from authoring.hexgrid.registration import Registration, Residual, fit_registration
from authoring.load import LoadResult, game_for_path, load_game
from authoring.load.project import display
from authoring.load.resolve_art import POINT_TOLERANCE
from authoring.model import Map
from authoring.readfile import read_limited


@dataclass(frozen=True)
class MapTarget:
    result: LoadResult
    map: Map | None
    diagnostics: tuple[Diagnostic, ...]


def is_map_file(path: str) -> bool:
    """A YAML file that declares `kind: map` (what `check MAP` and `calibrate MAP` take)."""
    p = Path(path)
    if not (p.is_file() and p.suffix.lower() in (".yaml", ".yml")):
        return False
    try:
        head = read_limited(p).decode("utf-8", errors="replace")[:4000]
    except OSError:
        return False
    return any(line.strip() == "kind: map" for line in head.splitlines())


def find_map(path: Path) -> MapTarget:
    """Load the game that holds the map file `path`, and that map."""
    _, games = game_for_path(path)
    files = next((g for g in games if path.resolve() in [p.resolve() for p in g.maps]), None)
    if files is None:
        return MapTarget(
            LoadResult(None),
            None,
            (
                HW_CLI_001.at(
                    f"{display(path)} is not a map file of any game",
                    Loc(display(path)),
                    help="map files live in maps/<game>/",
                ),
            ),
        )
    result = load_game(files)
    mine = [d for d in result.diagnostics if d.loc and Path(d.loc.file).resolve() == path.resolve()]
    found = None
    if result.game is not None:
        found = next((m for m in result.game.maps.values() if Path(m.path).resolve() == path.resolve()), None)
    return MapTarget(result, found, tuple(mine))


MAX_POINT_PX = 1_000_000
"""Largest pixel coordinate of a calibration point (the schema's range for `art.points`)."""


def parse_point(m: Map, text: str) -> tuple[Hex, tuple[float, float]]:
    """`HEX=X,Y` -> (hex, (x, y)); ValueError with a message naming the fix."""
    label, _, xy = text.partition("=")
    h = m.grid.label_to_hex(label.strip())
    if h is None:
        raise ValueError(f"{label.strip()!r} is not a hex of map {m.id!r}")
    try:
        x, y = (float(v) for v in xy.split(","))
    except ValueError:
        raise ValueError(f"expected HEX=X,Y (pixels), e.g. 0101=118,150, but received: {text!r}") from None
    if not all(math.isfinite(v) and -MAX_POINT_PX <= v <= MAX_POINT_PX for v in (x, y)):
        raise ValueError(
            f"point {text!r} is out of range: X and Y are pixels of the art, numbers from "
            f"{-MAX_POINT_PX:,} to {MAX_POINT_PX:,}"
        )
    return h, (x, y)


Point = tuple[float, float]


@dataclass(frozen=True)
class Calibration:
    """A fitted registration, each point's residual, and the points the others disagree with."""

    registration: Registration
    residuals: list[Residual]
    outliers: tuple[Hex, ...] = ()
    """Left out of the fit: every other point fits within tolerance and each of these does not."""

    def off(self, r: Residual) -> bool:
        return r.distance > POINT_TOLERANCE * self.registration.hex_px

    @property
    def flagged(self) -> list[Residual]:
        return [r for r in self.residuals if self.off(r)]


MAX_LEFT_OUT = 2
"""Outliers sought at once: one misread point, or two (a swapped pair of hex ids)."""


def calibrate(m: Map, extra: list[tuple[Hex, Point]]) -> Calibration:
    """Fit the registration to the map file's points and `extra` (later points for the same hex win)."""
    points = {p.hex: p.at for p in (m.art.points if m.art else ())}
    points.update(dict(extra))
    items = list(points.items())
    origin = items[0][0] if items else None
    whole = Calibration(*fit_registration(m.grid.spec.orientation, items, origin))
    if not whole.flagged:
        return whole
    for k in range(1, MAX_LEFT_OUT + 1):
        found = _left_out(m.grid.spec.orientation, items, origin, k)
        if found is not None:
            return found
    return whole


def _left_out(orientation: str, items: list[tuple[Hex, Point]], origin: Hex | None, k: int) -> Calibration | None:
    """Leave-k-out: the fit without the one set of k points whose absence leaves every other point within
    tolerance while each of them misses; None when no set, or more than one, explains the misfit. At least
    four points stay (three fit almost any reading)."""
    if len(items) - k < 4:
        return None
    found = []
    for out in combinations(range(len(items)), k):
        rest = [it for i, it in enumerate(items) if i not in out]
        keep = origin if origin in {h for h, _ in rest} else rest[0][0]
        try:
            reg, residuals = fit_registration(orientation, rest, keep)
        except ValueError:  # all left in one row or column
            continue
        fitted = iter(residuals)
        every = [Residual(h, at, reg.hex_to_image(h)) if i in out else next(fitted) for i, (h, at) in enumerate(items)]
        fit = Calibration(reg, every, tuple(items[i][0] for i in out))
        if all(fit.off(every[i]) for i in out) and not any(fit.off(r) for r in residuals):
            found.append(fit)
            if len(found) > 1:
                return None
    return found[0] if found else None


def residual_lines(m: Map, cal: Calibration) -> list[str]:
    out = []
    others = len(cal.residuals) - len(cal.outliers)
    for r in cal.residuals:
        flag = "  <-- off by more than 5% of a hex" if cal.off(r) else ""
        fitted = f"fitted ({r.fitted[0]:.2f}, {r.fitted[1]:.2f})"
        if r.hex in cal.outliers:
            fitted = f"where the other {others} put it ({r.fitted[0]:.2f}, {r.fitted[1]:.2f})"
        out.append(
            f"  {m.grid.hex_to_label(r.hex)}: read ({r.measured[0]:g}, {r.measured[1]:g}), {fitted}, "
            f"residual {r.distance:.2f} px{flag}"
        )
    return out


def labels(m: Map, hexes) -> str:
    return " and ".join(m.grid.hex_to_label(h) for h in hexes)


def verdict(m: Map, cal: Calibration) -> str | None:
    """What to do about the flagged points (None when every point fits)."""
    if cal.outliers:
        named, n = labels(m, cal.outliers), len(cal.outliers)
        return (
            f"{named} {'is the outlier' if n == 1 else 'are the outliers'}: the other "
            f"{len(cal.residuals) - n} points fit within 5% of a hex without {'it' if n == 1 else 'them'}, "
            f"and the registration is fitted from them; re-read {named} or check {'its hex id' if n == 1 else 'their hex ids'}"
        )
    flagged = cal.flagged
    if not flagged:
        return None
    return (
        f"points {', '.join(m.grid.hex_to_label(r.hex) for r in flagged)} are off by more than 5% of a hex and "
        f"no {MAX_LEFT_OUT} or fewer points explain it (leaving them out in turn): re-read them or check their "
        "hex ids, and give more points far apart"
    )


def registration_fields(m: Map, reg: Registration) -> dict[str, str]:
    """The registration keys of `art:` as YAML values (image and points stay as they are)."""
    return {
        "hex_size": f"{reg.hex_px:.3f}",
        "origin": f"{{hex: {json.dumps(m.grid.hex_to_label(reg.origin_hex))}, x: {reg.origin[0]:.3f}, "
        f"y: {reg.origin[1]:.3f}}}",
        "stretch": f"[{reg.stretch[0]:.5f}, {reg.stretch[1]:.5f}]",
        "rotation": f"{reg.rotation:.4f}",
    }


def registration_yaml(m: Map, reg: Registration) -> str:
    """The registration keys of `art:`, as lines to paste (`calibrate --write` puts them in the file)."""
    return "\n".join(f"  {k}: {v}" for k, v in registration_fields(m, reg).items())
