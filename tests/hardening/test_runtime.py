"""Process tuning lives in `runtime` and one switch turns it off: the collector pauses while a game loads,
what was loaded stays out of the collector's passes, and `HEXWRIGHT_TUNING=off` leaves the collector alone."""

from __future__ import annotations

import gc

import pytest

from authoring import runtime


@pytest.fixture(autouse=True)
def _collector_on():
    enabled = gc.isenabled()
    gc.enable()
    yield
    gc.unfreeze()
    gc.enable() if enabled else gc.disable()


def test_the_collector_pauses_while_a_game_loads_and_then_keeps_the_game_out_of_its_passes(monkeypatch):
    monkeypatch.delenv(runtime.SWITCH, raising=False)
    seen = runtime.gc_paused(gc.isenabled)()
    frozen_before = gc.get_freeze_count()
    with runtime.kept(lambda: [object() for _ in range(100)]) as made:
        assert len(made) == 100 and gc.get_freeze_count() >= frozen_before + 100 and gc.isenabled()
    assert seen is False and gc.isenabled()


def test_the_switch_turns_the_tuning_off(monkeypatch):
    monkeypatch.setenv(runtime.SWITCH, "off")
    frozen_before = gc.get_freeze_count()
    assert runtime.gc_paused(gc.isenabled)() is True
    with runtime.kept(lambda: [object() for _ in range(100)]):
        assert gc.get_freeze_count() == frozen_before
    with runtime.frozen_model():
        assert gc.isenabled()
    trims: list[int] = []
    monkeypatch.setattr(runtime, "libc", lambda: type("C", (), {"malloc_trim": lambda self, n: trims.append(n)})())
    runtime.trim()
    assert trims == []
    monkeypatch.setenv(runtime.SWITCH, "on")
    runtime.trim()
    assert trims == [0]
