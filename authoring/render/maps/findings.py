"""Findings on the map: a scenario's set-up drawn on its maps with every finding marked and numbered.

Numbers follow `sorted_diagnostics`, the order of the text report, so finding 3 on the image
is finding 3 in the terminal. Findings without a hex are listed in the side panel only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

from PIL import Image, ImageDraw

from authoring.diagnostics import sorted_diagnostics
from authoring.hexgrid import Hex
from authoring.model import Game, Scenario
from authoring.render.counter_art import CounterMemo, counter_image
from authoring.render.maps.draw import map_scene, render_scene
from authoring.render.maps.raster import Bitmap, Disc, Layer, Line, Text
from authoring.render.maps.scene import Scene, hex_centre
from authoring.render.shared.canvas import wrap
from authoring.render.shared.fonts import font
from authoring.render.shared.pdf import save_png

SEVERITY_COLOURS = MappingProxyType({"error": (200, 30, 30), "warning": (230, 130, 0), "info": (40, 110, 200)})
COUNTER_SHARE = 0.5
"""Counter edge as a fraction of the hex width."""


def _severity(d) -> str:
    sev = getattr(d, "severity", "error")
    return getattr(sev, "value", str(sev))


def hex_of(scene: Scene, label: str) -> Hex | None:
    """The drawn hex a printed id names, on any of the scene's maps."""
    for m in scene.maps:
        h = m.grid.label_to_hex(str(label))
        if h is not None:
            return h
    return None


def counter_layer(game: Game, scene: Scene, scenario: Scenario) -> Layer:
    """Small counter images on their set-up hexes, stacks offset diagonally."""
    layer = Layer(False)
    size = max(8, int(scene.f * COUNTER_SHARE))
    stacks: dict[Hex, int] = {}
    memo = CounterMemo()  # what the faces drawn here share
    for p in scenario.setup:
        if p.hex is None or p.hex not in scene.cells:
            continue
        x, y = hex_centre(scene, p.hex)
        for uid in p.units:
            counter = game.counters.get(uid)
            if counter is None:
                continue
            k = stacks.get(p.hex, 0)
            stacks[p.hex] = k + 1
            img = counter_image(game, counter, p.state, size, memo=memo).convert("RGBA")
            off = k * 0.07 * scene.f
            layer.add(Bitmap(img, x - img.width / 2 + off, y - img.height / 2 + 0.04 * scene.f - off))
    return layer


def finding_layers(scene: Scene, diags: Sequence) -> tuple[Layer, Layer]:
    """Rings around hexes with findings and numbered badges (vector, then text)."""
    rings, badges = Layer(True), Layer(False)
    f = scene.f
    per_hex: dict[Hex, int] = {}
    for number, d in enumerate(diags, 1):
        h = hex_of(scene, d.hex) if getattr(d, "hex", "") else None
        if h is None:
            continue
        colour = SEVERITY_COLOURS.get(_severity(d), SEVERITY_COLOURS["error"])
        k = per_hex.get(h, 0)
        per_hex[h] = k + 1
        x, y = hex_centre(scene, h)
        if k == 0:
            ring = [(x + (cx - x) * 0.93, y + (cy - y) * 0.93) for cx, cy in scene.layout.corners(h)]
            rings.add(Line(tuple(ring + ring[:1]), colour, 0.06 * f))
        bx, by = x + 0.42 * f - k * 0.2 * f, y - 0.36 * f
        rings.add(Disc(bx, by, 0.11 * f, colour, (255, 255, 255), 0.02 * f))
        badges.add(Text(str(number), bx, by, 0.13 * f if number < 100 else 0.1 * f, (255, 255, 255), bold=True))
    return rings, badges


def _panel(diags: Sequence, scene: Scene, height: int) -> Image.Image:
    """The numbered list of findings, beside the map."""
    width = max(520, int(4 * scene.f))
    size = max(14, int(0.13 * scene.f))
    panel = Image.new("RGB", (width, height), (255, 255, 255))
    d = ImageDraw.Draw(panel)
    y = 20
    d.text(
        (20, y), f"{len(diags)} finding{'s' if len(diags) != 1 else ''}", fill=(30, 30, 30), font=font(size * 1.6, True)
    )
    y += int(size * 2.6)
    for number, diag in enumerate(diags, 1):
        colour = SEVERITY_COLOURS.get(_severity(diag), SEVERITY_COLOURS["error"])
        where = f" [{diag.hex}]" if getattr(diag, "hex", "") else ""
        lines = wrap(f"{number}. {diag.code}{where}: {diag.message}", size, width - 40)
        for k, line in enumerate(lines):
            if y > height - size * 2:
                d.text((20, y), "...", fill=(30, 30, 30), font=font(size))
                return panel
            d.text((20, y), line, fill=colour if k == 0 else (30, 30, 30), font=font(size, k == 0))
            y += int(size * 1.35)
        y += int(size * 0.5)
    return panel


def findings_image(
    game: Game, scenario: Scenario, diagnostics: Sequence, out_path: Path | None = None, px_per_hex: float = 120
) -> Image.Image:
    """The scenario's set-up on its maps with numbered findings; saved as PNG at ``out_path`` when given."""
    diags = sorted_diagnostics(diagnostics)
    maps = [game.maps[m] for m in scenario.maps if m in game.maps] or [game.maps[k] for k in sorted(game.maps)]
    scene = map_scene(game, maps, px_per_hex, f"{scenario.name}: set-up and findings")
    rings, badges = finding_layers(scene, diags)
    image = render_scene(scene, [counter_layer(game, scene, scenario), rings, badges])
    panel = _panel(diags, scene, image.height)
    out = Image.new("RGB", (image.width + panel.width, image.height), (255, 255, 255))
    out.paste(image, (0, 0))
    out.paste(panel, (image.width, 0))
    if out_path is not None:
        save_png(out, Path(out_path))
    return out
