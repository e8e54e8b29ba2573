"""Generated games, as hypothesis strategies: the loader tests' mini game with its map, counter art, rule
table and counter mix drawn from the shapes that once validated and then failed to build (issue 33, point 3):
counter art of every aspect, SVG in several encodings, with nested `<use>` and with embedded pictures, tables of many or wide
columns and long cells, painted maps longer than an image side or whose art reaches far past their hexes,
counter mixes past the limit; and from issue 47, point 6: SVG with DOCTYPE entities (declared inside, or
outside the file) in several encodings and with chains of filter primitives, PNG and JPEG art cut short, a
game's combat table (no rows, repeated, falling or 0 odds columns, a repeated die roll, a strength with a
mark, two dice of one name), and many single-unit reinforcements on one turn.

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
    kind: str  # png, jpg or svg
    size: tuple[int, int]
    encoding: str = "utf-8"
    fan: tuple[int, int] = (0, 0)  # nested groups of <use>: (levels, uses per group)
    loop: bool = False  # a <use> naming its own group
    embed: tuple[int, int] = (0, 0)  # a PNG picture inside the SVG (a data: URI)
    entity: str = ""  # "internal": a DOCTYPE entity the text uses; "external": one declared outside the file
    filters: tuple[int, int] = (0, 0)  # a chain of feMorphology primitives: (count, radius)
    cut: int = 0  # a PNG or JPEG cut short to this many bytes (0: whole)


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
    combat: str = ""  # a combat section and its CRT, sound ("ok") or broken one way (`COMBAT`)
    arrivals: int = 0  # single-unit reinforcements arriving on turn 2


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
    kind=st.sampled_from(["png", "svg", "jpg"]),
    size=_mostly(
        st.sampled_from([(100, 100), (90, 100), (400, 100), (100, 400)]),
        st.sampled_from([(401, 100), (120_000, 1), (1, 3000), (100_000, 1), (5000, 3300)]),
        4,
    ),
    encoding=st.sampled_from(["utf-8", "utf-16", "iso-8859-1", "utf-8-sig"]),
    fan=_mostly(st.just((0, 0)), st.sampled_from([(3, 5), (4, 10), (10, 10), (3, 40)]), 3),
    loop=st.integers(0, 7).map(lambda n: n == 3),
    embed=_mostly(st.sampled_from([(0, 0), (0, 0), (64, 64)]), st.sampled_from([(5000, 5000), (20_000, 20_000)]), 6),
    entity=st.sampled_from(["", "", "internal", "external"]),
    filters=_mostly(st.sampled_from([(0, 0), (2, 1), (1, 3)]), st.sampled_from([(50, 50), (300, 0), (5, 8)]), 4),
    cut=_mostly(st.just(0), st.sampled_from([20, 100, 600]), 4),
)

COMBAT = (
    "no-rows",
    "repeated-column",
    "zero-column",
    "falling-column",
    "repeated-roll",
    "mark-strength",
    "two-d6",
)
"""The ways a combat section is broken (each a located error of `validate`)."""
_combat = _mostly(st.sampled_from(["", "ok"]), st.sampled_from(COMBAT), 3)
_arrivals = _mostly(st.sampled_from([0, 0, 5]), st.sampled_from([300] + ([5000] if LARGE else [])), 6)

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
        draw(_combat),
        draw(_arrivals),
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
    if spec.combat:
        _combat_files(spec.combat, project)
    if spec.arrivals:
        _arrivals_files(spec.arrivals, project)
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


JPEG_MAX_SIDE = 65_500
"""The longest side a JPEG can have: a wider drawn size is made a JPEG that wide (a PNG keeps it)."""


def _art_file(art: Art, folder: Path) -> None:
    name = f"{art.counter}-{art.field}.{art.kind}"
    if art.kind in ("png", "jpg"):
        from PIL import Image

        size = art.size if art.kind == "png" else tuple(min(n, JPEG_MAX_SIDE) for n in art.size)
        Image.new("RGB", size, (180, 40, 40)).save(folder / name)
        if art.cut:
            data = (folder / name).read_bytes()
            (folder / name).write_bytes(data[: min(art.cut, len(data) - 1)])
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
    count, radius = art.filters
    if count:
        chain = "".join(f'<feMorphology operator="dilate" radius="{radius}"/>' for _ in range(count))
        body.append(f'<filter id="f">{chain}</filter><circle cx="9" cy="9" r="5" filter="url(#f)"/>')
    doctype = ""
    if art.entity:
        value = 'SYSTEM "outside.txt"' if art.entity == "external" else '"Armée"'
        doctype = f"<!DOCTYPE svg [<!ENTITY e {value}>]>\n"
        body.append("<text>&e;</text>")
    declare = "" if art.encoding == "utf-8-sig" else f'<?xml version="1.0" encoding="{art.encoding}"?>\n'
    declare += doctype
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


_CRT = {
    "columns": '["Die", "1:1", "2:1", "3:1"]',
    "rows": "      - [1, DR, DR, DE]\n      - [2, NE, DR, DR]\n      - [3, AL, NE, DR]\n",
}


def _combat_files(kind: str, project: Path) -> None:
    """A combat section naming a CRT of its own, a d6 and the counters' attack value, sound or broken as
    `kind` says."""
    columns, rows = _CRT["columns"], _CRT["rows"]
    columns = {
        "repeated-column": '["Die", "1:1", "1:1", "3:1"]',
        "zero-column": '["Die", "0:1", "2:1", "3:1"]',
        "falling-column": '["Die", "2:1", "1:1", "3:1"]',
    }.get(kind, columns)
    rows = {"no-rows": "", "repeated-roll": rows.replace("[2, NE", "[1, NE")}.get(kind, rows)
    tables = project / "scenarios" / "mini" / "tables.yaml"
    tables.write_text(
        tables.read_text(encoding="utf-8")
        + f"  - id: fight\n    name: Combat Results\n    columns: {columns}\n"
        + ("    rows: []\n" if not rows else "    rows:\n" + rows)
        + "combat: {crt: fight, die: d6, attack: attack, defence: attack}\n",
        encoding="utf-8",
    )
    game = project / "scenarios" / "mini" / "game.yaml"
    dice = "[{name: d6, sides: 6}, {name: d6, sides: 10}]" if kind == "two-d6" else "[{name: d6, sides: 6}]"
    game.write_text(game.read_text().replace("stacking:", f"dice: {dice}\nstacking:", 1))
    if kind == "mark-strength":
        units = project / "counters" / "mini" / "units.yaml"
        units.write_text(units.read_text().replace("values: {attack: 4,", 'values: {attack: "4*",', 1))


def _arrivals_files(count: int, project: Path) -> None:
    """`count` counters, each arriving alone on turn 2 at the west edge."""
    more = project / "counters" / "mini" / "more.csv"
    more.write_text(
        more.read_text(encoding="utf-8") + "".join(f"r{i},red,infantry,division,{i},1,5,4,2,4\n" for i in range(count)),
        encoding="utf-8",
    )
    intro = project / "scenarios" / "mini" / "intro.yaml"
    intro.write_text(
        intro.read_text() + "".join(f"  - {{turn: 2, side: red, units: [r{i}], at: west}}\n" for i in range(count))
    )
