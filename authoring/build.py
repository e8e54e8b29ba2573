"""Build stages: read and check everything first, then write each artifact atomically (house style 4, 5).

`build_game` reads top to bottom as the list of stages; each stage is a function that takes the
loaded game and an output folder and returns the paths it wrote.
"""
from __future__ import annotations

import multiprocessing as mp
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from authoring.cache import inputs_digest, record, up_to_date
from authoring.load import LoadResult
from authoring.model import Game

Progress = Callable[[int, int], None] | None
STAGES = ("module", "sheets", "maps", "cards", "charts")


@dataclass(frozen=True)
class SheetSettings:
    paper: str = "letter"
    counter_in: float | None = None      # default: the game's counter size
    bleed_mm: float = 1.5
    bleed_outer_only: bool = False
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    duplex: str = "long"
    cut_marks: str = "both"
    cut_lines: bool = False
    dpi: int = 300


@dataclass(frozen=True)
class BuildSettings:
    out_dir: Path = Path("build")
    sheets: SheetSettings = field(default_factory=SheetSettings)
    jobs: int = 0                        # 0: one worker per core
    force: bool = False


def workers(jobs: int) -> int:
    return jobs or max(1, min(os.cpu_count() or 1, 8))


# --- counter faces, rendered in parallel --------------------------------------------------

_GAME: Game | None = None


def _render_one(args: tuple[str, str, int, int]):
    from authoring.render.counter_art import render_face
    cid, state, size_px, bleed_px = args
    result = render_face(_GAME, _GAME.counters[cid], state, size_px, bleed_px)
    return cid, state, result.image.tobytes(), result.image.size, result.issues


def face_images(game: Game, size_px: int, bleed_px: int = 0, jobs: int = 0) -> tuple[dict, list]:
    """Every face of every counter: {(counter id, state): Image}, plus text-fit issues."""
    from PIL import Image
    global _GAME
    tasks = [(c.id, f.state, size_px, bleed_px) for c in game.counters.values() for f in c.faces]
    _GAME = game
    n = workers(jobs)
    if n > 1 and len(tasks) > 64 and "fork" in mp.get_all_start_methods():
        with mp.get_context("fork").Pool(n) as pool:
            results = pool.map(_render_one, tasks, chunksize=max(1, len(tasks) // (n * 8)))
    else:
        results = [_render_one(t) for t in tasks]
    images, issues = {}, []
    for cid, state, raw, size, found in results:
        images[(cid, state)] = Image.frombytes("RGB", size, raw)
        issues.extend(found)
    return images, issues


# --- stages -------------------------------------------------------------------------------

def build_sheets(result: LoadResult, out: Path, s: SheetSettings, force: bool = False, jobs: int = 0,
                 progress: Progress = None) -> list[Path]:
    from authoring.render.sheets import SheetItem, SheetOptions, mm_to_px, write_sheets_pdf
    game = result.game
    opts = SheetOptions(paper=s.paper, counter_in=s.counter_in or game.counter_size_in, dpi=s.dpi,
                        bleed_mm=s.bleed_mm, bleed_outer_only=s.bleed_outer_only, duplex=s.duplex,
                        back_offset_mm=tuple(s.back_offset_mm), cut_marks=s.cut_marks, cut_lines=s.cut_lines)
    target = out / f"{game.id}-counters-{s.paper}.pdf"
    digest = inputs_digest(result.files.all, {"sheets": asdict(s)})
    if not force and up_to_date(target, digest):
        return [target]
    size = round(opts.counter_in * opts.dpi)
    images, _ = face_images(game, size, mm_to_px(opts.bleed_mm, opts.dpi), jobs)
    items = []
    for c in sorted(game.counters.values(), key=_sheet_order(game)):
        front = images[(c.id, c.faces[0].state)]
        back = images[(c.id, c.faces[1].state)] if len(c.faces) > 1 else None
        items += [SheetItem(c.display_name if c.marker else f"{c.designation or c.id} ({c.id})", front, back)] * c.quantity
    out.mkdir(parents=True, exist_ok=True)
    write_sheets_pdf(items, opts, target, f"{game.name} - counters", progress)
    record(target, digest)
    return [target]


def _sheet_order(game: Game):
    sides = [s.id for s in game.sides]
    return lambda c: (c.marker, sides.index(c.side) if c.side in sides else len(sides), c.nationality or "",
                      c.type or "", c.id)


def build_module(result: LoadResult, out: Path, force: bool = False, jobs: int = 0, progress: Progress = None):
    from authoring.vassal.compile import build_module as compile_module
    if force:  # the compiler skips a module whose inputs' hash is unchanged; forget that hash
        (out / f"{result.game.id}.vmod.manifest.json").unlink(missing_ok=True)
    return [compile_module(result.game, out, progress=progress)]


def _stage_dir(result: LoadResult, folder: Path, options: dict, force: bool, write) -> list[Path]:
    """Run `write(folder)` unless the folder was built from the same inputs; return the files in it."""
    marker = folder / "index.txt"
    digest = inputs_digest(result.files.all, options)
    if force or not up_to_date(marker, digest):
        folder.mkdir(parents=True, exist_ok=True)
        paths = sorted(Path(p) for p in write(folder))
        tmp = marker.with_name(marker.name + ".tmp")
        tmp.write_text("".join(f"{p.name}\n" for p in paths))
        tmp.replace(marker)
        record(marker, digest)
    return [folder / name for name in marker.read_text().split()]


MAP_PX_PER_HEX = 150
TILE_DPI = 150


def build_maps(result: LoadResult, out: Path, force: bool = False, jobs: int = 0, progress: Progress = None):
    from authoring.render.map_draw import write_map_pngs
    from authoring.render.tiles import write_tiled_pdfs

    def write(folder: Path) -> list[Path]:
        pngs = write_map_pngs(result.game, folder, MAP_PX_PER_HEX, processes=workers(jobs))
        pdfs = []
        for paper in ("letter", "a4"):
            pdfs += write_tiled_pdfs(result.game, folder, paper=paper, dpi=TILE_DPI, processes=workers(jobs))
        return [*pngs, *pdfs]
    return _stage_dir(result, out / "maps", {"maps": MAP_PX_PER_HEX, "dpi": TILE_DPI}, force, write)


def build_cards(result: LoadResult, out: Path, force: bool = False, jobs: int = 0, progress: Progress = None):
    from authoring.render.cards import write_setup_cards
    return _stage_dir(result, out / "cards", {"cards": 1}, force, lambda d: write_setup_cards(result.game, d))


def build_charts(result: LoadResult, out: Path, force: bool = False, jobs: int = 0, progress: Progress = None):
    from authoring.render.charts import write_charts
    return _stage_dir(result, out / "charts", {"charts": 1}, force, lambda d: write_charts(result.game, d))
