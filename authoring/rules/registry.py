"""The explicit tables of checks (house style 6 and 20): rule types -> checks, and always-on checks by code.

Adding a rule type means: a check function, an entry here, and a `rule-<type>` definition in
schemas/rules.schema.json (a test keeps the two lists equal).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import (
    CATALOGUE,
    HW_MIX_001,
    HW_PLACE_002,
    HW_PLACE_003,
    HW_PLACE_013,
    HW_RULE_003,
    HW_SCHED_001,
    HW_SCHED_002,
    HW_SCHED_003,
    HW_SCHED_004,
    HW_SCHED_005,
    HW_SIDE_001,
    HW_STACK_001,
    HW_STATE_001,
    HW_STATE_003,
)
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
GENERIC_CHECKS: Mapping[str, BoardCheck] = MappingProxyType(
    {
        HW_STACK_001.code: stacking.check_stacking,  # also HW-STACK-002 (points), HW-STACK-003 (composition)
        HW_PLACE_002.code: placement.check_declared_prohibited_terrain,
        HW_PLACE_003.code: placement.check_enemy_units,
        HW_SIDE_001.code: placement.check_sides,
        HW_STATE_001.code: units.check_states,  # also HW-STATE-003 (a card's state differs from the scenario's)
        HW_MIX_001.code: mix.check_counter_mix,  # also HW-SCHED-003 (withdrawn unit not in play)
        HW_SCHED_001.code: schedule.check_schedules,  # also HW-SCHED-002 (arrival location), HW-SCHED-004 (pools)
        HW_SCHED_005.code: schedule.check_turn_record,
        HW_PLACE_013.code: accounting.check_accounted,  # order-of-battle rules and the units a set-up card replaces
    }
)

# Rule types checked against a scenario's set-up.
RULE_TYPES: Mapping[str, RuleCheck] = MappingProxyType(
    {
        "one-per-feature": hexrules.check_one_per_feature,
        "only-on-feature": hexrules.check_only_on_feature,
        "start-state": units.check_start_state,
        "arrival-state": units.check_arrival_state,
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
)

# Rule types checked once per game, on the counter mix.
GAME_RULE_TYPES: Mapping[str, GameRuleCheck] = MappingProxyType(
    {
        "steps-from-value": mix.check_steps_from_value,
    }
)

# Every finding code the engine reports, with its one-line meaning: the rules' part of the catalogue.
CODES: Mapping[str, str] = MappingProxyType({c.code: c.meaning for c in CATALOGUE.values() if c.stage == "rules"})


TOPICS: Mapping[str, str] = MappingProxyType(
    {
        HW_RULE_003.code: "scenario options",
        HW_PLACE_002.code: "prohibited terrain",
        HW_PLACE_003.code: "enemy units",
        HW_SIDE_001.code: "sides",
        HW_STATE_001.code: "strength states",
        HW_STATE_003.code: "scenario set-up",
        HW_PLACE_013.code: "order of battle",
        HW_MIX_001.code: "counter mix",
        HW_SCHED_001.code: "schedules",
        HW_SCHED_002.code: "arrival locations",
        HW_SCHED_003.code: "withdrawals",
        HW_SCHED_004.code: "pools",
        HW_SCHED_005.code: "turn record",
    }
)
"""What a generic check enforces, cited when the game's data names no rulebook section for it."""


def registered_types() -> tuple[str, ...]:
    return tuple(sorted({*RULE_TYPES, *GAME_RULE_TYPES}))
