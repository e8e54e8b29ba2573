"""Stable piece slot ids: a module update keeps every surviving counter's slot id and definition, so the
engine's "Refresh Counters" on a saved game finds each piece's own definition."""

from __future__ import annotations

import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import PX_PER_HEX, load
from lxml import etree

from authoring.pipeline.module import write_module as build_module
from authoring.vassal import elements as el
from authoring.vassal import identity
from authoring.vassal.codec import decode, parse_add_piece_command, unnest

pytestmark = pytest.mark.slow  # whole module builds, again


def slots(module: Path) -> dict[str, tuple[str, str]]:
    """CounterId (from the slot's piece) -> (gpid, add-piece text) of every palette slot of a counter."""
    with zipfile.ZipFile(module) as z:
        tree = etree.fromstring(z.read("buildFile.xml"))
    out = {}
    for slot in tree.iter(el.PIECE_SLOT):
        text = slot.text or ""
        if "CounterId" in text:
            out[_counter_id(text)] = (slot.get("gpid"), text)
    return out


def _counter_id(text: str) -> str:
    """The CounterId property's value in a slot's piece: the Marker trait (`mark;k1,k2`, state `v1,v2`)
    whose keys hold it."""
    _, definition = parse_add_piece_command(text)
    for type_, state in zip(unnest(definition.type), unnest(definition.state)):
        if type_.startswith("mark;"):
            keys = decode(type_[len("mark;") :], ",")
            if "CounterId" in keys:
                return decode(state, ",")[keys.index("CounterId")]
    raise AssertionError(f"no CounterId in {text[:80]}")


def test_surviving_counters_keep_slot_id_and_definition_when_counters_are_added_and_removed(tmp_path: Path) -> None:
    game = load("bfm")
    before = slots(build_module(game, tmp_path / "v1", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache"))
    assert set(before) == set(game.counters)
    placed = {u for s in game.scenarios.values() for p in s.setup for u in p.units}
    gone = next(cid for cid in sorted(game.counters) if cid not in placed)
    template = game.counters[next(iter(sorted(placed)))]
    added = {cid: replace(template, id=cid, designation=cid) for cid in ("aaa-new", "zzz-new")}
    counters = {**{k: v for k, v in game.counters.items() if k != gone}, **added}
    updated = replace(game, counters=counters, version="1.1")
    after = slots(build_module(updated, tmp_path / "v2", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache"))
    assert set(after) == set(counters)
    survivors = set(before) - {gone}
    assert {cid: after[cid] for cid in survivors} == {cid: before[cid] for cid in survivors}
    gpids = [int(g) for g, _ in after.values()]
    assert len(set(gpids)) == len(gpids)


def test_slot_ids_do_not_depend_on_the_other_keys() -> None:
    keys = [f"counter:u{i}" for i in range(300)]
    alone = {k: identity.slot_ids("g", [k])[k] for k in keys}
    together = identity.slot_ids("g", keys)
    assert together == alone
    assert identity.slot_ids("other", keys) != together  # a function of the game too
    assert all(identity.FIRST_ID <= v < identity.FIRST_ID + identity.SPAN < 2**31 for v in together.values())


def test_colliding_keys_get_distinct_ids(monkeypatch) -> None:
    monkeypatch.setattr(identity, "SPAN", 7)
    ids = identity.slot_ids("g", [f"k{i}" for i in range(7)])
    assert sorted(ids.values()) == list(range(identity.FIRST_ID, identity.FIRST_ID + 7))
