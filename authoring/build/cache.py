"""Content-hashed up-to-date checks: a second build with nothing changed reuses what it made.

An output's digest covers the bytes of the data files its stage reads (`build.stage_digest` picks
them), the build's options and `fingerprint()` (hexwright's code, schemas, fonts, library versions).
Its stamp (`.<output>.digest` beside it) holds that digest sealed with this machine's key, bound to
the output's real path and to the very files it names (`trust.identity`): a stamp that came with a
downloaded game, or an output replaced since, is a miss and the stage is built again.

A build takes its digests from one `Snapshot` of its inputs, read before the game is loaded, and
checks at its end that no input changed meanwhile (`Snapshot.changed`): a file saved during a build
is never covered by a stamp of outputs drawn from its older bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from authoring.fingerprint import fingerprint
from authoring.trust import identity, read_regular, seal

STAMP_MAGIC = "hexwright-stamp 2"
STAMP_LIMIT = 4096
"""A stamp is a few lines: anything longer is not one."""
_MISSING = b"\0missing"


class Snapshot:
    """Each input file's digest, read once: the bytes a build's stamps speak for."""

    def __init__(self) -> None:
        self._seen: dict[Path, bytes] = {}

    def content(self, path: Path) -> bytes:
        path = Path(path)
        if path not in self._seen:
            self._seen[path] = file_digest(path)
        return self._seen[path]

    def changed(self) -> list[Path]:
        """The inputs whose bytes differ now from when they were first read."""
        return sorted(p for p, seen in self._seen.items() if file_digest(p) != seen)


def file_digest(path: Path) -> bytes:
    """sha256 of a regular file's bytes (links followed: data inside the project may be linked), or a
    marker for anything else; opened without blocking, so a FIFO is never waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return _MISSING
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return _MISSING
        try:
            return hashlib.file_digest(fh, "sha256").digest()
        except OSError:
            return _MISSING


def inputs_digest(files: Iterable[Path], options: dict, snapshot: Snapshot | None = None) -> str:
    """Digest of `files` (by name and bytes, from `snapshot` when given), `options` and the fingerprint."""
    snap = snapshot or Snapshot()
    h = hashlib.sha256(fingerprint().encode())
    for path in sorted(set(map(Path, files))):
        h.update(str(path.name).encode())
        h.update(snap.content(path))
    h.update(json.dumps(options, sort_keys=True, default=str).encode())
    return h.hexdigest()


def _stamp(target: Path) -> Path:
    return target.with_name(f".{target.name}.digest")


def _tag(target: Path, digest: str, members: Iterable[Path]) -> bytes:
    return seal("stamp", os.path.realpath(target), digest, identity(target), *map(identity, members))


def up_to_date(target: Path, digest: str, members: Iterable[Path] = ()) -> bool:
    """`target` (and the `members` it lists) are the files this machine made from `digest`, unchanged since."""
    data = read_regular(_stamp(target), STAMP_LIMIT)
    if data is None:
        return False
    lines = data.split(b"\n")
    if len(lines) < 3 or lines[0] != STAMP_MAGIC.encode() or lines[1] != digest.encode():
        return False
    try:
        tag = bytes.fromhex(lines[2].decode("ascii"))
    except ValueError:
        return False
    members = tuple(members)
    present = identity(target) != "" and all(map(identity, members))
    return present and hmac.compare_digest(tag, _tag(target, digest, members))


def record(target: Path, digest: str, members: Iterable[Path] = ()) -> None:
    """Write the stamp through a temporary name unique to this process (two builds never race on it)."""
    from authoring import atomic

    atomic.write_text(_stamp(target), f"{STAMP_MAGIC}\n{digest}\n{_tag(target, digest, members).hex()}\n")


def forget(target: Path) -> None:
    """Drop the stamp before rewriting `target`: the next build redoes the stage, even after a kill half-way."""
    from authoring import atomic

    atomic.remove(_stamp(target))
