"""Provenance in the module (issue 43, item 7): a representative table's chart tab is marked and its image
carries the label, the rules summary (Help) names every representative map and table with the label, and the
board image shows it in its margin; a designer's data shows none of it."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest
from lxml import etree
from PIL import Image
from representative import mark_representative

from authoring.load import discover, load_game
from authoring.model.provenance import REPRESENTATIVE_LABEL
from authoring.pipeline.module import write_module as build_module
from authoring.render.maps.frame import NOTICE_INK, TOP
from authoring.render.maps.style import rgb
from authoring.render.print.charts import NOTICE_INK as CHART_INK
from authoring.vassal import elements as el

MINI = Path(__file__).resolve().parents[1] / "load" / "mini"
PX = 60


pytestmark = pytest.mark.slow  # whole module builds of the bundled games


def _module(root: Path, out: Path) -> tuple[etree._Element, zipfile.ZipFile]:
    result = load_game(next(f for f in discover(root) if f.id == "mini"))
    assert result.ok, [str(d) for d in result.diagnostics][:5]
    path = build_module(result.game, out, px_per_hex=PX, cache_dir=out / ".cache")
    archive = zipfile.ZipFile(path)
    return etree.fromstring(archive.read("buildFile.xml")), archive


def _mini(tmp_path: Path, representative: bool) -> Path:
    root = tmp_path / ("rep" if representative else "own")
    shutil.copytree(MINI, root)
    return mark_representative(root) if representative else root


def _ink(image: Image.Image, box, colour, tolerance: int) -> int:
    pixels = np.asarray(image.convert("RGB").crop(box), dtype=int)
    return int(np.all(np.abs(pixels - np.array(colour)) <= tolerance, axis=-1).sum())


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("provenance")
    return {rep: _module(_mini(tmp, rep), tmp / f"out-{rep}") for rep in (True, False)}


def _chart(tree: etree._Element) -> etree._Element:
    return next(c for c in tree.iter(el.CHART) if c.get("chartName").startswith("Combat Results"))


def _help(tree: etree._Element, archive: zipfile.ZipFile) -> str:
    help_file = next(h for h in tree.iter(el.HELP_FILE) if h.get("title") == "Rules summary")
    return archive.read(help_file.get("fileName")).decode("utf-8")


def test_the_chart_window_marks_and_shows_a_representative_table(modules):
    tree, archive = modules[True]
    chart = _chart(tree)
    assert chart.get("chartName") == "Combat Results (representative)"
    image = Image.open(io.BytesIO(archive.read("images/" + chart.get("fileName"))))
    assert _ink(image, (0, 0, image.width, image.height), CHART_INK, 20) > 20


def test_the_chart_window_marks_a_representative_turn_record(modules):
    names = [c.get("chartName") for c in modules[True][0].iter(el.CHART)]
    assert "Turn record: Introduction (representative)" in names
    assert "Turn record: Introduction" in [c.get("chartName") for c in modules[False][0].iter(el.CHART)]


def test_the_help_names_the_representative_map_and_table_with_the_label(modules):
    tree, archive = modules[True]
    page = etree.fromstring(_help(tree, archive), etree.HTMLParser())
    section = next(h for h in page.iter("h2") if h.text == "Representative data")
    listed = [" ".join(li.itertext()) for li in section.getnext().getnext().iter("li")]
    assert any(text.startswith("Mini Board:") and "(the forest)" in text for text in listed)
    assert any(text.startswith("Combat Results:") and "(every cell)" in text for text in listed)
    assert any(text.startswith("Turn record: Introduction:") for text in listed)
    assert all(REPRESENTATIVE_LABEL in text for text in listed)
    tables = [" ".join(li.itertext()) for li in page.iter("li") if "Combat Results" in " ".join(li.itertext())]
    assert len(tables) == 2 and all(REPRESENTATIVE_LABEL in t for t in tables)  # the Tables list too


def test_the_board_image_shows_the_label_in_its_margin(modules):
    tree, archive = modules[True]
    board = next(b for b in tree.iter(el.BOARD))
    image = Image.open(io.BytesIO(archive.read("images/" + board.get("image"))))
    assert _ink(image, (0, 0, image.width, int(TOP * PX)), rgb(NOTICE_INK), 30) > 30


def test_a_designers_data_shows_no_label_anywhere(modules):
    tree, archive = modules[False]
    assert _chart(tree).get("chartName") == "Combat Results"
    summary = _help(tree, archive)
    assert REPRESENTATIVE_LABEL not in summary and "Representative data" not in summary
    board = next(b for b in tree.iter(el.BOARD))
    image = Image.open(io.BytesIO(archive.read("images/" + board.get("image"))))
    assert _ink(image, (0, 0, image.width, int(TOP * PX)), rgb(NOTICE_INK), 10) == 0
