"""The bundled demo game's art (game `bfm-art`), painted in a style that is not hexwright's.

A stand-in for an artist's map and counters: the Battle for Moscow map painted from its own
terrain data with its own palette, textures and lettering, as a slightly turned (0.8 degrees)
and unevenly scaled (1.2% wider than tall) scan, saved as JPEG; plus counter art in SVG, PNG
and JPEG. `TRUE_REGISTRATION` is the ground truth the tests compare the calibration with.

    .venv/bin/python tests/art/demo_art.py      # rewrites the files under maps/ and counters/bfm-art/art

Deterministic (seeded noise), so the committed files are what this script makes.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from authoring.hexgrid import Hex  # noqa: E402
from authoring.hexgrid.registration import Registration  # noqa: E402

GAME = "bfm-art"
MAP_FILE = ROOT / "maps" / GAME / "art" / "moscow-1941.jpg"
COUNTER_DIR = ROOT / "counters" / GAME / "art"
SIZE = (1780, 1520)
TRUE_REGISTRATION = Registration("flat", 118.0, Hex(0, 0), (160.0, 200.0), (1.012, 1.0), 0.8)
"""Hex 0101 is Hex(0, 0) on the bfm map (first column 1, first row 1)."""
CALIBRATION_HEXES = ("0101", "1401", "0110", "1410", "0705", "1103")

PAPER = (226, 211, 170)
FOREST = (52, 96, 58)
RIVER = (64, 110, 160)
RAIL = (60, 40, 30)
LINES = (120, 90, 60)
TOWN = (150, 30, 30)


def _font(size: float, italic: bool = False) -> ImageFont.FreeTypeFont:
    names = ["DejaVuSerif-Italic.ttf" if italic else "DejaVuSerif-Bold.ttf", "DejaVuSans.ttf"]
    for name in names:
        try:
            return ImageFont.truetype(name, max(6, round(size)))
        except OSError:
            continue
    from authoring.render.shared.fonts import font

    return font(size)


def load_map():
    from authoring.load import discover, load_game

    files = next(f for f in discover(ROOT) if f.id == "bfm")
    return load_game(files).game.maps["main"]


def paint_map(m, reg: Registration = TRUE_REGISTRATION, size=SIZE) -> Image.Image:
    """The painted map: textured paper, forests of blobs, towns, rivers, rails, a thin grid and ids."""
    rng = np.random.default_rng(1941)
    noise = rng.normal(0, 1, (size[1] // 8 + 1, size[0] // 8 + 1)).astype(np.float32)
    noise = np.array(Image.fromarray(noise).resize(size, Image.Resampling.BICUBIC))
    base = np.array(PAPER, np.float32)[None, None, :] + noise[..., None] * 7
    image = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(image, "RGBA")
    r = random.Random(7)
    k = reg.hex_px / 88  # feature sizes follow the hex size
    for h, info in m.hexes.items():
        cx, cy = reg.hex_to_image(h)
        if "forest" in info.terrain:
            for _ in range(14):
                a, d = r.uniform(0, 2 * math.pi), r.uniform(0, reg.hex_px * 0.36)
                x, y, s = cx + d * math.cos(a), cy + d * math.sin(a), r.uniform(5 * k, 10 * k)
                draw.ellipse((x - s, y - s, x + s, y + s), fill=FOREST + (170,))
        if "moscow" in info.terrain:
            draw.polygon(reg.corners(h), fill=(190, 120, 110, 160))
    for side in m.hexsides:
        a, b = (reg.corners(side.side.a)[i] for i in _side_corners(side.side.a, side.side.b))
        mx, my = (a[0] + b[0]) / 2 + r.uniform(-3, 3), (a[1] + b[1]) / 2 + r.uniform(-3, 3)
        draw.line((a, (mx, my), b), fill=RIVER + (255,), width=round(5 * k), joint="curve")
    for path in m.paths:
        points = [reg.hex_to_image(h) for h in path.hexes]
        for p, q in zip(points, points[1:]):
            for t in range(0, 10, 2):  # a dashed line
                s0, s1 = t / 10, (t + 1) / 10
                draw.line(
                    (
                        (p[0] + (q[0] - p[0]) * s0, p[1] + (q[1] - p[1]) * s0),
                        (p[0] + (q[0] - p[0]) * s1, p[1] + (q[1] - p[1]) * s1),
                    ),
                    fill=RAIL,
                    width=round(3 * k),
                )
    for h in m.grid.hexes:
        corners = reg.corners(h)
        draw.line(corners + corners[:1], fill=LINES + (150,), width=1)
        x, y = reg.hex_to_image(h)
        draw.text(
            (x, y - reg.hex_px * 0.36),
            m.grid.hex_to_label(h),
            font=_font(reg.hex_px * 0.12, True),
            fill=(70, 50, 30),
            anchor="mm",
        )
        draw.ellipse((x - 2 * k, y - 2 * k, x + 2 * k, y + 2 * k), fill=(70, 50, 30))  # the centre dot artists print
    for h, info in m.hexes.items():
        for f in info.features:
            if f.type == "city":
                x, y = reg.hex_to_image(h)
                draw.rectangle((x - 7 * k, y - 7 * k, x + 7 * k, y + 7 * k), fill=TOWN, outline=(20, 20, 20))
                draw.text((x, y + 20 * k), f.name, font=_font(15 * k), fill=(20, 20, 20), anchor="mm")
    draw.text((size[0] / 2, 40 * k), "MOSCOW 1941", font=_font(38 * k), fill=(90, 30, 20), anchor="mm")
    return image.filter(ImageFilter.GaussianBlur(0.6))


def _side_corners(a: Hex, b: Hex) -> tuple[int, int]:
    d = a.direction_to(b)
    return (d + 4) % 6, (d + 5) % 6


def calibration_points(m, reg: Registration = TRUE_REGISTRATION) -> dict[str, tuple[float, float]]:
    """Hex centres as a designer reads them off the image at 200% zoom: to the nearest half pixel."""
    return {
        label: tuple(round(v * 2) / 2 for v in reg.hex_to_image(m.grid.label_to_hex(label)))
        for label in CALIBRATION_HEXES
    }


# --- counter art ------------------------------------------------------------------------------

STAR_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="80" viewBox="0 0 100 80">
  <rect x="4" y="4" width="92" height="72" rx="6" fill="#f4e7c5" stroke="#5a1f12" stroke-width="4"/>
  <polygon points="50,10 59,33 84,33 64,48 71,72 50,58 29,72 36,48 16,33 41,33"
           fill="#c1272d" stroke="#5a1f12" stroke-width="2"/>
</svg>
"""

TANK_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">
  <rect x="10" y="30" width="100" height="20" rx="10" fill="#2b2b2b"/>
  <rect x="22" y="16" width="62" height="16" rx="3" fill="#3d3d3d"/>
  <rect x="80" y="20" width="38" height="5" fill="#3d3d3d"/>
  <circle cx="24" cy="40" r="6" fill="#777"/><circle cx="44" cy="40" r="6" fill="#777"/>
  <circle cx="64" cy="40" r="6" fill="#777"/><circle cx="84" cy="40" r="6" fill="#777"/>
</svg>
"""


def panzer_face(size: int = 240) -> Image.Image:
    """A painted full-face background: field-grey gradient, a cross emblem, a tank silhouette."""
    y = np.linspace(0, 1, size, dtype=np.float32)[:, None]
    grey = np.stack([120 + 40 * y, 135 + 35 * y, 150 + 20 * y], axis=-1) * np.ones((1, size, 1), np.float32)
    image = Image.fromarray(grey.astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(image)
    s = size / 240
    draw.polygon([(60 * s, 150 * s), (190 * s, 150 * s), (205 * s, 170 * s), (45 * s, 170 * s)], fill=(40, 45, 50))
    draw.rectangle((80 * s, 125 * s, 160 * s, 150 * s), fill=(55, 60, 65))
    draw.rectangle((150 * s, 132 * s, 215 * s, 138 * s), fill=(55, 60, 65))
    draw.line(((20 * s, 20 * s), (60 * s, 60 * s)), fill=(20, 20, 20), width=round(10 * s))
    draw.line(((60 * s, 20 * s), (20 * s, 60 * s)), fill=(20, 20, 20), width=round(10 * s))
    return image


def guards_face(size: int = 220) -> Image.Image:
    """A painted JPEG face for the 1st Shock Army: red gradient and gold border."""
    x = np.linspace(0, 1, size, dtype=np.float32)[None, :]
    red = np.stack([150 + 60 * x, 40 + 20 * x, 30 + 10 * x], axis=-1) * np.ones((size, 1, 1), np.float32)
    image = Image.fromarray(red.astype(np.uint8), "RGB")
    ImageDraw.Draw(image).rectangle((6, 6, size - 7, size - 7), outline=(220, 180, 60), width=6)
    return image


def write_art(root: Path = ROOT) -> list[Path]:
    """Every art file of the demo game, under `root` (the repository by default)."""
    m = load_map()
    map_file = root / MAP_FILE.relative_to(ROOT)
    counters = root / COUNTER_DIR.relative_to(ROOT)
    map_file.parent.mkdir(parents=True, exist_ok=True)
    counters.mkdir(parents=True, exist_ok=True)
    paint_map(m).save(map_file, "JPEG", quality=85, optimize=True)
    (counters / "red-star.svg").write_text(STAR_SVG)
    (counters / "panzer.svg").write_text(TANK_SVG)
    panzer_face().save(counters / "panzer-face.png", optimize=True)
    guards_face().save(counters / "shock-face.jpg", quality=90)
    return [map_file, *(counters / n for n in ("red-star.svg", "panzer.svg", "panzer-face.png", "shock-face.jpg"))]


def main() -> None:
    write_art()
    print("points:")
    for label, (x, y) in calibration_points(load_map()).items():
        print(f'    "{label}": [{x:g}, {y:g}]')


if __name__ == "__main__":
    main()
