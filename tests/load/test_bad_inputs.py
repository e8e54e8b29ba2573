"""The malformed-input corpus: every case ends in exit 1, a located message and no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main

BAD = Path(__file__).parent / "bad"
CASES = sorted(BAD.iterdir())


def _case(path: Path) -> tuple[str, str, int, str, list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    meta = {}
    body = []
    for line in lines:
        if line.startswith("#! "):
            key, value = line[3:].split(":", 1)
            meta[key.strip()] = value.strip()
        else:
            body.append(line)
    code, line_no = meta["expect"].split()
    return meta["target"], code, int(line_no), "".join(body), meta.get("also", "").split()


def _validate(project: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["validate", str(project), "--format", "concise"], catch_exceptions=False)
    return result.exit_code, result.output


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_bad_input(case: Path, mini: Path):
    target, code, line, body, also = _case(case)
    (mini / target).write_text(body, encoding="utf-8")
    exit_code, out = _validate(mini)
    assert exit_code == 1, out
    assert "Traceback" not in out
    where = re.escape(str(Path(target).name))
    line_re = str(line) if line else r"\d+"
    pattern = rf"{where}:{line_re}:\d+: error\[{code}\]"
    assert re.search(pattern, out), out
    found = sorted(re.findall(r"error\[([A-Z0-9-]+)\]", out))
    assert found == sorted([code, *also]), f"one mistake, one error: {found}"


def test_non_utf8_bytes(mini: Path):
    (mini / "maps/mini/board.yaml").write_bytes(b"kind: map\nid: board\nname: Caf\xe9\n")
    exit_code, out = _validate(mini)
    assert exit_code == 1
    assert re.search(r"board\.yaml:3:10: error\[HW-IO-003\]: invalid UTF-8 byte 0xe9", out), out


def test_fifty_megabyte_file(mini: Path):
    big = mini / "counters/mini/huge.yaml"
    with big.open("w") as f:
        f.write("kind: counters\ncounters:\n")
        chunk = "  - {id: x, side: red, faces: [{state: full}]}  # padding padding padding padding\n" * 1000
        while f.tell() < 50 * 1024 * 1024:
            f.write(chunk)
    exit_code, out = _validate(mini)
    assert exit_code == 1
    assert re.search(r"huge\.yaml:1:1: error\[HW-IO-002\]: file is 50\.\d MiB, over the 20 MiB limit", out), out


def test_all_problems_reported_together(mini: Path):
    (mini / "maps/mini/board.yaml").write_text(
        "kind: map\nid: board\nname: B\ngrid: {orientation: flat, columns: 6, rows: 5}\n"
        "terrain: {forest: ['0909', '0808']}\n",
        encoding="utf-8",
    )
    (mini / "counters/mini/units.yaml").write_text(
        "kind: counters\ncounters:\n  - {id: red-1, side: rde, faces: [{state: full}]}\n"
        "  - {id: blue-1, side: blue, faces: [{state: full}]}\n",
        encoding="utf-8",
    )
    exit_code, out = _validate(mini)
    assert exit_code == 1
    assert out.count("error[") == 3, out
    assert "did you mean 'red'?" in out


def test_unknown_key_suggests(mini: Path):
    (mini / "maps/mini/board.yaml").write_text(
        "kind: map\nid: board\nname: B\ngrid: {orientation: flat, columns: 6, rows: 5, colums: 3}\n", encoding="utf-8"
    )
    exit_code, out = _validate(mini)
    assert exit_code == 1
    assert "board.yaml:4:48: error[HW-SCHEMA-002]: unknown key 'colums' in `grid`" in out
    assert "did you mean 'columns'?" in out


def test_json_format_is_machine_readable(mini: Path):
    import json

    (mini / "maps/mini/board.yaml").write_text("kind: map\nid: board\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(mini), "--format", "json"])
    assert result.exit_code == 1
    note, data = json.loads(result.output)[0], json.loads(result.output)[1:]
    assert data[0]["code"] == "HW-SCHEMA-003" and data[0]["line"] == 1 and data[0]["file"].endswith("board.yaml")
    assert (note["code"], note["severity"]) == ("HW-CHECK-001", "info") and note["file"] == data[0]["file"]
    assert note["message"] == f"the set-up rules of game 'mini' were not checked: {data[0]['file']} could not be used"
