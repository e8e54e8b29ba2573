"""The one way hexwright writes a file: a temporary file beside it, then a rename.

A reader (or a build killed halfway) never sees half a file: the final path holds either the
previous artifact or the complete new one. Permissions follow the umask, as a plain write would.
"""
from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()
TMP_SUFFIX = ".tmp"
_TMP = re.compile(r"\..+\.(\d+)\.[^.]+\.tmp\Z")   # .<name>.<pid>.<random>.tmp


def write_bytes(path: Path, data: bytes) -> Path:
    """Write `data` to `path` atomically (parents created); returns `path`."""
    return write_chunks(path, (data,))


def write_chunks(path: Path, chunks: Iterable[bytes]) -> Path:
    """Write the concatenation of `chunks` to `path` atomically, without joining them first."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=TMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.writelines(chunks)
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


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
    except PermissionError:   # another user's live process
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
