"""`write_charts` draws each paper's charts once and holds one PDF page at a time: the Letter charts serve both
their PNGs and the Letter PDF, and each page is made only when the PDF writer asks for it (Typhoon's charts
stage held every page of both papers, its largest process beside the other stages)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from authoring.load import discover, load_game
from authoring.render.print import charts

ROOT = Path(__file__).resolve().parents[2]


def test_the_charts_are_drawn_once_a_paper_and_paged_one_page_at_a_time(tmp_path: Path, monkeypatch) -> None:
    game = load_game(next(f for f in discover(ROOT) if f.id == "bfm")).game
    drawn, pages_of = [], {}
    draw = charts.chart_blocks

    def chart_blocks(game, spec):
        drawn.append(spec.paper)
        return draw(game, spec)

    def write_pdf(pages, path, dpi, paper):
        alive = []
        for page in pages:  # the page before this one is gone: nothing but the writer held it
            gc.collect()
            alive.append(sum(ref() is not None for ref in pages_of.setdefault(paper, [])))
            pages_of[paper].append(weakref.ref(page))
            del page
        assert set(alive) == {0}
        path.write_bytes(b"%PDF")
        return path

    monkeypatch.setattr(charts, "chart_blocks", chart_blocks)
    monkeypatch.setattr(charts, "write_pdf", write_pdf)
    paths = charts.write_charts(game, tmp_path)
    assert sorted(drawn) == ["a4", "letter"]
    assert pages_of["letter"] and pages_of["a4"]
    assert [p.name for p in paths[-2:]] == ["charts.a4.pdf", "charts.letter.pdf"]
