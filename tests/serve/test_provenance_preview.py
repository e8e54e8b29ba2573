"""Provenance in the preview (issue 43, item 7): the view and the charts API carry the label of representative
data, the static pages show it, and the map picture has it in its margin; a designer's data carries none."""

from __future__ import annotations

import io
import json
import shutil
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from representative import mark_representative
from serve_support import Served, chrome, wait_for

from authoring.model.provenance import REPRESENTATIVE_LABEL
from authoring.render.maps.frame import NOTICE_INK
from authoring.render.maps.style import rgb

MINI = Path(__file__).resolve().parents[1] / "load" / "mini"


pytestmark = pytest.mark.slow  # a live server


def _mini(root: Path, representative: bool) -> Path:
    shutil.copytree(MINI, root)
    return mark_representative(root) if representative else root


def _get(served: Served, path: str) -> bytes:
    with urllib.request.urlopen(served.url(path), timeout=120) as answer:
        return answer.read()


def _json(served: Served, path: str) -> dict:
    return json.loads(_get(served, path))


def _red(served: Served) -> int:
    """The dark red pixels of the map picture's top-left tile (title, label)."""
    pic = _json(served, "/api/tiles?game=mini&scenario=intro")
    first = next(t for t in pic["tiles"] if t[0] == 0 and t[1] == 0)
    image = Image.open(io.BytesIO(_get(served, f"/img/tile/mini/{first[4]}.png"))).convert("RGB")
    pixels = np.asarray(image, dtype=int)
    return int(np.all(np.abs(pixels - np.array(rgb(NOTICE_INK))) <= 30, axis=-1).sum())


def test_the_preview_labels_representative_data(tmp_path):
    with Served(_mini(tmp_path / "rep", True), "mini") as served:
        view = _json(served, "/api/view?game=mini&scenario=intro")["view"]
        assert view["notice"].startswith(REPRESENTATIVE_LABEL) and "(the forest)" in view["notice"]
        table = _json(served, "/api/charts?game=mini")["tables"][0]
        assert table["source"] == "representative" and table["label"].startswith(REPRESENTATIVE_LABEL)
        assert "(every cell)" in table["label"]
        track = _json(served, "/api/charts?game=mini")["tracks"][0]
        assert track["source"] == "representative" and track["label"] == f"{REPRESENTATIVE_LABEL}."
        page, script = _get(served, "/").decode(), _get(served, "/static/map.js").decode()
        assert 'id="notice"' in page and "view.notice" in script  # the map page shows the view's notice
        pages = _get(served, "/static/pages.js").decode()
        assert "t.label" in pages and "s.label" in pages  # the charts page shows each table's and track's
        assert _red(served) > 30


def test_a_designers_data_carries_no_label_in_the_preview(tmp_path):
    with Served(_mini(tmp_path / "own", False), "mini") as served:
        assert _json(served, "/api/view?game=mini&scenario=intro")["view"]["notice"] == ""
        table = _json(served, "/api/charts?game=mini")["tables"][0]
        assert table["source"] == "designer" and table["label"] == ""
        assert _json(served, "/api/charts?game=mini")["tracks"][0]["label"] == ""
        assert _red(served) == 0


def _page_notices(driver, served: Served) -> tuple[str, list[str]]:
    """The map page's notice (when shown) and the charts page's labels, as a browser shows them."""
    driver.get(served.url("/?game=mini&scenario=intro"))
    wait_for(driver, "document.body.dataset.gen && document.body.dataset.mapkey", 120)
    notice = driver.find_element("id", "notice")
    shown = notice.text if notice.is_displayed() else ""
    driver.get(served.url("/charts?game=mini"))
    wait_for(driver, "document.querySelectorAll('#content img').length >= 2", 120)
    labels = driver.execute_script("return [...document.querySelectorAll('#content .notice')].map(p => p.textContent)")
    return shown, labels


def test_the_pages_show_the_label_in_a_browser(tmp_path):
    driver = chrome()
    try:
        with Served(_mini(tmp_path / "rep", True), "mini") as served:
            shown, labels = _page_notices(driver, served)
            assert shown.startswith(REPRESENTATIVE_LABEL) and "(the forest)" in shown
            assert len(labels) == 2 and all(text.startswith(REPRESENTATIVE_LABEL) for text in labels)
            driver.get("about:blank")
        with Served(_mini(tmp_path / "own", False), "mini") as served:
            assert _page_notices(driver, served) == ("", [])
            driver.get("about:blank")
    finally:
        driver.quit()
