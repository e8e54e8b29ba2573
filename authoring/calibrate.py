"""Map art registration from the designer's points (`hexwright calibrate`) and its proof image.

`calibrate` fits the registration (`hexgrid.registration.fit_registration`) to the hex centres a
designer reads off the art: those under `art.points` in the map file plus any given on the
command line. Each point's residual is reported; one off by more than 5% of a hex is flagged
(a misread point or a wrong hex id). `registration_yaml` is the block to paste into the map file.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from authoring.diagnostics import Diagnostic, Loc, error
from authoring.hexgrid import Hex
from authoring.hexgrid.registration import Registration, Residual, fit_registration
from authoring.load import LoadResult
from authoring.load.resolve_art import POINT_TOLERANCE
from authoring.model import Map


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
    head = p.read_text(encoding="utf-8", errors="replace")[:4000]
    return any(line.strip() == "kind: map" for line in head.splitlines())


def find_map(path: Path) -> MapTarget:
    """Load the game that holds the map file `path`, and that map."""
    from authoring.load import game_for_path, load_game
    from authoring.load.project import display
    _, games = game_for_path(path)
    files = next((g for g in games if path.resolve() in [p.resolve() for p in g.maps]), None)
    if files is None:
        return MapTarget(LoadResult(None), None, (error("HW-CLI-001", f"{display(path)} is not a map file of any game",
                                                        Loc(display(path)), help="map files live in maps/<game>/"),))
    result = load_game(files)
    mine = [d for d in result.diagnostics if d.loc and Path(d.loc.file).resolve() == path.resolve()]
    found = None
    if result.game is not None:
        found = next((m for m in result.game.maps.values() if Path(m.path).resolve() == path.resolve()), None)
    return MapTarget(result, found, tuple(mine))


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
    return h, (x, y)


def calibrate(m: Map, extra: list[tuple[Hex, tuple[float, float]]]) -> tuple[Registration, list[Residual]]:
    """Fit the registration to the map file's points and `extra` (later points for the same hex win)."""
    points = {p.hex: p.at for p in (m.art.points if m.art else ())}
    points.update(dict(extra))
    origin = next(iter(points), None)
    return fit_registration(m.grid.spec.orientation, list(points.items()), origin)


def residual_lines(m: Map, reg: Registration, residuals: list[Residual]) -> list[str]:
    out = []
    for r in residuals:
        flag = "  <-- off by more than 5% of a hex" if r.distance > POINT_TOLERANCE * reg.hex_px else ""
        out.append(f"  {m.grid.hex_to_label(r.hex)}: read ({r.measured[0]:g}, {r.measured[1]:g}), fitted "
                   f"({r.fitted[0]:.2f}, {r.fitted[1]:.2f}), residual {r.distance:.2f} px{flag}")
    return out


def registration_yaml(m: Map, reg: Registration) -> str:
    """The registration keys of `art:`, ready to paste (image and points stay as they are)."""
    return "\n".join([
        f"  hex_size: {reg.hex_px:.3f}",
        f"  origin: {{hex: \"{m.grid.hex_to_label(reg.origin_hex)}\", x: {reg.origin[0]:.3f}, y: {reg.origin[1]:.3f}}}",
        f"  stretch: [{reg.stretch[0]:.5f}, {reg.stretch[1]:.5f}]",
        f"  rotation: {reg.rotation:.4f}",
    ])
