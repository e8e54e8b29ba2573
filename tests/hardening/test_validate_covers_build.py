"""Point 6 of issue 47: each case validated and then the build failed (an internal error, an IndexError, a
drawing that ran for minutes, 9.6 GB drawing a module). Now `validate` refuses it with a located finding, or
the build takes it."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hw_support import refused
from test_bounded import _edit

UNITS = "counters/mini/units.yaml"
TABLES = "scenarios/mini/tables.yaml"


def _art(project: Path, name: str, data: bytes) -> None:
    (project / "counters/mini" / name).write_bytes(data)
    _edit(project, UNITS, "  - id: red-1\n", f"  - id: red-1\n    image: {name}\n")


def _svg(body: str, head: str = "", encoding: str = "utf-8") -> bytes:
    declare = f'<?xml version="1.0" encoding="{encoding}"?>\n'
    return (
        f'{declare}{head}<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
        f'<rect width="100" height="100" fill="#2050a0"/>{body}</svg>\n'
    ).encode(encoding)


def _png(size=(200, 200)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.effect_noise(size, 60).convert("RGB").save(buffer, "PNG")
    return buffer.getvalue()


def _jpeg(size=(200, 200)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.effect_noise(size, 60).convert("RGB").save(buffer, "JPEG")
    return buffer.getvalue()


def _morphology(count: int, radius: int) -> bytes:
    chain = "".join(
        f'<feMorphology in="{"SourceGraphic" if i == 0 else f"m{i}"}" result="m{i + 1}" operator="dilate" '
        f'radius="{radius}"/>'
        for i in range(count)
    )
    return _svg(f'<filter id="f">{chain}</filter><circle cx="50" cy="50" r="20" fill="red" filter="url(#f)"/>')


REFUSED = {
    "svg-external-entity": (
        lambda p: _art(p, "red.svg", _svg('<text x="5" y="50">&e;</text>', '<!DOCTYPE svg [<!ENTITY e SYSTEM "x">]>')),
        r"units\.yaml:\d+:\d+: error\[HW-ART-016\]: SVG art 'red\.svg' cannot be drawn: .*'e'",
    ),
    "svg-external-entity-latin-1": (
        lambda p: _art(
            p, "red.svg", _svg('<text x="5" y="50">&e;</text>', '<!DOCTYPE svg [<!ENTITY e SYSTEM "x">]>', "iso-8859-1")
        ),
        r"units\.yaml:\d+:\d+: error\[HW-ART-016\]: SVG art 'red\.svg' cannot be drawn: .*'e'",
    ),
    "png-truncated": (
        lambda p: _art(p, "red.png", _png()[:6000]),
        r"units\.yaml:\d+:\d+: error\[HW-ART-010\]: PNG image 'red\.png' is incomplete: its 'IDAT' chunk is cut off",
    ),
    "png-damaged": (
        lambda p: _art(p, "red.png", (lambda d: d[:200] + bytes([d[200] ^ 0xFF]) + d[201:])(_png())),
        r"error\[HW-ART-010\]: PNG image 'red\.png' is incomplete: its 'IDAT' chunk at byte [\d,]+ is damaged",
    ),
    "jpeg-truncated": (
        lambda p: _art(p, "red.jpg", _jpeg()[:3000]),
        r"error\[HW-ART-010\]: JPEG image 'red\.jpg' is incomplete: it ends before its end-of-image marker",
    ),
    "crt-without-rows": (
        lambda p: _edit(p, TABLES, "    rows:\n      - [1, DR, DE]\n      - [2, NE, DR]\n", "    rows: []\n"),
        r"tables\.yaml:\d+:\d+: error\[HW-COMBAT-002\]: CRT 'crt' has no rows",
    ),
    "svg-50-chained-morphology-filters": (
        lambda p: _art(p, "red.svg", _morphology(50, 50)),
        r"units\.yaml:\d+:\d+: error\[HW-ART-016\]: SVG art 'red\.svg' cannot be drawn: its filters would draw for "
        r"too long: more than 8,192 units of work",
    ),
    "svg-300-filter-primitives": (
        lambda p: _art(
            p,
            "red.svg",
            _svg(
                '<filter id="f">'
                + "<feOffset dx='1'/>" * 300
                + '</filter><rect width="9" height="9" filter="url(#f)"/>'
            ),
        ),
        r"error\[HW-ART-016\]: SVG art 'red\.svg' cannot be drawn: its filters apply more than 256 primitives",
    ),
}


def _combat(project: Path) -> None:
    """The mini game's CRT made the game's combat table (with a die and strengths), as `rows: []` needs."""
    _edit(project, "scenarios/mini/game.yaml", "stacking:", "dice: [{name: d6, sides: 6}]\nstacking:")
    (project / TABLES).write_text(
        (project / TABLES).read_text() + "combat: {crt: crt, die: d6, attack: attack, defence: attack}\n"
    )


@pytest.mark.parametrize("name", REFUSED)
def test_what_the_build_could_not_draw_validate_refuses(name: str, mini_project: Path, cli):
    make, expected = REFUSED[name]
    if name == "crt-without-rows":
        _combat(mini_project)
        assert cli("validate", str(mini_project)).exit_code == 0  # the game's combat is otherwise sound
    make(mini_project)
    refused(mini_project, expected)
    b = cli("build", "module", str(mini_project), "--out", str(mini_project / "build"))
    assert b.exit_code == 1 and "Nothing was built" in b.output, b.output[-2000:]


BUILT = {
    "svg-entity-latin-1": lambda p: _art(
        p,
        "red.svg",
        _svg('<text x="5" y="50">&e; caf\xe9</text>', '<!DOCTYPE svg [<!ENTITY e "Arm\xe9e">]>', "iso-8859-1"),
    ),
    "svg-entity-utf-8": lambda p: _art(
        p,
        "red.svg",
        _svg('<text x="5" y="50" fill="&c;">&e;</text>', '<!DOCTYPE svg [<!ENTITY e "x"><!ENTITY c "red">]>'),
    ),
    "svg-drop-shadow-on-many-shapes": lambda p: _art(
        p,
        "red.svg",
        _svg(
            '<filter id="s"><feGaussianBlur stdDeviation="1"/><feOffset dx="1" dy="1"/><feMerge><feMergeNode/>'
            '<feMergeNode in="SourceGraphic"/></feMerge></filter><style>.s{filter:url(#s)}</style>'
            + '<rect class="s" x="10" y="10" width="5" height="5"/>'
            * 40
        ),
    ),
    "svg-small-morphology": lambda p: _art(p, "red.svg", _morphology(2, 1)),
}


@pytest.mark.parametrize("name", BUILT)
def test_what_validate_lets_through_builds(name: str, mini_project: Path, cli):
    BUILT[name](mini_project)
    v = cli("validate", str(mini_project), "--format", "concise")
    assert v.exit_code == 0, v.output[-2000:]
    out = mini_project / "build"
    b = cli("build", "module", str(mini_project), "--out", str(out))
    assert b.exit_code == 0, b.output[-2000:]
    s = cli("build", "sheets", str(mini_project), "--dpi", "72", "--out", str(out))
    assert s.exit_code == 0, s.output[-2000:]
    with zipfile.ZipFile(out / "mini" / "mini.vmod") as module:
        assert any("red-1" in n or "red_2d1" in n for n in module.namelist()), module.namelist()


def test_many_reinforcements_on_one_turn_draw_a_bounded_box_board(mini_project: Path, cli):
    """The 5,000-reinforcement game's module took 9.6 GB: the turn box was sized to show every counter of its
    stack (a board of 2 billion pixels). 200 single-unit reinforcements show the same: the box is sized for
    `MAX_BOX_STACK` counters. (`make bench ONLY=memory` measures the 5,000 case's peak memory.)"""
    from PIL import Image

    more = mini_project / "counters/mini/more.csv"
    more.write_text(more.read_text() + "".join(f"g{i},red,infantry,division,{i},1,5,4,2,4\n" for i in range(200)))
    intro = mini_project / "scenarios/mini/intro.yaml"
    intro.write_text(
        intro.read_text() + "".join(f"  - {{turn: 2, side: red, units: [g{i}], at: west}}\n" for i in range(200))
    )
    out = mini_project / "build"
    b = cli("build", "module", str(mini_project), "--out", str(out))
    assert b.exit_code == 0, b.output[-2000:]
    with zipfile.ZipFile(out / "mini" / "mini.vmod") as module:
        boards = [n for n in module.namelist() if n.startswith("images/box") and "einforcements" in n]
        assert boards, module.namelist()
        for name in boards:
            width, height = Image.open(io.BytesIO(module.read(name))).size
            assert width * height < 2_000_000, (name, width, height)
