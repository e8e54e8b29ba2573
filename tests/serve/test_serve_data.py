"""`serve` without a browser: the set-up card a dragged set-up exports, and the last good load kept under an error."""

from __future__ import annotations

import csv
import io

from serve_support import copy_game


def _game(root):
    from authoring.serve.session import Session

    session = Session(root, "bfm")
    return session, session.state("bfm")


def test_exported_card_reads_back_with_its_findings(tmp_path):
    from authoring.serve.cardexport import card_csv, card_findings

    session, st = _game(copy_game("bfm", tmp_path))
    scen = st.good.game.scenarios["seven-turn"]
    rows = [
        {"hex": p.label, "unit": u, "state": p.state or ""} for p in scen.setup if p.side == "soviet" for u in p.units
    ]
    name, clean = card_findings(st.good, scen, "soviet", card_csv(rows))
    assert name == "setup.seven-turn.soviet.csv" and clean == []
    rows[0]["hex"] = "0103"  # onto the German corps there
    text = card_csv(rows)
    assert list(csv.reader(io.StringIO(text)))[1] == ["0103", rows[0]["unit"], "half"]
    _, found = card_findings(st.good, scen, "soviet", text)
    enemy = [f for f in found if f["code"] == "HW-PLACE-003"]
    assert enemy and enemy[0]["hex"] == "0103" and enemy[0]["file"] == name and enemy[0]["line"] == 2


def test_a_broken_file_keeps_the_last_good_load(tmp_path):
    root = copy_game("bfm", tmp_path)
    session, st = _game(root)
    good, gen = st.good, st.gen
    path = root / "scenarios" / "bfm" / "seven-turn.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("setup:", "setup: [", 1), encoding="utf-8")
    st = session.reload("bfm")
    assert st.gen == gen + 1 and st.good is good
    assert st.errors and st.errors[0].loc.file.endswith("seven-turn.yaml") and st.errors[0].loc.line > 0
    path.write_text(text, encoding="utf-8")
    st = session.reload("bfm")
    assert st.errors == [] and st.good is not good and st.gen == gen + 2
    assert session.affected(path) == ["bfm"] and session.affected(root / "maps" / "other" / "x.yaml") == []


def test_a_picture_is_drawn_once_for_requests_that_overlap():
    import threading

    from authoring.serve.session import Cache

    cache, calls, started, release = Cache(), [], threading.Event(), threading.Event()

    def slow():
        calls.append(1)
        started.set()
        release.wait(60)
        return b"png"

    first = threading.Thread(target=lambda: cache.get("map", slow))
    first.start()
    started.wait(60)
    got = []
    second = threading.Thread(target=lambda: got.append(cache.get("map", slow)))
    second.start()
    second.join(0.3)
    assert second.is_alive()  # waiting for the first request's drawing, not drawing again
    release.set()
    first.join(60)
    second.join(60)
    assert got == [b"png"] and calls == [1]


def test_saves_freeze_the_heap_and_a_pause_collects_it(monkeypatch):
    """Before a save what is alive leaves the collector's walk; after `IDLE_S` without a save the heap is
    collected whole (and frozen again); a stopped server leaves nothing frozen. (No clock: the pause is an
    hour while saves come, then none, and the test awaits the collection itself.)"""
    import asyncio
    import gc

    from authoring.serve import live

    monkeypatch.setattr(live, "IDLE_S", 3600.0)
    collected = []
    monkeypatch.setattr(live, "_collect", lambda: collected.append(gc.get_freeze_count()))

    async def run():
        quiet = live.Quiet()
        try:
            gc.unfreeze()
            quiet.saving()
            first = quiet.timer
            assert gc.get_freeze_count() > 0 and collected == []
            await asyncio.sleep(0)  # the first pause starts
            quiet.saving()  # a second save puts the collection off again
            await asyncio.sleep(0)
            assert first.cancelled() and not quiet.timer.done() and collected == []
            monkeypatch.setattr(live, "IDLE_S", 0.0)  # the saves pause
            quiet.saving()
            await quiet.timer
            assert len(collected) == 1 and collected[0] > 0
        finally:
            quiet.close()
        assert gc.get_freeze_count() == 0

    asyncio.run(run())


def test_the_cards_page_lists_only_the_cards_the_build_prints():
    """A side with nothing to set up in a scenario has no card in print, so none on the page either."""
    from types import SimpleNamespace as NS

    from authoring.serve.pages import card_list

    sides = (NS(id="axis", name="Axis"), NS(id="allies", name="Allies"))
    both = NS(id="a", name="A", setup=(NS(side="axis"), NS(side="allies")), off_map=(), reinforcements=())
    one = NS(id="b", name="B", setup=(NS(side="allies"),), off_map=(), reinforcements=())
    for s in (both, one):
        s.withdrawals = s.pools = ()
    game = NS(sides=sides, scenarios={"a": both, "b": one})
    assert [(c["scenario"], c["side"], c["side_name"]) for c in card_list(game)] == [
        ("a", "axis", "Axis"),
        ("a", "allies", "Allies"),
        ("b", "allies", "Allies"),
    ]
