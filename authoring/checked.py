"""A game loaded and checked by one build, kept for the next when nothing it was read from has changed.

Loading and checking a large game (YAML, schemas, model, rules) takes 0.3-0.4 s, a third of a module
build from cached images, and a build with `--force`, new options or another stage loads the same files
again. A game that loads and checks without errors is kept (pickled) in the build's cache folder,
under a key of everything the load read:

- hexwright's code and schemas, the Python version;
- the working folder (messages show paths relative to it) and the project folder;
- every file the game was found with (data files, the extras beside the manifest, the art in its
  map and counter folders), by path, real path, inode and bytes;
- every file its data named (`safepath.resolve_inside`, recorded while loading: art anywhere in the
  project, the rules summary), by what it was named with, the real path it gave and its bytes, or
  its absence.

Any difference, or an entry that cannot be read, and the game is loaded again. A game with errors is
never kept (its build stops).

Game data often comes from strangers, sometimes with a build folder: an entry planted there must
neither run code nor stand in for the data (its model would skip every check, `safepath`'s among
them). The inodes in the key are this disk's, which no archive carries, so a planted entry's key
never matches and it is not even read; and an entry is read by an unpickler that makes only the
model's classes (`_ModelUnpickler`), never calls a function other than `frozen_map`.
"""
from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

from authoring import atomic
from authoring.cache import code_digest
from authoring.diagnostics import Diagnostic, has_errors
from authoring.load.project import GameFiles, LoadResult
from authoring.load.schemas import SCHEMA_DIR
from authoring.model.game import frozen_map
from authoring.safepath import Resolved, UnsafePath, recorded, resolve_inside

MAGIC = b"hexwright-loaded 1\n"


def load_checked(files: GameFiles, cache_dir: Path | None = None) -> tuple[LoadResult, list[Diagnostic]]:
    """The game of `files`, loaded, and its findings (the loader's and the rules engine's): from
    `cache_dir` when an entry there was read from exactly these files, else loaded, checked and kept there."""
    key = _key(files)
    path = None if cache_dir is None or key is None else Path(cache_dir) / f"{files.id}.pickle"
    kept = None if path is None else _read(path, key)
    if kept is not None:
        return kept
    from authoring.load import load_game
    from authoring.validate import findings
    with recorded() as named:
        result = load_game(files)
    found = findings(result)
    if path is not None and key is not None and not has_errors(found):
        _write(path, key, (_named(named), result, found))
    return result, found


def _key(files: GameFiles) -> bytes | None:
    """Digest of the code, the environment and the files the game was found with (None when one of them
    cannot be read: the load says what is wrong with it)."""
    try:
        return _digest(files)
    except OSError:
        return None


def _digest(files: GameFiles) -> bytes:
    h = hashlib.sha256(MAGIC)
    h.update(code_digest().encode())
    for schema in sorted(SCHEMA_DIR.glob("*.json")):
        _add(h, schema.name, schema.read_bytes())
    _add(h, sys.version, os.getcwd(), str(files.root), os.path.realpath(files.root))
    for p in sorted(set(files.all) | set(files.extras)):
        stat = os.stat(p)
        _add(h, str(p), os.path.realpath(p), f"{stat.st_dev}:{stat.st_ino}", p.read_bytes())
    return h.hexdigest().encode()


def _add(h, *parts: str | bytes) -> None:
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)


def _named(named: Sequence[Resolved]) -> list[tuple[Resolved, str | None]]:
    """Each file the data named, with the digest of its bytes (None: no such file)."""
    return [(call, _content(call[4])) for call in dict.fromkeys(named)]


def _content(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def _unchanged(named: list[tuple[Resolved, str | None]]) -> bool:
    """Every named file still resolves where it did and holds the same bytes (or is still missing)."""
    for (root, relative, what, base, real), content in named:
        try:
            if resolve_inside(root, relative, what, base) != real or _content(real) != content:
                return False
        except (UnsafePath, OSError):
            return False
    return True


def _read(path: Path, key: bytes) -> tuple[LoadResult, list[Diagnostic]] | None:
    """The entry's game and findings, if it was made under `key` and its named files are unchanged."""
    try:
        with open(path, "rb") as fh:
            if fh.readline() != MAGIC or fh.readline().rstrip(b"\n") != key:
                return None
            named, result, found = _ModelUnpickler(fh).load()
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a damaged or outdated entry is loaded again, never trusted
        return None
    if not isinstance(result, LoadResult) or not _unchanged(named):
        return None
    return result, found


def _write(path: Path, key: bytes, entry: tuple) -> None:
    """Keep `entry` (a failure to pickle or to write only costs the next build a load)."""
    buffer = io.BytesIO()
    buffer.write(MAGIC + key + b"\n")
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, MappingProxyType: _reduce_proxy}
    try:
        pickler.dump(entry)
        atomic.write_bytes(path, buffer.getvalue())
    except (pickle.PicklingError, TypeError, AttributeError, OSError):
        return


class _ModelUnpickler(pickle.Unpickler):
    """Makes the classes of the loaded model (records, hexes, locations, findings, paths) and nothing else:
    a pickle can name any importable function to call, and an entry is a file in a folder strangers' games
    may come with."""

    def find_class(self, module: str, name: str) -> object:
        if (module, name) in _CALLABLE:
            return super().find_class(module, name)
        if module == "authoring.load.project" or module.startswith(_MODEL_MODULES):
            found = super().find_class(module, name)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a loaded game")


_MODEL_MODULES = ("authoring.model.", "authoring.hexgrid.", "authoring.diagnostics.")
_CALLABLE = {("authoring.model.game", "frozen_map"), ("pathlib", "PosixPath"), ("pathlib", "WindowsPath")}


def _reduce_proxy(proxy: MappingProxyType) -> tuple:
    """The model's read-only mappings (`frozen_map`), which pickle cannot take as they are."""
    return frozen_map, (dict(proxy),)
