"""`make bench` section: the synthetic game's three 60x45 maps at 150 px per hex, and their tiled PDFs at the
resolution `build maps` uses (`authoring.build.TILE_DPI`, 300 ppi)."""
from __future__ import annotations

import sys
from pathlib import Path

SCRIPT = """
import sys
from pathlib import Path
from authoring.build import TILE_DPI
from authoring.load import discover, load_game
from authoring.render.maps.draw import write_map_pngs
from authoring.render.print.tiles import write_tiled_pdfs
game = load_game(discover(Path(sys.argv[1]))[0]).game
out = Path(sys.argv[2])
write_map_pngs(game, out, 150)
write_tiled_pdfs(game, out, paper="letter", dpi=TILE_DPI)
"""


def run(synth_root: Path, tmp: Path) -> None:
    out = Path(tmp) / "bench-maps"
    out.mkdir(exist_ok=True)
    sys.path.insert(0, str(Path(__file__).parent))
    from measure import measure
    wall, peak = measure([sys.executable, "-c", SCRIPT, str(synth_root), str(out)])
    print("map images + tiled PDFs (target: < 20 s, peak < 1.5 GB)")
    print(f"  synthetic 3 maps 60x45 at 150 px/hex + Letter tiles at 300 ppi: {wall:6.1f} s   "
          f"largest process peak {peak:6.0f} MiB")
