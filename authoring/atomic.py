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
from typing import IO

from authoring.safepath import confine, special_kind


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()
TMP_SUFFIX = ".tmp"
_TMP = re.compile(r"\..+\.(\d{1,19})(?:-(\d{1,20}))?\.[^.]+\.tmp\Z")  # .<name>.<pid>-<start>.<random>.tmp


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


def check_replaceable(path: Path) -> None:
    """Raise `NotRegularFile` when a write to `path` would replace something other than a regular file."""
    kind = special_kind(path)
    if kind is not None:
        raise NotRegularFile(path, kind)


def remove(path: Path) -> None:
    """Remove an earlier output (a regular file or a symbolic link), if there; anything else is left as it is."""
    if special_kind(path) is None:
        Path(path).unlink(missing_ok=True)


def write_bytes(path: Path, data: bytes, inside: Path | None = None, follow: bool = False) -> Path:
    """Write `data` to `path` atomically (parents created); returns `path`."""
    return write_chunks(path, (data,), inside, follow)


def write_chunks(path: Path, chunks: Iterable[bytes], inside: Path | None = None, follow: bool = False) -> Path:
    """Write the concatenation of `chunks` to `path` atomically, without joining them first; a regular file
    there that already holds these bytes is left untouched (compared chunk by chunk as they are written).

    With `inside` (the folder the writer writes into), no link on the way from it is followed out of it
    (`safepath.confine`, checked before and again just before the rename); `follow` writes through a final
    link that stays inside (a data file that is a link stays one), else the link itself is replaced."""
    with staged(path, chunks, inside, follow):
        pass
    return Path(path)


@contextmanager
def staged(path: Path, chunks: Iterable[bytes], inside: Path | None = None, follow: bool = False) -> Iterator[Path]:
    """Write `chunks` to a temporary file beside `path` and yield its name. The block may check it (load the
    project with it in the old file's place); it is renamed over `path` when the block ends, and removed when
    the block raises, the old file left byte for byte as it was. `inside`, `follow`: as `write_chunks`."""
    target = _confined(Path(path), inside, follow)
    check_replaceable(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{writer_name()}.", suffix=TMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh, _Same(target) as same:
            for chunk in chunks:
                fh.write(chunk)
                same.feed(chunk)
            unchanged = same.whole()
        os.chmod(tmp, _MODE)
        yield Path(tmp)
        if unchanged:  # the file keeps its inode and time: "written" counts changed bytes only
            os.unlink(tmp)
            return
        check_replaceable(target)  # again: something may have been put there while the bytes were written
        _confined(Path(path), inside, follow)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class _Same:
    """Whether the bytes fed to it are exactly those of the regular file at `path` (never a link's target)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._old: IO[bytes] | None = None
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


def write_text(path: Path, text: str, inside: Path | None = None, follow: bool = False) -> Path:
    """Write `text` as UTF-8 with LF line ends, atomically."""
    return write_bytes(path, text.replace("\r\n", "\n").encode("utf-8"), inside, follow)


def _confined(path: Path, inside: Path | None, follow: bool) -> Path:
    if inside is None:
        return path
    return confine(inside, path, final="follow" if follow else "replace")


def writer_name() -> str:
    """This process as a temporary file's name carries it: `<pid>-<start time>` (see `sweep`)."""
    return f"{os.getpid()}-{_started(os.getpid()) or 0}"


def _started(pid: int) -> int | None:
    """When process `pid` started (clock ticks since boot, from /proc), or None when it is gone or unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat_line = fh.read()
    except OSError:
        return None
    try:
        return int(stat_line.rsplit(b")", 1)[1].split()[19])  # field 22; the name in brackets may hold spaces
    except (IndexError, ValueError):
        return None


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    except (OverflowError, ValueError):  # no process has such a number
        return False
    return True


def _live_writer(pid: int, started: int | None) -> bool:
    """A temporary file named for (`pid`, `started`) may still be being written: that very process runs.

    `started` None (a name without a start time, which hexwright no longer makes: planted, or left by an older
    version) is never a live writer's. Where a live process's start time cannot be read (no /proc), it is trusted."""
    if started is None or not _alive(pid):
        return False
    now = _started(pid)
    return now is None or now == started


def sweep(folder: Path) -> int:
    """Remove temporary files in `folder` that no running writer is writing; returns how many went.

    A writer names its temporary file `.<name>.<pid>-<start>.<random>.tmp`, with its process id and the
    time that process started. A file is left alone only while a process of that id runs and started at
    that time (a concurrent build, a worker of this one, this process's own threads); a killed writer's file
    goes, and so does one whose id a later process reuses, or whose name carries no start time (a file planted
    with the id of some live process, or a temporary file that came with a downloaded build folder)."""
    removed = 0
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return 0
    for p in entries:
        m = _TMP.match(p.name)
        if m and not _live_writer(int(m.group(1)), None if m.group(2) is None else int(m.group(2))):
            try:
                if not p.is_symlink() and special_kind(p) is None:
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
