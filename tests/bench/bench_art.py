"""`make bench` section: a 10,000 x 8,000 px painted map (JPEG) in the module and the tiled print.

The art is generated here (textured paper and a turned, stretched grid of 94 x 66 hexes, 120 px
across the flats) into a one-map game; the measured process loads and validates the game, builds
the VASSAL module and the Letter tiled PDF at 150 dpi, from nothing (a new output folder and image cache
each run). Target: < 20 s and < 1.5 GB peak. Printed as median (min-max) of `repeat(1)` runs (`REPEAT=N`).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ART_SIZE = (10_000, 8_000)
COLUMNS, ROWS = (
    80,
    60,
)  # 4,800 hexes: under the pixel budget at 150 px per hex (HW-SIZE-002), the art wider than the grid

SCRIPT = """
import sys
from pathlib import Path
from authoring.load import discover, load_game
from authoring.render.print.tiles import write_tiled_pdfs
from authoring.pipeline.module import write_module as build_module
from authoring.workers import Workers
result = load_game(discover(Path(sys.argv[1]))[0])
assert result.ok, [str(d) for d in result.diagnostics][:3]
out = Path(sys.argv[2])
build_module(result.game, out, cache_dir=out / "cache")
write_tiled_pdfs(result.game, out, paper="letter", dpi=150, workers=Workers(1))
"""

GAME = """kind: game
id: bigart
name: Big painted map
sides:
  - {id: red, name: Red, color: "#c04040"}
  - {id: blue, name: Blue, color: "#4060c0"}
terrain:
  - {id: clear, name: Clear, color: "#e8e4c9"}
unit_types:
  - {id: infantry, name: Infantry, symbol: infantry}
values:
  - {id: attack, name: Attack}
strength_states:
  - {id: full, name: Full strength}
counter_size: 0.625in
"""

SCENARIO = """kind: scenario
game: bigart
id: meeting
name: Meeting engagement
maps: [main]
turns: [{turn: 1}]
setup:
  red: [{hex: "0101", units: [r1]}, {hex: "4733", units: [r2]}]
  blue: [{hex: "8060", units: [b1]}]
"""

COUNTERS = """kind: counters
game: bigart
counters:
  - {id: r1, side: red, type: infantry, faces: [{state: full, values: {attack: 4}}]}
  - {id: r2, side: red, type: infantry, faces: [{state: full, values: {attack: 4}}]}
  - {id: b1, side: blue, type: infantry, faces: [{state: full, values: {attack: 5}}]}
"""


def make_game(root: Path) -> Path:
    """A one-map game whose map is a 10,000 x 8,000 px JPEG with a registered, turned grid."""
    import numpy as np
    from PIL import Image, ImageDraw

    from authoring.hexgrid import GridSpec, MapGrid
    from authoring.hexgrid.registration import Registration

    for folder in ("scenarios/bigart", "maps/bigart/art", "counters/bigart"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    grid = MapGrid(GridSpec("flat", COLUMNS, ROWS))
    reg = Registration("flat", 118.0, grid.label_to_hex("0101"), (110.0, 140.0), (1.004, 1.0), 0.4)
    rng = np.random.default_rng(14)
    small = rng.integers(180, 230, (ART_SIZE[1] // 50, ART_SIZE[0] // 50, 3), dtype=np.uint8)
    image = Image.fromarray(small, "RGB").resize(ART_SIZE, Image.Resampling.BILINEAR)
    draw = ImageDraw.Draw(image)
    for h in grid.hexes:
        corners = reg.corners(h)
        draw.line(corners + corners[:1], fill=(90, 70, 50), width=2)
    image.save(root / "maps/bigart/art/big.jpg", quality=85)
    (root / "scenarios/bigart/game.yaml").write_text(GAME)
    (root / "scenarios/bigart/meeting.yaml").write_text(SCENARIO)
    (root / "counters/bigart/counters.yaml").write_text(COUNTERS)
    (root / "maps/bigart/main.yaml").write_text(
        "kind: map\ngame: bigart\nid: main\nname: Big painted map\n"
        f"grid: {{orientation: flat, columns: {COLUMNS}, rows: {ROWS}, hex_size: 0.75in}}\n"
        f'art: {{image: art/big.jpg, hex_size: {reg.hex_px}, origin: {{hex: "0101", x: {reg.origin[0]}, '
        f"y: {reg.origin[1]}}}, stretch: [{reg.stretch[0]}, {reg.stretch[1]}], rotation: {reg.rotation}}}\n"
    )
    return root


def run(synth_root: Path, tmp: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from benchlib import repeat, spread
    from measure import measure

    root = make_game(Path(tmp) / "bigart")
    walls, peaks = [], []
    for k in range(repeat(1)):
        out = Path(tmp) / f"bench-art-{k}"  # a new folder: the image cache inside it starts empty
        out.mkdir()
        wall, peak = measure([sys.executable, "-c", SCRIPT, str(root), str(out)])
        walls.append(wall)
        peaks.append(peak)
        shutil.rmtree(out, ignore_errors=True)
    print(
        f"map art 10,000 x 8,000 px JPEG: module + Letter tiled PDF, median (min-max) of {len(walls)} runs "
        f"(target: < 20 s, peak < 1.5 GB)"
    )
    print(
        f"  {COLUMNS}x{ROWS} hexes, turned 0.4 deg: {spread(walls, digits=1)}   peak {spread(peaks, 'MB', digits=0)} "
        f"(PSS over its processes)"
    )


if __name__ == "__main__":
    from benchlib import scratch

    with scratch() as tmp:
        run(tmp, tmp)
