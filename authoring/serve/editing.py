"""Edits from the page written to the project's data files, safely.

- Only a data file of the game (one of its maps or scenarios), inside the project, is written (`safepath`),
  through temporary files renamed over them (`author.keep.replace_all_checked`): a hex two maps print is
  edited in both, or in neither.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from authoring import atomic
from authoring.author.keep import NotWritten, replace_all_checked
from authoring.hexgrid import Hex
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
    files: list[tuple[str, bytes, bytes]]
    """Each file's path in the project (POSIX), its bytes before and after."""
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


def steps(session: Session, gid: str) -> dict[str, int]:
    """How many edits of the game may be undone and redone (the page's Undo and Redo buttons)."""
    history = session.history(gid, History)
    return {"undo": len(history.done), "redo": len(history.undone)}


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
    """Make the edit `data` names (see `edit.schema.json`) and write its files; what the page shows of it."""
    st = session.state(data["game"])
    if st is None:
        raise BadRequest(404, f"no game {data['game']!r}")
    game = game_of(st)
    history = session.history(st.files.id, History)
    with history.lock:
        changes: dict[Path, _Change] = {}
        for shown, edit in _parts(st, game, data):
            path, rel = _target(session, st, shown)
            raw = _read(path, rel)
            _check_base(rel, raw, data.get("files") or {})
            try:
                doc = Doc(raw.decode("utf-8"), rel)
                changes[path] = _Change(rel, raw, doc, edit(doc))
            except (LayoutError, UnicodeDecodeError) as exc:
                raise BadRequest(400, f"{rel}: {exc}") from None
        changes = {p: c for p, c in changes.items() if c.what}
        if not changes:
            raise BadRequest(400, "nothing to change: the data already says so")
        what = next(iter(changes.values())).what or ""
        written = _write(session, st, changes, what)
        done = [(c.rel, c.raw, written[p]) for p, c in changes.items()]  # not read back: a later save is not ours
        history.done.append(Step(done, what))
        del history.done[:-STEPS_KEPT]
        history.undone.clear()
    return _answer(session, st.files.id, {rel: after for rel, _before, after in done}, what)


@dataclass
class _Change:
    rel: str
    raw: bytes
    doc: Doc
    what: str | None


def _write(session: Session, st: GameState, changes: dict[Path, _Change], what: str) -> dict[Path, bytes]:
    """The new texts written, all or none, and their bytes: refused (422) when the game then has an error it
    had not."""
    try:
        texts = {path: c.doc.checked() for path, c in changes.items()}
    except LayoutError as exc:
        raise BadRequest(400, str(exc)) from None

    def check(files: GameFiles) -> list:
        found = list(load_game(files, session.reads).diagnostics)
        for path, c in changes.items():  # again, just before the rename: a save during the check is kept
            _check_base(c.rel, _read(path, c.rel), {c.rel: digest(c.raw)})
        return found

    try:
        replace_all_checked(st.files, texts, what, check=check)
    except NotWritten as exc:
        n = len(exc.diagnostics)
        shown = ", ".join(c.rel for c in changes.values())
        message = f"{shown} left as it was: {what} would add {n} error{'' if n == 1 else 's'}"
        raise Refused(message, findings(exc.diagnostics, session.root)) from None
    return {path: text.encode("utf-8") for path, text in texts.items()}


Edit = Callable[[Doc], "str | None"]


def _parts(st: GameState, game: Game, data: dict) -> list[tuple[str, Edit]]:
    """The files the edit changes (their paths as loaded) and the change to make in each (which says what it
    did, or None when that file already says so). A hex that several maps print is edited in each of them."""
    kind = data["kind"]
    if kind in ("move", "arrival"):
        _, scen = scenario_of(st, data.get("scenario", ""))
        if kind == "move":
            return [(scen.path, lambda doc: edits.move_unit(doc, data["unit"], data["to"]))]
        return [(scen.path, lambda doc: edits.move_arrival(doc, data["units"], data["turn"], data["to_turn"]))]
    if kind == "paint":
        at = _hexes_of(game, [[data["hex"]]])
        return [(m.path, _painter(game, m, labels[0], data["terrain"])) for m, labels in at]
    if kind == "hexside" and "side" in data:
        return _edge_parts(game, data)
    if len(data["hexes"]) != 2:
        raise BadRequest(400, "name the two hexes the side is between (or one hex and its side on the map edge)")
    at = _hexes_of(game, data["hexes"])
    if not at:
        raise BadRequest(400, "no map of the game holds both hexes")
    state: dict = {}
    toggle = edits.hexside if kind == "hexside" else edits.path_link
    return [(m.path, _sider(game, m, labels, data["type"], state, toggle)) for m, labels in at]


def _painter(game: Game, mp: Map, label: str, terrain: str) -> Edit:
    return lambda doc: edits.paint(doc, game, mp, label, terrain)


def _sider(game: Game, mp: Map, labels: list[str], kind: str, state: dict, toggle: Callable = edits.hexside) -> Edit:
    """The hexside (or path) edit on one map: the first map's toggle decides whether the others add or take
    away."""

    def edit(doc: Doc) -> str:
        now = toggle(doc, game, mp, labels[0], labels[1], kind, state.get("want"))
        state["want"] = now
        return f"{kind} between {labels[0]} and {labels[1]} {'added' if now else 'taken away'}"

    return edit


def _edge_parts(game: Game, data: dict) -> list[tuple[str, Edit]]:
    """A side on the map edge: edited on each map that prints the hex with nothing beyond that side."""
    if len(data["hexes"]) != 1:
        raise BadRequest(400, "a side on the map edge is named by one hex and its side")
    d, kind, state = data["side"], data["type"], {}
    at = [
        (m, ls[0]) for m, ls in _hexes_of(game, data["hexes"]) if m.grid.label_to_hex(ls[0]).neighbour(d) not in m.grid
    ]
    if not at:
        raise BadRequest(400, f"that side of {data['hexes'][0][0]} is not on the edge of a map")

    def edge(mp: Map, label: str) -> Edit:
        def edit(doc: Doc) -> str:
            now = edits.edge_side(doc, game, mp, label, d, kind, state.get("want"))
            state["want"] = now
            return f"{kind} on the {mp.grid.direction_name(d)} edge of {label} {'added' if now else 'taken away'}"

        return edit

    return [(m.path, edge(m, label)) for m, label in at]


def _hexes_of(game: Game, hexes: list[list[str]]) -> list[tuple[Map, list[str]]]:
    """Each map that prints every one of the hexes (each given by its ids, as the page knows them), with the
    ids that map prints them under."""
    points = [_hex_of(game, labels) for labels in hexes]
    out = []
    for m in game.maps.values():
        names = m.grid.labels()
        if all(h in names for h in points):
            out.append((m, [names[h] for h in points]))
    return out


def _hex_of(game: Game, labels: list[str]) -> Hex:
    for m in game.maps.values():
        for label in labels:
            h = m.grid.label_to_hex(label)
            if h is not None:
                return h
    raise BadRequest(400, f"no map of game {game.id!r} has hex {labels[0] if labels else '(none)'}")


def step(session: Session, gid: str, back: bool) -> dict:
    """Undo (`back`) or redo the game's last step: its files get the bytes they had before (after) it, only
    while each still holds the bytes the step left (else 409, and the step is kept)."""
    st = session.state(gid)
    if st is None:
        raise BadRequest(404, f"no game {gid!r}")
    history = session.history(st.files.id, History)
    with history.lock:
        stack, other = (history.done, history.undone) if back else (history.undone, history.done)
        if not stack:
            raise BadRequest(409, f"nothing to {'undo' if back else 'redo'}")
        last = stack[-1]
        puts = {}
        for rel, before, after in last.files:
            path, rel = _target(session, st, str(session.root / rel))
            expect, put = (after, before) if back else (before, after)
            if _read(path, rel) != expect:
                raise Conflict(f"{rel} changed on disk since that edit: not {'undone' if back else 'redone'}", rel)
            puts[rel] = (path, put)
        for path, put in puts.values():
            atomic.write_bytes(path, put, inside=session.root)
        other.append(stack.pop())
    return _answer(
        session,
        st.files.id,
        {rel: put for rel, (_p, put) in puts.items()},
        ("undid " if back else "redid ") + last.what,
    )


def _answer(session: Session, gid: str, now: dict[str, bytes], what: str) -> dict:
    """Reload the game at once (the page asks for the view next; the watcher reloads it again, cheaply), and
    tell the page the files' new digests."""
    st = session.reload(gid)
    history = session.history(gid, History)
    return {
        "ok": True,
        "game": gid,
        "what": what,
        "files": {rel: digest(data) for rel, data in now.items()},
        "gen": st.gen if st else 0,
        "errors": len(st.errors) if st else 0,
        "undo": len(history.done),
        "redo": len(history.undone),
    }
