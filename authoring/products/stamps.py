"""Stamps: a second build with nothing changed reuses what it made.

A module's manifest (`<game>.vmod.manifest.json`): the module's key (`catalogue.module_key`), its size,
its sha256 and its zip writer, sealed with this machine's key and bound to its real path (a rebuild copies the
unchanged members of a module so sealed: `module_written`).

A stage stamp: a stage's digest covers the bytes of the data files it reads (`build.stage_digest` picks
them) by their paths in the project, the build's options and `fingerprint()` (hexwright's code, schemas,
fonts, library versions). An output stamp: a group of one stage's files (a set-up card's pages and PDFs, a
map's image and tiles) is kept when its own key (`products.catalogue`) is unchanged.
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
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from authoring import atomic
from authoring.products.fingerprint import fingerprint
from authoring.trust import identity, read_regular, seal, verify

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


def inputs_digest(
    files: Iterable[Path], options: dict, snapshot: Snapshot | None = None, root: Path | None = None
) -> str:
    """Digest of `files` (by their paths inside `root`, the project, and their bytes, from `snapshot` when
    given), `options` and the fingerprint: two clones of a project digest alike, and two files of one name
    in different folders are told apart."""
    snap = snapshot or Snapshot()
    h = hashlib.sha256(fingerprint().encode())
    for path in sorted(set(map(Path, files))):
        h.update(project_path(path, root).encode())
        h.update(snap.content(path))
    h.update(json.dumps(options, sort_keys=True, default=str).encode())
    return h.hexdigest()


def project_path(path: Path, root: Path | None) -> str:
    """`path` inside `root` (`/`-separated), never an absolute path: a file outside the project (or no
    project given) by its name."""
    if root is not None:
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
        except ValueError:
            pass
    return Path(path).name


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
    atomic.write_text(_stamp(target), f"{STAMP_MAGIC}\n{digest}\n{_tag(target, digest, members).hex()}\n")


def forget(target: Path) -> None:
    """Drop the stamp before rewriting `target`: the next build redoes the stage, even after a kill half-way."""
    atomic.remove(_stamp(target))


# --- output stamps: one group of a stage's files, kept while its own key is unchanged -----------

Group = tuple[Path, tuple[Path, ...]]
"""An output's files: the one its stamp lies beside, and the others the stamp also speaks for."""


def files_key(kind: str, key: str, *options: object) -> str:
    """The stamp digest of a group of files drawn from product key `key` with these writer options."""
    return hashlib.sha256(repr((kind, key, options)).encode()).hexdigest()


def kept(group: Group, key: str) -> bool:
    """The group's files are the ones this machine wrote from `key`, unchanged since."""
    first, *rest = sorted([group[0], *group[1]])
    return up_to_date(first, key, rest)


def keep(groups: dict[str, tuple[Group, str]], force: bool) -> tuple[list[str], list[Path]]:
    """(the ids of the groups to draw again, the files of the others): `groups` is id -> (group, key)."""
    todo, found = [], []
    for gid, (group, key) in groups.items():
        if not force and kept(group, key):
            found += [group[0], *group[1]]
        else:
            todo.append(gid)
    return todo, found


def stamp(paths: Sequence[Path], key: str) -> None:
    """Record the stamp of a group just written (its first file carries it)."""
    first, *rest = sorted(map(Path, paths))
    record(first, key, rest)


# --- the module's manifest ------------------------------------------------------------------

MANIFEST_LIMIT = 1 << 23
"""A manifest names each image member's key: a few hundred bytes a member, for tens of thousands of them."""
Origins = Mapping[str, tuple[str, int]]
"""Archive member -> (image cache key, page index) of the images the module took from its image cache."""


def _manifest_path(target: Path) -> Path:
    return target.with_name(target.name + ".manifest.json")


def module_up_to_date(target: Path, inputs: str) -> bool:
    """The module is the one this machine wrote from `inputs`: its manifest's seal verifies (a manifest
    copied from elsewhere never does) and its size and bytes are those the manifest records."""
    recorded = _manifest(target)
    return recorded is not None and recorded.get("inputs") == inputs and _module_bytes(target, recorded) is not None


def module_written(target: Path, writer: str) -> tuple[bytes, dict[str, tuple[str, int]]] | None:
    """The module's bytes and the origins of its images (`Origins`) when this machine wrote them, from
    whatever inputs, with this zip `writer` (`archive.WRITER`, handed in: this module never loads the zip
    writer, which an up-to-date build does not need): the module an incremental build copies its unchanged
    members from."""
    found = previous_module(target)
    return (found[0], found[2]) if found is not None and found[1] == writer else None


def previous_module(target: Path) -> tuple[bytes, str, dict[str, tuple[str, int]]] | None:
    """The module at `target` when this machine wrote it (its manifest's seal verifies, its size and hash are
    the ones recorded), read once: its bytes, the zip writer that wrote it, and its images' origins; else None
    (a module copied or downloaded into build/ is never read for anything)."""
    recorded = _manifest(target)
    module = _module_bytes(target, recorded) if recorded is not None else None
    if recorded is None or module is None:
        return None
    origins = {name: (key, index) for name, (key, index) in recorded.get("members", {}).items()}
    return module, str(recorded.get("writer", "")), origins


def _manifest(target: Path) -> dict | None:
    """The module's manifest when it is one this machine sealed (its fields checked, not yet the module)."""
    data = read_regular(_manifest_path(target), MANIFEST_LIMIT)
    try:
        recorded = json.loads(data) if data is not None else None
    except ValueError:
        return None
    if not isinstance(recorded, dict):
        return None
    inputs, sha256, size, tag = (recorded.get(k) for k in ("inputs", "sha256", "size", "seal"))
    writer, members = recorded.get("writer", ""), recorded.get("members", {})
    if not _origins_shape(members):
        return None
    if not isinstance(size, int) or not (
        isinstance(inputs, str) and isinstance(sha256, str) and isinstance(tag, str) and isinstance(writer, str)
    ):
        return None
    try:
        sealed = (*_sealed(target, inputs, sha256, size), writer, _origins_text(members))
        return recorded if verify(bytes.fromhex(tag), *sealed) else None
    except ValueError:
        return None


def _module_bytes(target: Path, recorded: dict) -> bytes | None:
    """The module's bytes when they are those `recorded` (its size and sha256)."""
    size = recorded["size"]
    module = read_regular(target, size)
    ok = module is not None and len(module) == size and hashlib.sha256(module).hexdigest() == recorded["sha256"]
    return module if ok else None


def _sealed(target: Path, inputs: str, sha256: str, size: int) -> tuple[str, ...]:
    return ("module", os.path.realpath(target), inputs, sha256, str(size))


def _origins_shape(members: object) -> bool:
    return isinstance(members, dict) and all(
        isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and type(v[1]) is int for v in members.values()
    )


def _origins_text(members: Mapping[str, Sequence[object]]) -> str:
    return json.dumps({name: list(v) for name, v in members.items()}, sort_keys=True, separators=(",", ":"))


def record_module(
    target: Path,
    inputs: str,
    sha256: str,
    size: int,
    compressed: Sequence[str] = (),
    members: Origins | None = None,
    writer: str = "",
) -> None:
    """Write the module's manifest (atomically): what it was made from, its hash and size, the zip writer that
    wrote it, the members that writer compressed (the others were copied: their streams made earlier) and the
    origin of each image member (`Origins`: sealed with the rest, so that the next build takes a member of this
    module for an image on this machine's word only)."""
    origins = {name: [key, index] for name, (key, index) in sorted((members or {}).items())}
    record = {
        "inputs": inputs,
        "sha256": sha256,
        "size": size,
        "writer": writer,
        "compressed": sorted(compressed),
        "members": origins,
        "seal": seal(*_sealed(target, inputs, sha256, size), writer, _origins_text(origins)).hex(),
    }
    atomic.write_bytes(_manifest_path(target), (json.dumps(record, indent=1, sort_keys=True) + "\n").encode())
