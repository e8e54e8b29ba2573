"""One exception hierarchy (house style 3): a traceback means a bug, never a user mistake."""

from __future__ import annotations

import errno
from types import MappingProxyType

import click


class HexwrightError(click.ClickException):
    exit_code = 1


class BuildError(HexwrightError):
    """An output could not be produced."""


class UsageError(click.UsageError):
    exit_code = 2


class Stopped(BaseException):
    """The command was asked to stop (SIGTERM): raised where it runs, so that every `finally` stops its
    workers and removes its temporary files; the CLI then prints one line. A BaseException, as
    KeyboardInterrupt is, so that no `except Exception` swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_FAULTS = MappingProxyType(
    {
        "ENOSPC": "the disk is full",
        "EDQUOT": "the disk quota is used up",
        "EROFS": "the file system is read-only",
        "EFBIG": "the file is larger than this system allows",
        "EIO": "input/output error",
        "EMFILE": "too many open files",
        "ENFILE": "too many open files",
        "ENOMEM": "out of memory",
        "EACCES": "permission denied",
        "EPERM": "operation not permitted",
    }
)
"""Faults of the machine with a plainer message than the system's; any other OSError naming a file (no
permission, not a folder...) is shown with the system's own words."""


def fault(exc: BaseException | None) -> str | None:
    """A plain message for a fault of the machine (disk full, read-only, no permission...) found in `exc`
    or the exceptions it was raised from; None when `exc` is not such a fault.

    These are the user's environment, not bugs: the CLI reports them with exit code 2."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno is not None:
            name = errno.errorcode.get(exc.errno, "")
            if name in _FAULTS or exc.filename:
                what = _FAULTS.get(name) or exc.strerror or str(exc)
                where = f": {exc.filename}" if exc.filename else ""
                return f"error: {what}{where}"
        exc = exc.__cause__ or exc.__context__
    return None


def fault_help(exc: BaseException | None) -> str | None:
    """The help of the fault behind `exc` when it carries its own (a refused target), else None."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        help_text = getattr(exc, "help", None)
        if isinstance(exc, OSError) and isinstance(help_text, str):
            return help_text
        exc = exc.__cause__ or exc.__context__
    return None
