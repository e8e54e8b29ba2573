"""Charts from the game's rule tables (CRT, TEC, weather, any declared table) and each scenario's turn track.

Tables are drawn from their data: header row, wrapped cells, legend and printed notes, with the
rule cited. A row whose first cell names a terrain type or map feature gets the map's own sample
beside it, so the Terrain Effects Chart shows what the player sees on the map.

Everything is drawn as blocks no wider and no taller than a page's content area (``canvas.flow``
puts them on Letter or A4 pages): a long table continues in a new block with its header row
repeated, a turn track is one block per row of turn boxes, each box as tall as its longest turn,
and footnotes wrap. A table's ``note:`` is for designers and never printed; ``notes:`` and
``print_note:`` are printed for players.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw

from authoring.model import Game, Scenario, Table
from authoring.model.scenario import value_text
from authoring.names import file_name, id_words
from authoring.render.counters.symbols import (
    letter_mark_width,
    render_letter_mark,
    render_size_mark,
    size_mark_is_drawn,
)
from authoring.render.shared.canvas import AID_DPI, HYPHEN_BREAK, Canvas, PageSpec, fit_size, flowed, wrap
from authoring.render.shared.fonts import font
from authoring.render.shared.pdf import save_png, write_pdf

DPI = AID_DPI
"""Chart resolution."""
PAD = 10
LINE = (60, 55, 48)
HEAD = (222, 214, 190)
STRIPE = (246, 242, 230)
MAX_COL_PX = 420
MIN_COL_PX = 70
BODY = 19
"""Body text size in px at `DPI` (about 9 pt)."""
NOTE = 17
"""Footnote size in px (about 8 pt)."""
TITLE = 30
SAMPLE = 56
NOTICE_INK = (150, 20, 20)
NOTICE_BAND = (253, 232, 214)
"""Colours of the label on representative data (`notice_block`): dark red on a pale orange band."""
NATURAL = PageSpec("letter").content_size
"""Block size used for images outside a paged PDF (the module's chart windows): a Letter content area."""

__all__ = (
    "wrap",
    "fit_size",
    "notice_block",
    "render_table",
    "render_turn_track",
    "table_blocks",
    "turn_blocks",
    "write_charts",
)


def _cell_text(value) -> str:
    return "" if value is None else str(value)


def _sample_for(game: Game, label: str):
    """The legend sample of the terrain/feature a TEC row names, or None."""
    draw = _sample_drawing(game, label)
    return draw() if draw is not None else None


def _sample_drawing(game: Game, label: str):
    """What draws the sample of `_sample_for` (None: the row has none); finding it draws nothing."""
    key = label.strip().lower()
    sections = (
        ("terrain", game.terrain),
        ("feature", game.hex_features),
        ("hexside", game.hexside_features),
        ("path", game.paths),
    )
    side = re.sub(r"\s+hexsides?$", "", key)
    if side != key:  # 'River hexside', 'Lake hexside': the hexside, not the terrain of the same name
        sections = sections[2:3]
    keys = {key, side, re.sub(r"\s*\(.*\)$", "", key)}  # 'Railroad (woods)': the railroad
    for section, items in sections:
        for t in items:
            if keys & {t.id.lower(), t.name.lower()}:
                return lambda section=section, t=t: _legend_sample(game, section, t.id)
    size_def = next((u for u in game.unit_sizes if key in (u.id.lower(), u.name.lower())), None)
    if size_def is not None and size_def.extra.get("mark"):
        return lambda: _size_mark_sample(str(size_def.extra["mark"]), _draws_size_marks(game))
    return None


def _draws_size_marks(game: Game) -> bool:
    """Whether the game's counters draw their X and I size marks as signs (a layout's `drawn: true`)."""
    return any(
        (spec or {}).get("drawn")
        for lay in game.counter_layouts
        for key, spec in (lay.get("slots") or {}).items()
        if key.split(":", 1)[0] == "size_mark"
    )


def _legend_sample(game: Game, section: str, item_id: str) -> Image.Image:
    from authoring.render.maps.legend import SAMPLE_PX, sample_items, sample_scene
    from authoring.render.maps.raster import Layer, rasterize
    from authoring.render.maps.style import map_style

    style = map_style(game)
    size = int(SAMPLE_PX * 1.4)
    scene = sample_scene(style, (size / 2, size / 2))
    layer = Layer(True, sample_items(scene, section, item_id))
    return rasterize([layer], (size, size), (255, 255, 255), 3).resize((SAMPLE, SAMPLE), Image.Resampling.LANCZOS)


def _size_mark_sample(mark: str, drawn: bool = False) -> Image.Image:
    """A unit size's mark as counters print it (XXX as text or, where the counters draw it, as signs;
    the group bracket drawn), on white."""
    image = Image.new("RGB", (SAMPLE, SAMPLE), (255, 255, 255))
    if drawn and letter_mark_width(mark, 1.0):
        height = SAMPLE // 4
        width = min(SAMPLE - 8, round(letter_mark_width(mark, height)))
        art = render_letter_mark(mark, width, height, "#000000")
        image.paste(art, ((SAMPLE - width) // 2, (SAMPLE - height) // 2), art)
    elif size_mark_is_drawn(mark):
        art = render_size_mark(mark, SAMPLE - 8, SAMPLE // 3, "#000000")
        image.paste(art, (4, SAMPLE // 3), art)
    else:
        ImageDraw.Draw(image).text(
            (SAMPLE / 2, SAMPLE / 2),
            mark,
            fill=(0, 0, 0),
            font=font(fit_size(mark, 20, SAMPLE - 6, True, 8), True),
            anchor="mm",
        )
    return image


def _column_measures(table: Table) -> tuple[list[int], list[int]]:
    """(natural, least) width of each column: its longest cell on one line (capped), and its longest word."""
    natural, least = [], []
    length = _text_lengths()
    for c in range(len(table.columns)):
        cells = [(str(table.columns[c]), True)] + [(_cell_text(r[c]) if c < len(r) else "", c == 0) for r in table.rows]
        natural.append(min(MAX_COL_PX, max(length(t, bold) + 2 for t, bold in cells)) + 2 * PAD)
        words = {
            (w, bold) for t, bold in cells for part in re.findall(r"[^\s/]+/?", t) for w in HYPHEN_BREAK.split(part)
        }
        least.append(min(natural[-1], max([length(w, bold) + 2 for w, bold in words] or [0]) + 2 * PAD))
    return natural, least


def _narrowed(least: list[int], width: int) -> list[int]:
    """Widths when even single words do not fit: the widest narrowed first, words will break."""
    widths = list(least)
    while sum(widths) > width and max(widths) > MIN_COL_PX:
        i = widths.index(max(widths))
        widths[i] = max(MIN_COL_PX, widths[i] - (sum(widths) - width))
    return widths


def _column_widths(table: Table, width: int, measures: tuple[list[int], list[int]] | None = None) -> list[int]:
    """Natural widths (capped) when they fit; else every column keeps room for its longest word and the
    space left is shared in proportion to what each column would still like (no word is broken
    while the words fit at all). `measures`: the table's `_column_measures`, when the caller has them."""
    natural, least = measures or _column_measures(table)
    if sum(natural) <= width:
        return natural
    if sum(least) > width:  # even single words do not fit: narrow the widest, words will break
        return _narrowed(least, width)
    if len(table.rows) * len(table.columns) <= BALANCE_CELLS:
        return _shortest_widths(table, least, natural, width)
    spare, wants = width - sum(least), [n - m for n, m in zip(natural, least)]
    total = sum(wants) or 1
    return [m + spare * w // total for m, w in zip(least, wants)]


def _text_lengths():
    """`length(text, bold)`: body text's width in px, each distinct text measured once (a table repeats its
    words and cells: a 500-row table measured 800,000 words one by one)."""

    @cache
    def length(text: str, bold: bool) -> int:
        return int(font(BODY, bold).getlength(text))

    return length


BALANCE_CELLS = 2000
"""Tables up to this many cells get their width shared where it saves the most lines."""


def _shortest_widths(table: Table, least: list[int], natural: list[int], width: int) -> list[int]:
    """Column widths from each column's least, the spare width given step by step to the column where it
    saves the most lines of table height: a long Combat column gets room before a column of short numbers
    grows past what it needs (the terrain chart kept one column six lines deep)."""
    cells = [
        [(str(table.columns[c]), True)] + [(_cell_text(r[c]) if c < len(r) else "", c == 0) for r in table.rows]
        for c in range(len(table.columns))
    ]
    memo: dict[tuple[int, int], list[int]] = {}

    def lines(c: int, w: int) -> list[int]:
        if (c, w) not in memo:
            memo[(c, w)] = [len(wrap(t, BODY, w - 2 * PAD, bold)) if t else 1 for t, bold in cells[c]]
        return memo[(c, w)]

    widths, spare = list(least), width - sum(least)
    step = max(8, spare // 60)
    while spare >= step:
        columns = [lines(c, w) for c, w in enumerate(widths)]
        now = sum(map(max, *columns)) if len(columns) > 1 else sum(columns[0])
        best, rate, grow = None, 0.0, 0
        for c in range(len(widths)):  # the widening (one or more steps) that saves the most lines per step
            others = columns[:c] + columns[c + 1 :]  # each row's height without column c, taken once
            rest = list(map(max, *others)) if len(others) > 1 else (others[0] if others else [0] * len(columns[c]))
            for k in range(1, spare // step + 1):
                if widths[c] + k * step > natural[c]:
                    break
                saved = now - sum(map(max, rest, lines(c, widths[c] + k * step)))
                if saved / k > rate:
                    best, rate, grow = c, saved / k, k * step
        if best is None:
            break
        widths[best] += grow
        spare -= grow
    wants = [n - w for n, w in zip(natural, widths)]
    total = sum(wants) or 1
    return [w + spare * want // total for w, want in zip(widths, wants)]


def _title_block(game: Game, table_name: str, rule: str, width: int) -> Canvas:
    """The table's name, and the rule it cites on the same line when both fit, else under it."""
    cite = game.cite(rule) if rule else ""

    name_w = font(TITLE, True).getlength(table_name)
    cite_w = font(16).getlength(cite)
    lines = wrap(table_name, TITLE, width, True)
    same_line = len(lines) == 1 and name_w + cite_w + 30 <= width
    height = len(lines) * int(TITLE * 1.25) + (0 if same_line or not cite else 24) + 8
    block = Canvas.new((width, height))
    y = 0
    for line in lines:
        block.text((0, y), line, TITLE, True, slot=(0, 0, width, height), role="line")
        y += int(TITLE * 1.25)
    if cite:
        at = (width, 4) if same_line else (0, y)
        block.text(at, cite, 16, False, (110, 100, 90), anchor="ra" if same_line else "la", slot=(0, 0, width, height))
    return block


def notice_block(text: str, width: int) -> Canvas | None:
    """The label of representative data (`Provenance.label`) as a band ``width`` px wide under a chart's title,
    its lines recorded with the role ``provenance``; None when there is nothing to label."""
    if not text:
        return None
    lines = wrap(text, NOTE, width - 16, True)
    line_h = int(NOTE * 1.35)
    block = Canvas.new((width, len(lines) * line_h + 14))
    slot = (0, 0, width, block.image.height - 4)
    block.draw.rectangle(slot, fill=NOTICE_BAND, outline=NOTICE_INK, width=2)
    for n, line in enumerate(lines):
        block.text((8, 5 + n * line_h), line, NOTE, True, NOTICE_INK, slot=slot, role="provenance")
    return block


def _headed(title: Canvas, notice: str, width: int) -> Canvas:
    """A chart's title with the label of representative data under it (every block of the chart has it)."""
    band = notice_block(notice, width)
    return title if band is None else join(title, band)


def _grid(table: Table, widths: list[int]) -> list[list[list[str]]]:
    cols = len(table.columns)
    grid = [[wrap(table.columns[c], BODY, widths[c] - 2 * PAD, True) for c in range(cols)]]
    grid += [
        [wrap(_cell_text(r[c]) if c < len(r) else "", BODY, widths[c] - 2 * PAD, c == 0) for c in range(cols)]
        for r in table.rows
    ]
    return grid


def _rows_block(grid, rows: list[int], widths: list[int], heights: list[int], samples, sample_w: int) -> Canvas:
    """The header row and the given body rows as one ruled block."""
    line_h = int(BODY * 1.3)
    order = [0] + rows
    table_w = sample_w + sum(widths)
    block = Canvas.new((table_w + 1, sum(heights[i] for i in order) + 1))
    d = block.draw
    y = 0
    for k, i in enumerate(order):
        bg = HEAD if i == 0 else (STRIPE if k % 2 == 0 else (255, 255, 255))
        d.rectangle((0, y, table_w, y + heights[i]), fill=bg)
        x = 0
        if sample_w:
            if i > 0 and samples[i - 1] is not None:
                block.image.paste(samples[i - 1], (5, y + (heights[i] - SAMPLE) // 2))
            x += sample_w
        for c, cell in enumerate(grid[i]):
            slot = (x, y, x + widths[c], y + heights[i])
            for n, text in enumerate(cell):
                block.text((x + PAD, y + PAD + n * line_h), text, BODY, i == 0 or c == 0, slot=slot, role="line")
            x += widths[c]
        y += heights[i]
    d.rectangle((0, 0, table_w, y), outline=LINE, width=2)
    x = sample_w
    for cw in widths[:-1]:
        x += cw
        d.line(((x, 0), (x, y)), fill=LINE, width=1)
    d.line(((0, heights[0]), (table_w, heights[0])), fill=LINE, width=2)
    return block


def _footer_lines(table: Table, width: int) -> list[tuple[str, bool]]:
    out: list[tuple[str, bool]] = []
    for key, meaning in table.legend.items():
        out += [(line, i == 0) for i, line in enumerate(wrap(f"{key} = {meaning}", NOTE, width, True))]
    for note in (*table.notes, *table.print_notes):
        out += [(line, False) for line in wrap(f"• {note}", NOTE, width)]
    return out


def _text_blocks(lines: list[tuple[str, bool]], width: int, height: int, size: float = NOTE) -> list[Canvas]:
    """Lines of footnote text cut into blocks that each fit ``height``."""
    line_h = int(size * 1.35)
    per = max(1, (height - 8) // line_h)
    blocks = []
    for start in range(0, len(lines), per):
        chunk = lines[start : start + per]
        block = Canvas.new((width, len(chunk) * line_h + 8))
        for n, (text, bold) in enumerate(chunk):
            block.text((2, 4 + n * line_h), text, size, bold, slot=(0, 0, width, block.image.height), role="line")
        blocks.append(block)
    return blocks


def _widths(table: Table, width: int, samples: list) -> tuple[int, list[int]]:
    sample_w = SAMPLE + 10 if any(s is not None for s in samples) else 0
    return sample_w, _column_widths(table, width - sample_w - 2)


def _table_layout(
    game: Game, table: Table, width: int, samples: list, measured: tuple[int, list[int]] | None = None
) -> tuple[int, list[int], list, list[int]]:
    """(sample column width, column widths, wrapped cells, row heights) of a table ``width`` px wide;
    `samples` holds, per row, anything but None where the row has a sample; `measured`: its `_widths`, when
    the caller has them."""
    sample_w, widths = measured or _widths(table, width, samples)
    grid = _grid(table, widths)
    line_h = int(BODY * 1.3)
    heights = [max(len(cell) for cell in row) * line_h + 2 * PAD for row in grid]
    heights = [heights[0]] + [max(h, SAMPLE + 6 if s is not None else 0) for h, s in zip(heights[1:], samples)]
    return sample_w, widths, grid, heights


def table_problem(game: Game, table: Table, sizes: list[tuple[str, tuple[int, int]]], pixel_budget: int) -> str | None:
    """Why `table_blocks` cannot draw the table at one of `sizes` (what each stage draws it at, named), or
    None: columns that do not fit across even at their narrowest, a row taller than a page, or the whole
    table, stacked as the module shows it, over `pixel_budget`. Only measures text: nothing is drawn."""
    drawn = [_sample_drawing(game, _cell_text(r[0])) if r else None for r in table.rows]
    sample_w = SAMPLE + 10 if any(s is not None for s in drawn) else 0
    measures = _column_measures(table)
    for what, (width, _height) in sizes:
        if sum(measures[1]) > width - sample_w - 2:  # only then can the columns be wider than the page
            widths = _narrowed(measures[1], width - sample_w - 2)
            if sample_w + sum(widths) + 1 > width:
                return (
                    f"its {len(table.columns)} columns need {sample_w + sum(widths) + 1:,} px at their narrowest, "
                    f"wider than {what} ({width:,} px)"
                )
    bound = _table_layout(game, table, 0, drawn, (sample_w, measures[1]))[3]
    for what, (width, height) in sizes:
        # The rows' heights with every column at its least width bound the heights at any width that keeps
        # the columns' words whole (the layout gives a column at least that): the table is laid out at this
        # page's width only when the bound does not fit, or the words break.
        whole = sum(measures[1]) <= width - sample_w - 2
        if whole and _height_problem(table, what, (width, height), bound, pixel_budget) is None:
            continue
        widths = _column_widths(table, width - sample_w - 2, measures)
        heights = _table_layout(game, table, width, drawn, (sample_w, widths))[3]
        found = _height_problem(table, what, (width, height), heights, pixel_budget)
        if found:
            return found
    return None


def _height_problem(
    table: Table, what: str, size: tuple[int, int], heights: list[int], pixel_budget: int
) -> str | None:
    """A row of `heights` taller than the page `what` holds (`size`), or the whole table over `pixel_budget`."""
    width, height = size
    title = (
        int(TITLE * 1.25) * len(wrap(table.name, TITLE, width, True))
        + 32
        + _notice_height(table, min(width, NOTE_MIN_PX))
    )
    tallest = max(heights[1:], default=0)
    if title + heights[0] + tallest > height - 4:
        row = heights.index(tallest, 1)
        return f"row {row} is drawn {tallest:,} px tall, taller than {what} ({height:,} px) can hold"
    stacked = _stacked_height(heights, title, height)
    if stacked * width > pixel_budget:
        return (
            f"drawn whole it is {width:,} x {stacked:,} px ({stacked * width / 1e6:,.0f} million pixels), over "
            f"the budget of {pixel_budget / 1e6:,.0f} million"
        )
    return None


def _notice_height(table: Table, width: int) -> int:
    """The height of the table's `notice_block` at ``width`` (0 when it has none): at its least own width
    (`NOTE_MIN_PX`), the most lines it can take."""
    label = table.source.label
    return len(wrap(label, NOTE, width - 16, True)) * int(NOTE * 1.35) + 14 if label else 0


def _stacked_height(heights: list[int], title: int, height: int) -> int:
    """The height of a table's row blocks stacked (`stack`), cut into blocks as `table_blocks` cuts them,
    each under a title of at most `title` px and the header row."""
    blocks, rows, used = 1, 0, title + heights[0]
    for h in heights[1:]:
        if rows and used + h > height - 4:
            blocks, rows, used = blocks + 1, 0, title + heights[0]
        rows, used = rows + 1, used + h
    return sum(heights[1:]) + blocks * (title + heights[0]) + 12 * (blocks - 1) + 40


def table_blocks(game: Game, table: Table, size: tuple[int, int] = NATURAL) -> list[Canvas]:
    """A table as blocks that each fit ``size``: title, ruled rows (header repeated), footnotes."""
    width, height = size
    samples = [_sample_for(game, _cell_text(r[0])) if r else None for r in table.rows]
    sample_w, widths, grid, heights = _table_layout(game, table, width, samples)
    own = _own_width(game, table, sample_w + sum(widths) + 1, width)  # a narrow table's title and notes are as narrow
    notice = table.source.label
    title = _headed(_title_block(game, table.name, table.rule, own), notice, own)
    blocks, rows, used = [], [], title.image.height + heights[0]
    for i in range(1, len(grid)):
        if rows and used + heights[i] > height - 4:
            blocks.append(join(title, _rows_block(grid, rows, widths, heights, samples, sample_w)))
            title = _headed(_title_block(game, f"{table.name} (continued)", "", own), notice, own)
            rows, used = [], title.image.height + heights[0]
        rows.append(i)
        used += heights[i]
    blocks.append(join(title, _rows_block(grid, rows, widths, heights, samples, sample_w)))
    return blocks + _text_blocks(_footer_lines(table, own - 4), own, height)


NOTE_MIN_PX = 760
"""The narrowest a table's own width makes its notes (narrower tables' notes keep this width)."""


def _own_width(game: Game, table: Table, table_px: int, width: int) -> int:
    """The width a table's blocks take: the table's, or its title and cited rule on one line, or its notes'
    least width, whichever is widest, within ``width`` (a chart window then shows the table whole)."""
    cite = game.cite(table.rule) if table.rule else ""
    title_px = math.ceil(font(TITLE, True).getlength(table.name) + font(16).getlength(cite)) + 31
    notes_px = NOTE_MIN_PX if table.source.label or _footer_lines(table, width) else 0
    return min(width, max(table_px, title_px, notes_px))


def join(top: Canvas, bottom: Canvas) -> Canvas:
    """Two blocks as one (a title kept with what it heads)."""
    joined = Canvas.new((max(top.image.width, bottom.image.width), top.image.height + bottom.image.height))
    joined.paste(top, (0, 0))
    joined.paste(bottom, (0, top.image.height))
    return joined


def stack(blocks: list[Canvas], gap: int = 12) -> Canvas:
    """Blocks one under another on one canvas (for a single image of a chart)."""
    width = max(b.image.width for b in blocks)
    page = Canvas.new((width + 40, sum(b.image.height for b in blocks) + gap * (len(blocks) - 1) + 40))
    y = 20
    for b in blocks:
        page.paste(b, (20, y))
        y += b.image.height + gap
    return page


def render_table(game: Game, table: Table) -> Image.Image:
    """One rule table as a single RGB image at `DPI` (its blocks stacked)."""
    return stack(table_blocks(game, table)).image


# --- turn record track ---------------------------------------------------------------------------

BOX_W = 182
BOX_GAP = 8
TURN_SIZE = 40
LINE_SIZE = 15


def _turn_lines(turn, skip: frozenset[str] = frozenset()) -> list[tuple[str, bool]]:
    """A turn box's lines: date, weather, then each value not in `skip` under its short label."""
    lines = [(turn.date, False), (turn.weather.title(), True)] + [
        (f"{_abbrev(k)}: {value_text(v)}", False) for k, v in turn.values.items() if k not in skip
    ]
    return [(text, bold) for text, bold in lines if text]


def _turn_box_lines(turn, width: int, skip: frozenset[str] = frozenset()) -> list[tuple[str, bool]]:
    out = []
    for text, bold in _turn_lines(turn, skip):
        out += [(line, bold) for line in wrap(text, LINE_SIZE, width, bold)]
    return out


def _every_turn(turns) -> dict[str, str]:
    """Values every turn of a track has alike (printed once in the key, not in forty boxes)."""
    if len(turns) < 2:
        return {}
    first = turns[0].values
    return {
        k: value_text(v)
        for k, v in first.items()
        if all(k in t.values and value_text(t.values[k]) == value_text(v) for t in turns[1:])
    }


def _abbrev(key: str) -> str:
    """A value's label in a turn box: 'Axis supply points' -> 'Axis SP' (three words or more keep the
    first and take the others' initials); the key under the track spells it out."""
    words = id_words(key).split()
    if len(words) < 3:
        return " ".join(words)
    return words[0] + " " + "".join(w[0].upper() for w in words[1:])


def _track_key(turns, constant: dict[str, str]) -> list[tuple[str, bool]]:
    """The key under a turn track: what the short labels stand for, and what holds on every turn."""
    keys = sorted({k for t in turns for k in t.values if k not in constant and _abbrev(k) != id_words(k)})
    lines = [(f"{_abbrev(k)} = {id_words(k)}", False) for k in keys]
    lines += [(f"Every turn - {id_words(k)}: {text}", False) for k, text in constant.items()]
    return lines


def turn_blocks(game: Game, scenario: Scenario, size: tuple[int, int] = NATURAL) -> list[Canvas]:
    """The scenario's Turn Record Track: a title, one block per row of turn boxes (each row as tall as
    its fullest box, every line wrapped inside its box), then the numbered notes."""
    width, height = size
    per_row = max(1, (width + BOX_GAP) // (BOX_W + BOX_GAP))
    inner = BOX_W - 20
    title = f"Turn Record Track: {scenario.name}"
    head = _text_blocks([(line, True) for line in wrap(title, TITLE, width, True)], width, height, TITLE)[0]
    head = _headed(head, scenario.source.label, min(width, per_row * (BOX_W + BOX_GAP) - BOX_GAP))
    blocks: list[Canvas] = []
    turns = scenario.turns
    marks, counter = {}, 0
    for t in turns:
        marks[t.turn] = [f"[{counter + i + 1}]" for i in range(len(t.notes))]
        counter += len(t.notes)
    line_h = int(LINE_SIZE * 1.3)
    constant = _every_turn(turns)
    skip = frozenset(constant)
    for start in range(0, len(turns), per_row):
        row = turns[start : start + per_row]
        contents = [_turn_box_lines(t, inner, skip) for t in row]
        box_h = 60 + max(len(c) for c in contents) * line_h + 10
        block = Canvas.new((width, box_h + 2))
        for k, (t, lines) in enumerate(zip(row, contents)):
            x = k * (BOX_W + BOX_GAP)
            slot = (x, 0, x + BOX_W, box_h)
            block.draw.rectangle(slot, fill=_weather_tint(t.weather), outline=LINE, width=2)
            block.text((x + 10, 8), str(t.turn), TURN_SIZE, True, slot=slot)
            if marks[t.turn]:
                note = " ".join(marks[t.turn])
                block.text(
                    (x + BOX_W - 10, 10),
                    note,
                    fit_size(note, 15, BOX_W // 2, True, 12.5),
                    True,
                    (150, 30, 30),
                    anchor="ra",
                    slot=slot,
                )
            for n, (text, bold) in enumerate(lines):
                block.text((x + 10, 58 + n * line_h), text, LINE_SIZE, bold, slot=slot, role="line")
        blocks.append(join(head, block) if not blocks else block)
    notes = [(t.turn, n) for t in turns for n in t.notes]
    lines = [(line, bold) for text, bold in _track_key(turns, constant) for line in wrap(text, NOTE, width)]
    for i, (turn, note) in enumerate(notes, 1):
        lines += [(line, False) for line in wrap(f"[{i}] Turn {turn}: {note}", NOTE, width)]
    return (blocks or [head]) + _text_blocks(lines, width, height)


def render_turn_track(game: Game, scenario: Scenario, per_row: int = 7) -> Image.Image:
    """The scenario's Turn Record Track as one image (``per_row`` boxes across)."""
    width = per_row * (BOX_W + BOX_GAP)
    return stack(turn_blocks(game, scenario, (width, 10**6))).image


def _weather_tint(weather: str) -> tuple[int, int, int]:
    w = (weather or "").lower()
    tints = {
        "clear": (255, 252, 235),
        "mud": (222, 200, 160),
        "snow": (225, 238, 250),
        "frost": (215, 230, 245),
        "rain": (210, 225, 235),
        "storm": (200, 200, 215),
    }
    return next((v for k, v in tints.items() if k in w), (250, 250, 250))


# --- writing ----------------------------------------------------------------------------------------


def chart_blocks(game: Game, spec: PageSpec) -> list[tuple[str, list[Canvas]]]:
    """Every chart as (name, blocks) sized for ``spec``'s content area."""
    from authoring.render.maps.legend import legend_blocks

    size = spec.content_size
    out = [(file_name("table", t.id, ext="png"), table_blocks(game, t, size)) for t in game.tables]
    out += [
        (file_name("turns", s.id, ext="png"), turn_blocks(game, s, size))
        for s in sorted(game.scenarios.values(), key=lambda s: s.id)
        if s.turns
    ]
    out.append((file_name("legend", ext="png"), legend_blocks(game, size)))
    return out


def chart_pages(game: Game, paper: str) -> list[Canvas]:
    """The charts flowed onto pages of ``paper`` one after another, as many to a page as fit (a chart's
    title always stays with its first rows; a chart that does not fit what is left starts a page)."""
    return list(_pages(game, chart_blocks(game, PageSpec(paper)), paper))


def _pages(game: Game, charts: list[tuple[str, list[Canvas]]], paper: str) -> Iterator[Canvas]:
    """`chart_pages` of charts drawn already, each page made when asked for."""
    return flowed([block for _, chart in charts for block in chart], PageSpec(paper), game.name, "Charts and tables")


def write_charts(game: Game, out_dir: Path) -> list[Path]:
    """A PNG per table, per scenario turn track and the legend, plus ``charts.letter.pdf`` and
    ``charts.a4.pdf`` holding them all on pages of that paper. The Letter charts are drawn once, for their
    PNGs and that PDF, and each PDF page is encoded as it is made: the stage held every page of both papers
    and drew the Letter charts twice (Typhoon: the stage's largest process, 174 MB, beside the others')."""
    out_dir = Path(out_dir)
    letter = chart_blocks(game, PageSpec("letter"))
    paths = [save_png(stack(blocks).image, out_dir / name, DPI) for name, blocks in letter]
    pdfs = {"letter": _write_pdf(game, letter, "letter", out_dir)}
    del letter  # its blocks go before the A4 ones are drawn
    pdfs["a4"] = _write_pdf(game, chart_blocks(game, PageSpec("a4")), "a4", out_dir)
    return paths + [pdfs["a4"], pdfs["letter"]]


def _write_pdf(game: Game, charts: list[tuple[str, list[Canvas]]], paper: str, out_dir: Path) -> Path:
    pages = (page.image for page in _pages(game, charts, paper))  # each encoded by write_pdf, then let go
    return write_pdf(pages, out_dir / file_name("charts", paper, ext="pdf"), DPI, paper)
