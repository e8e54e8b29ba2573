"""One exception hierarchy (house style 3): a traceback means a bug, never a user mistake."""
from __future__ import annotations

import click


class HexwrightError(click.ClickException):
    exit_code = 1


class DataError(HexwrightError):
    """The data has errors; the diagnostics were already printed."""


class BuildError(HexwrightError):
    """An output could not be produced."""


class UsageError(click.UsageError):
    exit_code = 2
