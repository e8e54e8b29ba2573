"""Generated games, as hypothesis strategies: the loader tests' mini game with its map, counter art, rule
table and counter mix drawn from the shapes that once validated and then failed to build (issue 33, point 3):
counter art of every aspect, SVG in several encodings, with nested `<use>` and with embedded pictures, tables of many or wide
columns and long cells, painted maps longer than an image side or whose art reaches far past their hexes,
counter mixes past the limit.

A shape either stays small enough to build every stage in a few seconds or is past a limit, where
`validate` must refuse it quickly; sizes in between (a 400 x 5 hex painted map) would build for minutes
and are left to `HW_FUZZ_LARGE=1`.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

MINI = Path(__file__).resolve().parents[2] / "tests" / "load" / "mini"
LARGE = bool(os.environ.get("HW_FUZZ_LARGE"))


@dataclass(frozen=True)
class Art:
    counter: str  # red-1 or blue-1
    field: str  # image (full face) or picture (the picture slot)
    kind: str  # png or svg
    size: tuple[int, int]
    encoding: str = "utf-8"
    fan: tuple[int, int] = (0, 0)  # nested groups of <use>: (levels, uses per group)
    loop: bool = False  # a <use> naming its own group
    embed: tuple[int, int] = (0, 0)  # a PNG picture inside the SVG (a data: URI)


@dataclass(frozen=True)
class GameSpec:
    orientation: str
    columns: int
    rows: int
    painted: bool
    art: tuple[Art, ...]
    table: tuple[int, int, int, int]  # columns, rows, header length, cell length
    mix: tuple[int, int]  # extra counters, quantity of each
    spread: int = 0  # painted art reaching this many px past its hexes (at 10 px a hex)


def _mostly(good: st.SearchStrategy, bad: st.SearchStrategy, one_in: int = 8) -> st.SearchStrategy:
    """`bad` one time in `one_in`, else `good`: most games should build, so that the stages are reached."""
    return st.integers(0, one_in - 1).flatmap(
        lambda n: bad if n == one_in // 2 else good
    )  # not an end: hypothesis favours those


_SMALL_GRID = st.tuples(st.integers(5, 12), st.integers(5, 10), st.booleans())
_BIG_GRID = st.sampled_from([(999, 5, True), (5, 999, True)] + ([(400, 5, True), (300, 5, False)] if LARGE else []))

_art = st.builds(
    Art,
    counter=st.sampled_from(["red-1", "blue-1"]),
    field=st.sampled_from(["image", "picture"]),
    kind=st.sampled_from(["png", "svg"]),
    size=_mostly(
        st.sampled_from([(100, 100), (90, 100), (400, 100), (100, 400)]),
        st.sampled_from([(401, 100), (120_000, 1), (1, 3000), (100_000, 1), (5000, 3300)]),
        4,
    ),
    encoding=st.sampled_from(["utf-8", "utf-16", "iso-8859-1", "utf-8-sig"]),
    fan=_mostly(st.just((0, 0)), st.sampled_from([(3, 5), (4, 10), (10, 10), (3, 40)]), 3),
    loop=st.integers(0, 7).map(lambda n: n == 3),
    embed=_mostly(st.sampled_from([(0, 0), (0, 0), (64, 64)]), st.sampled_from([(5000, 5000), (20_000, 20_000)]), 6),
)

_table = _mostly(
    st.tuples(st.integers(1, 8), st.integers(1, 30), st.integers(1, 20), st.integers(0, 60)),
    st.one_of(
        st.tuples(st.integers(1, 20), st.integers(1, 30), st.integers(1, 40), st.integers(0, 200)),
        st.sampled_from([(20, 3, 22, 1), (40, 500, 3, 200), (12, 500, 3, 200), (15, 2, 3, 200)]),
    ),
    4,
)

_mix = _mostly(st.tuples(st.integers(0, 20), st.integers(1, 3)), st.just((11, 1000)))


@st.composite
def games(draw) -> GameSpec:
    columns, rows, painted = draw(_mostly(_SMALL_GRID, _BIG_GRID))
    return GameSpec(
        draw(st.sampled_from(["flat", "pointy"])),
        columns,
        rows,
        painted,
        tuple(draw(st.lists(_art, max_size=2, unique_by=lambda a: (a.counter, a.field)))),
        draw(_table),
        draw(_mix),
        draw(_mostly(st.just(0), st.sampled_from([300, 3000]))),
    )


def write_game(spec: GameSpec, project: Path) -> Path:
    """The mini game in `project` (a new folder), changed as `spec` says."""
    for part in ("scenarios", "maps", "counters"):
        shutil.copytree(MINI / part / "mini", project / part / "mini")
    _map(spec, project / "maps" / "mini")
    for art in spec.art:
        _art_file(art, project / "counters" / "mini")
    _table_file(spec.table, project / "scenarios" / "mini" / "tables.yaml")
    _mix_file(spec.mix, project / "counters" / "mini" / "more.csv")
    return project


def _map(spec: GameSpec, folder: Path) -> None:
    board = folder / "board.yaml"
    text = board.read_text().replace(
        "  orientation: flat\n  columns: 6\n  rows: 5\n",
        f"  orientation: {spec.orientation}\n  columns: {spec.columns}\n  rows: {spec.rows}\n",
    )
    if spec.painted:
        from PIL import Image

        across, down = (spec.columns, spec.rows) if spec.orientation == "pointy" else (spec.rows, spec.columns)
        wide, tall = (40 + 10 * across, 90 + int(8.7 * down))
        size = (wide, tall) if spec.orientation == "pointy" else (tall + 50, wide)
        size = (size[0] + spec.spread, size[1] + spec.spread)
        Image.new("L", size, 180).save(folder / "art.png")
        text += 'art:\n  image: art.png\n  hex_size: 10\n  origin: {hex: "0101", x: 15, y: 15}\n'
    board.write_text(text)


def _art_file(art: Art, folder: Path) -> None:
    name = f"{art.counter}-{art.field}.{art.kind}"
    if art.kind == "png":
        from PIL import Image

        Image.new("RGB", art.size, (180, 40, 40)).save(folder / name)
    else:
        (folder / name).write_bytes(_svg(art))
    units = folder / "units.yaml"
    units.write_text(
        units.read_text().replace(f"  - id: {art.counter}\n", f"  - id: {art.counter}\n    {art.field}: {name}\n", 1)
    )


def _svg(art: Art) -> bytes:
    levels, width = art.fan
    body = [f'<title>Armée</title><rect width="{art.size[0]}" height="{art.size[1]}" fill="#2050a0"/>']
    if levels:
        body.append('<defs><rect id="a0" width="1" height="1"/>')
        body += [f'<g id="a{i}">' + f'<use xlink:href="#a{i - 1}"/>' * width + "</g>" for i in range(1, levels + 1)]
        body.append(f'</defs><use xlink:href="#a{levels}"/>')
    if art.loop:
        body.append('<g id="loop"><use xlink:href="#loop"/></g>')
    if art.embed != (0, 0):
        import base64
        import io

        from PIL import Image

        buffer = io.BytesIO()
        Image.new("L", art.embed, 128).save(buffer, "PNG")
        body.append(
            f'<image width="50" height="50" xlink:href="data:image/png;base64,'
            f'{base64.b64encode(buffer.getvalue()).decode()}"/>'
        )
    declare = "" if art.encoding == "utf-8-sig" else f'<?xml version="1.0" encoding="{art.encoding}"?>\n'
    text = (
        f'{declare}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{art.size[0]}" height="{art.size[1]}">{"".join(body)}</svg>\n'
    )
    return text.encode(art.encoding)


def _table_file(shape: tuple[int, int, int, int], path: Path) -> None:
    columns, rows, header, cell = shape
    heads = [(f"C{i} " + "heading " * 5)[: max(2, header)] + str(i) for i in range(columns)]
    text = ("word " * 40)[:cell]
    body = [[str(r + 1)] + [text] * (columns - 1) for r in range(rows)]
    path.write_text(
        "kind: tables\ngame: mini\ntables:\n  - id: crt\n    name: Combat Results\n"
        f"    columns: {json.dumps(heads)}\n    rows:\n" + "".join(f"      - {json.dumps(r)}\n" for r in body),
        encoding="utf-8",
    )


def _mix_file(mix: tuple[int, int], path: Path) -> None:
    extra, quantity = mix
    lines = path.read_text().splitlines()
    lines += [f"g{i},red,infantry,division,{i},{quantity},5,4,2,4" for i in range(extra)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
