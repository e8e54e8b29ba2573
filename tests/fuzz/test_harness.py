"""The fuzz harness itself: a timeout fails the case even where the case swallows it (issue 17, class 8)."""

from __future__ import annotations

import time

import harness
import pytest


def _work(cpu_seconds: float) -> None:
    """Busy for `cpu_seconds` of CPU (the case's limit counts CPU, not the clock)."""
    end = time.process_time() + cpu_seconds
    while time.process_time() < end:
        pass


pytestmark = [pytest.mark.slow, pytest.mark.fuzz]  # slow: the fuzz harness's timers (seconds of work)


def test_a_swallowed_timeout_still_fails_the_case():
    with pytest.raises(harness.CaseTimeout, match="swallowed"):
        with harness.time_limit(0.05):
            try:
                _work(1)
            except Exception:  # noqa: BLE001 - what a careless `except` in the code under test would do
                pass


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_timeout_in_a_finaliser_still_fails_the_case():
    class Slow:
        def __del__(self):
            _work(1)  # the timer fires here; Python prints "Exception ignored in ... CaseTimeout"

    with pytest.raises(harness.CaseTimeout):
        with harness.time_limit(0.05):
            Slow()


def test_a_case_in_time_passes():
    with harness.time_limit(5):
        pass


def test_a_case_that_waits_is_cut_off_as_a_hang(monkeypatch):
    """A case that uses no CPU (a wait that never ends) is cut off by the clock at HANG_FACTOR times its limit."""
    monkeypatch.setattr(harness, "HANG_FACTOR", 2)
    with pytest.raises(harness.CaseTimeout, match="a hang"):
        with harness.time_limit(0.05):
            time.sleep(5)
