"""Set-up cards: per scenario and side, where every unit starts and what arrives, leaves or waits later.

A card lists exactly the scenario data the rules engine checks: set-up placements (hex, units,
strength state), off-map boxes, reinforcements by turn with their arrival location, withdrawals
and pools. Each unit is shown by its counter face (`counter_art.counter_image`) with its name and
state. Pages are Letter or A4 at `DPI`, two columns of entries, as many pages as needed; every
text is drawn through a `Canvas`, so a page can be checked for overlaps like a counter face.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from operator import attrgetter
from pathlib import Path
from typing import Protocol

from PIL import Image

from authoring import atomic
from authoring.model import Game, Scenario
from authoring.names import file_name
from authoring.render.counter_art import Faces, counter_image
from authoring.render.counters.fit import ABBREVIATIONS
from authoring.render.maps.draw import run_per_map
from authoring.render.print.card_sides import Entry, card_sections, card_sides
from authoring.render.print.charts import notice_block
from authoring.render.shared.canvas import AID_DPI, Canvas, PageSpec, wrap
from authoring.render.shared.fonts import font
from authoring.render.shared.pdf import png_bytes, write_pdf
from authoring.trust import read_regular
from authoring.workers import Workers

DPI = AID_DPI
PAGE = PageSpec("letter").size
MARGIN = int(0.4 * DPI)
GUTTER = 30
TOP = MARGIN + int(0.85 * DPI)
"""Where a card's columns start, under its header."""
COUNTER_PX = 72
"""Counter images on cards (about 1/2 inch)."""
UNIT_W = 96
"""Room per unit: the counter plus its caption."""
LABEL_W = 150
INK = (30, 28, 24)
MUTED = (105, 98, 90)


def _state_name(game: Game, counter, state: str | None) -> str:
    sid = state or (counter.faces[0].state if counter and counter.faces else "")
    return next((s.name for s in game.strength_states if s.id == sid), sid)


Block = tuple[int, Callable[[Canvas, int, int, int], None]]


def fit_size(text: str, size: float, width: int, bold: bool = False, floor: float = 12.5) -> float:
    """The largest size up to ``size`` at which ``text`` fits ``width`` px (never below 6 pt)."""
    length = font(size, bold).getlength(text)
    return size if length <= width else max(floor, size * width / length)


def _entry_block(game: Game, entry: Entry, width: int, faces: Faces | None = None) -> Block:
    per_row = max(1, (width - LABEL_W) // UNIT_W)
    rows = max(1, -(-len(entry.units) // per_row))
    label_size, lines = _label_lines(entry.label)
    details = wrap(entry.detail, 14, LABEL_W - 10)[:5]
    top = 8 + round(label_size * 1.2) * len(lines) + 4
    height = max(rows * (COUNTER_PX + 40) + 8, top + 17 * len(details) + 8)  # the taller of units and text

    def draw(page: Canvas, x: int, y: int, w: int) -> None:
        page.draw.line(((x, y), (x + w, y)), fill=(200, 192, 178), width=1)
        label_slot = (x - 2, y, x + LABEL_W - 4, y + height)
        for k, line in enumerate(lines):
            page.text((x, y + 8 + k * round(label_size * 1.2)), line, label_size, True, slot=label_slot, role="line")
        for k, line in enumerate(details):
            page.text((x, y + top + k * 17), line, 14, False, MUTED, slot=label_slot, role="line")
        for i, uid in enumerate(entry.units):
            r, c = divmod(i, per_row)
            ux, uy = x + LABEL_W + c * UNIT_W, y + 8 + r * (COUNTER_PX + 40)
            counter = game.counters.get(uid)
            if counter is not None:
                img = counter_image(game, counter, entry.state, COUNTER_PX, faces=faces)
                page.image.paste(img.convert("RGB"), (ux, uy), img if img.mode == "RGBA" else None)
            name = counter.display_name if counter else uid
            cx = ux + COUNTER_PX // 2
            slot = (
                ux - (UNIT_W - COUNTER_PX) // 2,
                uy,
                ux - (UNIT_W - COUNTER_PX) // 2 + UNIT_W - 2,
                uy + COUNTER_PX + 40,
            )
            name = _one_line(name, 14, UNIT_W - 6, True)
            page.text(
                (cx, uy + COUNTER_PX + 3), name, fit_size(name, 14, UNIT_W - 6, True), True, anchor="ma", slot=slot
            )
            if counter is not None and len(counter.faces) > 1:  # a one-sided counter has no state to choose
                state = _one_line(_state_name(game, counter, entry.state), 13, UNIT_W - 6, False)
                page.text(
                    (cx, uy + COUNTER_PX + 20),
                    state,
                    fit_size(state, 13, UNIT_W - 6),
                    False,
                    MUTED,
                    anchor="ma",
                    slot=slot,
                )

    return height, draw


LABEL_LINES = 3


def _label_lines(text: str) -> tuple[float, list[str]]:
    """An entry's label in at most three lines, its words whole: the largest size from 20 px down to 14
    at which it fits (a pool named "Special Reinforcements Pool 1" is never cut mid-word)."""
    for size in (20, 18, 16, 14):
        lines = wrap(text, size, LABEL_W - 8, True)
        whole = all(font(size, True).getlength(word) <= LABEL_W - 8 for word in text.split())
        if len(lines) <= LABEL_LINES and whole:
            return size, lines
    return 14, wrap(text, 14, LABEL_W - 8, True)[:LABEL_LINES]


def _one_line(text: str, size: float, width: int, bold: bool) -> str:
    """``text`` if it fits ``width`` at 6 pt, else its words shortened from the end (a unit name under
    its counter: the counter itself shows the full designation)."""
    if font(fit_size(text, size, width, bold), bold).getlength(text) <= width:
        return text
    words = [ABBREVIATIONS.get(w, w) for w in text.split(" ")]
    while len(words) > 1 and font(12.5, bold).getlength(" ".join(words)) > width:
        words.pop()
    return " ".join(words)


def _heading_block(title: str) -> Block:
    def draw(page: Canvas, x: int, y: int, w: int) -> None:
        page.text((x, y + 6), title, 26, True, slot=(x, y, x + w, y + 38), role="title")
        page.draw.line(((x, y + 40), (x + w, y + 40)), fill=INK, width=2)

    return 48, draw


def _header(page: Canvas, spec: PageSpec, game: Game, scenario: Scenario, side: str, number: int, total: int) -> int:
    """The side's colour bar, the title and, on its own line under it, the subtitle."""
    s = game.side(side)
    width = spec.size[0]
    page.draw.rectangle((MARGIN, MARGIN, width - MARGIN, MARGIN + int(0.1 * DPI)), fill=s.color)
    title = f"{scenario.name}: {s.name} set-up"
    x0, x1 = MARGIN + 2, width - MARGIN - 2
    band = (MARGIN, MARGIN + int(0.12 * DPI), width - MARGIN, MARGIN + int(0.8 * DPI))
    size = fit_size(title, 34, x1 - x0, True)
    page.text((x0, band[1] + 4), wrap(title, size, x1 - x0, True)[0], size, True, slot=band, role="title")
    sub = f"{game.name} - page {number} of {total}"
    page.text(
        (x0, band[1] + 4 + int(size * 1.35)), sub, fit_size(sub, 18, x1 - x0), False, MUTED, slot=band, role="subtitle"
    )
    return TOP


def _columns(blocks: Sequence[Block], top: int, bottom: int) -> list[list[list[Block]]]:
    """Blocks flowed into two columns per page; a heading never ends a column."""
    pages: list[list[list[Block]]] = [[[]]]
    y = top
    for i, block in enumerate(blocks):
        nxt = blocks[i + 1][0] if i + 1 < len(blocks) else 0
        need = block[0] + (nxt if block[0] == 48 else 0)
        if y + need > bottom and pages[-1][-1]:
            if len(pages[-1]) == 2:
                pages.append([[]])
            else:
                pages[-1].append([])
            y = top
        pages[-1][-1].append(block)
        y += block[0]
    return pages


def setup_card_pages(
    game: Game, scenario: Scenario, side: str, paper: str = "letter", faces: Faces | None = None
) -> list[Canvas]:
    """The pages of ``side``'s set-up card for ``scenario`` on ``paper``, with every text box recorded;
    counter faces taken from (and kept in) `faces` when given."""
    return list(iter_setup_card_pages(game, scenario, side, paper, faces))


def iter_setup_card_pages(
    game: Game, scenario: Scenario, side: str, paper: str = "letter", faces: Faces | None = None
) -> Iterator[Canvas]:
    """`setup_card_pages` one at a time, each drawn when asked for: a long card is encoded page by page
    instead of held whole."""
    for _shown, draw in card_pages(game, scenario, side, paper, faces):
        yield draw()


def card_pages(
    game: Game, scenario: Scenario, side: str, paper: str = "letter", faces: Faces | None = None
) -> list[tuple[tuple, Callable]]:
    """Each page of ``side``'s card on ``paper``: what it shows (paper, number, page count, the section
    titles and entries of each column, and the label of a representative scenario; the counters of those
    entries and the card's header are the rest)
    and the call that draws it (a `Canvas`). Laid out without drawing: a page whose content is unchanged
    can be taken from a cache."""
    spec = PageSpec(paper, DPI)
    width, height = spec.size
    col_w = (width - 2 * MARGIN - GUTTER) // 2
    blocks: list[Block] = []
    shows: list[object] = []
    for section in card_sections(game, scenario, side):
        blocks.append(_heading_block(section.title))
        blocks += [_entry_block(game, e, col_w, faces) for e in section.entries]
        shows += [section.title, *section.entries]
    if not blocks:
        blocks.append(_heading_block("Nothing to set up"))
        shows.append("Nothing to set up")
    notice = scenario.source.label
    band = notice_block(notice, width - 2 * MARGIN)
    top = TOP + (band.image.height + GUTTER // 2 if band is not None else 0)
    layout = _columns(blocks, top, height - MARGIN)
    which = {id(block): i for i, block in enumerate(blocks)}

    def draw(n: int, columns: list[list[Block]]) -> Canvas:
        page = Canvas.new((width, height))
        _header(page, spec, game, scenario, side, n, len(layout))
        if band is not None:  # representative data: labelled on every page, under the header
            page.paste(band, (MARGIN, TOP))
        for c, column in enumerate(columns):
            x, y = MARGIN + c * (col_w + GUTTER), top
            for block_h, draw_block in column:
                draw_block(page, x, y, col_w)
                y += block_h
        return page

    return [
        (
            (paper, n, len(layout), [[shows[which[id(b)]] for b in column] for column in columns], notice),
            partial(draw, n, columns),
        )
        for n, columns in enumerate(layout, 1)
    ]


def render_setup_card(
    game: Game, scenario: Scenario, side: str, paper: str = "letter", faces: Faces | None = None
) -> list[Image.Image]:
    """The pages of ``side``'s set-up card for ``scenario`` (RGB, Letter or A4 at `DPI`)."""
    return [p.image for p in setup_card_pages(game, scenario, side, paper, faces)]


def setup_card_images(
    game: Game, scenario: Scenario, side: str, paper: str = "letter", faces: Faces | None = None
) -> Iterator[Image.Image]:
    """`render_setup_card` one page at a time, each drawn when asked for: the module encodes a page and lets
    it go before the next is drawn (a card of 5,000 reinforcements is hundreds of pages, 25 MB each whole)."""
    return map(attrgetter("image"), iter_setup_card_pages(game, scenario, side, paper, faces))  # keeps no page


class PageSink(Protocol):
    """Somewhere else a card's Letter pages go while they are drawn (the module's image cache in `build all`)."""

    def add(self, page: Image.Image) -> None: ...

    def encode(self, page: Image.Image) -> list[bytes]:
        """The page as the sink keeps it (what `add_encoded` takes: a page cache keeps it too)."""
        ...

    def add_encoded(self, blobs: list[bytes]) -> None: ...

    def close(self) -> None: ...


class PageCache(Protocol):
    """Drawn card pages kept between builds, by a key of what the page shows (`card_pages`)."""

    def key(self, game: Game, scenario: Scenario, side: str, shown: tuple) -> str: ...

    def get(self, key: str) -> list[bytes] | None: ...

    def put(self, key: str, parts: list[bytes]) -> None: ...


def draw_card_faces(game: Game, faces: Faces) -> None:
    """Draw every counter face the set-up cards show into `faces`, as `_entry_block` draws it: worker
    processes forked afterwards start with all of them,
    rather than each drawing its own copy of every counter with its first card of each side (the module,
    built alone, does this just before forking the workers of its boards and chart pages)."""
    for sid in sorted(game.scenarios):
        scenario = game.scenarios[sid]
        for side in card_sides(game, scenario):
            for section in card_sections(game, scenario, side):
                for entry in section.entries:
                    for uid in entry.units:
                        counter = game.counters.get(uid)
                        if counter is not None:
                            counter_image(game, counter, entry.state, COUNTER_PX, faces=faces)


def write_setup_cards(
    game: Game, out_dir: Path, workers: Workers | None = None, also: Callable[[str, str], PageSink] | None = None
) -> list[Path]:
    """``setup-<scenario>-<side>.pdf`` (Letter) and ``-a4.pdf``, plus one PNG per Letter page, for every
    scenario and side; cards in parallel processes (fork), each drawing a counter face once.
    `also(scenario, side)`: a sink that gets each Letter page too, so no other stage draws it again."""
    cards = [(sid, side) for sid in sorted(game.scenarios) for side in card_sides(game, game.scenarios[sid])]
    return [path for paths in write_cards(game, out_dir, cards, workers, also) for path in paths]


def write_cards(
    game: Game,
    out_dir: Path,
    cards: Sequence[tuple[str, str]],
    workers: Workers | None = None,
    also: Callable[[str, str], PageSink] | None = None,
    cache: PageCache | None = None,
) -> list[list[Path]]:
    """The files of each (scenario id, side) card of `cards` (as `write_setup_cards` writes them), card by card;
    each page taken from `cache` when it holds it."""
    jobs = [(sid, side, str(out_dir)) for sid, side in cards]
    if not jobs:
        return []
    # a forked worker keeps its faces for its next card
    return list(run_per_map(game, jobs, _card_job, workers, also=also, faces=Faces(), pages=cache))


def _card_job(shared: dict, job: tuple[str, str, str]) -> list[Path]:
    return _write_card(shared["game"], *job, also=shared["also"], faces=shared["faces"], cache=shared["pages"])


def _write_card(
    game: Game,
    sid: str,
    side: str,
    out: str,
    also: Callable[[str, str], PageSink] | None = None,
    faces: Faces | None = None,
    cache: PageCache | None = None,
) -> list[Path]:
    out_dir = Path(out)
    scenario = game.scenarios[sid]
    paths: list[Path] = []
    sink = also(sid, side) if also else None
    pages = _page_pngs(
        game, scenario, side, "letter", sink, cache, faces
    )  # encoded once: the PNG file and the PDF's page
    if sink is not None:
        sink.close()
    for n, page in enumerate(pages, 1):
        numbered = () if len(pages) == 1 else (str(n),)
        paths.append(_write_new(out_dir / file_name("setup", sid, side, *numbered, ext="png"), page))
    paths.append(write_pdf(pages, out_dir / file_name("setup", sid, side, "letter", ext="pdf"), DPI, "letter"))
    paths.append(
        write_pdf(
            _page_pngs(game, scenario, side, "a4", None, cache, faces),
            out_dir / file_name("setup", sid, side, "a4", ext="pdf"),
            DPI,
            "a4",
        )
    )
    return paths


def _write_new(path: Path, data: bytes) -> Path:
    """Write `data` to `path` unless the file there already holds exactly these bytes (a page of a card
    redrawn for another page's sake is left as it is)."""
    if read_regular(path, len(data)) == data:
        return path
    return atomic.write_bytes(path, data)


def _page_pngs(
    game: Game,
    scenario: Scenario,
    side: str,
    paper: str,
    sink: PageSink | None,
    cache: PageCache | None,
    faces: Faces | None = None,
) -> list[bytes]:
    """Each page's PNG (and, to `sink`, its own encoding), from `cache` or drawn and kept there. A page
    drawn for a sink is kept with the sink's encoding, under its own key (an entry's bytes depend on its
    key alone)."""
    out = []
    for shown, draw in card_pages(game, scenario, side, paper, faces):
        key = cache.key(game, scenario, side, (*shown, sink is not None)) if cache is not None else ""
        parts = cache.get(key) if cache is not None else None
        if parts is None or len(parts) != (3 if sink is not None else 1):
            image = draw().image
            parts = [png_bytes(image, DPI), *(sink.encode(image) if sink is not None else ())]
            if cache is not None:
                cache.put(key, parts)
        if sink is not None:
            sink.add_encoded(parts[1:])
        out.append(parts[0])
    return out
