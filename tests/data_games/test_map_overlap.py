"""Hexes two maps of a layout share agree (issue 43, item 4): Typhoon 2.1, map M's column 01 is map N's
column 39 and map P's row 01 is N's and M's row 53. A disagreement is one finding naming both files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from click.testing import CliRunner

from authoring.cli import main
from authoring.load import discover, load_game

ROOT = Path(__file__).resolve().parents[2]
CODE = "HW-MAP-004"


def _project(tmp_path: Path, gid: str = "typhoon") -> Path:
    for part in ("scenarios", "maps", "counters"):
        if (ROOT / part / gid).is_dir():
            shutil.copytree(ROOT / part / gid, tmp_path / part / gid)
    return tmp_path


def _findings(root: Path, gid: str = "typhoon") -> list:
    result = load_game(next(f for f in discover(root) if f.id == gid))
    return [d for d in result.diagnostics if d.code == CODE]


def _move(path: Path, label: str, to: str) -> None:
    """Give hex `label` the terrain `to` instead of what the file lists it under."""
    text = path.read_text(encoding="utf-8")
    text = text.replace(f'"{label}", ', "", 1) if f'"{label}", ' in text else text.replace(f', "{label}"', "", 1)
    assert f'"{label}"' not in text
    text = re.sub(rf"(\n  {to}: \[\s*)", rf'\1"{label}", ', text, count=1)
    path.write_text(text, encoding="utf-8")


def test_bundled_games_agree_on_their_shared_hexes() -> None:
    for files in discover(ROOT):
        assert _findings(ROOT, files.id) == [], files.id


def test_other_terrain_in_one_map_is_one_finding_naming_both_files(tmp_path: Path) -> None:
    root = _project(tmp_path)
    m_file = root / "maps" / "typhoon" / "M.yaml"
    _move(m_file, "M0110", "hills")  # N3910 stays woods
    found = _findings(root)
    assert len(found) == 1
    (d,) = found
    assert Path(d.loc.file).name == "M.yaml" and d.loc.line > 0
    line = m_file.read_text(encoding="utf-8").splitlines()[d.loc.line - 1]
    assert '"M0110"' in line[d.loc.col - 1 :]
    assert "M0110" in d.message and "N3910" in d.message and "hills" in d.message and "woods" in d.message
    (other,) = d.related
    n_lines = (root / "maps" / "typhoon" / "N.yaml").read_text(encoding="utf-8").splitlines()
    assert Path(other.file).name == "N.yaml" and '"N3910"' in n_lines[other.line - 1]
    assert f"N.yaml:{other.line}:{other.col}" in d.message

    out = CliRunner().invoke(main, ["validate", "typhoon", "--project", str(root), "--format", "concise"])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.output.count(CODE) == 1 and f"M.yaml:{d.loc.line}:{d.loc.col}: error[{CODE}]" in out.output


def test_a_feature_or_hexside_on_one_map_only_is_one_finding_each(tmp_path: Path) -> None:
    root = _project(tmp_path)
    n_file = root / "maps" / "typhoon" / "N.yaml"
    text = n_file.read_text(encoding="utf-8")
    text = re.sub(r"(\n  victory:[^\n]*\n)", r'\1    "N3912": {points: 1}\n', text, count=1)
    text = re.sub(r"(\nhexsides:\n  river:\n)", r'\1    - ["N3914", "N3915"]\n', text, count=1)
    n_file.write_text(text, encoding="utf-8")
    found = _findings(root)
    messages = sorted(d.message for d in found)
    assert len(found) == 2, messages
    assert any("hex M0112" in m and "victory" in m for m in messages)
    assert any("hexside M0114/M0115" in m and "river" in m for m in messages)
    assert all(Path(d.related[0].file).name == "N.yaml" for d in found)
