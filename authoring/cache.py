"""Content-hashed up-to-date checks: a second build with nothing changed reuses what it made.

An output's digest covers the bytes of every data file of its game, the options it was built
with and hexwright's own code, so any change that could alter the output rebuilds it.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def code_digest() -> str:
    from authoring.bundled import package
    h = hashlib.sha256()
    for path in sorted(package().rglob("*")):
        if path.is_file() and path.suffix in (".py", ".ttf", ".json"):
            h.update(path.relative_to(package()).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def inputs_digest(files: tuple[Path, ...], options: dict) -> str:
    h = hashlib.sha256(code_digest().encode())
    for path in sorted(files):
        h.update(str(path.name).encode())
        h.update(path.read_bytes())
    h.update(json.dumps(options, sort_keys=True, default=str).encode())
    return h.hexdigest()


def _stamp(target: Path) -> Path:
    return target.with_name(f".{target.name}.digest")


def up_to_date(target: Path, digest: str) -> bool:
    stamp = _stamp(target)
    return target.exists() and stamp.exists() and stamp.read_text().strip() == digest


def record(target: Path, digest: str) -> None:
    """Write the stamp through a temporary name unique to this process (two builds never race on it)."""
    from authoring import atomic
    atomic.write_text(_stamp(target), digest + "\n")


def forget(target: Path) -> None:
    """Drop the stamp before rewriting `target`: the next build redoes the stage, even after a kill half-way."""
    from authoring import atomic
    atomic.remove(_stamp(target))
