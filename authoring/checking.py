"""`check` as a library function: a scenario's set-up, or a set-up card against it, and what was found.

`hexwright check` (through `check`, which first finds the scenario an argument names) and the preview's card
export both call `check_loaded`, so a card gets the same findings from either. `scenario_findings` is the one
assembly of a scenario's findings, which the preview's set-up view and the set-up card import call too: the
loader's findings, then the rules engine's with the options in force, a card's mistake down a column as one
finding, and the notes that say what was not checked (HW-CHECK-001: a file kept the rules from running;
HW-OPT-002: what an option changes in play only), in the order of the text report.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from authoring.diagnostics import Diagnostic, has_errors, sorted_diagnostics
from authoring.diagnostics.codes import HW_CHECK_001, HW_OPT_002
from authoring.diagnostics.rows import one_per_column
from authoring.diagnostics.suggest import suggest
from authoring.load import LoadResult, load_card
from authoring.load.project import card_findings, display, not_checked
from authoring.load.target import TargetError, find_target
from authoring.model import Game, Scenario, SetupCard
from authoring.rules import check_scenario

__all__ = ("BadChoice", "Card", "Checked", "TargetError", "check", "check_loaded", "scenario_findings")

NOT_CHECKED = frozenset({HW_CHECK_001.code, HW_OPT_002.code})
"""The codes of the notes that name what no check saw."""


@dataclass(frozen=True)
class Card:
    """A set-up card to check in place of its side's set-up: the file `path`, or `text` (a card that is in no
    file, such as one dragged on the preview's page), which `path` then only names in the findings."""

    path: Path
    text: str | None = None


@dataclass(frozen=True)
class Checked:
    """What a check found (`findings`, sorted) and what it stood on: the game's load, the scenario (None when
    it did not load), the card as read (None without a card or when it did not read), whether the rules ran."""

    root: Path
    result: LoadResult
    scenario: Scenario | None
    card: SetupCard | None
    findings: tuple[Diagnostic, ...]
    rules_ran: bool

    @property
    def not_checked(self) -> tuple[Diagnostic, ...]:
        """The notes naming what was not checked: the files that kept the rules from running, what an option
        in force changes in play only."""
        return tuple(d for d in self.findings if d.code in NOT_CHECKED)

    @property
    def failed(self) -> bool:
        return has_errors(self.findings)


class BadChoice(ValueError):
    """A side or option the request names that the game or scenario has not; `choice` names the request's
    field ("side", "option"). A usage error, not a finding: nothing was checked."""

    def __init__(self, choice: str, message: str):
        super().__init__(message)
        self.choice = choice


def check(
    scenario: str,
    game_id: str | None = None,
    project: Path | None = None,
    card: Card | None = None,
    side: str | None = None,
    options: Sequence[str] = (),
) -> Checked:
    """`hexwright check SCENARIO`: the scenario an argument names (a file, GAME/SCENARIO or a scenario id,
    looked for from `project`; `TargetError` when it names none or several), checked as `check_loaded` does."""
    target = find_target(scenario, game_id, project)
    return check_loaded(target.root, target.result, target.scenario, card, side, options)


def check_loaded(
    root: Path,
    result: LoadResult,
    scenario: Scenario | None,
    card: Card | None = None,
    side: str | None = None,
    options: Sequence[str] = (),
) -> Checked:
    """A loaded game's scenario checked, with `card` (the set-up of `side`, or of the one side of its units) in
    place of its side's set-up and `options` on. A game whose rules cannot run gives its load findings, the
    note naming why and the card's own findings (the game's errors do not hide them); a card with errors its
    findings and the note, the rules left out (they would only echo its errors). Raises `BadChoice` for a side
    or option the game or scenario has not."""
    if scenario is None or not result.checkable:
        found = list(result.diagnostics) + result.not_checked()
        if card is not None:
            found += card_findings(card.path, result, scenario, side, card.text)
        return Checked(root, result, scenario, None, tuple(sorted_diagnostics(found)), False)
    game = result.valid_game
    _refuse_choices(game, scenario, side, options)
    if card is None:
        return Checked(root, result, scenario, None, tuple(scenario_findings(result, scenario, None, options)), True)
    read, own = load_card(card.path, result, scenario, side, card.text)
    if read is None or has_errors(own):
        found = [*result.diagnostics, *own, not_checked((display(card.path),), game.id)]
        return Checked(root, result, scenario, read, tuple(sorted_diagnostics(found)), False)
    found = scenario_findings(result, scenario, read, options, before=[*result.diagnostics, *own])
    return Checked(root, result, scenario, read, tuple(found), True)


def scenario_findings(
    result: LoadResult,
    scenario: Scenario | None,
    card: SetupCard | None = None,
    options: Iterable[str] = (),
    before: Iterable[Diagnostic] | None = None,
    shared: dict | None = None,
) -> list[Diagnostic]:
    """A scenario's findings, sorted: `before` (default: the game's load findings), then the rules engine's
    for its set-up (or `card` in place of a side's) with `options` on, a card's mistake repeated down a column
    as one finding. When a file kept the rules from running (`LoadResult.checkable`, the one test of every
    command), the note that says so in their place. `shared`: see `rules.board.build_board`."""
    found = list(result.diagnostics if before is None else before)
    if scenario is None or not result.checkable:
        return sorted_diagnostics(found + result.not_checked())
    game = result.valid_game
    found += check_scenario(game, scenario, card, options, shared)
    return sorted_diagnostics(one_per_column(found, game.counters) if card is not None else found)


def _refuse_choices(game: Game, scenario: Scenario, side: str | None, options: Sequence[str]) -> None:
    if side is not None and side not in {s.id for s in game.sides}:
        raise BadChoice("side", f"{side!r}; {suggest(side, [s.id for s in game.sides])}")
    unknown = [o for o in options if o not in {x.id for x in scenario.options}]
    if unknown:
        offered = [x.id for x in scenario.options]
        raise BadChoice("option", f"{unknown[0]!r} is not an option of {scenario.id}; {suggest(unknown[0], offered)}")
