"""Point 3 of issue 33: validate checks what build needs, for every stage. Each shape the red team found
validating and then failing to build is refused with a located finding (or, for SVG encodings, read as
the file says), and data at the edge of each limit builds.

The issue's instances (120,000 x 1 counter art, a 100,000 x 1 SVG, a UTF-16 and an ISO-8859-1 SVG, ten
nested groups of ten `<use>`, a 20-column table of long headers, a 500 x 40 table of 200-character cells,
a painted 999 x 5 pointy map, 100,006 counters) and another of each (art standing upright, a `<use>` that
names itself, a table of tall rows, a table too long for the module's chart window, a painted map 999
hexes tall, a counter mix passed by quantities)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hw_support import refused
from PIL import Image
from test_bounded import _edit

UNITS = "counters/mini/units.yaml"
TABLES = "scenarios/mini/tables.yaml"
BOARD = "maps/mini/board.yaml"


pytestmark = pytest.mark.slow  # whole builds


def _face_art(project: Path, name: str, field: str = "image") -> None:
    _edit(project, UNITS, "  - id: red-1\n", f"  - id: red-1\n    {field}: {name}\n")


def _png(project: Path, name: str, size: tuple[int, int]) -> str:
    Image.new("RGB", size, (180, 40, 40)).save(project / "counters/mini" / name)
    return name


def _svg(
    project: Path,
    name: str,
    body: str,
    size: tuple[int, int] = (100, 100),
    encoding: str = "utf-8",
    declare: bool = False,
) -> str:
    head = f'<?xml version="1.0" encoding="{encoding}"?>\n' if declare else ""
    text = (
        f'{head}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{size[0]}" height="{size[1]}">{body}</svg>\n'
    )
    (project / "counters/mini" / name).write_bytes(text.encode(encoding))
    return name


def _fan_out(levels: int, width: int) -> str:
    """`levels` nested groups each holding `width` uses of the one below: width ** levels rectangles."""
    parts = ['<defs><rect id="a0" width="1" height="1" fill="red"/>']
    for i in range(1, levels + 1):
        parts.append(f'<g id="a{i}">' + "".join(f'<use xlink:href="#a{i - 1}"/>' for _ in range(width)) + "</g>")
    return "".join(parts) + f'</defs><use xlink:href="#a{levels}"/>'


def _table(project: Path, columns: list[str], rows: list[list[str]]) -> None:
    (project / TABLES).write_text(
        "kind: tables\ngame: mini\ntables:\n  - id: crt\n    name: Combat Results\n"
        f"    columns: {json.dumps(columns)}\n    rows:\n" + "".join(f"      - {json.dumps(r)}\n" for r in rows),
        encoding="utf-8",
    )


def _painted(
    project: Path, orientation: str, columns: int, rows: int, art: tuple[int, int] | None = None, hex_size: int = 10
) -> None:
    """The mini board as a painted map of `columns` x `rows` hexes, `hex_size` px a hex on its art (`art`: its
    size, by default just around its hexes)."""
    flat = orientation == "flat"
    art = art or ((90 + int(8.7 * columns), 40 + 10 * rows) if flat else (40 + 10 * columns, 90 + int(8.7 * rows)))
    Image.new("L", art, 180).save(project / "maps/mini/art.png")
    _edit(
        project,
        BOARD,
        "  orientation: flat\n  columns: 6\n  rows: 5\n",
        f"  orientation: {orientation}\n  columns: {columns}\n  rows: {rows}\n",
    )
    text = (project / BOARD).read_text()
    (project / BOARD).write_text(
        text + f'art:\n  image: art.png\n  hex_size: {hex_size}\n  origin: {{hex: "0101", x: 15, y: 15}}\n'
    )


def _counters_csv(project: Path, rows: int, quantity: int = 1) -> None:
    lines = [
        "id,side,type,size,designation,quantity,full.attack,full.movement,reduced.attack,reduced.movement",
        "red-2,red,infantry,division,2,1,5,4,2,4",
    ]
    lines += [f"r{i},red,infantry,division,{i % 100},{quantity},5,4,2,4" for i in range(rows - 1)]
    (project / "counters/mini/more.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


CASES = {
    "art-120000x1": (
        lambda p: _face_art(p, _png(p, "wide.png", (120_000, 1))),
        r"units\.yaml:5:12: error\[HW-ART-022\]: face art 'wide\.png' is 120,000 x 1 px \(aspect 120,000\.00\); "
        r"full-face art is cut to the square face, and art longer than 4 to 1 cannot be drawn",
    ),
    "art-upright": (
        lambda p: _face_art(p, _png(p, "tall.png", (40, 900))),
        r"units\.yaml:5:12: error\[HW-ART-022\]: .*40 x 900 px",
    ),
    "art-past-counter-pixels": (
        lambda p: _face_art(p, _png(p, "big.png", (5000, 3300))),
        r"units\.yaml:5:12: error\[HW-ART-011\]: counter art 'big\.png' is 5,000 x 3,300 px, over the "
        r"limit of 16,000,000 pixels for counter art",
    ),
    "picture-past-counter-pixels": (
        lambda p: _face_art(p, _png(p, "big.png", (8000, 2001)), "picture"),
        r"units\.yaml:5:14: error\[HW-ART-011\]: counter art 'big\.png' is 8,000 x 2,001 px",
    ),
    "svg-100000x1": (
        lambda p: _face_art(p, _svg(p, "wide.svg", '<rect width="100000" height="1"/>', (100_000, 1))),
        r"units\.yaml:5:12: error\[HW-ART-022\]: face art 'wide\.svg' is 100,000 x 1 px",
    ),
    "svg-upright": (
        lambda p: _face_art(p, _svg(p, "tall.svg", '<rect width="1" height="5000"/>', (1, 5000))),
        r"units\.yaml:5:12: error\[HW-ART-022\]: face art 'tall\.svg' is 1 x 5,000 px",
    ),
    "svg-use-fan-out": (
        lambda p: _face_art(p, _svg(p, "fan.svg", _fan_out(10, 10)), "picture"),
        r"units\.yaml:5:14: error\[HW-ART-016\]: SVG art 'fan\.svg' cannot be drawn: the SVG has more than "
        r"50,000 elements once every <use> is expanded",
    ),
    "svg-use-wide-fan-out": (
        lambda p: _face_art(p, _svg(p, "fan.svg", _fan_out(3, 40))),
        r"error\[HW-ART-016\]: SVG art 'fan\.svg' cannot be drawn: the SVG has more than 50,000",
    ),
    "svg-use-itself": (
        lambda p: _face_art(p, _svg(p, "loop.svg", '<g id="g"><rect width="1" height="1"/><use xlink:href="#g"/></g>')),
        r"error\[HW-ART-016\]: SVG art 'loop\.svg' cannot be drawn: a <use> element refers to itself",
    ),
    "table-20-long-headers": (
        lambda p: _table(
            p, [f"Column heading number {i}" for i in range(20)], [[str(i)] + ["x"] * 19 for i in range(3)]
        ),
        r"tables\.yaml:4:5: error\[HW-TABLE-002\]: table 'crt' cannot be printed: its 20 columns need "
        r"1,401 px at their narrowest, wider than a Letter page \(1,155 px\)",
    ),
    "table-500x40-long-cells": (
        lambda p: _table(p, [f"C{i}" for i in range(40)], [[str(i)] + [("word " * 40)[:200]] * 39 for i in range(500)]),
        r"tables\.yaml:4:5: error\[HW-TABLE-002\]: table 'crt' cannot be printed: its 40 columns",
    ),
    "table-tall-row": (
        lambda p: _table(p, [f"C{i}" for i in range(15)], [["1"] + ["W" * 200] * 14]),
        r"error\[HW-TABLE-002\]: table 'crt' cannot be printed: row 1 is drawn [\d,]+ px tall, taller than "
        r"a Letter page \(1,424 px\) can hold",
    ),
    "table-too-long-whole": (
        lambda p: _table(p, [f"C{i}" for i in range(12)], [[str(i)] + [("word " * 40)[:200]] * 11 for i in range(500)]),
        r"error\[HW-TABLE-002\]: .*drawn whole it is 1,155 x [\d,]+ px \([\d,]+ million pixels\), over "
        r"the budget of 120 million",
    ),
    "painted-999x5-pointy": (
        lambda p: _painted(p, "pointy", 999, 5),
        r"board\.yaml:\d+:\d+: error\[HW-SIZE-003\]: map 'board' would be drawn 72,\d{3} x \d+ px for "
        r"the module board \(build module\), a JPEG image, whose sides are at most 65,500 px",
    ),
    "painted-5x999-flat": (
        lambda p: _painted(p, "flat", 5, 999),
        r"error\[HW-SIZE-003\]: map 'board' would be drawn \d+ x 72,\d{3} px for the module board",
    ),
    "painted-art-far-past-its-hexes": (
        lambda p: _painted(p, "flat", 6, 5, art=(3000, 3000)),
        r"board\.yaml:\d+:\d+: error\[HW-SIZE-002\]: painted map 'board' would be drawn as "
        r"2,0\d\d million pixels \(45,\d{3} x 45,\d{3}\) for the map image \(build maps\), over "
        r"the budget of 120 million",
    ),
    "painted-tiny-hexes": (
        lambda p: _painted(p, "pointy", 6, 5, art=(1200, 1200), hex_size=4),
        r"error\[HW-SIZE-002\]: painted map 'board' would be drawn as [\d,]+ million pixels",
    ),
    "100006-counters": (
        lambda p: _counters_csv(p, 100_005),
        r"more\.csv:10002:1: error\[HW-MIX-003\]: the counter mix holds more than 10,000 pieces .*"
        r"passed at counter 'r9999'",
    ),
    "quantities-past-the-mix": (
        lambda p: _counters_csv(p, 11, quantity=1000),
        r"more\.csv:\d+:1: error\[HW-MIX-003\]: the counter mix holds more than 10,000 pieces",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_what_a_stage_cannot_draw_validate_refuses(name: str, mini_project: Path, cli):
    make, expected = CASES[name]
    make(mini_project)
    refused(mini_project, expected)
    b = cli("build", "all", str(mini_project), "--out", str(mini_project / "build"))
    assert b.exit_code == 1 and "Nothing was built" in b.output, b.output[-2000:]


def _sheet(project: Path, out: str, cli) -> bytes:
    r = cli("build", "sheets", str(project), "--dpi", "72", "--out", str(project / out), "--jobs", "1")
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output[-3000:]
    return next((project / out / "mini").glob("counters.*.pdf")).read_bytes()


@pytest.mark.parametrize("encoding", ["utf-16", "iso-8859-1", "utf-8-sig"])
def test_svg_art_in_any_declared_encoding_draws_as_its_utf8_twin(mini_project: Path, cli, encoding: str):
    """The issue's UTF-16 and ISO-8859-1 SVGs (and one with a UTF-8 byte-order mark) validate and print the
    same sheet as the same drawing in UTF-8; a title in é keeps the Latin-1 bytes from being UTF-8 by chance."""
    body = '<title>Armée</title><rect width="100" height="100" fill="#2050a0"/><circle cx="50" cy="50" r="30" fill="#f0d020"/>'
    _face_art(mini_project, _svg(mini_project, "art.svg", body))
    assert cli("validate", str(mini_project)).exit_code == 0
    plain = _sheet(mini_project, "utf8", cli)
    _svg(mini_project, "art.svg", body, encoding=encoding, declare=encoding != "utf-8-sig")
    r = cli("validate", str(mini_project))
    assert r.exit_code == 0, r.output
    assert _sheet(mini_project, "other", cli) == plain


def test_art_at_the_edge_of_the_limits_builds(mini_project: Path, cli):
    """The other side: 4:1 face art, a 100,000 x 1 SVG in the picture slot (fitted, never cut), a use
    fan-out just under the element limit, a 15-column table with samples: validate passes and every
    stage builds."""
    _face_art(mini_project, _png(mini_project, "wide.png", (400, 100)))
    _edit(
        mini_project,
        UNITS,
        "  - id: blue-1\n",
        "  - id: blue-1\n    picture: "
        + _svg(mini_project, "strip.svg", '<rect width="100000" height="1" fill="blue"/>', (100_000, 1))
        + "\n",
    )
    _edit(
        mini_project,
        "counters/mini/more.csv",
        "id,side,type,size,designation,",
        "id,side,type,size,designation,picture,",
    )
    _edit(
        mini_project,
        "counters/mini/more.csv",
        "red-2,red,infantry,division,2,",
        "red-2,red,infantry,division,2," + _svg(mini_project, "fan.svg", _fan_out(4, 10)) + ",",
    )
    _table(
        mini_project,
        ["Terrain"] + [f"{i}:1" for i in range(1, 15)],
        [["Forest"] + ["DR"] * 14, ["Clear"] + ["NE"] * 14],
    )
    r = cli("validate", str(mini_project))
    assert r.exit_code == 0, r.output[-3000:]
    b = cli("build", "all", str(mini_project), "--dpi", "72", "--out", str(mini_project / "b"), "--jobs", "1")
    assert b.exit_code == 0, b.output[-3000:]
    assert "Traceback" not in b.output


def test_the_table_limits_measure_what_the_charts_draw():
    """The check is the renderer's own layout: a table the check passes lays out within the page."""
    from hw_support import ROOT

    from authoring.load import discover, load_game
    from authoring.render.limits import stage_findings
    from authoring.render.print.charts import table_blocks
    from authoring.render.shared.canvas import PageSpec

    game = load_game(next(f for f in discover(ROOT) if f.id == "typhoon")).game
    assert stage_findings(game) == []
    spec = PageSpec("a4")
    for table in game.tables:
        for block in table_blocks(game, table, spec.content_size):
            assert block.image.width <= spec.content_size[0] and block.image.height <= spec.content_size[1]


def _embedded(project: Path, size: tuple[int, int], nested: bool = False) -> str:
    """An SVG embedding a `size` PNG (mostly zeros: a few hundred KB), or an SVG embedding such an SVG."""
    import base64
    import io

    buffer = io.BytesIO()
    Image.new("L", size).save(buffer, "PNG")
    inner = (
        f'<image width="100" height="100" xlink:href="data:image/png;base64,'
        f'{base64.b64encode(buffer.getvalue()).decode()}"/>'
    )
    if nested:
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" '
            f'height="100">{inner}</svg>'
        )
        inner = (
            f'<image width="100" height="100" xlink:href="data:image/svg+xml;base64,'
            f'{base64.b64encode(svg.encode()).decode()}"/>'
        )
    return _svg(project, "embeds.svg", inner)


@pytest.mark.parametrize("size, nested", [((20_000, 20_000), False), ((5000, 5000), True), ((17_000, 17_000), False)])
def test_a_picture_embedded_in_svg_art_is_bounded(mini_project: Path, size, nested: bool):
    """resvg decodes an embedded picture whole: a 20,000 x 20,000 px PNG of 500 KB took 22 s and 1.9 GB."""
    _face_art(mini_project, _embedded(mini_project, size, nested), "picture")
    refused(
        mini_project,
        r"units\.yaml:5:14: error\[HW-ART-016\]: SVG art 'embeds\.svg' cannot be drawn: "
        + ("an SVG picture it embeds cannot be drawn: " if nested else "")
        + r"it embeds a ([\d,]+ x [\d,]+ px picture|picture of more than [\d,]+ pixels), over the limit of "
        r"16,000,000 pixels",
    )
