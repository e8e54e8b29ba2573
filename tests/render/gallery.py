"""Contact sheets of every counter face of a bundled game, for looking at as a player would.

    .venv/bin/python tests/render/gallery.py OUT_DIR [GAME ...]

writes OUT_DIR/<game>-faces-<n>.png: every face at 300 dpi (the game's counter size), a counter's
faces side by side, its id underneath. Used for the issue's before/after images under build/.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from authoring.load import discover, load_game  # noqa: E402
from authoring.render.counter_art import back_state, counter_image  # noqa: E402
from authoring.render.shared.fonts import font  # noqa: E402

PER_PAGE = 60
COLUMNS = 6


def game_by_id(game_id: str):
    files = next(f for f in discover(ROOT) if f.id == game_id)
    return load_game(files).game


def contact_sheets(game, out: Path) -> list[Path]:
    size = round(game.counter_size_in * 300)
    pad, label = size // 6, 28
    counters = sorted(game.counters.values(), key=lambda c: c.id)
    written = []
    for page, start in enumerate(range(0, len(counters), PER_PAGE)):
        chunk = counters[start : start + PER_PAGE]
        cell_w, cell_h = 2 * size + 3 * pad, size + label + pad
        rows = -(-len(chunk) // COLUMNS)
        sheet = Image.new("RGB", (COLUMNS * cell_w, rows * cell_h), "white")
        draw = ImageDraw.Draw(sheet)
        for i, counter in enumerate(chunk):
            x, y = (i % COLUMNS) * cell_w + pad, (i // COLUMNS) * cell_h + pad // 2
            back = back_state(game, counter)
            for j, state in enumerate([counter.faces[0].state] + ([back] if back else [])):
                sheet.paste(counter_image(game, counter, state, size), (x + j * (size + pad), y))
            draw.text((x, y + size + 4), counter.id, fill="black", font=font(20))
        path = out / f"{game.id}-faces-{page + 1}.png"
        sheet.save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for game_id in sys.argv[2:] or ["bfm", "1941", "typhoon"]:
        for p in contact_sheets(game_by_id(game_id), out):
            print(p)
