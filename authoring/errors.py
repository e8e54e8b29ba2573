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


_FAULTS = {
    "ENOSPC": "the disk is full",
    "EDQUOT": "the disk quota is used up",
    "EROFS": "the file system is read-only",
    "EACCES": "permission denied",
    "EPERM": "operation not permitted",
    "EISDIR": "a folder is in the way",
    "ENOTDIR": "a file is in the way of a folder",
    "EEXIST": "a file is in the way",
    "ENAMETOOLONG": "the file name is too long for this file system",
    "EMFILE": "too many open files",
    "EIO": "input/output error",
    "EFBIG": "the file is larger than this system allows",
}


def fault(exc: BaseException) -> str | None:
    """A plain message for a fault of the machine (disk full, read-only, no permission...) found in `exc`
    or the exceptions it was raised from; None when `exc` is not such a fault.

    These are the user's environment, not bugs: the CLI reports them with exit code 2."""
    import errno
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
