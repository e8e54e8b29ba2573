"""Edits from the page written to the project's data files, safely.

- Only a data file of the game (one of its maps or scenarios), inside the project, is written (`safepath`),
  through a temporary file renamed over it (`author.keep.replace_checked`).
- The page sends the digest of each file as it last read it; a file whose bytes on disk are not those is
  never overwritten (409: the page reloads and says so).
- The new text must read back as exactly the data the edit meant (`yamltext.Doc.checked`), and the game
  loaded with it must have no error it did not have before (422 with the findings; the file stays as it was).
- Every write is kept as (file, bytes before, bytes after): undo puts the bytes before back, redo the bytes
  after, each only while the file still holds what the step left there."""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path

from authoring import atomic
from authoring.author.keep import NotWritten, replace_checked
from authoring.load import load_game
from authoring.load.project import GameFiles
from authoring.model import Game, Map
from authoring.readfile import MAX_INPUT_BYTES, FileRefused, read_limited
from authoring.safepath import UnsafePath, resolve_inside
from authoring.serve import edits
from authoring.serve.body import BadRequest
from authoring.serve.lookup import game_of, scenario_of
from authoring.serve.session import GameState, Session
from authoring.serve.setupview import findings
from authoring.serve.yamltext import Doc, LayoutError

STEPS_KEPT = 200
"""Undo steps kept per game (the oldest go first)."""


class Conflict(BadRequest):
    """The file on disk is not the one the page read (409)."""

    def __init__(self, message: str, file: str) -> None:
        super().__init__(409, message)
        self.file = file


class Refused(BadRequest):
    """The edit would add errors to the game (422): `found` holds them as the page shows findings."""

    def __init__(self, message: str, found: list[dict]) -> None:
        super().__init__(422, message)
        self.found = found


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Step:
    file: str
    """The file's path in the project (POSIX)."""
    before: bytes
    after: bytes
    what: str


@dataclass
class History:
    """One game's undo and redo stacks."""

    done: list[Step] = field(default_factory=list)
    undone: list[Step] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def file_digests(files: GameFiles, root: Path) -> dict[str, str]:
    """The digest of each map and scenario file of the game as it is on disk now, by its path in the project."""
    out = {}
    for path in (*files.maps, *files.scenarios):
        try:
            out[_relative(root, path)] = digest(read_limited(path, MAX_INPUT_BYTES))
        except (OSError, FileRefused, ValueError):
            continue
    return out


def _relative(root: Path, path: Path) -> str:
    return Path(path).resolve().relative_to(root.resolve()).as_posix()


def _target(session: Session, st: GameState, shown_path: str) -> tuple[Path, str]:
    """The real path of one of the game's map or scenario files, and its path in the project; refused
    (403) when it is none of them or lies outside the project (through a link, say)."""
    real = Path(shown_path).resolve()
    if real not in {p.resolve() for p in (*st.files.maps, *st.files.scenarios)}:
        raise BadRequest(403, f"{shown_path} is not a map or scenario file of game {st.files.id!r}")
    try:
        rel = os.path.relpath(real, session.root.resolve())
        if rel.startswith(".."):
            raise UnsafePath(f"{shown_path} is a link to {str(real)!r}, outside the project folder")
        path = resolve_inside(session.root, rel, "edited file")
    except (UnsafePath, ValueError) as exc:
        raise BadRequest(403, f"only files inside the project are written: {exc}") from None
    return path, Path(rel).as_posix()


def _read(path: Path, rel: str) -> bytes:
    try:
        return read_limited(path, MAX_INPUT_BYTES)
    except (OSError, FileRefused) as exc:
        raise BadRequest(409, f"{rel} cannot be read: {exc}") from None


def _check_base(rel: str, raw: bytes, seen: dict) -> None:
    if seen.get(rel) != digest(raw):
        raise Conflict(
            f"{rel} changed on disk since the page read it: it was not written; the page shows it again", rel
        )


def apply(session: Session, data: dict) -> dict:
    """Make the edit `data` names (see `edit.schema.json`) and write its file; what the page shows of it."""
    st = session.state(data["game"])
    if st is None:
        raise BadRequest(404, f"no game {data['game']!r}")
    game = game_of(st)
    kind = data["kind"]
    if kind in ("move", "arrival"):
        _, scen = scenario_of(st, data.get("scenario", ""))
        shown = scen.path
    else:
        shown = _map_of(game, data).path
    path, rel = _target(session, st, shown)
    history = session.history(st.files.id, History)
    with history.lock:
        raw = _read(path, rel)
        _check_base(rel, raw, data.get("files") or {})
        try:
            doc = Doc(raw.decode("utf-8"), rel)
            what = _edit(doc, game, data)
            text = doc.checked()
        except (LayoutError, UnicodeDecodeError) as exc:
            raise BadRequest(400, f"{rel}: {exc}") from None
        try:
            replace_checked(st.files, path, text, what, check=lambda f: list(load_game(f, session.reads).diagnostics))
        except NotWritten as exc:
            n = len(exc.diagnostics)
            message = f"{rel} was left as it was: {what} would add {n} error{'' if n == 1 else 's'}"
            raise Refused(message, findings(exc.diagnostics, session.root)) from None
        after = _read(path, rel)
        history.done.append(Step(rel, raw, after, what))
        del history.done[:-STEPS_KEPT]
        history.undone.clear()
    return _answer(session, st.files.id, rel, after, what)


def _map_of(game: Game, data: dict) -> Map:
    labels = [data["hex"]] if "hex" in data else [h for pair in data.get("hexes", ()) for h in pair]
    for m in game.maps.values():
        if any(m.grid.label_to_hex(label) is not None for label in labels):
            return m
    raise BadRequest(400, f"no map of game {game.id!r} has hex {labels[0] if labels else '(none)'}")


def _edit(doc: Doc, game: Game, data: dict) -> str:
    kind = data["kind"]
    if kind == "move":
        return edits.move_unit(doc, data["unit"], data["to"])
    if kind == "arrival":
        return edits.move_arrival(doc, data["units"], data["turn"], data["to_turn"])
    mp = _map_of(game, data)
    if kind == "paint":
        return edits.paint(doc, game, mp, data["hex"], data["terrain"])
    a, b = _pair_on(mp, data["hexes"])
    return edits.hexside(doc, game, mp, a, b, data["type"])


def _pair_on(mp: Map, hexes: list[list[str]]) -> tuple[str, str]:
    """The labels on map `mp` of the two hexes (each given by all its labels, as the page knows them)."""
    found = [next((label for label in labels if mp.grid.label_to_hex(label) is not None), None) for labels in hexes]
    if None in found:
        raise BadRequest(400, f"both hexes must be on map {mp.id!r}")
    return found[0], found[1]


def step(session: Session, gid: str, back: bool) -> dict:
    """Undo (`back`) or redo the game's last step: the file gets the bytes it had before (after) it,
    only while it holds the bytes the step left (else 409, and the step is kept)."""
    st = session.state(gid)
    if st is None:
        raise BadRequest(404, f"no game {gid!r}")
    history = session.history(st.files.id, History)
    with history.lock:
        stack, other = (history.done, history.undone) if back else (history.undone, history.done)
        if not stack:
            raise BadRequest(409, f"nothing to {'undo' if back else 'redo'}")
        last = stack[-1]
        path, rel = _target(session, st, str(session.root / last.file))
        raw = _read(path, rel)
        expect, put = (last.after, last.before) if back else (last.before, last.after)
        if raw != expect:
            raise Conflict(f"{rel} changed on disk since that edit: not {'undone' if back else 'redone'}", rel)
        atomic.write_bytes(path, put, inside=session.root)
        other.append(stack.pop())
    return _answer(session, st.files.id, rel, put, ("undid " if back else "redid ") + last.what)


def _answer(session: Session, gid: str, rel: str, now: bytes, what: str) -> dict:
    """Reload the game at once (the page asks for the view next; the watcher reloads it again, cheaply), and
    tell the page the file's new digest."""
    st = session.reload(gid)
    history = session.history(gid, History)
    return {
        "ok": True,
        "game": gid,
        "what": what,
        "file": rel,
        "digest": digest(now),
        "gen": st.gen if st else 0,
        "errors": len(st.errors) if st else 0,
        "undo": len(history.done),
        "redo": len(history.undone),
    }
