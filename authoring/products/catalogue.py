"""The catalogue of products: every output hexwright keeps between runs, and how its key is made.

Each key is the one recipe (`keys.digest`: the canonical text of the model slice the product shows, after
the fingerprint) applied to that product's slice. The build's stages, the module compiler and the live
preview all ask here, so no two consumers can key one drawing differently: the preview's picture is keyed
on the very map image keys the build uses, the module's card pages on the keys the cards stage stores.
`PRODUCTS` lists them with what each shows and where it is kept (`store.cache_dir` kinds, or a stamp).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from authoring.model import Counter, Game, Map, Scenario, Table
from authoring.products.keys import Memo, canonical_except, code_version, digest, digest_state, with_options
from authoring.products.stamps import files_key
from authoring.render.print.card_sides import card_content


@dataclass(frozen=True)
class Product:
    """One kind of output: its name, the function making its key, what that key is made of, where it is kept."""

    name: str
    key: Callable
    shows: str
    kept: str


def counter_style(game: Game) -> tuple:
    """The parts of the game a counter's drawing depends on besides the counter itself."""
    return (
        game.sides,
        game.nationalities,
        game.unit_types,
        game.unit_sizes,
        game.values,
        game.strength_states,
        game.flags,
        game.counter_size_in,
    )


# --- counters ------------------------------------------------------------------------------


def counter_face_keys(game: Game) -> Callable[[Counter, str, int], str]:
    """`key(counter, state, size_px)` of a module's counter face: the game's counter style, its counter
    without its faces and the face itself (and whether it is the first), not the other faces: new art for one
    face redraws that face only. A state the counter has no face for is its hidden side, drawn from the
    counter and its type."""
    common = digest_state(None, "counter", code_version(), digest(counter_style(game)))
    counters: dict[str, object] = {}  # each counter's part of the key, made once

    def key(counter: Counter, state: str, size_px: int) -> str:
        made = counters.get(counter.id)
        if made is None:
            made = counters[counter.id] = digest_state(common, canonical_except(counter, "faces"))
        face = counter.face(state)
        if face is None:
            return digest_state(made, state, size_px).hexdigest()
        return digest_state(made, face, counter.faces.index(face) > 0, size_px).hexdigest()

    return key


def sheet_face_keys(game: Game, size: int, bleed: int) -> Callable[[Counter, str], str]:
    """`key(counter, state)` of a face at the print sheets' size and bleed: the counters' style and its counter."""
    base = digest_state(None, "sheet-face", code_version(), counter_style(game), size, bleed)
    return lambda counter, state: digest_state(base, counter, state).hexdigest()


def sheet_page_keys(game: Game, specs: Sequence[str], opts) -> Callable:
    """`key(sheet)` of one sheet's two pages: the print options, the counters' shared style, the sheet's layout
    and each counter placed on it (`specs`: the counter id of each placed item), not the other sheets."""
    base = digest_state(None, "sheet", code_version(), counter_style(game), opts)
    counters: dict[str, str] = {}

    def counter(cid: str) -> str:
        if cid not in counters:
            counters[cid] = digest(game.counters[cid])
        return counters[cid]

    def key(sheet) -> str:
        h = base.copy()
        h.update(sheet_layout_text(sheet).encode())
        for cid in sorted({specs[p.item] for p in sheet.placements}):
            h.update(f"{cid}:{counter(cid)}\n".encode())
        return h.hexdigest()

    return key


def sheet_layout_text(sheet) -> str:
    """A sheet's page geometry and every placement (item, name, cell, corners), as plain values."""
    cells = [(p.item, p.name, p.row, p.col, p.front, p.back) for p in sheet.placements]
    return repr((sheet.sheet, sheet.grid, cells))


def sheet_index_key(title: str, opts, sheets: Sequence, two_sided: bool) -> str:
    """The index pages show the title, the options and each sheet's placements (names and cells), so a
    counter's values never redraw them."""
    text = repr((title, opts, two_sided, [sheet_layout_text(s) for s in sheets]))
    return hashlib.sha256(f"sheet-index\n{code_version()}\n{text}".encode()).hexdigest()


# --- set-up cards --------------------------------------------------------------------------


def card_keys(game: Game, memo: Memo | None = None) -> Callable[[str, str], str]:
    """The key of each set-up card's pages, by (scenario id, side): the counters' shared style and what that
    card shows (`card_content`), so an edit redraws only the cards that show it. The module's card images
    and the cards stage's files (`card_files_key`) both key on it. `memo`: see `keys.Memo` (a counter is on
    a card of every scenario: its text made once)."""
    style = digest_state(None, "card", code_version(), counter_style(game))
    return lambda sid, side: digest_state(
        style, card_content(game, game.scenarios[sid], side), side, memo=memo
    ).hexdigest()


def card_files_key(card_key: str, dpi: float) -> str:
    """The output stamp of one card's PDFs and page PNGs."""
    return files_key("card", card_key, dpi)


def card_page_keys(game: Game, memo: Memo | None = None) -> Callable[[Game, Scenario, str, tuple], str]:
    """`key(game, scenario, side, shown)` of one printed card page: the counters' style, the card's header
    (game, scenario, side), what the page shows (`cards.card_pages`) and the counters of its entries, so an
    edited counter redraws the pages that show it, not the rest of its card."""
    base = digest_state(None, "card-page", code_version(), counter_style(game))

    def key(game: Game, scenario: Scenario, side: str, shown: tuple) -> str:
        units = sorted({u for column in shown[3] for e in column if not isinstance(e, str) for u in e.units})
        header = (game.name, scenario.name, game.side(side))
        return digest_state(base, header, shown, [(u, game.counters.get(u)) for u in units], memo=memo).hexdigest()

    return key


# --- maps, boards, print tiles, the preview's picture --------------------------------------


def map_image_key(
    game: Game, map_id: str, px_per_hex: float, memo: Memo | None = None, version: str | None = None
) -> str:
    """Everything a map image depends on: the game's map style and the map's own data. `version`: the
    `code_version()` a caller making many keys took once (`ModuleKeys`)."""
    style = (
        game.name,
        len(game.maps),
        game.terrain,
        game.hex_features,
        game.hexside_features,
        game.paths,
        game.sides,
        game.hex_sets,
    )
    return digest("map", version or code_version(), style, game.maps[map_id], px_per_hex, memo=memo)


def layout_key(map_keys: dict[str, str], layout) -> str:
    """The joined layout image: its maps' keys and the layout."""
    return digest("layout", sorted(map_keys.items()), layout)


def map_files_key(image_key: str, px_per_hex: float, papers: Sequence[str], dpi: float) -> str:
    """The output stamp of a map's image, registration proof and print tiles (or of the layout image)."""
    return files_key("map", image_key, px_per_hex, tuple(papers), dpi)


def board_key(map_keys: dict[str, str], plans: Sequence, plan) -> str:
    """A module board cut from map images: the maps' keys, the boards of its set and which one it is."""
    return digest(
        "boards", sorted(map_keys.items()), [(q.map_id, q.rect, q.crop) for q in plans], plan.map_id, plan.variant
    )


def picture_key(map_keys: Sequence[str], px_per_hex: float, title: str) -> str:
    """The preview's joined picture: its maps' image keys in order, the scale and the title."""
    return digest("serve-map", list(map_keys), px_per_hex, title)


def preview_scale_key(maps: Sequence[Map]) -> str:
    """The preview's scale of a picture (`frame.preview_px`): its maps' grids, nothing else of them."""
    return digest(*(m.grid for m in maps))


def tile_seed(tile_px: int, supersampling: int, paper: object) -> bytes:
    """What every preview tile of one picture shares: the fingerprint, the tile size, supersampling, paper."""
    return with_options("serve-tile", tile_px, supersampling, paper).encode()


def tile_key(seed: bytes, box: tuple[int, int, int, int], shown: bytes) -> str:
    """A preview tile: its picture's `tile_seed`, its box and the digests of the items it shows."""
    return hashlib.sha256(seed + repr(box).encode() + shown).hexdigest()[:40]


def map_tile_seed(tile_px: int, supersampling: int, paper: object) -> bytes:
    """What every tile of one drawn map picture shares (the build's map images, print pages, the module's maps):
    the fingerprint, the tile size, supersampling and paper."""
    return with_options("map-tile", tile_px, supersampling, paper).encode()


def map_tile_key(seed: bytes, box: tuple[int, int, int, int], shown: bytes) -> str:
    """A map tile's pixels: its picture's `map_tile_seed`, its box and the items it shows (their exact values).
    Named `tile-...` in the store, so its tiles can be told from the pieces beside them."""
    return "tile-" + hashlib.sha256(seed + repr(box).encode() + shown).hexdigest()[:40]


def map_piece_key(kind: str, *parts: object) -> str:
    """A piece made of map tiles (a PNG band, a print page, a thumbnail strip): its kind and what it is made
    of (its tiles' keys, which already hold the fingerprint, and its own layout), named after its kind."""
    return kind.replace(" ", "-") + "-" + digest("map-piece", kind, *parts)


# --- module members -------------------------------------------------------------------------


def table_key(game: Game, table: Table, memo: Memo | None = None, version: str | None = None) -> str:
    """A rule table's chart page: the table, the counters' style and the terrain key it draws."""
    made = (table, counter_style(game), game.terrain, game.hex_features)
    return digest("table", version or code_version(), *made, memo=memo)


def turns_key(game: Game, scenario: Scenario, memo: Memo | None = None, version: str | None = None) -> str:
    """A scenario's turn record page: its turns, name and source, and the game's phases."""
    made = (scenario.turns, scenario.name, scenario.source, game.phases)
    return digest("turns", version or code_version(), *made, memo=memo)


def charts_key(game: Game) -> str:
    """The charts stage's files (tables, turn records, the terrain key, their PDFs): the game's own data and
    its tables, and each scenario without its set-up, which no chart shows (a unit moved draws no chart)."""
    scenarios = [canonical_except(game.scenarios[sid], "setup") for sid in sorted(game.scenarios)]
    return digest("charts", code_version(), canonical_except(game, "maps", "counters", "scenarios"), scenarios)


def member_key(kind: str, *shown: object, version: str | None = None) -> str:
    """An image only the module holds, of `kind`, made from the values it shows (`marker_key`, `box_key`)."""
    return digest(kind, version or code_version(), *shown)


def marker_key(text: str, size_px: int, lines: tuple[str, ...], colour: str) -> str:
    """A paper chit: its word, size, the lines under it and its colour."""
    return member_key("marker", text, size_px, lines, colour)


def corner_mark_key(text: str, size_px: int, colour: str) -> str:
    """A unit-sized layer with a chit in its corner: its word, size and colour."""
    return member_key("corner-mark", text, size_px, colour)


def box_key(name: str, title: str, sections: list, counter_px: int) -> str:
    """A dead-pile or reinforcement box board: its name, title, sections and the counters' size."""
    return member_key("box", name, title, sections, counter_px)


def module_key(version: int, made_from: object, options: object, source: object) -> str:
    """The whole module (its manifest's inputs): the model or the digest of its files, the options and the
    designer's help page (by its path in the project and its bytes)."""
    return digest("module", version, code_version(), made_from, options, source)


class ModuleKeys:
    """The catalogue's keys of the module's images (the `vassal.art.ImageKeys` the module compiler asks),
    with one memo of the model parts they walk: it lives as long as this object, one module build, during
    which the model does not change (`keys.Memo`), and the code version taken once (each `code_version()`
    walks the package's files for their stat: dozens of walks a module)."""

    def __init__(self) -> None:
        self.memo: Memo = {}
        self.version = code_version()

    def counter_faces(self, game: Game) -> Callable[[Counter, str, int], str]:
        return counter_face_keys(game)

    def map_image(self, game: Game, map_id: str, px_per_hex: float) -> str:
        return map_image_key(game, map_id, px_per_hex, self.memo, self.version)

    def board(self, map_keys: dict[str, str], plans: Sequence, plan: object) -> str:
        return board_key(map_keys, plans, plan)

    def marker(self, text: str, size_px: int, lines: tuple[str, ...], colour: str) -> str:
        return member_key("marker", text, size_px, lines, colour, version=self.version)  # = marker_key

    def corner_mark(self, text: str, size_px: int, colour: str) -> str:
        return member_key("corner-mark", text, size_px, colour, version=self.version)  # = corner_mark_key

    def table(self, game: Game, table: Table) -> str:
        return table_key(game, table, self.memo, self.version)

    def turns(self, game: Game, scenario: Scenario) -> str:
        return turns_key(game, scenario, self.memo, self.version)

    def cards(self, game: Game) -> Callable[[str, str], str]:
        return card_keys(game, self.memo)

    def box(self, name: str, title: str, sections: list, counter_px: int) -> str:
        return member_key("box", name, title, sections, counter_px, version=self.version)  # = box_key


PRODUCTS = (
    Product(
        "counter face", counter_face_keys, "counter style, the counter without its faces, the face", ".cache/vassal"
    ),
    Product("sheet face", sheet_face_keys, "counter style, size and bleed, the counter and state", ".cache/sheets"),
    Product("sheet page", sheet_page_keys, "print options, counter style, the layout, its counters", ".cache/sheets"),
    Product("sheet index", sheet_index_key, "title, options, each sheet's names and cells", ".cache/sheets"),
    Product("card", card_keys, "counter style, what the card shows (`card_content`)", ".cache/vassal, stamp"),
    Product("card page", card_page_keys, "counter style, header, the page's entries and counters", ".cache/cards"),
    Product("map image", map_image_key, "the game's map style, the map, the scale", ".cache/vassal, stamp"),
    Product("print tile", map_files_key, "the map image's key, the papers and resolution", "stamp"),
    Product("board", board_key, "the maps' image keys, the set's boards, which board", ".cache/vassal"),
    Product("map tile", map_tile_key, "the fingerprint, scale and paper, the items the tile shows", ".cache/maps"),
    Product("map piece", map_piece_key, "a PNG band, print page or strip: the keys of its tiles", ".cache/maps"),
    Product("preview tile", tile_key, "the picture's maps' image keys, the items the tile shows", ".cache/serve"),
    Product("chart page", table_key, "the table, counter style, terrain", ".cache/vassal"),
    Product("turn record", turns_key, "the scenario's turns, name, source, the phases", ".cache/vassal"),
    Product("module member", member_key, "a box board, marker or corner mark: the values it shows", ".cache/vassal"),
    Product("module", module_key, "the data (or its files' digest), options, help page", "manifest"),
)
"""Every kept product (the preview's picture and scale, the layout image are keyed above too)."""
