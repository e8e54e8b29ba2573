"""Charts from the game's rule tables (CRT, TEC, weather, any declared table) and each scenario's turn track.

Tables are drawn from their data: header row, wrapped cells, legend and notes, with the rule
cited. A row whose first cell names a terrain type or map feature gets the map's own sample
beside it, so the Terrain Effects Chart shows what the player sees on the map.
"""
from __future__ import annotations

import re
from pathlib import Path

from PIL import Image, ImageDraw

from authoring.model import Game, Scenario, Table
from authoring.render.fonts import font
from authoring.render.pdf import save_png, write_pdf

DPI = 150
"""Chart resolution."""
PAD = 10
LINE = (60, 55, 48)
HEAD = (222, 214, 190)
STRIPE = (246, 242, 230)
INK = (30, 28, 24)
MAX_COL_PX = 420
BODY = 19
"""Body text size in px at `DPI` (about 9 pt)."""


def wrap(text: str, size: float, width: int, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width`` px."""
    fnt = font(size, bold)
    lines: list[str] = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}".strip()
            if line and fnt.getlength(trial) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def fit_size(text: str, size: float, width: int, bold: bool = False, floor: float = 10) -> float:
    """The largest size up to ``size`` at which ``text`` fits ``width`` px (never below ``floor``)."""
    length = font(size, bold).getlength(text)
    return size if length <= width else max(floor, size * width / length)


def _cell_text(value) -> str:
    return "" if value is None else str(value)


def _sample_for(game: Game, label: str):
    """The legend sample of the terrain/feature a TEC row names, or None."""
    from authoring.render.map_legend import SAMPLE_PX, _sample, _sample_scene
    from authoring.render.map_style import map_style
    key = label.strip().lower()
    sections = (("terrain", game.terrain), ("feature", game.hex_features), ("hexside", game.hexside_features),
                ("path", game.paths))
    for section, items in sections:
        for t in items:
            if key in (t.id.lower(), t.name.lower()):
                from authoring.render.map_raster import Layer, rasterize
                style = map_style(game)
                size = int(SAMPLE_PX * 1.4)
                scene = _sample_scene(style, (size / 2, size / 2))
                layer = Layer(True, _sample(scene, section, t.id))
                return rasterize([layer], (size, size), (255, 255, 255), 3).resize((56, 56), Image.Resampling.LANCZOS)
    return None


def render_table(game: Game, table: Table) -> Image.Image:
    """One rule table as an RGB image at `DPI`."""
    cols = len(table.columns)
    samples = [_sample_for(game, _cell_text(r[0])) if r else None for r in table.rows]
    with_samples = any(s is not None for s in samples)
    fnt_b = font(BODY, True)
    widths = []
    for c in range(cols):
        texts = [table.columns[c]] + [_cell_text(r[c]) if c < len(r) else "" for r in table.rows]
        natural = max(int(font(BODY, c == 0).getlength(t)) for t in texts)
        widths.append(min(MAX_COL_PX, max(natural, int(fnt_b.getlength(table.columns[c])))) + 2 * PAD)
    sample_w = 66 if with_samples else 0
    grid = [[wrap(table.columns[c], BODY, widths[c] - 2 * PAD, True) for c in range(cols)]]
    grid += [[wrap(_cell_text(r[c]) if c < len(r) else "", BODY, widths[c] - 2 * PAD, c == 0) for c in range(cols)]
             for r in table.rows]
    line_h = int(BODY * 1.3)
    heights = [max(len(cell) for cell in row) * line_h + 2 * PAD for row in grid]
    heights = [heights[0]] + [max(h, 62 if s is not None else 0) for h, s in zip(heights[1:], samples)]
    table_w = sample_w + sum(widths)
    footer = _footer_lines(table, max(table_w, 600) - 2 * PAD)
    title_h = 56
    W = max(table_w, 600) + 2 * 20
    H = title_h + sum(heights) + len(footer) * line_h + 40
    img = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(img)
    d.text((20, 22), table.name, fill=INK, font=font(30, True), anchor="lm")
    if table.rule:
        d.text((W - 20, 22), game.cite(table.rule), fill=(110, 100, 90), font=font(16), anchor="rm")
    y = title_h
    for i, row in enumerate(grid):
        x = 20
        bg = HEAD if i == 0 else (STRIPE if i % 2 == 0 else (255, 255, 255))
        d.rectangle((x, y, x + table_w, y + heights[i]), fill=bg)
        if with_samples:
            if i > 0 and samples[i - 1] is not None:
                img.paste(samples[i - 1], (x + 5, y + (heights[i] - 56) // 2))
            x += sample_w
        for c, cell in enumerate(row):
            for k, text in enumerate(cell):
                d.text((x + PAD, y + PAD + k * line_h), text, fill=INK, font=font(BODY, i == 0 or c == 0))
            x += widths[c]
        y += heights[i]
    _grid_lines(d, 20, title_h, widths, heights, sample_w)
    y += 12
    for text, bold in footer:
        d.text((20, y), text, fill=INK, font=font(BODY - 2, bold))
        y += line_h
    return img


def _grid_lines(d: ImageDraw.ImageDraw, x0: int, y0: int, widths, heights, sample_w: int) -> None:
    w, h = sample_w + sum(widths), sum(heights)
    d.rectangle((x0, y0, x0 + w, y0 + h), outline=LINE, width=2)
    x = x0 + sample_w
    for cw in widths[:-1]:
        x += cw
        d.line(((x, y0), (x, y0 + h)), fill=LINE, width=1)
    y = y0
    for rh in heights[:-1]:
        y += rh
        d.line(((x0, y), (x0 + w, y)), fill=LINE, width=2 if y == y0 + heights[0] else 1)


def _footer_lines(table: Table, width: int) -> list[tuple[str, bool]]:
    out: list[tuple[str, bool]] = []
    for key, meaning in table.legend.items():
        out += [(line, i == 0) for i, line in enumerate(wrap(f"{key} = {meaning}", BODY - 2, width, True))]
    for note in table.notes:
        out += [(line, False) for line in wrap(f"• {note}", BODY - 2, width)]
    return out


def render_turn_track(game: Game, scenario: Scenario, per_row: int = 7) -> Image.Image:
    """The scenario's Turn Record Track: one box per turn with date, weather, values and note marks."""
    turns = scenario.turns
    box_w, box_h = 170, 150
    rows = max(1, -(-len(turns) // per_row))
    notes = [(t.turn, n) for t in turns for n in t.notes]
    note_lines = []
    for i, (turn, note) in enumerate(notes, 1):
        note_lines += wrap(f"[{i}] Turn {turn}: {note}", BODY - 2, per_row * box_w - 20)
    W = per_row * box_w + 40
    H = 70 + rows * (box_h + 10) + len(note_lines) * int(BODY * 1.3) + 30
    img = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(img)
    title = f"Turn Record Track: {scenario.name}"
    d.text((20, 30), title, fill=INK, font=font(fit_size(title, 30, W - 40, True), True), anchor="lm")
    counter = 0
    for i, t in enumerate(turns):
        r, c = divmod(i, per_row)
        x, y = 20 + c * box_w, 60 + r * (box_h + 10)
        d.rectangle((x, y, x + box_w - 6, y + box_h), fill=_weather_tint(t.weather), outline=LINE, width=2)
        d.text((x + 10, y + 8), str(t.turn), fill=INK, font=font(40, True))
        marks = []
        for _ in t.notes:
            counter += 1
            marks.append(f"[{counter}]")
        d.text((x + box_w - 14, y + 10), " ".join(marks), fill=(150, 30, 30), font=font(15, True), anchor="ra")
        lines = [t.date, t.weather.title()] + [f"{_short(k)}: {v}" for k, v in t.values.items()]
        for k, text in enumerate(lines):
            size = fit_size(text, 15, box_w - 22, k == 1)
            d.text((x + 10, y + 60 + k * 19), text, fill=INK, font=font(size, k == 1))
    y = 70 + rows * (box_h + 10)
    for line in note_lines:
        d.text((20, y), line, fill=INK, font=font(BODY - 2))
        y += int(BODY * 1.3)
    return img


def _short(key: str) -> str:
    return re.sub(r"[_-]+", " ", key).capitalize()


def _weather_tint(weather: str) -> tuple[int, int, int]:
    w = (weather or "").lower()
    tints = {"clear": (255, 252, 235), "mud": (222, 200, 160), "snow": (225, 238, 250), "frost": (215, 230, 245),
             "rain": (210, 225, 235), "storm": (200, 200, 215)}
    return next((v for k, v in tints.items() if k in w), (250, 250, 250))


def write_charts(game: Game, out_dir: Path) -> list[Path]:
    """A PNG per table, per scenario turn track and the legend, plus ``charts.pdf`` holding them all."""
    from authoring.render.map_legend import render_legend
    out_dir = Path(out_dir)
    images: list[tuple[str, Image.Image]] = [(f"table-{t.id}", render_table(game, t)) for t in game.tables]
    images += [(f"turns-{s.id}", render_turn_track(game, s)) for s in sorted(game.scenarios.values(), key=lambda s: s.id)
               if s.turns]
    images.append(("legend", render_legend(game)))
    paths = [save_png(img, out_dir / f"{name}.png", DPI) for name, img in images]
    paths.append(write_pdf([img for _, img in images], out_dir / "charts.pdf", DPI))
    return paths
