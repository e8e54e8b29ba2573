"""Find a project's games and load each one: files -> schema -> references -> model.

All problems of a run are collected and returned together; a game with errors still yields
whatever parts resolved, so `validate` can report everything at once.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from authoring import names
from authoring.diagnostics import Diagnostic, Loc, Severity, has_errors
from authoring.diagnostics.codes import (
    HW_CHECK_001,
    HW_DUP_003,
    HW_DUP_004,
    HW_HEX_001,
    HW_HEX_002,
    HW_ID_001,
    HW_ID_002,
    HW_ID_003,
    HW_KIND_001,
    HW_KIND_002,
    HW_MAP_003,
    HW_NAME_001,
    HW_PATH_010,
    HW_REF_002,
    HW_REF_003,
    HW_SCHEMA_006,
    HW_SET_001,
    WHOLE_FILE,
)
from authoring.diagnostics.limits import per_file
from authoring.diagnostics.rows import one_per_column
from authoring.diagnostics.suggest import suggest
from authoring.diagnostics.zeros import padded, zeros_help
from authoring.hexgrid.multimap import check_joinable
from authoring.load import schemas
from authoring.load.argpath import looks_like_path, missing
from authoring.load.columns import CARD_COLUMNS, conform, counter_columns
from authoring.load.context import Ctx
from authoring.load.folders import ART_EXTS, COUNTER_EXTS, YAML_EXTS, unread_files
from authoring.load.overlap import overlap_findings
from authoring.load.reads import Read, ReadLog, Reads
from authoring.load.resolve_art import art_files, resolve_counter_art, resolve_map_art
from authoring.load.resolve_combat import check_markers, combat
from authoring.load.resolve_counters import resolve_counters
from authoring.load.resolve_game import check_named_files, manifest_parts, tables
from authoring.load.resolve_map import resolve_map
from authoring.load.resolve_scenario import resolve_card, resolve_scenario
from authoring.load.source import Source, SourceError, load_source, read_bytes, text_problems
from authoring.model import Counter, Game, Scenario, SetupCard, Table
from authoring.model.game import frozen_map
from authoring.runtime import gc_paused
from authoring.textcodec import is_sheet

MANIFEST = "game.yaml"
TABLES = "tables.yaml"


@dataclass(frozen=True)
class GameFiles:
    id: str
    root: Path
    manifest: Path
    tables: Path | None
    scenarios: tuple[Path, ...]
    maps: tuple[Path, ...]
    counters: tuple[Path, ...]
    extras: tuple[Path, ...] = ()  # other files beside the manifest (a rules summary...), for build digests
    standing_in: tuple[Path, ...] = ()  # files whose text one of the others stands in for (an edit being checked)

    @property
    def all(self) -> tuple[Path, ...]:
        extra = (self.tables,) if self.tables else ()
        return (self.manifest, *extra, *self.maps, *self.counters, *self.scenarios)


@dataclass
class LoadResult:
    game: Game | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: GameFiles | None = None

    @property
    def ok(self) -> bool:
        return self.game is not None and not has_errors(self.diagnostics)

    @property
    def valid_game(self) -> Game:
        """The game, for build stages (they run only after the checks passed)."""
        if self.game is None:
            raise ValueError("the game did not load; build stages run only on a game that validates")
        return self.game

    @property
    def unusable(self) -> tuple[str, ...]:
        """The files an error left unusable (a code of `codes.WHOLE_FILE`: the file did not read, parse or
        fit its schema, a map's grid did not build): the model lacks their parts. Notes and warnings never
        make a file unusable, whatever their code."""
        return tuple(
            dict.fromkeys(
                d.loc.file for d in self.diagnostics if d.loc and d.code in WHOLE_FILE and d.severity is Severity.ERROR
            )
        )

    @property
    def checkable(self) -> bool:
        """Every file loaded (some references may dangle): the rules engine's findings are then real,
        not echoes of a missing file. The one answer of every command to "do the set-up rules run?"."""
        return self.game is not None and not self.unusable

    def not_checked(self) -> list[Diagnostic]:
        """HW-CHECK-001, the note that names what kept the set-up rules from running (none when they ran)."""
        if self.checkable:
            return []
        errors = tuple(dict.fromkeys(d.loc.file for d in self.diagnostics if d.loc and d.severity is Severity.ERROR))
        named = self.unusable or errors or ((display(self.files.manifest),) if self.files else ())
        return [not_checked(named, self.files.id if self.files else None)]


def not_checked(files: tuple[str, ...], game_id: str | None) -> Diagnostic:
    """HW-CHECK-001 at the first of `files`, whose errors kept the set-up rules of the game from running: the
    summary then says the rules were not checked, never "All checks passed"."""
    shown = ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")
    gid = f" of game {game_id!r}" if game_id else ""
    return HW_CHECK_001.at(
        f"the set-up rules{gid} were not checked: {shown} could not be used",
        Loc(files[0]) if files else None,
        help="fix the errors of that file; the set-up rules then run",
    )


def display(path: Path) -> str:
    """A path as users see it in messages: relative to the working folder when inside it."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def find_root(start: Path) -> Path:
    """The project folder: the nearest folder at or above `start` that holds `scenarios/`."""
    start = start.resolve()
    for p in (start, *start.parents):
        if (p / "scenarios").is_dir():
            return p
    return start


def _data_files(folder: Path, exts: tuple[str, ...]) -> tuple[Path, ...]:
    if not folder.is_dir():
        return ()
    return tuple(
        sorted(
            p
            for p in folder.iterdir()
            if p.is_file() and p.suffix.lower() in exts and not p.name.startswith("~$")  # Excel's lock file
        )
    )


def discover(root: Path) -> list[GameFiles]:
    games = []
    for manifest in sorted((root / "scenarios").glob(f"*/{MANIFEST}")):
        gid = manifest.parent.name
        scen = tuple(p for p in _data_files(manifest.parent, YAML_EXTS) if p.name not in (MANIFEST, TABLES))
        tables_path = manifest.parent / TABLES
        extras = tuple(
            p
            for p in sorted(manifest.parent.iterdir())
            if p.is_file() and p.suffix.lower() not in YAML_EXTS and not p.name.startswith(".")
        )
        extras += _art_beside(root, gid)
        games.append(
            GameFiles(
                gid,
                root,
                manifest,
                tables_path if tables_path.exists() else None,
                scen,
                _data_files(root / "maps" / gid, YAML_EXTS),
                _data_files(root / "counters" / gid, COUNTER_EXTS),
                extras,
            )
        )
    return games


def _art_beside(root: Path, gid: str) -> tuple[Path, ...]:
    """Image files in the game's map and counter folders (and below): build digests know them before
    loading (`build.fresh`); art named from elsewhere joins them when the game loads."""
    found = []
    for folder in ("maps", "counters"):
        base = root / folder / gid
        if base.is_dir():
            found += [
                p
                for p in base.rglob("*")
                if p.is_file() and p.suffix.lower() in ART_EXTS and not p.name.startswith(".")
            ]
    return tuple(sorted(found))


def read(
    path: Path, kind: str | None, diags: list[Diagnostic], failed: dict | None = None, reads: ReadLog | None = None
) -> Source | None:
    """Parse and schema-check one file; None (with diagnostics) when it cannot be used.

    `failed` collects the ids of parsed files that failed their schema, so that references to
    them are not reported again as dangling (one mistake, one error). With `reads`, a file whose
    bytes were read before gives what it gave then, without being parsed again."""
    shown = display(path)
    try:
        raw = read_bytes(path, shown)
    except SourceError as exc:
        diags.append(exc.diag)
        if failed is not None:
            failed[f"<{shown}>"] = shown
        return None
    if reads is None:
        return _parse(path, shown, raw, kind, diags, failed)
    found = reads.get(str(path), shown, kind, raw)
    if found is None:
        added: list[Diagnostic] = []
        marks: dict[str, str] = {}
        src = _parse(path, shown, raw, kind, added, marks)
        found = reads.put(str(path), Read(shown, kind, raw, src, tuple(added), tuple(marks.items())))
    diags += found.diags
    if failed is not None:
        failed.update(found.failed)
    return found.src


def _parse(
    path: Path, shown: str, raw: bytes, kind: str | None, diags: list[Diagnostic], failed: dict | None
) -> Source | None:
    """`read` of bytes already read."""
    try:
        src = load_source(path, shown, raw)
    except SourceError as exc:
        diags.append(exc.diag)
        if failed is not None:
            failed[f"<{shown}>"] = shown
        return None
    diags += src.notes
    diags += text_problems(src)
    if is_sheet(path.name):
        conformed, header_diags = conform(
            src, counter_columns() if kind == "counters" else CARD_COLUMNS, counters=kind == "counters"
        )
        diags += header_diags
        if conformed is None:
            if failed is not None:
                failed[f"<{shown}>"] = shown
            return None
        if kind != "counters":
            return conformed
        src = conformed  # already in the counters shape (conform's one pass)
    found = src.data.get("kind") if isinstance(src.data, dict) else None
    if failed is not None and (not isinstance(src.data, dict) or (kind and found != kind)):
        failed[f"<{shown}>"] = shown
    if not isinstance(src.data, dict):
        diags.append(
            HW_SCHEMA_006.at(
                "a data file must be a mapping with a `kind:` key",
                src.loc(()),
                help=f"start the file with `kind: {kind or 'game'}`",
            )
        )
        return None
    if kind and found != kind:
        diags.append(
            HW_KIND_001.at(
                f"expected `kind: {kind}` here, found {found!r}",
                src.loc(("kind",)),
                help=f"files in this folder are {kind} files",
            )
        )
        return None
    kind = kind or found
    if kind not in schemas.KINDS:
        diags.append(
            HW_KIND_002.at(
                f"unknown file kind {found!r}",
                src.loc(("kind",)),
                help=f"use one of: {', '.join(schemas.KINDS)}",
            )
        )
        return None
    found_diags = schemas.validate(src, kind)
    diags.extend(found_diags)
    if found_diags and failed is not None and isinstance(src.data.get("id"), str):
        failed[src.data["id"]] = src.path
    return None if found_diags else src


def _defs(parts: dict, game_src: Source) -> dict:
    ids = lambda items: {x.id for x in items}  # noqa: E731
    return {
        "sides": ids(parts["sides"]),
        "nationalities": ids(parts["nationalities"]),
        "terrain": ids(parts["terrain"]),
        "terrain_order": [t.id for t in parts["terrain"]],
        "hex_features": ids(parts["hex_features"]),
        "hexside_features": ids(parts["hexside_features"]),
        "paths": ids(parts["paths"]),
        "unit_types": ids(parts["unit_types"]),
        "unit_sizes": ids(parts["unit_sizes"]),
        "values": ids(parts["values"]),
        "strength_states": ids(parts["strength_states"]),
        "flags": ids(parts["flags"]),
    }


def _links_out(files: GameFiles) -> list[Diagnostic]:
    """Data files that are symbolic links to outside the project: never read (HW-PATH-010)."""
    root = os.path.realpath(files.root)
    return [
        HW_PATH_010.at(
            f"data file is a symbolic link to {os.path.realpath(p)!r}, outside the project folder",
            Loc(display(p)),
            help="copy the file into the project instead of linking to it",
        )
        for p in files.all
        if not Path(os.path.realpath(p)).is_relative_to(root)
    ]


@gc_paused
def load_game(files: GameFiles, reads: Reads | None = None) -> LoadResult:
    """The game of `files`, with every finding. `reads`, kept by a caller that loads the game again on
    each save, spares parsing the files whose bytes did not change (None: every file is parsed)."""
    if reads is None:
        return _load(files, None)
    log = reads.begin(str(files.manifest))
    result = _load(files, log)
    reads.end(str(files.manifest), log)
    return result


def _load(files: GameFiles, reads: ReadLog | None) -> LoadResult:
    diags: list[Diagnostic] = _links_out(files)
    if diags:
        return LoadResult(None, diags, files)
    game_src = read(files.manifest, "game", diags, reads=reads)
    if game_src is None:  # nothing resolves without the manifest; each other file's own errors still show
        _read_alone(files, diags, reads)
        return LoadResult(None, per_file(one_per_column(diags)), files)
    gctx = Ctx(game_src)
    _check_game_id(gctx, files)
    parts = manifest_parts(gctx)
    check_named_files(gctx, files.root, files.manifest.parent)
    defs = _defs(parts, game_src)
    table_list: tuple[Table, ...] = ()
    combat_spec = None
    tctx = None
    if files.tables:
        tsrc = read(files.tables, "tables", diags, reads=reads)
        if tsrc:
            tctx = Ctx(tsrc)
            _check_game_field(tctx, files.id)
            table_list = tables(tctx)
            combat_spec = combat(tctx, defs, parts["dice"], table_list)
            diags += tctx.diags
    if combat_spec is not None:  # the values combat sums: each counter's must be a number (resolve_counters)
        defs["strengths"] = {combat_spec.attack, combat_spec.defence}
    maps = {}
    map_ctxs: dict[str, Ctx] = {}
    broken: dict[str, str] = {}
    for path in files.maps:
        src = read(path, "map", diags, broken, reads)
        if src is None:
            continue
        ctx = Ctx(src)
        _check_game_field(ctx, files.id)
        mid = src.data["id"]
        if mid in maps:
            ctx.error(HW_DUP_003, f"duplicate map id {mid!r}", ("id",))
        m = resolve_map(ctx, defs, tuple(parts["layout"].get(mid, (0, 0))))
        if m is not None:
            m = resolve_map_art(ctx, files.root, path, m, frozenset(defs["hex_features"]))
        diags += ctx.diags
        if m is not None:
            maps[mid] = m
            map_ctxs[mid] = ctx
        else:
            broken[mid] = src.path
    counters: dict = {}
    seen: dict[str, Loc] = {}
    for path in files.counters:
        src = read(path, "counters", diags, reads=reads)
        if src is None:
            broken["<counters>"] = display(path)
            continue
        ctx = Ctx(src)
        _check_game_field(ctx, files.id)
        made = _file_counters(ctx, defs, seen, reads.entry(str(path), "counters") if reads else None)
        for c in resolve_counter_art(ctx, files.root, path, made, parts["counter_size_in"]):
            counters[c.id] = c
        diags += ctx.diags
    if tctx is not None and counters:  # the markers combat names, once the counters are known
        diags += check_markers(tctx, counters)
    for mid in parts["layout"]:
        gctx.ref(mid, maps, "map", ("layout", mid), code=HW_REF_003)
    if _check_layout(gctx, parts["layout"], maps):
        diags += overlap_findings(tuple(parts["layout"]), maps, map_ctxs)
    if broken:
        gctx.diags = [d for d in gctx.diags if not _cascade(d, broken)]
    else:
        _check_hex_sets(gctx, parts, maps)
    scenarios = {}
    for path in files.scenarios:
        src = read(path, "scenario", diags, reads=reads)
        if src is None:
            continue
        ctx = Ctx(src, follow_on=(lambda d: _cascade(d, broken)) if broken else None)
        _check_game_field(ctx, files.id)
        s = resolve_scenario(ctx, defs, maps, counters)
        diags += ctx.diags
        if s is not None:
            if s.id in scenarios:
                ctx.error(HW_DUP_004, f"duplicate scenario id {s.id!r}", ("id",))
                diags += ctx.diags[-1:]
            scenarios[s.id] = s
    diags += gctx.diags
    game = Game(
        **parts,
        tables=table_list,
        combat=combat_spec,
        maps=frozen_map(maps),
        counters=frozen_map(counters),
        scenarios=frozen_map(scenarios),
        root=str(files.root),
    )
    known = {p.resolve() for p in files.extras}
    art = art_files(maps.values(), counters.values())
    files = replace(files, extras=files.extras + tuple(p for p in art if p.resolve() not in known))
    diags += _name_findings(game)
    were_read = (*files.all, *files.standing_in, *art, *_summary(game_src, files))
    diags += unread_files(files.root, files.id, were_read, display)
    return LoadResult(game, per_file(one_per_column(diags)), files)


def _summary(game_src: Source, files: GameFiles) -> tuple[Path, ...]:
    """The rules summary game.yaml names (a file read into the module's Help), when it names one."""
    name = game_src.data.get("rules_summary")
    return (files.manifest.parent / name,) if isinstance(name, str) else ()


def _file_counters(ctx: Ctx, defs: dict, seen: dict[str, Loc], entry: Read | None) -> list[Counter]:
    """`resolve_counters` of one file, remembered with the file's `entry` (a file the memo kept): it reads
    only the file, `defs`, the ids of the files before it (`seen`) and how many findings it has already."""
    declared = tuple((k, frozenset(v) if isinstance(v, set) else tuple(v)) for k, v in defs.items())
    key = (declared, tuple(seen.items()), len(ctx.diags))  # the per-file cap on findings counts those before
    last = entry.steps.get("counters") if entry is not None else None
    if last is not None and last[0] == key:
        made, found, added = last[1]
        ctx.diags += found
        seen.update(added)
        return list(made)
    before, known = len(ctx.diags), len(seen)
    made = resolve_counters(ctx, defs, seen)
    if entry is not None:  # `seen` only gains ids, in order: the file's are its last ones
        entry.steps["counters"] = (key, (tuple(made), tuple(ctx.diags[before:]), tuple(seen.items())[known:]))
    return made


def _read_alone(files: GameFiles, diags: list[Diagnostic], reads: ReadLog | None) -> None:
    """The findings each data file has on its own (syntax, schema, text, CSV header), for a game whose
    manifest does not load: an error in game.yaml does not hide the other files' errors."""
    kinds = [("tables", files.tables)] if files.tables else []
    kinds += [("map", p) for p in files.maps] + [("counters", p) for p in files.counters]
    kinds += [("scenario", p) for p in files.scenarios]
    for kind, path in kinds:
        read(path, kind, diags, reads=reads)


def _name_findings(game: Game) -> list[Diagnostic]:
    """Ids whose file-name part (names.encode_part) is too long for a portable name (HW-NAME-001). Names are
    injective by construction, so length is the only way an id can fail to become a file name."""
    named = [("counter", c.id, c.loc) for c in game.counters.values()]
    named += [("scenario", s.id, s.loc) for s in game.scenarios.values()]
    named += [("map", m.id, m.loc) for m in game.maps.values()]
    named += [
        (what, x.id, game.loc)
        for what, items in (("side", game.sides), ("table", game.tables), ("strength state", game.strength_states))
        for x in items
    ]
    out = []
    for what, ident, loc in named:
        size = len(names.encode_part(ident))
        if size > names.MAX_PART:
            out.append(
                HW_NAME_001.at(
                    f"{what} id {ident!r} makes a file name part of {size} characters, over "
                    f"the limit of {names.MAX_PART}",
                    loc,
                    help="shorten the id: capitals and '_', '.', '+' take three characters each in file names",
                )
            )
    return out


GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}\Z")
"""A game id names the game's folders (scenarios/<id>/, maps/<id>/, counters/<id>/, build/<id>/) and its module
(<id>.vmod): lowercase letters, digits and '-', so it is the same file name on every system."""


def _check_game_id(ctx: Ctx, files: GameFiles) -> None:
    """The folder rule: a game's `id:` is the name of its folder, and a plain name (HW-ID-001, HW-ID-002)."""
    gid = ctx.src.data.get("id")
    if not isinstance(gid, str):
        return
    if gid != files.id:
        ctx.error(
            HW_ID_001,
            f"game id {gid!r} differs from its folder scenarios/{files.id}/",
            ("id",),
            help=f"a game's id is the name of its folders: write `id: {files.id}`, or rename the folders "
            f"scenarios/, maps/ and counters/{files.id} to {gid}",
        )
    elif not GAME_ID.match(gid) or names.encode_part(gid) != gid:
        ctx.error(
            HW_ID_002,
            f"game id {gid!r} is not a plain name",
            ("id",),
            help="a game id names folders and files: use lowercase letters, digits and '-' (not a device "
            "name such as 'con' or 'nul'), and rename its folders to match",
        )


def _check_game_field(ctx: Ctx, game_id: str) -> None:
    """A data file's `game:` names the game whose folder holds it (HW-ID-003)."""
    named = ctx.src.data.get("game") if isinstance(ctx.src.data, dict) else None
    if named is not None and str(named) != game_id:
        ctx.error(
            HW_ID_003,
            f"this file says `game: {named}` but lies in the folders of game {game_id!r}",
            ("game",),
            help=f"write `game: {game_id}`, or move the file to the folders of {str(named)!r}",
        )


def _check_layout(ctx: Ctx, layout: dict, maps: dict) -> bool:
    """Maps joined by the layout must agree on their shared cells (same parity, one label per cell); whether
    two or more of them join (so the hexes they share can be compared)."""
    joined = {mid: maps[mid].grid for mid in layout if mid in maps}
    if len(joined) < 2:
        return False
    try:
        check_joinable(joined)  # what building a MultiMapLayout would refuse, without its per-cell tables
    except ValueError as exc:
        ctx.error(
            HW_MAP_003,
            f"the maps of the layout do not join: {exc}",
            ("layout",),
            help="check each map's origin and its `shifted` columns: cells on a shared edge must coincide",
        )
        return False
    return True


_CASCADE = frozenset({HW_HEX_001.code, HW_HEX_002.code, HW_REF_003.code})


def _cascade(d: Diagnostic, broken: dict[str, str]) -> bool:
    """A reference error that only follows from another file having failed to load."""
    if d.code in _CASCADE and any(k != "<counters>" for k in broken):
        return True
    return d.code == HW_REF_002.code and "<counters>" in broken


def _hex_set_cycles(hex_sets: dict) -> list[list[str]]:
    """Each cycle of hex sets that name each other through `union` or `except` (once, from its first member)."""
    edges = {
        n: [str(o) for key in ("union", "except") for o in (spec.get(key) or ()) if str(o) in hex_sets]
        for n, spec in hex_sets.items()
    }
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(n: str, trail: list[str]) -> None:  # iterative enough: hex-set chains are short, depth is bounded below
        state[n] = 1
        trail.append(n)
        for m in edges[n]:
            if state.get(m) == 1:
                cycles.append(trail[trail.index(m) :] + [m])
            elif m not in state and len(trail) < 500:
                visit(m, trail)
        trail.pop()
        state[n] = 2

    for n in hex_sets:
        if n not in state:
            visit(n, [])
    return cycles


def _check_hex_sets(ctx: Ctx, parts: dict, maps: dict) -> None:
    for cycle in _hex_set_cycles(parts["hex_sets"]):
        ctx.error(
            HW_SET_001,
            f"hex sets form a cycle: {' -> '.join(cycle)}",
            ("hex_sets", cycle[0]),
            help="a hex set cannot contain itself through `union` or `except`: remove one of these references",
        )
    names = set(parts["hex_sets"])
    feats = {f.id for f in parts["hex_features"]}
    terr = {t.id for t in parts["terrain"]}
    for name, spec in parts["hex_sets"].items():
        path = ("hex_sets", name)
        if "map" in spec:
            ctx.ref(spec["map"], maps, "map", path + ("map",), code=HW_REF_003)
        if "feature" in spec:
            ctx.ref(spec["feature"], feats, "hex feature", path + ("feature",))
        if isinstance(spec.get("terrain"), str):
            ctx.ref(spec["terrain"], terr, "terrain type", path + ("terrain",))
        for i, t in enumerate(spec["terrain"] if isinstance(spec.get("terrain"), list) else ()):
            ctx.ref(t, terr, "terrain type", path + ("terrain", i))
        for key in ("union", "except"):
            for i, other in enumerate(spec.get(key, ())):
                ctx.ref(other, names - {name}, "hex set", path + (key, i))
        for i, label in enumerate(spec.get("hexes", ())):
            if not _on_a_map(str(label), maps):
                wanted = padded(str(label), lambda x: _on_a_map(x, maps))
                ctx.error(
                    HW_HEX_001,
                    f"hex {str(label)!r} of hex set {name!r} is on no map of the game",
                    path + ("hexes", i),
                    help=zeros_help([wanted], "hex id", ctx.src.path) if wanted else "",
                )


def _on_a_map(label: str, maps: dict) -> bool:
    return any(m.grid.label_to_hex(label) is not None for m in maps.values())


def load_project(path: Path) -> tuple[Path, list[LoadResult]]:
    root = find_root(path)
    return root, [load_game(files) for files in discover(root)]


def load_card(
    path: Path, result: LoadResult, scenario: Scenario, side: str | None, text: str | None = None
) -> tuple[SetupCard | None, list[Diagnostic]]:
    """The set-up card at `path` (or `text`: see `read_card`) resolved against `scenario`, and its findings."""
    diags: list[Diagnostic] = []
    src = read_card(path, diags, text)
    if src is None:
        return None, diags
    game = result.game
    assert game is not None  # `scenario` is one of its scenarios
    ctx = Ctx(src)
    defs = {"sides": {s.id for s in game.sides}, "strength_states": {s.id for s in game.strength_states}}
    card = resolve_card(ctx, defs, scenario, dict(game.maps), dict(game.counters), side)
    return card, per_file(one_per_column(diags + ctx.diags))


def card_findings(
    path: Path, result: LoadResult, scenario: Scenario | None, side: str | None, text: str | None = None
) -> list[Diagnostic]:
    """A card's findings when its game has errors, so that those do not hide the card's: all of them when
    every file of the game loaded (`checkable`), else the card's own (syntax, header, cells), since its
    units and hexes could be unknown only because a file of the game failed."""
    if result.checkable and scenario is not None:
        return load_card(path, result, scenario, side, text)[1]
    diags: list[Diagnostic] = []
    read_card(path, diags, text)
    return per_file(diags)


def read_card(path: Path, diags: list[Diagnostic], text: str | None = None) -> Source | None:
    """The set-up card file `path` parsed, or `text` parsed as that file would be: a card that is in no file
    (one dragged on the preview's page), which `path` then only names in its findings."""
    if text is None:
        return read(path, "setup-card", diags)
    return _parse(path, display(path), text.encode("utf-8"), "setup-card", diags, None)


def game_for_path(path: Path) -> tuple[Path, list[GameFiles]]:
    """The games a path names: the project (all games), one game's folder or file, or a file inside one."""
    path = path.resolve()
    root = find_root(path)
    games = discover(root)
    if path == root:
        return root, games
    chosen = [g for g in games if any(path == f or f.is_relative_to(path) for f in g.all) or path == g.manifest.parent]
    return root, chosen


class GameNotFound(LookupError):
    """A command-line argument names no game (the message says what does exist)."""


def select_games(project: Path, arg: str | None = None) -> tuple[Path, list[GameFiles]]:
    """The games a command-line argument names, the one grammar of every command that takes a game.

    `arg` is None (every game of the project), an existing path (the project, a game's folder, or
    a file inside a game), or a game id of the project at `project`. An unknown id raises
    `GameNotFound` with a did-you-mean."""
    if arg is not None and Path(arg).exists():
        return game_for_path(Path(arg))
    root = find_root(project)
    games = discover(root)
    if arg is None:
        return root, games
    chosen = [g for g in games if g.id == arg]
    if not chosen and (looks_like_path(arg) or Path(arg).suffix):
        ids = ", ".join(g.id for g in games) or "none"
        raise GameNotFound(
            str(missing(arg, f"name a game (here: {ids}), the project folder, a game's folder or a file in a game"))
        )
    if not chosen:
        raise GameNotFound(
            f"no game {arg!r} in {display(root)} and no such path; {suggest(arg, [g.id for g in games])}"
        )
    return root, chosen
