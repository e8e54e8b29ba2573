"""The explicit tables of checks (house style 6 and 20): rule types -> checks, and always-on checks by code.

Adding a rule type means: a check function, an entry here, and a `rule-<type>` definition in
schemas/rules.schema.json (a test keeps the two lists equal).
"""
from __future__ import annotations

from typing import Callable, Iterator

from authoring.diagnostics import Diagnostic
from authoring.model import Game, RuleSpec
from authoring.rules import (
    accounting,
    arrivals,
    cards,
    codes,
    hexrules,
    hexsides,
    linked,
    mix,
    placement,
    schedule,
    stacking,
    units,
    values,
)
from authoring.rules.board import Board

BoardCheck = Callable[[Board], Iterator[Diagnostic]]
RuleCheck = Callable[[Board, RuleSpec], Iterator[Diagnostic]]
GameRuleCheck = Callable[[Game, RuleSpec], Iterator[Diagnostic]]


def _handled_by_engine(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """`disable` acts when the rules in force are assembled; it checks nothing itself."""
    return iter(())


# Checks every set-up gets, keyed by the (first) code each reports.
GENERIC_CHECKS: dict[str, BoardCheck] = {
    "HW-STACK-001": stacking.check_stacking,  # also HW-STACK-002 (points), HW-STACK-003 (composition)
    "HW-PLACE-002": placement.check_declared_prohibited_terrain,
    "HW-PLACE-003": placement.check_enemy_units,
    "HW-SIDE-001": placement.check_sides,
    "HW-STATE-001": units.check_states,  # also HW-STATE-003 (a card's state differs from the scenario's)
    "HW-MIX-001": mix.check_counter_mix,  # also HW-SCHED-003 (withdrawn unit not in play)
    "HW-SCHED-001": schedule.check_schedules,  # also HW-SCHED-002 (arrival location), HW-SCHED-004 (pools)
    "HW-SCHED-005": schedule.check_turn_record,
    "HW-PLACE-013": accounting.check_accounted,  # order-of-battle rules and the units a set-up card replaces
}

# Rule types checked against a scenario's set-up.
RULE_TYPES: dict[str, RuleCheck] = {
    "one-per-feature": hexrules.check_one_per_feature,
    "only-on-feature": hexrules.check_only_on_feature,
    "start-state": units.check_start_state,
    "not-on-map-at-start": units.check_not_on_map_at_start,
    "not-in-play-before": schedule.check_not_in_play_before,
    "in-hex-set": hexrules.check_in_hex_set,
    "not-in-hex-set": hexrules.check_not_in_hex_set,
    "unit-at": hexrules.check_unit_at,
    "max-per-map": hexrules.check_max_per_map,
    "in-box": units.check_in_box,
    "garrison": hexrules.check_garrison,
    "follow-setup-codes": codes.check_follow_setup_codes,
    "prohibited-terrain": placement.check_prohibited_terrain,
    "pool-cost": schedule.check_pool_cost,
    "arrive-in-hex-set": accounting.check_arrive_in_hex_set,
    "order-of-battle": accounting.check_order_of_battle,  # reported by the generic HW-PLACE-013 check
    "turn-value": values.check_turn_value,
    "scenario-value": values.check_scenario_value,
    "card-matches-scenario": cards.check_card_matches_scenario,
    "substitute-for": linked.check_substitute_for,
    "adjacent-to-hexside": hexsides.check_adjacent_to_hexside,
    "near-unit": hexsides.check_near_unit,
    "may-arrive-in-hex-set": arrivals.check_may_arrive_in_hex_set,  # read by the code and arrival checks
    "disable": _handled_by_engine,
}

# Rule types checked once per game, on the counter mix.
GAME_RULE_TYPES: dict[str, GameRuleCheck] = {
    "steps-from-value": mix.check_steps_from_value,
}

# Every finding code the engine reports, with its one-line meaning (stable once released).
CODES: dict[str, str] = {
    "HW-RULE-001": "unknown rule type, or parameters that do not fit the type",
    "HW-RULE-002": "a rule names a feature, side, unit, hex set... the game does not declare",
    "HW-RULE-003": "an option id the scenario does not offer",
    "HW-STACK-001": "too many units in a hex (count model)",
    "HW-STACK-002": "too many stacking points in a hex (points model)",
    "HW-STACK-003": "a side's units in a hex fit no allowed combination (composition model)",
    "HW-PLACE-002": "a unit starts in prohibited terrain",
    "HW-PLACE-003": "a unit starts in a hex with enemy units",
    "HW-PLACE-004": "a feature hex does not hold exactly one unit of the side (one-per-feature)",
    "HW-PLACE-005": "a unit starts off the feature hexes it is limited to (only-on-feature)",
    "HW-PLACE-006": "a unit starts outside its hex set (in-hex-set)",
    "HW-PLACE-007": "a unit starts or arrives inside a forbidden hex set (not-in-hex-set)",
    "HW-PLACE-008": "a unit is not in the hex a unit-at rule names",
    "HW-PLACE-009": "too many selected units on one map (max-per-map)",
    "HW-PLACE-010": "a hex of a garrison set holds too few units (garrison)",
    "HW-PLACE-011": "a unit that may not start on the map is set up on it (not-on-map-at-start)",
    "HW-PLACE-012": "a unit does not start in its off-map box (in-box)",
    "HW-PLACE-013": "a unit the scenario should hold is on no hex, in no box, pool or schedule (order-of-battle, cards)",
    "HW-PLACE-014": "a set-up card puts a unit elsewhere than the scenario sets it up, or uses one it does not (card-matches-scenario)",
    "HW-PLACE-015": "a unit starts in another's place without the swap its substitute-for rule requires (substitute-for)",
    "HW-PLACE-016": "a unit starts in a hex with none of the hexside features it must start beside (adjacent-to-hexside)",
    "HW-PLACE-017": "a unit starts farther from a friendly unit of a kind than the rule allows (near-unit)",
    "HW-SIDE-001": "a unit is listed under a side it does not belong to",
    "HW-STATE-001": "a unit's state is not one of its counter's faces",
    "HW-STATE-002": "a unit starts at the wrong strength state (start-state)",
    "HW-STATE-003": "a set-up card gives a unit another strength state than the scenario's set-up",
    "HW-MIX-001": "a unit is used more often than the counter mix has copies",
    "HW-MIX-002": "a counter's steps do not follow its printed value (steps-from-value)",
    "HW-CODE-001": "a unit's set-up code is missing or matches no pattern of the grammar",
    "HW-CODE-002": "a unit is not where its set-up code says",
    "HW-CODE-003": "a set-up code names no hex on the maps in play",
    "HW-CODE-004": "a set-up code pattern is not a valid regular expression",
    "HW-CODE-005": "set-up codes that lost their leading zeros in a spreadsheet (one finding per counters file)",
    "HW-SCHED-001": "a reinforcement or withdrawal falls outside the turn record",
    "HW-SCHED-002": "an arrival location names nothing, or nothing on the maps in play",
    "HW-SCHED-003": "a withdrawn unit is not in play by then",
    "HW-SCHED-004": "a pool becomes available outside the turn record",
    "HW-SCHED-005": "the turn record is not numbered consecutively from its first turn",
    "HW-SCHED-006": "a unit is in play before the turn it may enter (not-in-play-before)",
    "HW-SCHED-007": "a pool states no cost or no availability turn (pool-cost)",
    "HW-SCHED-008": "a reinforcement or pool enters outside its hex set, or a pool states no entry (arrive-in-hex-set)",
    "HW-VALUE-001": "a turn-record value breaks the rule that fixes it (turn-value)",
    "HW-VALUE-002": "a scenario value is missing or breaks the rule that fixes it (scenario-value)",
    "HW-CARD-002": "a set-up card was written for another game or scenario",
}


TOPICS: dict[str, str] = {
    "HW-RULE-003": "scenario options",
    "HW-PLACE-002": "prohibited terrain",
    "HW-PLACE-003": "enemy units",
    "HW-SIDE-001": "sides",
    "HW-STATE-001": "strength states",
    "HW-STATE-003": "scenario set-up",
    "HW-PLACE-013": "order of battle",
    "HW-MIX-001": "counter mix",
    "HW-SCHED-001": "schedules",
    "HW-SCHED-002": "arrival locations",
    "HW-SCHED-003": "withdrawals",
    "HW-SCHED-004": "pools",
    "HW-SCHED-005": "turn record",
}
"""What a generic check enforces, cited when the game's data names no rulebook section for it."""


def registered_types() -> tuple[str, ...]:
    return tuple(sorted({*RULE_TYPES, *GAME_RULE_TYPES}))
