"""The fuzz harness itself: a timeout fails the case even where the case swallows it (issue 17, class 8)."""

from __future__ import annotations

import time

import harness
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.fuzz]  # slow: the fuzz harness's alarms (seconds of sleeping)


def test_a_swallowed_timeout_still_fails_the_case():
    with pytest.raises(harness.CaseTimeout, match="swallowed"):
        with harness.time_limit(0.05):
            try:
                time.sleep(1)
            except Exception:  # noqa: BLE001 - what a careless `except` in the code under test would do
                pass


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_timeout_in_a_finaliser_still_fails_the_case():
    class Slow:
        def __del__(self):
            time.sleep(1)  # the alarm fires here; Python prints "Exception ignored in ... CaseTimeout"

    with pytest.raises(harness.CaseTimeout):
        with harness.time_limit(0.05):
            Slow()


def test_a_case_in_time_passes():
    with harness.time_limit(5):
        pass
