"""The module's windows and toolbar: map, box windows, palette, turn tracker, dice, charts, help.

Each function turns model data (or a plan computed from it) into elements via `elements`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from authoring.hexgrid import vassal_attributes
from authoring.model import Game
from authoring.vassal import aids, briefing
from authoring.vassal import elements as el
from authoring.vassal.boards import BoardPlan
from authoring.vassal.boxes import BoxBoard
from authoring.vassal.codec import key_stroke
from authoring.vassal.images import ChartPage, board_image
from authoring.vassal.pieces import DEAD_MAP, MAIN_MAP, TRACK_MAP

MOVE_FORMAT = "$pieceName$ moves $previousLocation$ -> $location$"
CREATE_FORMAT = "$pieceName$ created in $location$"
REPORTS = el.MapReports(move_within=MOVE_FORMAT, move_to=MOVE_FORMAT, create=CREATE_FORMAT)


def hex_grid(plan: BoardPlan) -> el.Element:
    """HexGrid + HexGridNumbering from the board's `vassal_grid_params`."""
    grid_attrs, numbering_attrs = vassal_attributes(dict(plan.params))
    grid = el.element(
        el.HEX_GRID,
        {
            **grid_attrs,
            "snapTo": True,
            "edgesLegal": False,
            "cornersLegal": False,
            "visible": False,
            "dotsVisible": False,
            "color": "0,0,0",
        },
    )
    numbering = el.element(
        el.HEX_GRID_NUMBERING, {**numbering_attrs, "visible": False, "fontSize": 9, "color": "0,0,0"}
    )
    grid.append(numbering)
    return grid


def stack_viewer(game: Game) -> el.Element:
    """Mouse-over stack viewer: the pieces, and the hex's totals of every summable value."""
    totals = "  ".join(f"{_abbrev(v)} $sum({v.id})$" for v in game.values)
    attrs = {
        "version": 3,
        "delay": 700,
        "showgraph": True,
        "showtext": True,
        "zoomlevel": 1.0,
        "summaryReportFormat": "$LocationName$" + (f"  -  {totals}" if totals else ""),
        "counterReportFormat": "$PieceName$",
    }
    return el.element(el.COUNTER_DETAIL_VIEWER, attrs)


def _abbrev(value) -> str:
    return value.extra.get("abbrev") or value.name


def map_helpers(game: Game, hide_key: str | None = None, sep: int | None = None) -> list[el.Element]:
    """The editor's default helpers, with our stack viewer in place of the bare one and, when `sep`
    is given, unexpanded stacks offset by `sep` pixels (box boards are sized for it)."""

    def helper(h: el.Element) -> el.Element:
        if h.tag == el.COUNTER_DETAIL_VIEWER:
            return stack_viewer(game)
        if h.tag == el.STACK_METRICS and sep is not None:
            return el.stack_metrics(unex_sep_x=sep, unex_sep_y=sep)
        return h

    helpers = [helper(h) for h in el.standard_map_helpers()]
    if hide_key:
        helpers.append(el.hide_pieces_button("", "Hide pieces", hide_key))
    return helpers


def main_map(game: Game, plans: Sequence[BoardPlan]) -> el.Element:
    boards = [el.board(p.name, board_image(p), hex_grid(p)) for p in plans]
    return el.map_window(
        MAIN_MAP,
        el.board_picker(boards),
        [*map_helpers(game, key_stroke(ord("H"), ctrl=True, shift=True)), aids.los_thread()],
        reports=REPORTS,
    )


def box_map(
    game: Game,
    name: str,
    boards: Sequence[tuple[str, BoxBoard]],
    button: el.LaunchButton,
    zones: Callable[[BoxBoard], list[el.Element]] | None = None,
) -> el.Element:
    """A window of named boxes (Regions) pieces snap to; a set-up loads one of its boards. `zones`: the
    highlightable zones of a board's boxes (the turn boxes), over its regions."""

    def grid(board: BoxBoard) -> el.Element:
        regions = el.region_grid([(b.name, b.x, b.y) for b in board.boxes])
        shown = zones(board) if zones is not None else []
        return el.zoned_grid(shown, regions, briefing.zone_highlights()) if shown else regions

    picker = el.board_picker([el.board(board_name, board.image, grid(board)) for board_name, board in boards])
    return el.map_window(name, picker, map_helpers(game, sep=boards[0][1].sep), button=button, reports=REPORTS)


def dead_map(game: Game, board: BoxBoard) -> el.Element:
    return box_map(
        game,
        DEAD_MAP,
        [(DEAD_MAP, board)],
        el.LaunchButton(
            "Eliminated",
            "Units removed from play: each side's loss boxes",
            "",
            key_stroke(ord("E"), ctrl=True, shift=True),
        ),
    )


def track_map(game: Game, boards: Sequence[tuple[str, BoxBoard]]) -> el.Element:
    """Reinforcements: a board per scenario (its turns, off-map boxes and pools); the box of the turn being
    played is highlighted (`briefing`)."""
    return box_map(
        game,
        TRACK_MAP,
        boards,
        el.LaunchButton(
            "Reinforcements", "Reinforcements, withdrawals and pools", "", key_stroke(ord("R"), ctrl=True, shift=True)
        ),
        lambda board: briefing.box_zones(game, board),
    )


PALETTE_PX = (1200, 780)
"""The most a palette tab's grid takes on screen: a whole side in view on a 1080p display."""


def palette_grid(count: int, piece_px: int) -> tuple[int, float]:
    """Columns and scale of a grid of `count` pieces: about 3:2 landscape, shrunk (never below half size)
    to fit `PALETTE_PX`."""
    columns = max(1, min(count, math.ceil(math.sqrt(count * 1.5))))
    rows = math.ceil(count / columns) if count else 1
    scale = min(1.0, PALETTE_PX[0] / (columns * piece_px), PALETTE_PX[1] / (rows * piece_px))
    return columns, round(max(0.5, scale), 2)


def palette(tabs: Sequence[tuple[str, Sequence[el.Element]]], piece_px: int) -> el.Element:
    """Piece window: one tab per side (and one for markers), each a grid showing all its pieces at once
    (in the order given: by nationality or unit type, then natural id order)."""
    widgets = []
    for tab, slots in tabs:
        columns, scale = palette_grid(len(slots), piece_px)
        widgets.append(el.panel_widget(tab, slots, columns=columns, scale=scale))
    return el.piece_window(
        "Counters",
        [el.tab_widget("Counters", widgets)],
        el.LaunchButton(
            "Counters", "Counter palette", "/images/counter.gif", key_stroke(ord("P"), ctrl=True, shift=True)
        ),
    )


def dice(game: Game) -> list[el.Element]:
    """A button per declared die; a die whose 0 face counts as 10 rolls 1-10 and says so."""
    out = []
    for die in game.dice:
        note = f" (0 = {die.zero_is})" if die.zero_is else ""
        fmt = f"** {die.name}{note} = $result$ *** <$PlayerName$>"
        out.append(
            el.dice_button(
                die.name, 1, die.sides, el.LaunchButton(die.name, f"Roll {die.name}{note}"), report_format=fmt
            )
        )
    return out


def chart_window(pages: Sequence[ChartPage]) -> el.Element:
    """ChartWindow > TabWidget > a tab per chart group (a nested TabWidget when it holds several charts).

    The engine lays the children of a ChartWindow out in one BorderLayout, so charts put directly
    under it replace each other and only the last one shows; a TabWidget makes every chart a tab,
    as the VASSAL editor builds it."""
    groups: dict[str, list[ChartPage]] = {}
    for page in pages:
        groups.setdefault(page.group, []).append(page)
    tabs = [_chart_group(group, members) for group, members in groups.items()]
    return el.chart_window(
        "Charts",
        [el.tab_widget("Charts", tabs)],
        el.LaunchButton(
            "Charts", "Tables, turn records and set-up cards", "", key_stroke(ord("K"), ctrl=True, shift=True)
        ),
    )


MAX_CHART_TABS = 8
"""More charts than this in a group go in a list beside the chart: Swing wraps a crowded tab row
into many rows that leave the chart itself no room."""


CHART_LIST_SIZE = (1100, 760)
"""A chart list's least size: VASSAL's ListWidget puts the chart left and the titles right, and applies
the divider (the chart's width) only when width and height are set."""
MAX_CHART_WIDTH = 1420
"""The widest a chart list grows to show its widest page (within a 1440 px screen, the titles kept)."""
MIN_TITLES_WIDTH = 180
"""The least room the chart titles keep beside the chart (longer titles are cut there, the chart is not)."""


def _chart_group(group: str, members: Sequence[ChartPage]) -> el.Element:
    """One chart as it is, a few as nested tabs, many as a ListWidget (titles left, chart right)."""
    if len(members) == 1:
        return el.chart(members[0].title, members[0].image)
    charts = [el.chart(p.short, p.image) for p in members]
    if len(charts) <= MAX_CHART_TABS:
        return el.tab_widget(group, charts)
    listed = min(CHART_LIST_SIZE[0] // 3, 40 + 7 * max(len(p.short) for p in members))
    widest = max(p.size[0] for p in members) + 24  # the chart's own scroll bar and border
    listed = max(MIN_TITLES_WIDTH, min(listed, MAX_CHART_WIDTH - widest))  # the chart whole before long titles
    width = max(CHART_LIST_SIZE[0], min(MAX_CHART_WIDTH, widest + listed))
    return el.list_widget(group, charts, width=width, height=CHART_LIST_SIZE[1], divider=width - listed)


def documentation(help_files: Mapping[str, str]) -> el.Element:
    """Help menu entries: title -> archive file name."""
    return el.documentation([el.help_file(title, name) for title, name in help_files.items()])
