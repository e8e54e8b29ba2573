"""`hexwright calibrate`: one misread point is named (leave-one-out) instead of every point being flagged,
and `--write` puts the fitted registration into the map file, its comments and layout kept."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from art_support import ROOT
from click.testing import CliRunner

from authoring.author.artblock import set_registration
from authoring.author.yamlblock import BlockError
from authoring.cli import main
from authoring.load.source import parse_yaml
from authoring.validate import validate_path

ART_BLOCK = """art:   # the painted scan
  image: art/moscow-1941.jpg   # from the artist
  # the registration comes from `hexwright calibrate --write`
  points:                         # read in an image editor
    "0101": [160, 200]
    "1401": [1503.5, 278]   # a corner
    "0110": [145, 1262]
    "1410": [1488.5, 1339.5]
    "0705": [774, 680.5]
    "1103": [1191, 450.5]
# after the art
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for folder in ("maps", "counters", "scenarios"):
        shutil.copytree(ROOT / folder / "bfm-art", tmp_path / folder / "bfm-art")
    return tmp_path


def _map(project: Path) -> Path:
    return project / "maps/bfm-art/main.yaml"


def _unregistered(project: Path, newline: str = "\n") -> str:
    """The demo map with its registration taken out and comments all around `art:`."""
    path = _map(project)
    text = path.read_text()
    text = text[: text.index("art:")] + ART_BLOCK
    path.write_bytes(text.replace("\n", newline).encode())
    return text.replace("\n", newline)


def calibrate(project: Path, *args: str):
    result = CliRunner().invoke(main, ["calibrate", str(_map(project)), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    return result


def flagged(stdout: str) -> list[str]:
    return re.findall(r"^  (\d{4}): .*<-- off by more than 5% of a hex$", stdout, re.M)


def test_one_misread_point_is_named_and_left_out(project):
    r = calibrate(project, "--point", "1410=1460,1339.5")
    assert r.exit_code == 0
    assert flagged(r.stdout) == ["1410"]
    assert "1410: read (1460, 1339.5), where the other 5 put it (1488." in r.stdout
    assert "warning: 1410 is the outlier" in r.stderr
    residuals = [float(v) for h, v in re.findall(r"^  (\d{4}): .*residual ([0-9.]+) px", r.stdout, re.M) if h != "1410"]
    assert len(residuals) == 5 and max(residuals) < 0.5  # the others fit as well as before


def test_a_misread_point_in_the_file_among_six(project):
    path = _map(project)
    path.write_text(path.read_text().replace('"0705": [774, 680.5]', '"0705": [700, 610]'))
    r = calibrate(project)
    assert flagged(r.stdout) == ["0705"] and "0705 is the outlier" in r.stderr


def test_two_misread_points_are_both_named(project):
    r = calibrate(project, "--point", "1410=1460,1339.5", "--point", "0505=660,610")
    assert sorted(flagged(r.stdout)) == ["0505", "1410"]
    assert "1410 and 0505 are the outliers" in r.stderr


def test_points_that_no_single_point_explains_are_all_flagged(project):
    r = calibrate(project, "--point", "1410=1460,1339.5", "--point", "0505=660,610", "--point", "0705=700,500")
    assert len(flagged(r.stdout)) > 3 and "no 2 or fewer points explain it" in r.stderr


def test_write_adds_the_registration_and_keeps_every_other_line(project):
    before = _unregistered(project)
    r = calibrate(project, "--write")
    assert r.exit_code == 0 and "registration written into" in r.stdout
    after = _map(project).read_text()
    added = [ln for ln in after.splitlines() if ln not in before.splitlines()]
    assert [ln.split(":")[0] for ln in added] == ["  hex_size", "  origin", "  stretch", "  rotation"]
    assert [ln for ln in after.splitlines() if ln not in added] == before.splitlines()
    art = after[after.index("\nart:") :]
    assert art.index("  hex_size:") > art.index("  image:") and art.index("  rotation:") < art.index("  points:")
    for line in r.stdout.split("(under `art:`):\n", 1)[1].splitlines():
        assert line in after.splitlines()
    _, diags, count = validate_path(project)
    assert count == 1 and diags == []


def test_write_replaces_the_registration_keeping_comment_columns(project):
    original = _map(project).read_text()
    commented = original.replace("  rotation: 0.8049", "  rotation: 0.5    # turned on the scanner")
    _map(project).write_text(commented)
    r = calibrate(project, "--write")
    assert r.exit_code == 0
    after = _map(project).read_text()
    assert "  rotation: 0.8049  # turned on the scanner\n" in after
    assert after == original.replace("  rotation: 0.8049", "  rotation: 0.8049  # turned on the scanner")


def test_write_keeps_crlf_line_ends(project):
    before = _unregistered(project, "\r\n")
    assert calibrate(project, "--write").exit_code == 0
    after = _map(project).read_bytes().decode()
    assert after.count("\r\n") == before.count("\r\n") + 4 and "\n" not in after.replace("\r\n", "")


def test_write_with_an_outlier_writes_the_fit_of_the_others(project):
    _unregistered(project)
    r = calibrate(project, "--point", "1410=1460,1339.5", "--write")
    assert r.exit_code == 0 and "fitted without 1410" in r.stdout
    art = parse_yaml(_map(project).read_text(), "map").data["art"]
    assert abs(art["hex_size"] - 118.0) < 0.1 and art["rotation"] == pytest.approx(0.8, abs=0.02)


def test_write_is_refused_when_no_point_explains_the_misfit(project):
    before = _unregistered(project)
    r = calibrate(
        project, "--point", "1410=1460,1339.5", "--point", "0505=660,610", "--point", "0705=700,500", "--write"
    )
    assert r.exit_code == 1 and "was not written" in r.stderr
    assert _map(project).read_text() == before


def test_write_into_a_one_line_art_is_refused(project):
    path = _map(project)
    text = path.read_text()
    one_line = (
        text[: text.index("art:")] + 'art: {image: art/moscow-1941.jpg, points: {"0101": [160, 200], '
        '"1401": [1503.5, 278], "0110": [145, 1262], "1410": [1488.5, 1339.5]}}\n'
    )
    path.write_text(one_line)
    r = calibrate(project, "--write")
    assert r.exit_code == 1 and "written on one line" in r.output
    assert path.read_text() == one_line


def test_set_registration_checks_its_edit():
    fields = {
        "hex_size": "100.000",
        "origin": '{hex: "0101", x: 1.000, y: 2.000}',
        "stretch": "[1.00000, 1.00000]",
        "rotation": "0.0000",
    }
    text = "kind: map\nart:\n  image: a.png\n  origin:\n    hex: '0101'\n    x: 5\n    y: 6\nnote: x\n"
    new = set_registration(text, fields)
    assert new == (
        'kind: map\nart:\n  image: a.png\n  origin: {hex: "0101", x: 1.000, y: 2.000}\n'
        "  hex_size: 100.000\n  stretch: [1.00000, 1.00000]\n  rotation: 0.0000\nnote: x\n"
    )
    with pytest.raises(BlockError):
        set_registration("kind: map\n", fields)
