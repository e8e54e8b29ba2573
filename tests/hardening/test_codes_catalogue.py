"""The catalogue of finding codes (authoring/diagnostics/codes.py) against the code that raises them and the docs.

Every code the package can report is catalogued, at the severity it is reported at; no catalogued code is
dead; the generated reference page is current and every link in it lands on a real heading.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from authoring.diagnostics import Severity
from authoring.diagnostics.codes import CATALOGUE, HW_STACK_001, render_reference

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"HW-[A-Z]+-\d{3}")
# Functions that report a finding, and the severity they report it at.
_REPORTERS = {
    "error": Severity.ERROR,
    "_fail": Severity.ERROR,
    "ref": Severity.ERROR,
    "report": Severity.ERROR,
    "warning": Severity.WARNING,
    "info": Severity.INFO,
}


def code_uses(paths) -> tuple[dict[str, list[str]], list[tuple[str, Severity, str]]]:
    """Every code literal in `paths` (code -> where), and each reporting call as (code, severity, where)."""
    found: dict[str, list[str]] = {}
    calls: list[tuple[str, Severity, str]] = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for code in CODE.findall(node.value):
                    found.setdefault(code, []).append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func).rsplit(".", 1)[-1]
                args = list(node.args[:1]) + [k.value for k in node.keywords if k.arg == "code"]
                for arg in args:
                    if (
                        name in _REPORTERS
                        and isinstance(arg, ast.Constant)
                        and isinstance(arg.value, str)
                        and CODE.fullmatch(arg.value)
                    ):
                        calls.append((arg.value, _REPORTERS[name], f"{path.name}:{node.lineno}"))
    return found, calls


CATALOGUE_FILE = ROOT / "authoring" / "diagnostics" / "codes.py"


def _package() -> list[Path]:
    return [p for p in sorted((ROOT / "authoring").rglob("*.py")) if p != CATALOGUE_FILE]


@pytest.fixture(scope="module")
def uses():
    return code_uses(_package())


def test_every_code_in_the_package_is_catalogued(uses):
    found, _calls = uses
    missing = {c: where[:3] for c, where in found.items() if c not in CATALOGUE}
    assert not missing, f"codes raised but not in authoring/diagnostics/codes.py: {missing}"


def test_no_catalogued_code_is_dead(uses):
    found, _calls = uses
    dead = [c for c in CATALOGUE if c not in found]
    assert not dead, f"catalogued but never reported: {dead}"


def test_each_code_is_reported_at_its_catalogued_severity(uses):
    _found, calls = uses
    assert len(calls) > 100  # the scan sees the reporting calls at all
    wrong = [
        (c, sev.value, CATALOGUE[c].severity.value, where)
        for c, sev, where in calls
        if c in CATALOGUE and CATALOGUE[c].severity is not sev
    ]
    assert not wrong


def test_the_scan_sees_an_uncatalogued_code_and_a_wrong_severity(tmp_path):
    made = tmp_path / "made.py"
    made.write_text('error("HW-NOPE-001", "x")\nwarning("HW-YAML-001", "y")\n')
    found, calls = code_uses([made])
    assert "HW-NOPE-001" in found and "HW-NOPE-001" not in CATALOGUE
    assert ("HW-YAML-001", Severity.WARNING, "made.py:2") in calls
    assert CATALOGUE["HW-YAML-001"].severity is Severity.ERROR


def test_a_code_means_one_thing():
    meanings = [c.meaning for c in CATALOGUE.values()]
    assert len(set(meanings)) == len(meanings)
    assert CATALOGUE["HW-YAML-007"].meaning != CATALOGUE["HW-YAML-010"].meaning
    assert all(c.meaning and c.hint and c.doc for c in CATALOGUE.values())


def test_the_reference_page_is_current():
    page = (ROOT / "docs" / "codes.md").read_text(encoding="utf-8")
    assert page == render_reference(), "run `hexwright docs codes --write`"
    assert all(f"`{code}`" in page for code in CATALOGUE)


def _slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return {_slug(line.lstrip("#")) for line in lines if line.startswith("#")}


def test_every_reference_lands_on_a_heading():
    broken = []
    for info in CATALOGUE.values():
        path, _, anchor = info.doc.partition("#")
        target = ROOT / path
        if not target.is_file() or (anchor and anchor not in _anchors(target)):
            broken.append((info.code, info.doc))
    assert not broken


def test_the_docs_cite_only_real_codes():
    cited = {}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for code in CODE.findall(page.read_text(encoding="utf-8")):
            cited.setdefault(code, page.name)
    unknown = {c: p for c, p in cited.items() if c not in CATALOGUE}
    assert not unknown


def test_sarif_describes_each_rule(tmp_path):
    import json

    from authoring.diagnostics.format import render_sarif

    doc = json.loads(render_sarif([HW_STACK_001.at("3 units in hex 0101, limit is 2")]))
    rule = doc["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["id"] == "HW-STACK-001"
    assert rule["shortDescription"]["text"] == CATALOGUE["HW-STACK-001"].meaning
