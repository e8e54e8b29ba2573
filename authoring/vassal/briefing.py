"""What happens this turn: entering a turn of the turn tracker posts, in the chat, that turn's arrivals,
withdrawals, turn-record values (replacement points, air or supply points) and what the scenario's options
change in them, weather and special rules, all from the scenario's schedule and turn record, and highlights
that turn's box in the reinforcement window.

The module has one tracker whose turn list several scenarios share (`turns`), so a turn label alone does not
say which scenario is played: each set-up sets the global property `ScenarioId`, and each scenario's turn
has its own TurnGlobalHotkey matching that id, the turn's label and the first phase. Entering a turn is
the only time it fires; the set-up itself posts the first turn's briefing (a chat command in the saved
game), since loading it enters no turn.

The highlight is the engine's own zone highlight: each turn box of a reinforcement board is also a Zone
(same name, snapping to the board's regions) that shows the highlight named by the global property
`TurnBox<n>`. Entering a turn, one hotkey clears every such property and the turn's own hotkey sets its
box's; the setters are hidden buttons on keys no keyboard sends (codes from `KEY_BASE`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from authoring.model import Game, Scenario
from authoring.model.scenario import Scheduled, Turn, value_text
from authoring.vassal import elements as el
from authoring.vassal.boxes import BoxBoard
from authoring.vassal.codec import encode, key_stroke
from authoring.vassal.pieces import TRACK_MAP, unit_name
from authoring.vassal.setups import titled, turn_box
from authoring.vassal.turns import PHASE_LEVEL, TURN_LEVEL, turn_label

SCENARIO_PROPERTY = "ScenarioId"
"""The global property each set-up sets to its scenario's id."""
GLOBAL_PROPERTY_COMMAND = "GlobalProperty\t"
"""`GlobalProperty.encode`: this prefix, then `;NAME;VALUE;CONTAINER` (a module-level property: `Module`)."""
CHAT_COMMAND = "CHAT"
"""`Chatter.encode`: a chat line shown when the command is executed (a saved game's too)."""
HIGHLIGHT = "This turn"
"""The zone highlight a turn box shows while its turn is played (the value its property takes)."""
HIGHLIGHT_COLOR = "255,210,0"
KEY_BASE = 0xF900
"""Key codes for the highlight setters (turn n: KEY_BASE + n, 0 clears): no key of a keyboard sends them, and
they sit above the engine's named keys (`NamedKeyManager`: 0xE000 to 0xF8FE) and below Java's own codes at
0xFF00 and up, so neither a player's key press nor a named key fires them."""


def box_property(turn: int) -> str:
    """The global property naming the highlight of the box of `turn`."""
    return f"TurnBox{turn}"


def _turn_key(turn: int) -> str:
    """The key setting the highlight of the box of `turn`; turn 0: the key clearing them all."""
    if KEY_BASE + turn >= 0xFF00:
        raise ValueError(f"turn {turn}: the module highlights the boxes of turns up to {0xFF00 - KEY_BASE - 1}")
    return key_stroke(KEY_BASE + turn)


def box_turns(game: Game) -> list[int]:
    """Every turn a reinforcement window has a box for (`setups.track_sections`: 1 to the last turn)."""
    last = max(
        [t.turn for s in game.scenarios.values() for t in s.turns]
        + [r.turn for s in game.scenarios.values() for r in (*s.reinforcements, *s.withdrawals)],
        default=0,
    )
    return list(range(1, last + 1))


def _units(game: Game, entries: Sequence[Scheduled], with_place: bool) -> str:
    """`Soviet: 5 Army, 16 Army at east-edge; German: ...`: each entry's units, by side, in data order."""
    parts = []
    for entry in entries:
        names = ", ".join(unit_name(game, game.counters[u]) if u in game.counters else u for u in entry.units)
        where = f" at {_place(game, entry.at)}" if with_place and entry.at else ""
        parts.append(f"{game.side(entry.side).name}: {names}{where}")
    return "; ".join(parts)


def _place(game: Game, at: str) -> str:
    """Where units enter: the hex set's own name when the game gives one, else the code as written."""
    named = game.hex_sets.get(at)
    return str(named.get("name") or at) if isinstance(named, Mapping) else at


def _values(values: Mapping[str, object]) -> str:
    """`German Replacements: 1, Soviet Replacements: 5`: turn-record values by their ids, titled."""
    return ", ".join(f"{titled(k)}: {value_text(v)}" for k, v in values.items())


def turn_briefing(game: Game, scenario: Scenario, turn: Turn) -> str:
    """One chat line: the turn, then each kind of event the turn has (none left out, none made up); the
    tracker's report puts `* ` before it, as before every game message."""
    head = f"Turn {turn.turn}" + (f" ({turn.date})" if turn.date else "")
    parts = [head]
    arriving = [r for r in scenario.reinforcements if r.turn == turn.turn]
    leaving = [w for w in scenario.withdrawals if w.turn == turn.turn]
    box = f" [{TRACK_MAP} window, box {turn_box(turn.turn)}]"
    if arriving:
        parts.append("Arrivals: " + _units(game, arriving, True) + box)
    if leaving:
        parts.append("Withdrawals: " + _units(game, leaving, False) + box)
    if turn.values:
        parts.append(_values(turn.values))
    for option in scenario.options:  # an option the players may choose changes the record on its turns
        changed = [v.values for v in option.effects.turn_values if v.covers(turn.turn)]
        parts += [f"With {option.name}: {_values(values)}" for values in changed]
    if turn.weather:
        parts.append(f"Weather: {turn.weather}")
    parts += [f"Special: {note}" for note in turn.notes]
    return ". ".join(p.rstrip(".") for p in parts) + "."


def _quoted(text: str) -> str:
    """A BeanShell string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def turn_match(game: Game, scenario: Scenario, turn: Turn) -> str:
    """The expression true when the tracker has just entered `turn` of `scenario` (its first phase)."""
    terms = [f"{SCENARIO_PROPERTY}=={_quoted(scenario.id)}", f"{TURN_LEVEL}=={_quoted(turn_label(turn))}"]
    if game.phases:
        terms.append(f"{PHASE_LEVEL}=={_quoted(game.phases[0])}")
    return "{" + " && ".join(terms) + "}"


def _format_text(text: str) -> str:
    """`text` as a FormattedString that shows it as it is (`$` starts a property reference)."""
    return text.replace("$", "")


def turn_hotkeys(game: Game) -> list[el.Element]:
    """The turn tracker's keys entering a turn: every box's highlight cleared, then per scenario and turn
    (TurnGlobalHotkey elements) the turn's box highlighted and its briefing posted."""
    if not box_turns(game):
        return []
    entering = "{" + f"{PHASE_LEVEL}=={_quoted(game.phases[0])}" + "}" if game.phases else ""
    out = [el.turn_global_hotkey("clear the turn boxes' highlight", _turn_key(0), entering)]
    for scenario in (game.scenarios[k] for k in sorted(game.scenarios)):
        for turn in scenario.turns:
            text = _format_text(turn_briefing(game, scenario, turn))
            match = turn_match(game, scenario, turn)
            out.append(el.turn_global_hotkey(f"{scenario.id}: turn {turn.turn}", _turn_key(turn.turn), match, text))
    return out


def module_properties(game: Game) -> el.Element:
    """The global properties: the scenario played (set by its set-up) and each turn box's highlight, with
    the hidden setters the turn hotkeys press."""
    boxes = [
        el.global_property(
            box_property(n),
            "",
            f"the highlight of the box of turn {n}",
            [el.change_property_button(_turn_key(n), HIGHLIGHT), el.change_property_button(_turn_key(0), "")],
        )
        for n in box_turns(game)
    ]
    scenario = el.global_property(SCENARIO_PROPERTY, "", "the scenario the loaded set-up plays")
    return el.global_property_set([scenario, *boxes])


def box_zones(game: Game, board: BoxBoard) -> list[el.Element]:
    """The zones of a reinforcement board's turn boxes, each showing its property's highlight."""
    turns = {turn_box(n): n for n in box_turns(game)}
    return [el.zone(b.name, b.rect, box_property(turns[b.name])) for b in board.boxes if b.name in turns]


def zone_highlights() -> list[el.Element]:
    return [el.zone_highlight(HIGHLIGHT, HIGHLIGHT_COLOR)]


def restore_commands(game: Game, scenario: Scenario) -> list[str]:
    """A set-up's commands: `ScenarioId` set to the scenario, its first turn's box highlighted and that
    turn's briefing posted in the chat."""
    out = [_set_property(SCENARIO_PROPERTY, scenario.id)]
    if scenario.turns:
        first = scenario.turns[0]
        out.append(_set_property(box_property(first.turn), HIGHLIGHT))
        out.append(CHAT_COMMAND + "* " + turn_briefing(game, scenario, first))
    return out


def _set_property(name: str, value: str) -> str:
    return GLOBAL_PROPERTY_COMMAND + ";" + encode([name, value, "Module"], ";")
