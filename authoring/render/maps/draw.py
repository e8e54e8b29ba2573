"""Map images: one map, or several joined on their shared edges, as PNG.

Size convention: ``px_per_hex`` is the hex width ACROSS THE FLATS in pixels (the same
measure as a map's ``hex_size``), so print resolution is ``px_per_hex = hex_size_in * dpi``.
The `PixelLayout` radius is ``px_per_hex / sqrt(3)``. `map_layout` gives the exact layout
an image was drawn with: the VASSAL compiler reads its grid origin, dx and dy from it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from PIL import Image, ImageDraw

from authoring import atomic
from authoring.hexgrid import MultiMapLayout
from authoring.model import Game, Map
from authoring.names import file_name, map_file_name
from authoring.render.maps.frame import (  # noqa: F401  (public here too: the frame of what is drawn)
    MARGIN,
    NOTICE_INK,
    SQRT3,
    TITLE_SIZE,
    TOP,
    has_art,
    layout_for,
    map_image_size,
    map_layout,
    map_notice,
    map_of,
    notice_lines,
)
from authoring.render.maps.legend import render_legend  # noqa: F401  (public API: the map legend)
from authoring.render.maps.raster import TILE, Bitmap, Line, Poly, Text, raster_bands, rasterize
from authoring.render.maps.scene import Reuse, Scene, add_features, build_scene, cells_of, hex_centre
from authoring.render.maps.style import INK, map_style
from authoring.render.maps.tiled import PieceStore, TiledScene
from authoring.render.shared.art import art_in_frame, art_plan, registration_overlay, render_map_art
from authoring.render.shared.fonts import font
from authoring.render.shared.pdf import png_bytes, save_png
from authoring.workers import Workers


def supersampling(px_per_hex: float) -> int:
    """Small hexes get more supersampling: their lines are only a pixel or two wide. Print tiles (300 ppi,
    over 200 px per hex) need none: a stair step is 0.08 mm on paper, below what a printer resolves."""
    return 3 if px_per_hex < 90 else 2 if px_per_hex < 200 else 1


def map_scene(game: Game, maps: Sequence[Map], px_per_hex: float, title: str, reuse: Reuse | None = None) -> Scene:
    """The full scene of some maps: map layers plus title, compass and edge names (``reuse``: the last scene's
    items of this frame and style, `scene.Reuse`)."""
    if len(maps) == 1 and has_art(maps[0]):  # the art underlay, with only the marks the map asks for over it
        return painted_scene(game, maps[0], px_per_hex)
    grid = maps[0].grid if len(maps) == 1 else MultiMapLayout({m.id: m.grid for m in maps})
    layout, size = layout_for(grid, px_per_hex)
    style = map_style(game)
    scene = build_scene(maps, style, layout, size, reuse)
    for m in maps:  # joined maps with their own art: each map's art over its hexes
        if has_art(m):
            image, (x, y) = art_in_frame(m, layout, px_per_hex)
            scene.text.add(Bitmap(image, x, y))
    add_title(scene, title, px_per_hex)
    add_notice(scene, title, map_notice(maps), px_per_hex)
    add_compass(scene, px_per_hex)
    add_edge_names(scene, px_per_hex)
    return scene


def painted_scene(game: Game, m: Map, px_per_hex: float) -> Scene:
    """A painted map's art turned into its grid's frame, with the hex features its `art.overlay` names
    drawn over it (fortifications, set-up marks, entry arrows the painting leaves out)."""
    plan = art_plan(m, px_per_hex)
    scene = Scene(plan.layout, plan.size, map_style(game), cells_of([m]), [m])
    scene.underlay.add(Bitmap(render_map_art(m, px_per_hex), 0, 0))
    if m.art is not None and m.art.overlay:
        add_features(scene, frozenset(m.art.overlay))
    return scene


def _overlaid(m: Map) -> bool:
    return has_art(m) and m.art is not None and bool(m.art.overlay)


def render_scene(scene: Scene, extra_layers=()) -> Image.Image:
    return rasterize(scene.layers + list(extra_layers), scene.size, scene.style.paper, supersampling(scene.f))


def render_map(game: Game, map_id: str, px_per_hex: float, out_path: Path | None = None) -> Image.Image:
    """One map as an RGB image (and a PNG at ``out_path`` when given)."""
    m = map_of(game, map_id)
    if _overlaid(m):
        image = render_scene(painted_scene(game, m, px_per_hex))
    elif has_art(m):
        image = render_map_art(m, px_per_hex)
    else:
        image = render_scene(map_scene(game, [m], px_per_hex, _title(game, m)))
    if out_path is not None:
        save_png(image, Path(out_path))
    return image


def _title(game: Game, m: Map) -> str:
    return m.name if m.name == game.name or len(game.maps) == 1 else f"{game.name}: {m.name}"


Bands = Iterator[tuple[int, Image.Image]]


def map_bands(game: Game, map_id: str, px_per_hex: float) -> tuple[tuple[int, int], Bands]:
    """`render_map`'s image as its size and its bands of rows, top to bottom (`raster.raster_bands`):
    what the print tiles and the map PNG are made from, so a print-size map is never held whole.
    A painted map is the designer's image, already whole: its bands are slices of it."""
    m = map_of(game, map_id)
    if _overlaid(m):
        return scene_bands(painted_scene(game, m, px_per_hex))
    if has_art(m):
        image = render_map_art(m, px_per_hex)  # RGB
        return image.size, (
            (y, image.crop((0, y, image.width, min(image.height, y + TILE)))) for y in range(0, image.height, TILE)
        )
    return scene_bands(map_scene(game, [m], px_per_hex, _title(game, m)))


def scene_bands(scene: Scene) -> tuple[tuple[int, int], Bands]:
    return scene.size, raster_bands(scene.layers, scene.size, scene.style.paper, supersampling(scene.f))


def tiled_scene(scene: Scene, store: PieceStore | None = None) -> TiledScene:
    """`scene` to be drawn tile by tile (`tiled.TiledScene`), its tiles kept in `store`: the pixels of
    `render_scene`."""
    return TiledScene(scene.layers, scene.size, scene.style.paper, supersampling(scene.f), store)


def map_tiles(game: Game, map_id: str, px_per_hex: float, store: PieceStore | None = None) -> TiledScene | None:
    """`render_map`'s picture tile by tile, or None for a painted map shown as it is (the designer's image)."""
    m = map_of(game, map_id)
    if _overlaid(m):
        return tiled_scene(painted_scene(game, m, px_per_hex), store)
    if has_art(m):
        return None
    return tiled_scene(map_scene(game, [m], px_per_hex, _title(game, m)), store)


def map_png(game: Game, map_id: str, px_per_hex: float, store: PieceStore | None = None) -> bytes:
    """`render_map`'s image as PNG, drawn tile by tile and joined from its rows' segments (`TiledScene.png`):
    with a `store`, only the tiles whose items changed are drawn, only their rows encoded."""
    tiled = map_tiles(game, map_id, px_per_hex, store)
    if tiled is None:
        return png_bytes(render_map_art(map_of(game, map_id), px_per_hex))
    return tiled.png()


def write_map_png(game: Game, map_id: str, px_per_hex: float, out_path: Path, store: PieceStore | None = None) -> Path:
    """`map_png` written to `out_path` (left as it is when its bytes are unchanged)."""
    return atomic.write_bytes(Path(out_path), map_png(game, map_id, px_per_hex, store))


def render_layout(
    game: Game, px_per_hex: float, map_ids: Sequence[str] | None = None
) -> tuple[Image.Image, dict[str, tuple[float, float]]]:
    """Maps joined on their shared edges (the game's layout) as one image.

    Returns the image and, per map, the offset to add to a pixel of that map's own image
    (`map_layout`) to find it in the joined image.
    """
    scene, offsets = layout_scene(game, px_per_hex, map_ids)
    return render_scene(scene), offsets


def layout_scene(
    game: Game, px_per_hex: float, map_ids: Sequence[str] | None = None
) -> tuple[Scene, dict[str, tuple[float, float]]]:
    """The scene of `render_layout`, and its offsets."""
    ids = list(map_ids) if map_ids else sorted(game.maps)
    maps = [map_of(game, i) for i in ids]
    scene = map_scene(game, maps, px_per_hex, game.name)
    offsets = {}
    for m in maps:
        own = map_layout(game, m.id, px_per_hex)
        offsets[m.id] = (scene.layout.origin[0] - own.origin[0], scene.layout.origin[1] - own.origin[1])
    return scene, offsets


LAYOUT_JOB = ""
"""Job key of the joined layout image (map ids are never empty)."""


def write_one(shared: dict, job: tuple[str, str]) -> str:
    """One map image (or the joined layout) of `run_per_map`; `shared` holds the game, `px` and the tiles'
    `store` (or none)."""
    map_id, path = job
    game, store = shared["game"], shared.get("store")
    if map_id == LAYOUT_JOB:
        scene = layout_scene(game, layout_px_per_hex(game, shared["px"]))[0]
        atomic.write_bytes(Path(path), tiled_scene(scene, store).png())
    else:
        write_map_png(game, map_id, shared["px"], Path(path), store)
    return path


def run_per_map(
    game: Game,
    jobs: Sequence,
    worker: Callable[[dict, Any], Any],
    workers: Workers | None = None,
    large: Callable[[Any], bool] | None = None,
    **shared,
) -> list:
    """``worker(shared, job)`` for each job, in forked processes when there are several jobs and cores, each
    job holding a token (a `large` one a large-job token too); `shared` is `shared` with the game in it.

    The game reaches the workers through the fork, not pickling: the model holds mapping proxies that do
    not pickle."""
    kinds = {"large": large} if large else {}
    return (workers or Workers.for_jobs()).map(worker, {"game": game, **shared}, jobs, **kinds)


def write_map_pngs(game: Game, out_dir: Path, px_per_hex: float, workers: Workers | None = None) -> list[Path]:
    """``<out_dir>/<map>.png`` for every map, plus ``layout.png`` when the game joins several maps.

    Maps (and the layout) render in parallel processes (fork) when there are several and more
    than one core. The layout image is drawn at `layout_px_per_hex`, capped in size.
    """
    jobs = map_png_jobs(game, out_dir)
    written = [Path(p) for p in run_per_map(game, jobs, write_one, workers, px=px_per_hex)]
    return written + registration_pngs(game, out_dir)


def map_png_jobs(game: Game, out_dir: Path) -> list[tuple[str, str]]:
    """(map id, PNG path) of every map and of the joined layout (`write_one` jobs)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(mid, str(out_dir / map_file_name("map", mid, game.maps, ext="png"))) for mid in sorted(game.maps)]
    if len(game.maps) > 1 and game.layout:
        jobs.append((LAYOUT_JOB, str(out_dir / file_name("layout", ext="png"))))
    return jobs


def registration_pngs(game: Game, out_dir: Path, only: Collection[str] | None = None) -> list[Path]:
    """The registration proof of every painted map (of those in `only`)."""
    written = []
    for m in sorted(
        (m for m in game.maps.values() if has_art(m) and (only is None or m.id in only)), key=lambda m: m.id
    ):
        path = Path(out_dir) / map_file_name("registration", m.id, game.maps, ext="png")
        written.append(save_png(registration_overlay(m), path))
    return written


LAYOUT_MAX_PIXELS = 40_000_000
"""The joined overview is drawn smaller when it would exceed this many pixels (memory and time)."""


def layout_px_per_hex(game: Game, px_per_hex: float, map_ids: Sequence[str] | None = None) -> float:
    """``px_per_hex``, reduced so the joined layout image stays under `LAYOUT_MAX_PIXELS`."""
    ids = list(map_ids) if map_ids else sorted(game.maps)
    grid = MultiMapLayout({i: game.maps[i].grid for i in ids})
    w, h = layout_for(grid, px_per_hex)[1]
    if w * h <= LAYOUT_MAX_PIXELS:
        return px_per_hex
    return math.floor(px_per_hex * math.sqrt(LAYOUT_MAX_PIXELS / (w * h)))


# --- decorations ------------------------------------------------------------------------------


def add_title(scene: Scene, title: str, px: float) -> None:
    x0 = MARGIN * px
    y = TOP * px * 0.45
    scene.text.add(Text(title, x0, y, TITLE_SIZE * px, INK, anchor="lm", bold=True))


def add_notice(scene: Scene, title: str, notice: str, px: float) -> None:
    """The label of representative maps (`frame.map_notice`) in the top margin beside the title."""
    for text, x, y, size in notice_lines(title, notice, px, scene.size[0]):
        scene.text.add(Text(text, x, y, size, NOTICE_INK, anchor="lm", bold=True))


_EDGE_ANGLE = MappingProxyType({"north": 0.0, "east": 90.0, "south": 180.0, "west": 270.0})
"""Screen bearing of each grid edge, clockwise from up."""


def north_edge(maps: Sequence[Map]) -> str:
    """The grid edge that is geographic north: the edge whose name begins with a compass word.

    A map printed sideways says so in its edge names (``west: {name: North edge}``); maps that
    name no edges that way have north at the top.
    """
    for m in maps:
        for edge, name in sorted(m.edges.items()):
            word = re.match(r"\s*(north|south|east|west)\b", name or "", re.IGNORECASE)
            if word and edge in _EDGE_ANGLE:
                geo = _EDGE_ANGLE[word.group(1).lower()]
                return min(
                    _EDGE_ANGLE, key=lambda e: abs(((_EDGE_ANGLE[e] - (_EDGE_ANGLE[edge] - geo)) + 180) % 360 - 180)
                )
    return "north"


def add_compass(scene: Scene, px: float) -> None:
    """A north arrow in the top-right margin, pointing at the map's north edge (`north_edge`)."""
    x = scene.size[0] - MARGIN * px
    y = TOP * px * 0.5
    h, w = 0.36 * px, 0.12 * px
    a = math.radians(_EDGE_ANGLE[north_edge(scene.maps)])

    def rot(dx: float, dy: float) -> tuple[float, float]:
        return (x + dx * math.cos(a) - dy * math.sin(a), y + dx * math.sin(a) + dy * math.cos(a))

    top, bottom = rot(0, -h), rot(0, h * 0.6)
    scene.vector.add(Poly((top, rot(-w, h * 0.35), bottom), INK))
    scene.vector.add(Poly((top, rot(w, h * 0.35), bottom), (250, 248, 240), INK, 0.01 * px))
    scene.vector.add(Line((rot(-1.6 * w, 0), rot(1.6 * w, 0)), INK, 0.012 * px))
    lx, ly = rot(0, -h - 0.14 * px)
    scene.text.add(Text("N", lx, ly, 0.2 * px, INK, anchor="mm", bold=True))


def add_edge_names(scene: Scene, px: float) -> None:
    """Names of map edges (``edges:`` in the map file), in the margin beside the edge."""
    W, H = scene.size
    for m in scene.maps:
        for edge, name in sorted(m.edges.items()):
            hexes = m.grid.edge_hexes(edge) if edge in ("north", "south", "east", "west") else ()
            if not hexes or not name:
                continue
            pts = [hex_centre(scene, h) for h in hexes]
            mx = sum(p[0] for p in pts) / len(pts)
            my = sum(p[1] for p in pts) / len(pts)
            size = 0.17 * px
            if edge == "north":
                scene.text.add(Text(name, mx, min(p[1] for p in pts) - 0.62 * px, size, INK, "mm", True))
            elif edge == "south":
                scene.text.add(
                    Text(name, mx, min(H - 0.2 * px, max(p[1] for p in pts) + 0.75 * px), size, INK, "mm", True)
                )
            else:
                x = min(p[0] for p in pts) - 0.78 * px if edge == "west" else max(p[0] for p in pts) + 0.78 * px
                scene.text.add(_vertical(name, x, my, size, edge == "west"))


def _vertical(text: str, x: float, y: float, size: float, west: bool) -> Bitmap:
    fnt = font(size, True)
    l, t, r, b = fnt.getbbox(text)
    img = Image.new("RGBA", (r - l + 2, b - t + 2), (0, 0, 0, 0))

    ImageDraw.Draw(img).text((1 - l, 1 - t), text, font=fnt, fill=INK)
    img = img.rotate(90 if west else -90, expand=True)
    return Bitmap(img, x - img.width / 2, y - img.height / 2)
