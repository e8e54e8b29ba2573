"""Fuzz profiles: `make test` runs a 500-case slice; `--hypothesis-profile=nightly` (or HYPOTHESIS_PROFILE=nightly)
runs the same tests with 10,000 cases each (`make fuzz`)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

SLICE = 500
NIGHTLY = 10_000

_COMMON = dict(
    deadline=None,
    derandomize=False,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile("nightly", max_examples=NIGHTLY, **_COMMON)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "fuzz: hypothesis-driven mutation of the bundled games "
        "(500 cases by default, 10,000 with --hypothesis-profile=nightly)",
    )


def fuzz_examples(config: pytest.Config, share: float = 1.0) -> int:
    """Cases for one fuzz test: its share of the slice, or of the nightly run when that profile is chosen."""
    chosen = config.getoption("hypothesis_profile", None) or os.environ.get("HYPOTHESIS_PROFILE")
    total = NIGHTLY if chosen == "nightly" else SLICE
    return max(1, round(total * share))


@pytest.fixture
def fuzz_settings(pytestconfig: pytest.Config):
    """`settings(...)` for a fuzz test taking `share` of the run's cases."""

    def make(share: float) -> settings:
        return settings(max_examples=fuzz_examples(pytestconfig, share), **_COMMON)

    return make
