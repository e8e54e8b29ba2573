"""Run the set-up checks: assemble the rules in force, build the board, run every check, sort the findings.

`check_scenario` checks one scenario (or a set-up card against it); `check_game` checks every
scenario with its default options plus the counter-mix rules, and is what `hexwright validate` runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from authoring.diagnostics import Diagnostic, Loc, sorted_diagnostics
from authoring.diagnostics.codes import HW_CARD_002, HW_RULE_003
from authoring.diagnostics.suggest import suggest
from authoring.model import Game, RuleSpec, Scenario, SetupCard
from authoring.rules import codes, params
from authoring.rules.aspects import aspects_of, narrowed
from authoring.rules.board import build_board
from authoring.rules.options import chosen as options_in_force
from authoring.rules.options import effect_findings, not_checked, option_rules, with_turn_values
from authoring.rules.registry import (
    GAME_RULE_TYPES,
    GENERIC_CHECKS,
    RULE_TYPES,
    TOPICS,
    registered_types,
)
from authoring.runtime import gc_paused


def rules_in_force(
    game: Game, scenario: Scenario, options: Iterable[str] = ()
) -> tuple[tuple[RuleSpec, ...], RuleSpec | None, list[Diagnostic]]:
    """Game rules, then the scenario's, then those of the options in force (default-on plus `options` and the
    options they turn on). Each `disable` turns off the rules before it that it names by type or by id, so an
    option can replace any rule, game-level ones included (1941 20.6 frees the 1.2.2 errata placement); with
    `aspects` it turns off only those aspects of them (1941 20.6: the set-up hexes of the printed codes, not
    their arrival turns)."""
    offered = {o.id for o in scenario.options}
    diags = [
        HW_RULE_003.at(
            f"scenario {scenario.id!r} has no option {o!r}",
            scenario.loc,
            help=suggest(o, offered),
            rule=game.cite(""),
        )
        for o in options
        if o not in offered
    ]
    chosen = options_in_force(scenario, options)
    rules: list[RuleSpec] = []
    stacking = game.stacking
    for r in (*game.setup_rules, *scenario.setup_rules, *option_rules(scenario, chosen)):
        if r.type == "disable":
            off = {str(t) for t in r.params.get("rules", ()) or ()}
            scope = aspects_of(r.params)
            rules = [y for x in rules if (y := _disabled(x, off, scope)) is not None]
            stacking = None if "stacking" in off and (not scope or "setup" in scope) else stacking
        rules.append(r)
    return tuple(rules), stacking, diags


def _disabled(rule: RuleSpec, off: set[str], scope: frozenset[str]) -> RuleSpec | None:
    """A rule after a `disable` naming `off` (types or ids): gone, narrowed to the aspects left, or as it was."""
    if rule.type == "disable" or not ({rule.type, str(rule.params.get("id", ""))} & off):
        return rule
    return narrowed(rule, scope) if scope else None


def _valid(game: Game, rules: Iterable[RuleSpec]) -> tuple[list[RuleSpec], list[Diagnostic]]:
    """Rules whose parameters are sound (only those run), and findings for the others."""
    ok, diags = [], []
    types = registered_types()
    known = params.known_ids(game, types)
    for r in rules:
        found = list(params.shape_findings(game, r, types))
        found = found or list(params.ref_findings(game, r, known))
        diags += found
        if not found:
            ok.append(r)
    return ok, diags


def _option_rule_findings(game: Game, scenario: Scenario) -> list[Diagnostic]:
    """The rules of every option, on or off, fit their types and name what the game declares: `validate` runs
    the default options only, and an option's rules must not wait for someone to turn it on to be checked."""
    _, diags = _valid(game, (r for o in scenario.options for r in o.effects.setup_rules))
    return diags


def _card_findings(card: SetupCard, game: Game, scenario: Scenario) -> Iterator[Diagnostic]:
    for what, named, actual in (("game", card.game, game.id), ("scenario", card.scenario, scenario.id)):
        if named and named != actual:
            yield HW_CARD_002.at(
                f"this set-up card is for {what} {named!r}, checked against {actual!r}",
                Loc(card.path, 1, 1) if card.path else None,
                help=f"check the card's `{what}:`",
            )


@gc_paused
def check_scenario(
    game: Game,
    scenario: Scenario,
    card: SetupCard | None = None,
    options: Iterable[str] = (),
    shared: dict | None = None,
) -> list[Diagnostic]:
    """Every finding for one scenario's set-up, or for a set-up card checked against it (`shared`: see
    `build_board`), with the options in force applied: their rules, their turn values, and a note for each
    thing they change that no check sees."""
    options = tuple(options)
    in_force, stacking, diags = rules_in_force(game, scenario, options)
    rules, bad = _valid(game, in_force + ((stacking,) if stacking else ()))
    diags += bad
    stacking = stacking if stacking in rules else None
    chosen = options_in_force(scenario, options)
    diags += effect_findings(game, scenario)
    diags += _option_rule_findings(game, scenario)
    diags += not_checked(game, scenario, chosen)
    scenario = with_turn_values(scenario, chosen)
    board = build_board(game, scenario, card, tuple(r for r in rules if r is not stacking), stacking, shared)
    if card is not None:
        diags += _card_findings(card, game, scenario)
    diags += codes.check_grammar(game)
    diags += codes.check_dropped_zeros(game)
    diags += params.code_findings(game)
    diags += _counter_mix_findings(game, board.rules)
    for check in GENERIC_CHECKS.values():
        diags += check(board)
    for r in board.rules:
        rule_check = RULE_TYPES.get(r.type)
        if rule_check is not None:
            diags += rule_check(board, r)
    return sorted_diagnostics(_unique(diags, game))


def _counter_mix_findings(game: Game, rules: Iterable[RuleSpec]) -> list[Diagnostic]:
    """Counter-mix rules (steps-from-value...): `check` runs them as `validate` does, so both agree."""
    diags: list[Diagnostic] = []
    for r in rules:
        check = GAME_RULE_TYPES.get(r.type)
        if check is not None:
            diags += check(game, r)
    return diags


@gc_paused
def check_game(game: Game) -> list[Diagnostic]:
    """Counter-mix rules, the code grammar, and every scenario with its default options."""
    diags: list[Diagnostic] = []
    rules, bad = _valid(game, game.setup_rules + ((game.stacking,) if game.stacking else ()))
    diags += bad
    diags += codes.check_grammar(game)
    diags += codes.check_dropped_zeros(game)
    diags += params.code_findings(game)
    if not game.scenarios:
        diags += _counter_mix_findings(game, rules)
    shared: dict = {}
    for scenario in game.scenarios.values():
        diags += check_scenario(game, scenario, shared=shared)
    return sorted_diagnostics(_unique(diags, game))


def _unique(diags: Iterable[Diagnostic], game: Game) -> list[Diagnostic]:
    """Game-level rule findings repeat once per scenario; keep one of each. A generic check's
    finding that cites no rulebook section cites what it checks instead: 'BfM (counter mix)'."""
    seen, out = set(), []
    bare = game.cite("")
    for d in diags:
        key = (d.code, d.message, d.loc, d.hex)
        if key not in seen:
            seen.add(key)
            if d.rule in ("", bare) and d.code in TOPICS:
                d = replace(d, rule=f"{bare} ({TOPICS[d.code]})".strip())
            out.append(d)
    return out
