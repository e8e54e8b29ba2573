"""One turn track per scenario, chosen by the loaded set-up.

VASSAL 3.6 cannot hide a TurnTracker's toolbar button (no visibility attribute; the button is
always on the toolbar), so a tracker per scenario would put every scenario's tracker in front
of every player. What the engine does offer is in the tracker's *state*, which a saved game
restores (`TURN<id><TAB><state>`, executed between begin_save and end_save, after the reset
that begin_save does): a ListTurnLevel stores, besides its current item, the item it starts
from (`first`) and which items are active, and `advance()` skips inactive items and rolls over
at `first`. So the module has a single "Turn" tracker whose list holds every distinct turn
record one after the other (a record that starts another one shares its items), and each
scenario's set-up switches on its own items only: the player sees that scenario's turns and
the game's phases, then an "End of game" item (`end_label`), and only after that does the track roll over
to its first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from authoring.model import Game, Scenario
from authoring.vassal import elements as el
from authoring.vassal.codec import encode, key_stroke

TRACKER_NAME = "Turn"
TRACKER_ID = "TurnTracker0"
"""The engine numbers trackers in build order (UniqueIdManager "TurnTracker" + index); there is one."""
COMMAND_PREFIX = "TURN"
TURN_LEVEL = "Turn"
PHASE_LEVEL = "Phase"


def turn_label(turn) -> str:
    """`1 Oct I (clear)`: number, date and weather as the turn record prints them."""
    text = str(turn.turn)
    if turn.date:
        text += f" {turn.date}"
    if turn.weather:
        text += f" ({turn.weather})"
    return text


def end_label(scenario: Scenario) -> str:
    """The item after a scenario's last turn: the tracker stops there, where victory is judged, rather than
    rolling over into turn 1 of the same game (or on into the turns of a longer scenario)."""
    return f"End of game (after turn {scenario.turns[-1].turn})"


@dataclass(frozen=True)
class TurnTrack:
    """The tracker's turn list and, per scenario id, the span (first index, count) it uses."""

    labels: tuple[str, ...]
    spans: Mapping[str, tuple[int, int]]
    phases: tuple[str, ...]


def _by_id(game: Game) -> list[Scenario]:
    return [game.scenarios[k] for k in sorted(game.scenarios)]


def turn_track(game: Game) -> TurnTrack:
    """Distinct turn records, longest first, each scenario pointing into the one it starts."""
    records = sorted(
        ((s.id, (*(turn_label(t) for t in s.turns), end_label(s))) for s in _by_id(game) if s.turns),
        key=lambda r: (-len(r[1]), r[0]),
    )
    labels: list[str] = []
    starts: list[tuple[int, tuple[str, ...]]] = []
    spans: dict[str, tuple[int, int]] = {}
    for sid, record in records:
        home = next((start for start, longer in starts if record == longer[: len(record)]), None)
        if home is None:
            home = len(labels)
            starts.append((home, record))
            labels.extend(record)
        spans[sid] = (home, len(record))
    return TurnTrack(tuple(labels), spans, tuple(game.phases))


def turn_tracker(track: TurnTrack, hotkeys: Sequence[el.Element] = ()) -> list[el.Element]:
    """The toolbar's turn tracker: Turn (number, date, weather) and, nested, the game's phases; `hotkeys`
    (TurnGlobalHotkey elements) fire as it enters the turns or phases they match."""
    if not track.labels:
        return []
    phases = [el.list_turn_level(PHASE_LEVEL, PHASE_LEVEL, list(track.phases))] if track.phases else []
    level = el.list_turn_level(TURN_LEVEL, TURN_LEVEL, list(track.labels), phases)
    fmt = "Turn $level1$" + (" - $level2$" if phases else "")
    button = el.LaunchButton(
        TRACKER_NAME, "Turn record of the loaded scenario", "", key_stroke(ord("T"), ctrl=True, shift=True)
    )
    return [
        el.turn_tracker(
            TRACKER_NAME,
            [level],
            button,
            turn_format=fmt,
            report_format="<$PlayerId$> Turn updated from $oldTurn$ to $newTurn$",
            hotkeys=hotkeys,
        )
    ]


def _list_level_state(current: int, first: int, active: list[bool], sublevels: list[str]) -> str:
    """ListTurnLevel.getState(): current;currentSubLevel;first;active flags;sub-level states."""
    flags = encode(["true" if a else "false" for a in active], ",")
    return encode([str(current), "0", str(first), flags, *sublevels], ";")


def restore_command(track: TurnTrack, scenario_id: str) -> str | None:
    """The saved-game command putting the tracker on the scenario's first turn, its turns only active."""
    if scenario_id not in track.spans:
        return None
    first, count = track.spans[scenario_id]
    active = [first <= i < first + count for i in range(len(track.labels))]
    phases = [_list_level_state(0, 0, [True] * len(track.phases), [])] if track.phases else []
    state = encode(["0", _list_level_state(first, first, active, phases)], "|")
    return encode([COMMAND_PREFIX + TRACKER_ID, state], "\t")
