"""Build stages: read and check everything first, then write each artifact atomically (house style 4, 5).

`STAGES` lists them in the order a build shows them; each is a function ``build_<stage>(result, out, ctx,
digest)`` that takes the loaded game, its output folder and the build's `BuildContext`, and returns the
`Outputs` it left there. What each reads (the digest its outputs are stamped with) is `STAGE_DATA`.

| stage   | writes                               | draws with                          | reads (`STAGE_DATA`)      |
| ------- | ------------------------------------ | ----------------------------------- | ------------------------- |
| module  | `<game>.vmod` (and its manifest)     | vassal.compile, products.images     | every data file           |
| sheets  | `counters-<game>-<paper>.pdf`        | render.print.sheets, a sheet a job  | counters                  |
| maps    | `maps/`: map PNGs, tiled print maps  | render.print.tiles, a map a job     | maps                      |
| cards   | `cards/`: set-up cards, PDF and PNG  | render.print.cards, a card a job    | maps, counters, scenarios |
| charts  | `charts/`: tables, turn records      | render.print.charts (serial)        | scenarios, tables         |

In `build all` the module takes the set-up card pages the cards stage draws beside it (`build_cards`'s
`also`, `build_module`'s wait for the cards stage), rather than drawing them twice.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import MappingProxyType

from PIL import Image

from authoring import atomic, names
from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_ART_001, HW_ART_021
from authoring.errors import BuildError
from authoring.load import LoadResult
from authoring.load.resolve_art import counter_art_findings
from authoring.model import Game
from authoring.names import natural_key
from authoring.pipeline import findings
from authoring.pipeline.context import BuildContext, SheetSettings
from authoring.pipeline.incremental import (
    cached_index,
    cached_sheets,
    card_files,
    card_pages_to,
    chart_files,
    map_files,
    sheet_cache_dir,
    sheet_faces,
)
from authoring.pipeline.module import write_module
from authoring.products.catalogue import sheet_page_keys
from authoring.products.maptiles import KIND, MapPieces, tiles_kept
from authoring.products.stamps import Snapshot, forget, inputs_digest, record, up_to_date
from authoring.products.store import cache_dir
from authoring.render.counter_art import back_state
from authoring.render.print.sheets import SheetItem, SheetOptions, sheet_pngs, write_sheets_pdf
from authoring.render.print.tiles import write_map_files
from authoring.trust import identity, read_regular

STAGES = ("module", "sheets", "maps", "cards", "charts")


@dataclass(frozen=True)
class Outputs:
    """What a stage leaves in the output folder: its files, whether they were reused unchanged, and the
    findings it made while drawing (text shortened to fit a counter, art too small for print)."""

    paths: tuple[Path, ...]
    reused: bool = False
    warnings: tuple[Diagnostic, ...] = ()
    kept: frozenset[Path] = frozenset()
    """Of `paths`, those a stage that ran left as they were: not drawn again (their own inputs unchanged),
    or drawn to the very bytes already there (`atomic` then leaves the file untouched)."""

    @property
    def written(self) -> tuple[Path, ...]:
        """The files whose bytes this stage changed (none when it was reused)."""
        return () if self.reused else tuple(p for p in self.paths if p not in self.kept)


def identities(paths) -> dict[Path, str]:
    """Which file is at each path now (`trust.identity`), to tell afterwards which ones a stage replaced."""
    return {Path(p): identity(p) for p in paths}


def folder_identities(folder: Path) -> dict[Path, str]:
    """`identities` of the regular files directly in `folder` (none when it is missing)."""
    try:
        with os.scandir(folder) as listing:
            return identities(Path(e.path) for e in listing if e.is_file(follow_symlinks=False))
    except OSError:
        return {}


def unchanged(before: dict[Path, str], paths) -> frozenset[Path]:
    """Of `paths`, those still the files `before` saw: a file written again is a new file (a rename), and
    one whose bytes would not change is never written again (`atomic`), so these are the unchanged ones."""
    return frozenset(p for p in map(Path, paths) if before.get(p) and before[p] == identity(p))


# --- freshness: skip a stage (or the whole load) when its inputs are unchanged --------------


def stage_digest(files, stage: str, sheets: SheetSettings | None = None, snapshot: Snapshot | None = None) -> str:
    """Digest of exactly what a stage's outputs are drawn from: the game's files of the kinds it reads
    (`stage_files`, by their paths in the project), hexwright's fingerprint and its options."""
    return inputs_digest(
        stage_files(files, stage),
        {"stage": stage, "sheets": asdict(sheets) if stage == "sheets" and sheets else None},
        snapshot,
        files.root,
    )


def data_digest(files, snapshot: Snapshot | None = None) -> str:
    """Digest of what the data's findings (`validate`'s) are drawn from: every file of the game (those the
    module stage reads, which reads them all) and hexwright's fingerprint."""
    return inputs_digest(stage_files(files, "module"), {"findings": "data"}, snapshot, files.root)


def stage_digests(files, stages: tuple[str, ...], sheets: SheetSettings, snapshot: Snapshot) -> dict[str, str]:
    return {stage: stage_digest(files, stage, sheets, snapshot) for stage in stages}


ALL_STAGES = frozenset(STAGES)
STAGE_DATA = MappingProxyType(
    {
        "maps": frozenset({"maps", "module", "cards"}),
        "counters": frozenset({"module", "sheets", "cards"}),
        "scenarios": frozenset({"module", "cards", "charts"}),
        "tables": frozenset({"module", "charts"}),
    }
)
"""The stages that read each kind of data file (game.yaml and the files beside it feed every stage): a
counter edit never redraws a map, a map edit never redraws a counter sheet. Charts draw the tables, the
terrain key (game.yaml) and each scenario's turn record; set-up cards show the maps' grids, not their art."""
ART_STAGES = MappingProxyType(
    {"maps": frozenset({"maps", "module"}), "counters": frozenset({"module", "sheets", "cards"})}
)
"""The stages that show map art and counter art: editing an image rebuilds only what uses it."""


def stage_files(files, stage: str) -> tuple[Path, ...]:
    """The game's files that `stage` reads: the manifest, the data files of the kinds it draws from
    (`STAGE_DATA`), the art it shows and the other files beside the manifest."""
    kinds = {
        "maps": files.maps,
        "counters": files.counters,
        "scenarios": files.scenarios,
        "tables": (files.tables,) if files.tables else (),
    }
    data = [p for kind, paths in kinds.items() if stage in STAGE_DATA[kind] for p in paths]
    extras = [p for p in files.extras if stage in _extra_stages(files.root, p)]
    return (files.manifest, *data, *extras)


def _extra_stages(root: Path, path: Path) -> frozenset[str]:
    """The stages that read a file beside the data: art its stages, a set-up card (CSV) the scenarios' stages,
    anything else (a rules summary) every stage."""
    if path.suffix.lower() in (".csv", ".tsv"):
        return STAGE_DATA["scenarios"]
    return ART_STAGES.get(_art_kind(root, path), ALL_STAGES)


def _art_kind(root: Path, path: Path) -> str:
    """ "maps" or "counters" for an image file in those folders (art), else ""."""
    if path.suffix.lower() not in (".png", ".jpg", ".jpeg", ".svg"):
        return ""
    try:
        folder = path.resolve().relative_to(Path(root).resolve()).parts[0]
    except ValueError:
        return ""
    return folder if folder in ART_STAGES else ""


def stage_target(game_id: str, stage: str, out: Path, sheets: SheetSettings) -> Path:
    if stage == "sheets":
        return out / sheets_name(game_id, sheets)
    if stage == "module":  # vassal.compile names it; a game id is a plain name (see names.GAME_ID)
        return out / f"{names.dir_name(game_id)}.vmod"
    return out / stage / "index.txt"


def fresh(
    files, stages: tuple[str, ...], out: Path, sheets: SheetSettings, digests: dict[str, str] | None = None
) -> bool:
    """True when every stage's output exists and was built from exactly these inputs (`digests`, by stage)."""
    digests = digests or stage_digests(files, stages, sheets, Snapshot())
    return all(_done(stage_target(files.id, st, out, sheets), digests[st], st) for st in stages)


def fresh_outputs(files, stages: tuple[str, ...], out: Path, sheets: SheetSettings) -> tuple[Path, ...]:
    """The files the stages of a `fresh` game hold (what a build that reuses them counts as up to date)."""
    found: list[Path] = []
    for stage in stages:
        target = stage_target(files.id, stage, out, sheets)
        found += [target] if target.name != "index.txt" else list(index_members(target))
    return tuple(found)


INDEX_LIMIT = 1 << 20
"""An index lists a stage's file names: a megabyte is thousands of them."""


def index_members(marker: Path) -> tuple[Path, ...]:
    """The files a stage folder's `index.txt` lists (none when it is missing, too big or not a plain name list)."""
    data = read_regular(marker, INDEX_LIMIT)
    try:
        names = [] if data is None else data.decode("utf-8").split()
    except UnicodeDecodeError:
        return ()
    if any("/" in n or n in (".", "..") for n in names):
        return ()
    return tuple(marker.parent / n for n in names)


def _done(target: Path, digest: str, stage: str) -> bool:
    """The stage's output is there and stamped with `digest` (a module also needs its manifest, which
    a build killed during --force may have lost: the next build then restores it; the sheets the record of
    the warnings their drawing found, which an up-to-date build quotes)."""
    members = index_members(target) if target.name == "index.txt" else ()
    return (
        up_to_date(target, digest, members)
        and (stage != "module" or _manifest(target).is_file())
        and (stage != "sheets" or findings.quoted(findings.stage_record(target), digest) is not None)
    )


def forget_stage(game_id: str, stage: str, out: Path, sheets: SheetSettings) -> None:
    """Drop a stage's stamp (and a module's manifest): the next build makes its outputs again."""
    target = stage_target(game_id, stage, out, sheets)
    forget(target)
    findings.forget(findings.stage_record(target))
    if stage == "module":
        atomic.remove(_manifest(target))


def _manifest(module: Path) -> Path:
    return module.with_name(module.name + ".manifest.json")


# --- stages -------------------------------------------------------------------------------


def build_sheets(result: LoadResult, out: Path, ctx: BuildContext | None = None, digest: str | None = None) -> Outputs:
    """The counter sheets PDF. Text that had to be shortened or left out to stay legible comes back in
    the outputs' warnings as located diagnostics (HW-ART-001), one per counter face. `digest`: the stage's
    (`stage_digest`), when the caller took it from the snapshot the game was loaded after."""
    ctx = ctx or BuildContext()
    game, s = result.valid_game, ctx.sheets
    opts = sheet_options(game, s)
    target = out / sheets_name(game.id, s)
    digest = digest or stage_digest(result.files, "sheets", s)
    found = findings.quoted(findings.stage_record(target), digest)
    if not ctx.force and found is not None and up_to_date(target, digest):
        return Outputs((target,), reused=True, warnings=found)
    specs, items = _sheet_specs(game)
    forget(target)
    out.mkdir(parents=True, exist_ok=True)
    issues: dict = {}
    before = identities([target])
    cache = sheet_cache_dir(out)
    faces = sheet_faces(cache, game, opts)
    with atomic.swept(out):
        write_sheets_pdf(
            items,
            opts,
            target,
            f"{game.name} - counters",
            ctx.progress,
            render=lambda sheets: cached_sheets(
                sheets,
                sheet_page_keys(game, specs, opts),
                cache,
                lambda missing: _render_sheets(game, specs, opts, faces, missing, ctx),
                issues,
            ),
            index=cached_index(cache),
        )
    warnings = tuple(_fit_warnings(game, issues) + art_warnings(result, opts.counter_in))
    findings.keep(findings.stage_record(target), digest, warnings)
    record(target, digest)
    return Outputs((target,), warnings=warnings, kept=unchanged(before, [target]))


def art_warnings(result: LoadResult, counter_in: float) -> list:
    """The load's findings about the designer's art (a misread calibration point, art not square...),
    repeated by the build, with art too small for 300 dpi judged at the counter size being printed."""
    found = [
        d
        for d in result.diagnostics
        if d.code.startswith("HW-ART-") and d.code not in (HW_ART_001.code, HW_ART_021.code)
    ]
    return found + counter_art_findings(result.valid_game.counters.values(), counter_in)


def _fit_warnings(game: Game, issues: dict) -> list:
    out = []
    for (cid, state), found in sorted(issues.items()):
        for issue in found:
            out.append(
                HW_ART_001.at(
                    f"{cid} ({state} face): {issue.message}",
                    game.counters[cid].loc,
                    help="shorten the text in the data, or print larger counters (--counter-size)",
                )
            )
    return out


def sheet_options(game: Game, s: SheetSettings):
    return SheetOptions(
        paper=s.paper,
        counter_in=s.counter_in or game.counter_size_in,
        dpi=s.dpi,
        bleed_mm=s.bleed_mm,
        bleed_outer_only=s.bleed_outer_only,
        duplex=s.duplex,
        back_offset_mm=(s.back_offset_mm[0], s.back_offset_mm[1]),
        cut_marks=s.cut_marks,
        cut_lines=s.cut_lines,
    )


def sheets_name(game_id: str, s: SheetSettings) -> str:
    return names.file_name("counters", game_id, s.paper, ext="pdf")


def _sheet_specs(game: Game):
    """One entry per physical counter (quantity honoured), and name-only items for the layout and index."""

    blank = Image.new("RGB", (1, 1))
    specs, items = [], []
    for c in sorted(game.counters.values(), key=_sheet_order(game)):
        name = c.display_name if c.marker else f"{c.designation or c.id} ({c.id})"
        for _ in range(c.quantity):
            specs.append(c.id)
            items.append(SheetItem(name, blank, blank if back_state(game, c) else None))
    return specs, items


def _sheet_worker(shared: tuple, sheet):
    """Draw one sheet in a worker: render just the faces it holds, then its two pages. `shared`: (the game,
    the counter of each item, the sheet options, the face drawer), which the worker has from the fork."""
    game, specs, opts, render_face = shared
    faces: dict = {}
    issues: dict = {}

    def face(cid: str, state: str):
        if (cid, state) not in faces:
            faces[(cid, state)], issues[(cid, state)] = render_face(game.counters[cid], state)
        return faces[(cid, state)]

    items = {}
    for p in sheet.placements:
        c = game.counters[specs[p.item]]
        back = back_state(game, c)
        items[p.item] = SheetItem(p.name, face(c.id, c.faces[0].state), face(c.id, back) if back else None)
    return sheet_pngs(sheet, items, opts), {k: v for k, v in issues.items() if v}


def _render_sheets(game: Game, specs: list[str], opts, faces, sheets, ctx: BuildContext):
    """((front, back) PNGs, fit findings) of every sheet, in order, drawn in parallel processes where it pays.

    The workers start at once (not on first iteration), so the caller can draw the index page in the
    meantime; an error or an interrupt stops them at once rather than letting them draw on."""
    running = ctx.workers.start(_sheet_worker, (game, specs, opts, faces), sheets)

    def drain():
        with running:
            yield from running

    return drain()


def _sheet_order(game: Game):
    """Units before markers, by side, nationality and type, then by id in natural order (3, 29, 30)."""
    sides = [s.id for s in game.sides]
    return lambda c: (
        c.marker,
        sides.index(c.side) if c.side in sides else len(sides),
        c.nationality or "",
        c.type or "",
        natural_key(c.id),
    )


def build_module(result: LoadResult, out: Path, ctx: BuildContext | None = None, digest: str | None = None) -> Outputs:
    """The VASSAL module. Beside the cards stage (`build all`), its set-up card pages are the ones that
    stage draws: the module waits for it before reading them, rather than drawing them again."""
    ctx = ctx or BuildContext()
    target = stage_target(result.valid_game.id, "module", out, SheetSettings())
    manifest = _manifest(target)
    digest = digest or stage_digest(result.files, "module")
    if not ctx.force and _done(target, digest, "module"):
        return Outputs((target,), reused=True)
    forget(target)  # before anything is rewritten: a kill half-way leaves a build the next run redoes
    before = identities([target])
    if ctx.force:  # the compiler also skips a module whose inputs' hash is unchanged; forget that hash
        atomic.remove(manifest)
    try:
        with atomic.swept(out):
            path = write_module(
                result.valid_game,
                out,
                progress=ctx.progress,
                workers=ctx.workers,
                files_digest=digest,
                cards_drawn=ctx.waiter("cards"),
            )
    except BuildError as exc:
        if isinstance(exc.__cause__, OSError):  # disk full, read-only...: a fault, reported as one
            raise exc.__cause__ from None
        raise
    record(target, digest)
    return Outputs((path,), kept=unchanged(before, [path]))


def _stage_dir(
    result: LoadResult,
    folder: Path,
    force: bool,
    write: Callable[[Path], tuple[list[Path], list[Path]]],
    digest: str | None = None,
) -> Outputs:
    """Run `write(folder)` unless the folder was built from the same inputs; the files in it. `write` returns
    the files it drew and those it did not draw (`incremental`: their own inputs unchanged); the outputs'
    `kept` are those whose bytes did not change, either way.

    `index.txt` lists what the stage made, so a rebuild removes the files it made before that no
    longer have a source (the cards of a deleted scenario), and only those."""
    marker = folder / "index.txt"
    digest = digest or stage_digest(result.files, folder.name)
    listed = index_members(marker)
    if not force and up_to_date(marker, digest, listed):
        return Outputs(listed, reused=True)
    forget(marker)
    folder.mkdir(parents=True, exist_ok=True)
    before = folder_identities(folder)
    with atomic.swept(folder):
        made, left = write(folder)
    paths = sorted(Path(p) for p in [*made, *left])
    listing = "".join(f"{p.name}\n" for p in paths)
    if read_regular(marker, INDEX_LIMIT) != listing.encode():  # an unchanged list is left as it is
        atomic.write_text(marker, listing)
    record(marker, digest, paths)
    for stale in sorted({p.name for p in listed} - {p.name for p in paths}):
        if stale != marker.name:
            atomic.remove(folder / stale)
            forget(folder / stale)  # an output's own stamp (`incremental`) goes with it
    return Outputs(tuple(paths), kept=unchanged(before, paths))


from authoring.budget import MAP_PX_PER_HEX, TILE_DPI  # noqa: E402 - one place, which validate's pixel budget reads


def build_maps(result: LoadResult, out: Path, ctx: BuildContext | None = None, digest: str | None = None) -> Outputs:
    game, papers = result.valid_game, ("letter", "a4")
    ctx = ctx or BuildContext()

    def write(
        folder: Path,
    ) -> tuple[list[Path], list[Path]]:  # map PNGs and tiles in one pool; each map tiled once for both papers

        def draw(only) -> list[Path]:
            store = MapPieces(cache_dir(out, KIND))  # the maps' tiles: an edit draws those it changed
            before = tiles_kept(cache_dir(out, KIND))
            drawn = write_map_files(
                game, folder, MAP_PX_PER_HEX, papers, TILE_DPI, workers=ctx.workers, only=only, store=store
            )
            ctx.progress.note(f"map tiles: {len(tiles_kept(cache_dir(out, KIND)) - before)} drawn")
            return drawn

        return map_files(game, folder, draw, MAP_PX_PER_HEX, papers, TILE_DPI, ctx.force)

    return _stage_dir(result, out / "maps", ctx.force, write, digest)


def build_cards(result: LoadResult, out: Path, ctx: BuildContext | None = None, digest: str | None = None) -> Outputs:
    ctx = ctx or BuildContext()
    also = None
    if "module" in ctx.beside:  # `build all`: the module takes each card page from here instead of drawing it again
        also = card_pages_to(result.valid_game, cache_dir(out, "vassal"))
    return _stage_dir(
        result,
        out / "cards",
        ctx.force,
        lambda d: card_files(result.valid_game, d, ctx.workers, also, ctx.force),
        digest,
    )


def build_charts(result: LoadResult, out: Path, ctx: BuildContext | None = None, digest: str | None = None) -> Outputs:
    ctx = ctx or BuildContext()
    listed = index_members(out / "charts" / "index.txt")
    return _stage_dir(
        result, out / "charts", ctx.force, lambda d: chart_files(result.valid_game, d, listed, ctx.force), digest
    )


BUILDERS = MappingProxyType(
    {
        "module": build_module,
        "sheets": build_sheets,
        "maps": build_maps,
        "cards": build_cards,
        "charts": build_charts,
    }
)
"""Each stage's function, by name."""
