"""The catalogue of finding codes (authoring/diagnostics/codes.py) against the code that reports them and the docs.

A code and its severity are written once, in the catalogue: each code is a constant there (`HW_STACK_001`),
the package makes a finding only with it (`HW_STACK_001.at(message, loc)`), never writes a code as text or
builds a Diagnostic itself, and uses every catalogued code; tools/codemod_codes.py, which rewrote the call
sites, finds nothing left to rewrite. The generated reference page is current and every link in it lands on
a real heading.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import re
import sys
from pathlib import Path

import pytest

from authoring.diagnostics import Loc, Severity
from authoring.diagnostics import codes as catalogue
from authoring.diagnostics.codes import CATALOGUE, HW_STACK_001, HW_YAML_001, CodeInfo, by_code, render_reference

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"HW-[A-Z]+-\d{3}")
CONSTANT = re.compile(r"HW_[A-Z]+_\d{3}")
DIAGNOSTICS = ROOT / "authoring" / "diagnostics"
READ_BACK = {ROOT / "authoring" / "pipeline" / "findings.py"}  # a recorded finding read back, as it was written


def written_codes(paths) -> list[str]:
    """Where a module outside the catalogue writes a code as text, or makes a Diagnostic itself (outside the
    diagnostics package, and but for a finding read back from its record)."""
    out = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and n.body
            and isinstance(n.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if CODE.fullmatch(node.value):
                    out.append(f"{path.name}:{node.lineno}: {node.value}")
            if isinstance(node, ast.JoinedStr) and node.values:
                first = node.values[0]
                if isinstance(first, ast.Constant) and re.fullmatch(r"HW-[A-Z]+-\d*", str(first.value)):
                    out.append(f"{path.name}:{node.lineno}: a code made with an f-string")
            if isinstance(node, ast.Call) and ast.unparse(node.func).rsplit(".", 1)[-1] == "Diagnostic":
                if DIAGNOSTICS not in path.parents and path not in READ_BACK:
                    out.append(f"{path.name}:{node.lineno}: Diagnostic(...) made outside the catalogue")
    return sorted(out)


def _package() -> list[Path]:
    return [p for p in sorted((ROOT / "authoring").rglob("*.py")) if p != DIAGNOSTICS / "codes.py"]


def test_no_module_writes_a_code_as_text():
    assert written_codes(_package()) == []


def test_the_scan_sees_a_code_written_as_text(tmp_path):
    made = tmp_path / "made.py"
    made.write_text(
        '"""HW-YAML-001 in a docstring is prose."""\n'
        'error("HW-NOPE-001", "x")\n'
        'if d.code == "HW-REF-002": pass\n'
        'Diagnostic(Severity.ERROR, code, "m")\n'
        'f"HW-ART-{n:03}"\n'
    )
    assert [w.split(": ", 1)[0] for w in written_codes([made])] == ["made.py:2", "made.py:3", "made.py:4", "made.py:5"]


def test_every_catalogued_code_is_a_constant_of_its_name():
    for code, info in CATALOGUE.items():
        assert getattr(catalogue, code.replace("-", "_")) is info
    constants = {name: value for name, value in vars(catalogue).items() if CONSTANT.fullmatch(name)}
    assert len(constants) == len(CATALOGUE)
    for name, info in constants.items():
        assert isinstance(info, CodeInfo) and info.name == name and CATALOGUE[info.code] is info
        assert isinstance(info.severity, Severity)
        assert info.meaning and info.hint and info.doc and info.stage


def test_a_finding_takes_its_catalogued_severity_and_no_other():
    found = HW_YAML_001.at("YAML syntax error", Loc("a.yaml", 3, 4), help="check the line", hex="0101")
    assert (found.severity, found.code, found.loc, found.help, found.hex) == (
        Severity.ERROR,
        "HW-YAML-001",
        Loc("a.yaml", 3, 4),
        "check the line",
        "0101",
    )
    assert "severity" not in inspect.signature(CodeInfo.at).parameters
    with pytest.raises(TypeError):
        HW_YAML_001.at("m", severity=Severity.WARNING)  # type: ignore[call-arg]
    assert catalogue.HW_ART_021.at("small").severity is Severity.WARNING


def test_a_code_chosen_at_run_time_is_looked_up_and_an_unknown_one_raises():
    assert by_code("HW-STACK-001") is HW_STACK_001
    with pytest.raises(KeyError, match="HW-STACK-999"):
        by_code("HW-STACK-999")


def test_no_catalogued_code_is_dead():
    used = set()
    for path in _package():
        used |= set(CONSTANT.findall(path.read_text(encoding="utf-8")))
    dead = [c for c in CATALOGUE if c.replace("-", "_") not in used]
    assert not dead, f"catalogued but never reported: {dead}"


def _codemod():
    spec = importlib.util.spec_from_file_location("codemod_codes", ROOT / "tools" / "codemod_codes.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # rewrites a copy of every module's source in memory: a few CPU-seconds
def test_the_codemod_finds_nothing_left_to_rewrite(capsys):
    assert _codemod().main(["--check"]) == 0, capsys.readouterr().out


def test_the_codemod_rewrites_a_call_site_once():
    tool = _codemod()
    text = (
        "from authoring.diagnostics import error\n\n\n"
        "def f(loc, d, ctx):\n"
        '    if d.code == "HW-REF-002":\n'
        '        ctx.ref(1, (), "map", (), code="HW-REF-003")\n'
        "    return error(\n"
        '        "HW-YAML-001",  \n'
        '        "bad",\n'
        "        loc,\n"
        '        help="h",\n'
        "    )\n"
    )
    codes = tool.catalogue()
    wrappers = tool.find_wrappers([ast.parse((ROOT / "authoring/load/context.py").read_text())])

    def once(source: str) -> str:
        m = tool.Module(ROOT / "authoring" / "made.py", source, ast.parse(source), False)
        return tool.rewrite(m, codes, wrappers)

    out = once(text)
    assert "from authoring.diagnostics.codes import HW_REF_002, HW_REF_003, HW_YAML_001\n" in out
    assert "d.code == HW_REF_002.code" in out and "code=HW_REF_003)" in out
    assert 'return HW_YAML_001.at(\n        "bad",\n        loc,\n        help="h",\n    )' in out
    assert once(out) == out


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
