"""The one way hexwright writes a file: a temporary file beside it, then a rename.

A reader (or a build killed halfway) never sees half a file: the final path holds either the
previous artifact or the complete new one. Permissions follow the umask, as a plain write would.
Only a regular file is ever replaced: a folder, FIFO, socket or device at the path is refused.

A file whose bytes would not change is left as it is (its inode and modification time too): "written"
then means changed, and a build's count of the files it wrote is the count of those whose bytes differ.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()
TMP_SUFFIX = ".tmp"
_TMP = re.compile(r"\..+\.(\d+)\.[^.]+\.tmp\Z")  # .<name>.<pid>.<random>.tmp


_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class NotRegularFile(FileExistsError):
    """The target exists and is not a regular file: a write never replaces it, --force or not.

    Renaming over a device node, a FIFO or a socket would swap it for a plain file (a folder cannot
    be renamed over at all); only a regular file (or a symbolic link, replaced itself) is an output's place."""

    help = "hexwright writes only over regular files: move it away or name another file"

    def __init__(self, path: Path, kind: str):
        super().__init__(errno.EEXIST, f"refusing to replace {kind}", str(path))
        self.kind = kind

    def __reduce__(self):  # raised in a worker process, re-raised in the parent
        return type(self), (Path(self.filename), self.kind)


def special_kind(path: Path) -> str | None:
    """What `path` is when it exists and is neither a regular file nor a symbolic link ("a socket"), else None."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def check_replaceable(path: Path) -> None:
    """Raise `NotRegularFile` when a write to `path` would replace something other than a regular file."""
    kind = special_kind(path)
    if kind is not None:
        raise NotRegularFile(path, kind)


def remove(path: Path) -> None:
    """Remove an earlier output (a regular file or a symbolic link), if there; anything else is left as it is."""
    if special_kind(path) is None:
        Path(path).unlink(missing_ok=True)


def write_bytes(path: Path, data: bytes) -> Path:
    """Write `data` to `path` atomically (parents created); returns `path`."""
    return write_chunks(path, (data,))


def write_chunks(path: Path, chunks: Iterable[bytes]) -> Path:
    """Write the concatenation of `chunks` to `path` atomically, without joining them first; a regular file
    there that already holds these bytes is left untouched (compared chunk by chunk as they are written)."""
    path = Path(path)
    check_replaceable(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh, _Same(path) as same:
            for chunk in chunks:
                fh.write(chunk)
                same.feed(chunk)
            unchanged = same.whole()
        if unchanged:
            os.unlink(tmp)
            return path
        os.chmod(tmp, _MODE)
        check_replaceable(path)  # again: something may have been put there while the bytes were written
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


class _Same:
    """Whether the bytes fed to it are exactly those of the regular file at `path` (never a link's target)."""

    def __init__(self, path: Path) -> None:
        self._path, self._old = path, None
        self._same = True

    def __enter__(self) -> _Same:
        try:
            fd = os.open(self._path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            self._same = False
            return self
        self._old = os.fdopen(fd, "rb")
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            self._stop()
        return self

    def __exit__(self, *exc) -> None:
        self._stop()

    def _stop(self) -> None:
        self._same = False
        if self._old is not None:
            self._old.close()
            self._old = None

    def feed(self, chunk: bytes) -> None:
        if self._old is None:
            return
        try:
            same = self._old.read(memoryview(chunk).nbytes) == chunk
        except OSError:
            same = False
        if not same:
            self._stop()

    def whole(self) -> bool:
        """Every byte fed matched and the file has no more."""
        if self._old is None:
            return False
        try:
            return self._same and self._old.read(1) == b""
        except OSError:
            return False


def write_text(path: Path, text: str) -> Path:
    """Write `text` as UTF-8 with LF line ends, atomically."""
    return write_bytes(path, text.replace("\r\n", "\n").encode("utf-8"))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    return True


def sweep(folder: Path) -> int:
    """Remove temporary files in `folder` left by writers that were killed (their process is gone);
    a live process's temporary file (a concurrent build) is left alone. Returns how many went."""
    removed = 0
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return 0
    for p in entries:
        m = _TMP.match(p.name)
        if m and not _alive(int(m.group(1))):
            try:
                p.unlink()
                removed += 1
            except OSError:
                pass
    return removed


@contextmanager
def swept(folder: Path) -> Iterator[None]:
    """Sweep `folder` before the block, and again when the block fails: a failing stage stops its workers
    mid-write (a full disk, Ctrl-C), and what they were writing goes with them."""
    sweep(folder)
    try:
        yield
    except BaseException:
        sweep(folder)
        raise
