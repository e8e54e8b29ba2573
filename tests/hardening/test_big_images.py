"""Point 10 of issue 47 (small things): an image over the pixel limit is one finding that gives its size and
the limit. A 120-240 Mpx map printed Pillow's DecompressionBombWarning, with Pillow's path, before it; a
60,000 x 60,000 px PNG was called "not a PNG, JPEG or SVG image". Run as a real command: the warning went
to its standard error."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from hw_support import run
from test_bounded import _edit


def _png_header(width: int, height: int) -> bytes:
    """A PNG that declares `width` x `height` (8-bit grey) and holds one tiny compressed row: a file of a
    few bytes whose header is all the loader reads before it refuses the size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b"")


def _map_art(project: Path, width: int, height: int) -> None:
    (project / "maps/mini/art.png").write_bytes(_png_header(width, height))
    board = project / "maps/mini/board.yaml"
    board.write_text(
        board.read_text() + 'art:\n  image: art.png\n  hex_size: 10\n  origin: {hex: "0101", x: 15, y: 15}\n'
    )


def _counter_art(project: Path, width: int, height: int) -> None:
    (project / "counters/mini/red.png").write_bytes(_png_header(width, height))
    _edit(project, "counters/mini/units.yaml", "  - id: red-1\n", "  - id: red-1\n    image: red.png\n")


@pytest.mark.parametrize(
    "place, width, height",
    [
        (_map_art, 12_000, 12_000),  # 144 Mpx: Pillow warned (past 120 Mpx, the limit it was given)
        (_map_art, 15_000, 15_000),  # 225 Mpx
        (_map_art, 60_000, 60_000),  # 3.6 Gpx: Pillow refused it, and the loader said "not a PNG"
        (_counter_art, 60_000, 60_000),
    ],
)
def test_an_image_past_the_pixel_limit_is_one_finding_with_its_size(mini_project: Path, place, width: int, height: int):
    place(mini_project, width, height)
    r = run("validate", str(mini_project), "--format", "concise", timeout=120)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "Warning" not in out and "PIL" not in out and "Traceback" not in out, out
    assert "not a PNG" not in out, out
    name = "red.png" if place is _counter_art else "art.png"
    expected = f"error[HW-ART-011]: '{name}' is {width:,} x {height:,} px, over the limit of 120,000,000 pixels"
    assert expected in out, out
    assert out.count("error[") == 1, out
