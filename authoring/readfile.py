"""Reading a file hexwright did not write: only a regular file, and never more than a limit.

A downloaded game can put a named pipe where a card or a map image should be (reading it waits
for ever), or a link to `/dev/zero` (endless bytes; `st_size` is 0 for both). Every input is read
through `read_limited`: the file is opened without blocking, checked to be a regular file on the
open descriptor (no race between the check and the read) and read up to its limit and no further.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_INPUT_BYTES = 20 * 1024 * 1024
"""Largest data file (YAML, CSV) read; a larger one is refused (HW-IO-002)."""
MAX_ART_BYTES = 256 * 1024 * 1024
"""Largest image file read (its pixels are limited separately, before decoding)."""

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


class FileRefused(OSError):
    """A file that is not read: not a regular file, or larger than its limit (`too_big`)."""

    def __init__(self, path: Path | str, reason: str, too_big: bool = False):
        super().__init__(errno.EINVAL, reason, str(path))
        self.path, self.too_big = str(path), too_big

    def __str__(self) -> str:
        return self.strerror or ""  # the reason `__init__` gave (OSError's strerror is optional in general)


def kind_of(mode: int) -> str | None:
    """What a file of this mode is, in words, when it is not a regular file; None for a regular file."""
    return next((name for test, name in _KINDS if test(mode)), None if stat.S_ISREG(mode) else "not a regular file")


def open_regular(path: Path | str, limit: int):
    """`path` opened for reading as a binary file object, after checking on the open descriptor that it
    is a regular file of at most `limit` bytes (for a reader that seeks, such as a zip's)."""
    fd = _open_checked(path, limit)
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def _open_checked(path: Path | str, limit: int) -> int:
    """A descriptor of `path`, opened without blocking and checked to be a regular file of at most `limit` bytes."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)  # non-blocking: opening a named pipe returns at once instead of waiting for a writer
    try:
        st = os.fstat(fd)
        kind = kind_of(st.st_mode)
        if kind is not None:
            raise FileRefused(path, f"is {kind}, not a regular file")
        if st.st_size > limit:
            raise FileRefused(path, _over(st.st_size, limit), too_big=True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_limited(path: Path | str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the regular file `path` (a link is followed to its target), at most `limit` of them.

    Raises `FileRefused` for a named pipe, device, socket or folder (even behind a symbolic link) and for
    a file over `limit` bytes (also one that grows while it is read), and OSError when it cannot be opened."""
    fd = _open_checked(path, limit)
    try:
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileRefused(path, _over(total, limit, more=True), too_big=True)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text_limited(path: Path | str, limit: int = MAX_INPUT_BYTES) -> str:
    """`read_limited` as UTF-8 text (undecodable bytes replaced): for files hexwright itself writes and edits."""
    return read_limited(path, limit).decode("utf-8", errors="replace")


def regular_file(path: Path | str) -> bool:
    """Whether `path` is a regular file (following links), without opening it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _over(size: int, limit: int, more: bool = False) -> str:
    mib = 1024 * 1024
    shown = f"more than {limit / mib:.1f} MiB" if more else f"{size / mib:.1f} MiB"
    return f"file is {shown}, over the {limit // mib} MiB limit"
