"""`make bench` section: what `build maps` writes for the synthetic game: its three 60x45 maps at 150 px per
hex, and their Letter and A4 tiled PDFs at `authoring.build.TILE_DPI` (300 ppi), the same call as the CLI."""
from __future__ import annotations

import sys
from pathlib import Path

SCRIPT = """
import sys
from pathlib import Path
from authoring.build import MAP_PX_PER_HEX, TILE_DPI
from authoring.load import discover, load_game
from authoring.render.print.tiles import write_map_files
game = load_game(discover(Path(sys.argv[1]))[0]).game
write_map_files(game, Path(sys.argv[2]), MAP_PX_PER_HEX, ("letter", "a4"), TILE_DPI)
"""


def run(synth_root: Path, tmp: Path) -> None:
    out = Path(tmp) / "bench-maps"
    out.mkdir(exist_ok=True)
    sys.path.insert(0, str(Path(__file__).parent))
    from measure import measure
    wall, peak = measure([sys.executable, "-c", SCRIPT, str(synth_root), str(out)])
    print("map images + tiled PDFs (target: < 20 s, peak < 1.5 GB)")
    print(f"  synthetic 3 maps 60x45 at 150 px/hex + Letter and A4 tiles at 300 ppi: {wall:6.1f} s   "
          f"largest process peak {peak:6.0f} MiB")
