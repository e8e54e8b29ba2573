"""The module's windows and toolbar: map, box windows, palette, turn tracker, dice, charts, help.

Each function turns model data (or a plan computed from it) into elements via `elements`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from authoring.hexgrid import vassal_attributes
from authoring.model import Game, Scenario
from authoring.vassal import elements as el
from authoring.vassal.boards import BoardPlan
from authoring.vassal.codec import key_stroke
from authoring.vassal.images import BoxBoard, ChartPage, board_image
from authoring.vassal.pieces import DEAD_MAP, MAIN_MAP, TRACK_MAP

MOVE_FORMAT = "$pieceName$ moves $previousLocation$ -> $location$"
CREATE_FORMAT = "$pieceName$ created in $location$"
REPORTS = el.MapReports(move_within=MOVE_FORMAT, move_to=MOVE_FORMAT, create=CREATE_FORMAT)


def hex_grid(plan: BoardPlan) -> el.Element:
    """HexGrid + HexGridNumbering from the board's `vassal_grid_params`."""
    grid_attrs, numbering_attrs = vassal_attributes(dict(plan.params))
    grid = el.element(el.HEX_GRID, {**grid_attrs, "snapTo": True, "edgesLegal": False, "cornersLegal": False,
                                    "visible": False, "dotsVisible": False, "color": "0,0,0"})
    numbering = el.element(el.HEX_GRID_NUMBERING, {**numbering_attrs, "visible": False, "fontSize": 9,
                                                   "color": "0,0,0"})
    grid.append(numbering)
    return grid


def stack_viewer(game: Game) -> el.Element:
    """Mouse-over stack viewer: the pieces, and the hex's totals of every summable value."""
    totals = "  ".join(f"{_abbrev(v)} $sum({v.id})$" for v in game.values)
    attrs = {"version": 3, "delay": 700, "showgraph": True, "showtext": True, "zoomlevel": 1.0,
             "summaryReportFormat": "$LocationName$" + (f"  -  {totals}" if totals else ""),
             "counterReportFormat": "$PieceName$"}
    return el.element(el.COUNTER_DETAIL_VIEWER, attrs)


def _abbrev(value) -> str:
    return value.extra.get("abbrev") or value.name


def map_helpers(game: Game, hide_key: str | None = None) -> list[el.Element]:
    """The editor's default helpers, with our stack viewer in place of the bare one."""
    helpers = [h if h.tag != el.COUNTER_DETAIL_VIEWER else stack_viewer(game) for h in el.standard_map_helpers()]
    if hide_key:
        helpers.append(el.hide_pieces_button("", "Hide pieces", hide_key))
    return helpers


def main_map(game: Game, plans: Sequence[BoardPlan]) -> el.Element:
    boards = [el.board(p.name, board_image(p), hex_grid(p)) for p in plans]
    return el.map_window(MAIN_MAP, el.board_picker(boards),
                         map_helpers(game, key_stroke(ord("H"), ctrl=True, shift=True)), reports=REPORTS)


def box_map(game: Game, name: str, board: BoxBoard, button: el.LaunchButton) -> el.Element:
    """A window of named boxes (Regions) pieces snap to."""
    grid = el.region_grid([(b.name, b.x, b.y) for b in board.boxes])
    picker = el.board_picker([el.board(name, board.image, grid)])
    return el.map_window(name, picker, map_helpers(game), button=button, reports=REPORTS)


def dead_map(game: Game, board: BoxBoard) -> el.Element:
    return box_map(game, DEAD_MAP, board, el.LaunchButton("Eliminated", "Eliminated units, one box per side", "",
                                                         key_stroke(ord("E"), ctrl=True, shift=True)))


def track_map(game: Game, board: BoxBoard) -> el.Element:
    return box_map(game, TRACK_MAP, board, el.LaunchButton("Reinforcements", "Reinforcements, withdrawals and pools",
                                                           "", key_stroke(ord("R"), ctrl=True, shift=True)))


def palette(tabs: Sequence[tuple[str, Sequence[tuple[str, Sequence[el.Element]]]]]) -> el.Element:
    """Piece window: a tab per side (and one for markers), a list per nationality or unit type."""
    widgets = [el.tab_widget(tab, [el.list_widget(name, slots) for name, slots in lists]) for tab, lists in tabs]
    return el.piece_window("Counters", [el.tab_widget("Counters", widgets)],
                           el.LaunchButton("Counters", "Counter palette", "/images/counter.gif",
                                           key_stroke(ord("P"), ctrl=True, shift=True)))


def turn_label(turn) -> str:
    """`1 Oct I (clear)`: number, date and weather as the turn record prints them."""
    text = str(turn.turn)
    if turn.date:
        text += f" {turn.date}"
    if turn.weather:
        text += f" ({turn.weather})"
    return text


def turn_lists(game: Game) -> list[tuple[str, tuple[str, ...]]]:
    """(title, labels) per distinct turn record; a record that starts another one shares its tracker."""
    records = sorted(((s.name, tuple(turn_label(t) for t in s.turns)) for s in _by_id(game) if s.turns),
                     key=lambda r: (-len(r[1]), r[0]))
    groups: list[tuple[str, tuple[str, ...]]] = []
    for name, labels in records:
        if not any(labels == longer[:len(labels)] for _, longer in groups):
            groups.append((name, labels))
    return groups


def _by_id(game: Game) -> list[Scenario]:
    return [game.scenarios[k] for k in sorted(game.scenarios)]


def turn_trackers(game: Game) -> list[el.Element]:
    """Turn (date, weather) and, nested, the game's phases; one tracker per distinct turn record."""
    groups = turn_lists(game)
    out = []
    for i, (name, labels) in enumerate(groups):
        phases = [el.list_turn_level("Phase", "Phase", list(game.phases))] if game.phases else []
        level = el.list_turn_level("Turn", "Turn", list(labels), phases)
        title = "Turn" if len(groups) == 1 else f"Turn ({name})"
        fmt = "Turn $level1$" + (" - $level2$" if phases else "")
        key = key_stroke(ord("T"), ctrl=True, shift=True) if i == 0 else ""
        out.append(el.turn_tracker(title, [level], el.LaunchButton(title, f"Turn record: {name}", "", key),
                                   turn_format=fmt,
                                   report_format="<$PlayerId$> Turn updated from $oldTurn$ to $newTurn$"))
    return out


def dice(game: Game) -> list[el.Element]:
    """A button per declared die; a die whose 0 face counts as 10 rolls 1-10 and says so."""
    out = []
    for die in game.dice:
        note = f" (0 = {die.zero_is})" if die.zero_is else ""
        fmt = f"** {die.name}{note} = $result$ *** <$PlayerName$>"
        out.append(el.dice_button(die.name, 1, die.sides, el.LaunchButton(die.name, f"Roll {die.name}{note}"),
                                  report_format=fmt))
    return out


def chart_window(pages: Sequence[ChartPage]) -> el.Element:
    return el.chart_window("Charts", [el.chart(p.title, p.image) for p in pages],
                           el.LaunchButton("Charts", "Tables, turn records and set-up cards", "",
                                           key_stroke(ord("K"), ctrl=True, shift=True)))


def documentation(help_files: Mapping[str, str]) -> el.Element:
    """Help menu entries: title -> archive file name."""
    return el.documentation([el.help_file(title, name) for title, name in help_files.items()])
