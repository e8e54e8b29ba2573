"""The game's own rules summary is packed into the module and listed under Help."""
from __future__ import annotations

import zipfile

from lxml import etree

from authoring.vassal.compile import build_module


def test_bfm_rules_summary_under_help(bfm, tmp_path):
    path = build_module(bfm, tmp_path / "bfm", px_per_hex=48)
    with zipfile.ZipFile(path) as z:
        summary = z.read("rules_summary.html").decode()
        tree = etree.fromstring(z.read("buildFile.xml"))
    assert "Battle for Moscow: rules summary" in summary
    helps = [e for e in tree.iter() if e.tag.endswith("HelpFile")]
    assert any(e.get("fileName") == "rules_summary.html" and e.get("title") == "Rules summary" for e in helps), \
        [dict(e.attrib) for e in helps]
