"""XML: nothing hexwright reads can expand entities or reach the network, and names written into
buildFile.xml are escaped so `<"&'>` round-trips through the real VASSAL engine."""

from __future__ import annotations

import ast
import json
import subprocess
import zipfile
from pathlib import Path

import pytest
from hw_support import MINI, ROOT, copy_game
from lxml import etree

from authoring.safepath import xml_parser

PACKAGE = ROOT / "authoring"
NASTY = "<\"&'>"
CHECKER = ROOT / ".." / "shared" / "tools" / "vassal-check" / "vassal-check"
READERS = {"parse", "fromstring", "fromstringlist", "XML", "iterparse", "XMLParser"}
XML_MODULES = {"etree", "ET", "ElementTree", "objectify", "lxml"}
UNSAFE_MODULES = ("xml.dom", "xml.sax", "xml.etree", "xml.parsers")


def unsafe_xml_reads(source: str, name: str = "<src>") -> list[str]:
    """Calls that parse XML without the safe parser: lxml readers without `parser=`, XMLParser without
    resolve_entities=False and no_network=True, and any use of the standard library's XML parsers."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"{name}:{node.lineno}: imports {m}" for m in mods if m.startswith(UNSAFE_MODULES)]
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in READERS
            and ast.unparse(node.func.value).split(".")[-1] in XML_MODULES
        ):
            continue
        kw = {k.arg: k.value for k in node.keywords}
        if node.func.attr in ("XMLParser", "iterparse"):
            safe = all(
                isinstance(kw.get(k), ast.Constant) and kw[k].value is v
                for k, v in (("resolve_entities", False), ("no_network", True))
            )
        else:
            safe = "parser" in kw or len(node.args) >= 2
        if not safe:
            found.append(f"{name}:{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_no_unsafe_xml_reads_in_the_package():
    found = [
        f for p in sorted(PACKAGE.rglob("*.py")) for f in unsafe_xml_reads(p.read_text(), str(p.relative_to(ROOT)))
    ]
    assert found == [], "parse XML with authoring.safepath.xml_parser():\n" + "\n".join(found)


def test_the_guard_catches_unsafe_reads():
    bad = (
        "from lxml import etree\nimport xml.dom.minidom\n"
        "etree.fromstring(data)\netree.parse(path)\netree.XMLParser(resolve_entities=True)\n"
    )
    good = (
        "from lxml import etree\nfrom authoring.safepath import xml_parser\n"
        "etree.fromstring(data, parser=xml_parser())\netree.parse(path, xml_parser())\n"
        "etree.XMLParser(resolve_entities=False, no_network=True)\n"
    )
    assert len(unsafe_xml_reads(bad)) == 4
    assert unsafe_xml_reads(good) == []


def test_safe_parser_expands_no_entities(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    xxe = f'<!DOCTYPE x [<!ENTITY e SYSTEM "file://{secret}">]><x>&e;</x>'.encode()
    root = etree.fromstring(xxe, parser=xml_parser())
    assert "TOP-SECRET" not in etree.tostring(root).decode()
    laughs = b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><x>&b;</x>'
    assert len(etree.tostring(etree.fromstring(laughs, parser=xml_parser()))) < 500


@pytest.fixture(scope="module")
def nasty_module(tmp_path_factory) -> Path:
    """The mini game with `<"&'>` in the game name, a counter's name and a scenario name, built to a .vmod."""
    base = tmp_path_factory.mktemp("xml")
    project = copy_game(MINI, base / "project")
    game = project / "scenarios/mini/game.yaml"
    game.write_text(game.read_text().replace("name: Mini Game", f"name: {json.dumps('Mini ' + NASTY)}"))
    units = project / "counters/mini/units.yaml"
    units.write_text(
        units.read_text().replace('designation: "1"\n', f'designation: "1"\n    name: {json.dumps(NASTY)}\n', 1)
    )
    scen = project / "scenarios/mini/intro.yaml"
    text = scen.read_text()
    assert "\nname: " in text
    scen.write_text(text.replace("\nname: ", f"\nname: {json.dumps(NASTY)}\nnote: ", 1))
    r = subprocess.run(
        [*_hexwright(), "build", "module", "mini", "--project", str(project), "--out", str(base / "out")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    return base / "out/mini/mini.vmod"


def _hexwright() -> list[str]:
    import sys

    return [sys.executable, "-m", "authoring.cli"]


@pytest.mark.slow
def test_buildfile_escapes_names(nasty_module: Path):
    with zipfile.ZipFile(nasty_module) as z:
        raw = z.read("buildFile.xml")
        data = z.read("moduledata")
    root = etree.fromstring(raw, parser=xml_parser())
    assert root.get("name") == "Mini " + NASTY
    assert etree.fromstring(data, parser=xml_parser()).findtext("name") == "Mini " + NASTY
    assert any(NASTY in (e.get("name") or "") for e in root.iter())
    assert b"<\"&'>" not in raw  # never written raw


@pytest.mark.slow
@pytest.mark.skipif(not CHECKER.exists(), reason="../shared/tools/vassal-check not found: the engine check cannot run")
def test_nasty_names_round_trip_through_vassal(nasty_module: Path):
    run = subprocess.run([str(CHECKER), str(nasty_module), "--pieces"], capture_output=True, text=True, timeout=300)
    report = json.loads(run.stdout)
    assert (run.returncode, report["errors"]) == (0, []), report["errors"]
    assert report["module_name"] == "Mini " + NASTY
    assert NASTY in [p["piece_name"] for p in report["piece_definitions"]]
    assert NASTY in [s["name"] for s in report["setups"]]
