"""The one way hexwright writes a file: a temporary file beside it, then a rename.

A reader (or a build killed halfway) never sees half a file: the final path holds either the
previous artifact or the complete new one. Permissions follow the umask, as a plain write would.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_MODE = 0o666 & ~_umask()


def write_bytes(path: Path, data: bytes) -> Path:
    """Write `data` to `path` atomically (parents created); returns `path`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, _MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text(path: Path, text: str) -> Path:
    """Write `text` as UTF-8 with LF line ends, atomically."""
    return write_bytes(path, text.replace("\r\n", "\n").encode("utf-8"))
