"""What this machine wrote into a build folder, told apart from what came with a downloaded game.

Game folders travel with their `build/` folder: a stamp, a manifest or a cached image found there may
have been made elsewhere, by anyone. Each is sealed with a keyed hash (`seal`) under a secret key made
on first use and kept outside every project (`key_path`: the user's cache folder, mode 0600); one that
does not verify is a miss: the build remakes it, it never becomes an input.

Every such file is read by `read_regular`: without following a symbolic link, only when it is a regular
file, and only up to a size bound (a stamp linked to /dev/zero or a FIFO is a miss, not a hang).
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import os
import stat
from functools import lru_cache
from pathlib import Path

KEY_ENV = "HEXWRIGHT_KEY_DIR"
"""A folder for the key instead of the user's cache folder (tests point it at a scratch folder)."""
KEY_NAME = "key"
KEY_BYTES = 32
TAG_BYTES = 32
"""HMAC-SHA256 (faster than keyed BLAKE2 where the CPU hashes SHA-256 itself)."""


def key_path() -> Path:
    """`$HEXWRIGHT_KEY_DIR/key`, else `$XDG_CACHE_HOME/hexwright/key`, else `~/.cache/hexwright/key`."""
    chosen = os.environ.get(KEY_ENV)
    if chosen:
        return Path(chosen) / KEY_NAME
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "hexwright" / KEY_NAME


def key() -> bytes:
    """This machine's secret key, made on first use."""
    return _key_at(str(key_path()))


@lru_cache(maxsize=4)
def _key_at(path: str) -> bytes:
    """The key kept at `path`, made there when missing or damaged; a key of this process alone when the
    folder cannot hold one (nothing cached then outlives the process: slower, never wrong). Process-wide,
    keyed by the key file's path: a key replaced meanwhile can only turn this process's seals into misses
    elsewhere, never into a wrong hit."""
    try:
        found = _read_key(path)
        if found is None:
            return _make_key(path)
        if found == b"":  # a damaged key of this user's: set aside, a new one made
            os.replace(path, f"{path}.damaged")
            return _make_key(path)
        return found
    except OSError:
        return os.urandom(KEY_BYTES)


def _read_key(path: str) -> bytes | None:
    """The key at `path`, None when there is none, b"" when this user's regular file there is no key;
    PermissionError for anything else there (a link, another user's file)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid():
        raise PermissionError(errno.EACCES, "not a key file of this user", path)
    data = read_regular(Path(path), KEY_BYTES)
    return data if data is not None and len(data) == KEY_BYTES else b""


def _make_key(path: str) -> bytes:
    """Write a new key through a private temporary file, linked into place: two processes making it at
    once agree on the first one linked."""
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(KEY_BYTES))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
    finally:
        os.unlink(tmp)
    found = _read_key(path)
    if not found:
        raise FileNotFoundError(errno.ENOENT, "the key vanished or is damaged", path)
    return found


def seal(*parts: bytes | memoryview | str) -> bytes:
    """A keyed digest of `parts` (each length-prefixed): only this machine's key makes it."""
    h = hmac.new(key(), digestmod=hashlib.sha256)
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def verify(tag: bytes, *parts: bytes | memoryview | str) -> bool:
    return hmac.compare_digest(tag, seal(*parts))


def identity(path: Path) -> str:
    """Which file is at `path` now (device, inode, size, modification time; '' when none): a stamp sealed
    with it no longer holds once the file is replaced, even by a copy with the same bytes."""
    try:
        st = os.lstat(path)
    except OSError:
        return ""
    if not stat.S_ISREG(st.st_mode):
        return ""
    return f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}"


def read_regular(path: Path, limit: int, missing_ok: bool = True) -> bytes | None:
    """The bytes of `path` when it is a regular file (not a link to one) of at most `limit` bytes, else
    None; None too when it is missing (`missing_ok`, else FileNotFoundError). Opened without blocking
    (a FIFO never stalls the read) and without following a link."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if missing_ok:
            return None
        raise
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        chunks, left = [], limit + 1
        while left > 0:  # one read, as a rule: the file's size and one byte more (it may have grown)
            chunk = os.read(fd, min(left, st.st_size + 1))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= limit else None
    finally:
        os.close(fd)
