"""Printed set-up codes (rules-spec "Set-up code grammar", e.g. Typhoon 14.1): parse, resolve, enforce.

The grammar is data (`game.setup_codes`): regular expressions tried in order, the first full match
wins, each with a meaning. Codes are enforced only where a scenario asks (`follow-setup-codes`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Protocol

import re2

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_CODE_001, HW_CODE_002, HW_CODE_003, HW_CODE_004, HW_CODE_005
from authoring.diagnostics.zeros import padded, zeros_help, zeros_message
from authoring.hexgrid import Hex
from authoring.model import Counter, Game, RuleSpec
from authoring.rules.arrivals import also_open
from authoring.rules.board import Board, Use
from authoring.rules.linked import substitutes_set_up
from authoring.rules.selectors import selects

MEANING_TEXT = MappingProxyType(
    {
        "hex": "set up in hex {hex}",
        "hex-set": "set up in hex set {hex_set}",
        "turn": "arrive on turn {turn}",
        "turn-at": "arrive on turn {turn} in hex set {hex_set}",
        "pool": "start in {pool}",
        "box": "start in off-map box {box}",
        "any": "no constraint",
    }
)


@dataclass(frozen=True)
class CodeMatch:
    code: str
    meaning: str
    spec: Mapping
    groups: Mapping[str, str]

    def text(self) -> str:
        if self.meaning == "turn-at" and "turn" not in self.groups:
            return f"arrive in hex set {self.spec.get('hex_set', '')}"
        fields = {
            "hex": self.hex_label,
            "hex_set": self.spec.get("hex_set", ""),
            "box": self.spec.get("box", ""),
            "turn": self.groups.get("turn", "?"),
            "pool": f"pool {self.pool_id}" if self.pool_id else "a pool",
        }
        return MEANING_TEXT[self.meaning].format(**fields)

    @property
    def pool_id(self) -> str | None:
        """The pool a pool code names (`pool_id` filled from the code's groups), in lower case as every id is
        (a printed `PA` with `pool-{pool}` names pool `pool-a`); None: any pool."""
        template = self.spec.get("pool_id")
        return template.format(**self.groups).lower() if template else None

    @property
    def hex_label(self) -> str:
        return self.groups.get("hex") or self.code


class CodeMatchObject(Protocol):
    """What a match of a compiled pattern offers (RE2's module ships no type hints)."""

    def groupdict(self) -> dict[str, str | None]: ...


class CodePattern(Protocol):
    """A compiled set-up code pattern (RE2's, which ships no type hints)."""

    def fullmatch(self, text: str) -> CodeMatchObject | None: ...


def compile_pattern(pattern: str) -> CodePattern:
    """A designer's set-up code pattern, compiled by RE2: matching takes time linear in the code's length
    whatever the pattern (`^(a|aa)+$` cannot backtrack), in bounded memory. Raises `PatternError` for a
    pattern RE2 refuses: a syntax error, or a feature that needs backtracking (backreferences,
    lookahead/lookbehind), which is how a catastrophic pattern is refused rather than run."""
    options = re2.Options()
    options.log_errors = False  # the error is reported as a diagnostic, not logged to stderr
    options.max_mem = 8 << 20  # a huge counted repetition (a{1000}{1000}) is refused, not built
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternError(reason) from None


class PatternError(ValueError):
    """RE2 refused a pattern; the message says why."""


def grammar(game: Game) -> tuple[tuple[CodePattern | None, Mapping], ...]:
    """The compiled grammar; a pattern that does not compile is kept as None (see `check_grammar`)."""
    return tuple((compiled(str(spec["pattern"])), spec) for spec in game.setup_codes)


@lru_cache(maxsize=256)
def compiled(pattern: str) -> CodePattern | None:
    """`compile_pattern`, or None for a pattern RE2 refuses. Process-wide, keyed by the pattern's text: a
    compiled pattern is a pure function of it and is never changed, so it cannot go stale."""
    try:
        return compile_pattern(pattern)
    except PatternError:
        return None


def parse(game: Game, code: str, side: str | None = None, counter: Counter | None = None) -> CodeMatch | None:
    """The first pattern that matches the whole code; a pattern's `sides` entry for the unit's side
    replaces its hex set, box, pool or rule (Typhoon 14.1.3 b / 14.1.4 b: 's' differs per side). A pattern
    with unit selectors (`units`, `unit_type`) is tried only for a counter it selects (Typhoon 14.1.4 f: the
    Moscow supply unit's code names any Moscow hex)."""
    for regex, spec in grammar(game):
        if _selective(spec) and not selects(spec, counter):
            continue
        m = regex.fullmatch(code) if regex is not None and code else None
        if m:
            groups = {k: v for k, v in m.groupdict().items() if v is not None}
            per_side = (spec.get("sides") or {}).get(side) if side else None
            if per_side:
                spec = {**spec, **per_side}
            return CodeMatch(code, str(spec.get("meaning", "any")), spec, groups)
    return None


def _selective(spec: Mapping) -> bool:
    return "units" in spec or "unit_type" in spec


def _selective_specs(game: Game) -> tuple[Mapping, ...]:
    """The patterns of the grammar that are for some units only (then a code's reading depends on which of
    them select the counter)."""
    return tuple(s for _, s in grammar(game) if _selective(s))


def parse_on(board: Board, code: str, side: str | None = None, counter: Counter | None = None) -> CodeMatch | None:
    """`parse` for a board, each distinct (code, side) parsed once per `check_game` run (scenarios repeat
    the same counters' codes); when the grammar has patterns for some units only, once per set of those
    patterns that select the counter (a counter changes nothing else of what `parse` finds)."""
    memo = board.shared.setdefault("codes", {})
    selective = _selective_specs(board.game) if counter is not None else ()
    key = (code, side, tuple(i for i, spec in enumerate(selective) if selects(spec, counter)) if selective else None)
    if key not in memo:
        memo[key] = parse(board.game, code, side, counter if selective else None)
    return memo[key]


def _code_loc(game: Game, i: int):
    """Where grammar entry `i` is written (the manifest's top when unknown)."""
    return game.setup_code_locs[i] if i < len(game.setup_code_locs) else game.loc


def check_grammar(game: Game) -> Iterator[Diagnostic]:
    """Every pattern of the grammar compiles."""
    for i, (regex, spec) in enumerate(grammar(game)):
        if regex is None:
            try:
                compile_pattern(str(spec["pattern"]))
            except PatternError as exc:
                yield HW_CODE_004.at(
                    f"set-up code pattern {spec['pattern']!r} is not a valid regular expression: {exc}",
                    _code_loc(game, i),
                    help="write a regular expression without backreferences or lookaround (RE2 syntax, "
                    "matched in linear time), e.g. '^(?P<hex>[0-9]{4})$'",
                    rule=game.cite(str(spec.get("rule", ""))),
                    path=("setup_codes", i),
                )


def resolve_at(board: Board, at: str, side: str | None = None) -> frozenset[Hex] | None:
    """Hexes an arrival location names: a hex id, a hex-set name or a code (read for `side`); None when it
    names nothing."""
    h = board.hexsets.label_to_hex(at)
    if h is not None:
        return frozenset((h,))
    found = board.hexsets.resolve(at)
    if found is not None:
        return found
    m = parse_on(board, at, side)
    return None if m is None else code_target(board, m)


def restored(game: Game, code: str, side: str | None) -> str | None:
    """`code` with the leading zeros a spreadsheet dropped ('304' -> '0304'), when only that reading sets the
    unit up in a hex of the game: a code the grammar reads as a hex of the maps, or as a turn some scenario
    has, stays as written."""
    m = parse(game, code, side) if code.isdigit() else None
    if not code.isdigit() or (m is not None and _means_something(game, m)):
        return None
    return padded(
        code,
        lambda wanted: (
            (w := parse(game, wanted, side)) is not None and w.meaning == "hex" and _means_something(game, w)
        ),
    )


def _restored_on(board: Board, code: str, side: str | None) -> str | None:
    """`restored` for a board, each (code, side) worked out once per `check_game` run (the board's memo)."""
    memo = board.shared.setdefault("restored", {})
    if (code, side) not in memo:
        memo[code, side] = restored(board.game, code, side)
    return memo[code, side]


def _means_something(game: Game, m: CodeMatch) -> bool:
    if m.meaning == "hex":
        return any(g.grid.label_to_hex(m.hex_label) is not None for g in game.maps.values())
    if "turn" in m.groups:
        return int(m.groups["turn"]) in {t.turn for s in game.scenarios.values() for t in s.turns}
    return True


def check_dropped_zeros(game: Game) -> Iterator[Diagnostic]:
    """HW-CODE-005: set-up codes that lost their leading zeros, one finding per counters file at the first,
    saying how many codes of the file did (a spreadsheet drops them for the whole column)."""
    by_file: dict[str, list[tuple[Counter, str]]] = {}
    for c in game.counters.values():
        wanted = restored(game, c.setup_code, c.side) if c.setup_code else None
        if wanted:
            where = c.code_loc or c.loc
            by_file.setdefault(where.file if where else "", []).append((c, wanted))
    for file, found in by_file.items():
        c, wanted = found[0]
        m = parse(game, c.setup_code, c.side)
        reads = f"reads as {m.text()}" if m else "is no code of the grammar"
        lines = [at.line for x, _w in found if (at := x.code_loc or x.loc)]
        read = parse(game, wanted, c.side)
        assert read is not None  # `restored` gives only a code the grammar reads as a hex
        spec = read.spec
        yield HW_CODE_005.at(
            zeros_message(f"{c.id}'s set-up code {c.setup_code!r} {reads}", "set-up code", lines, file),
            c.code_loc or c.loc,
            help=zeros_help(list(dict.fromkeys(w for _x, w in found)), "setup_code", file),
            rule=game.cite(str(spec.get("rule", ""))),
        )


def valid_codes(game: Game) -> str:
    return (
        "; ".join(f"{s['pattern']} ({s.get('meaning', 'any')})" for s in game.setup_codes) or "the game declares none"
    )


def check_follow_setup_codes(board: Board, spec: RuleSpec) -> Iterator[Diagnostic]:
    """Each unit of the scenario carries a code of the grammar and is where its code says (unit-at rules, and
    substitute-for units set up in place of another, excepted)."""
    only = spec.params.get("only")
    errata = {r.params["unit"] for r in board.rules if r.type == "unit-at"} | substitutes_set_up(board)
    for unit, uses in board.by_unit.items():
        c = board.counter(unit)
        if c is None or c.marker or unit in errata:
            continue  # a unit-at rule (errata) overrides the printed code
        m = parse_on(board, _restored_on(board, c.setup_code, c.side) or c.setup_code, c.side, c)  # HW-CODE-005 says it
        if m is None:
            what = f"set-up code {c.setup_code!r}" if c.setup_code else "no set-up code"
            yield HW_CODE_001.at(
                f"{unit} has {what}, which the set-up code grammar does not accept",
                uses[0].loc,
                help=f"valid codes: {valid_codes(board.game)}",
                rule=board.game.cite(spec.rule),
                related=(c.loc,) if c.loc else (),
                hex=uses[0].label,
            )
            continue
        if only and m.meaning not in only:
            continue
        yield from _follow(board, spec, m, c, uses)


def _follow(board: Board, spec: RuleSpec, m: CodeMatch, c: Counter, uses: tuple[Use, ...]) -> Iterator[Diagnostic]:
    """Findings for counter `c`, whose code reads as `m`, when none of its `uses` is where the code says."""
    target = code_target(board, m)
    rule = board.game.cite(str(m.spec.get("rule") or spec.rule))
    related = (c.loc,) if c.loc else ()
    if target is not None and not target:
        yield HW_CODE_003.at(
            f"{uses[0].unit}'s code {m.code!r} ({m.text()}) names no hex on the maps in play "
            f"({', '.join(board.scenario.maps)})",
            uses[0].loc,
            rule=rule,
            related=related,
            hex=uses[0].label,
            help="add the maps the code needs to the scenario, or leave this unit out of it",
        )
        return
    if any(_obeys(board, m, target, u) for u in uses):
        return
    wrong = next((u for u in uses if u.kind in ("setup", "off_map", "reinforcement", "pool")), uses[0])
    yield HW_CODE_002.at(
        f"{wrong.unit}'s code {m.code!r} says {m.text()}, but it {_whereabouts(board, wrong)}",
        wrong.loc,
        rule=rule,
        related=related,
        hex=wrong.label,
        help=f"{m.text()} as the code says, or record the errata with a unit-at rule",
    )


def code_target(board: Board, m: CodeMatch) -> frozenset[Hex] | None:
    if m.meaning == "hex":
        h = board.hexsets.label_to_hex(m.hex_label)
        return frozenset((h,)) if h is not None else frozenset()
    if m.meaning in ("hex-set", "turn-at"):
        return board.hexsets.resolve(m.spec["hex_set"]) or frozenset()
    return None


def _obeys(board: Board, m: CodeMatch, target: frozenset[Hex] | None, u: Use) -> bool:
    """Whether `u` is where code `m` says (`target`: `code_target`, hexes for every meaning that names a place)."""
    if m.meaning in ("hex", "hex-set"):
        return u.kind == "setup" and target is not None and u.hex in target
    if m.meaning == "turn":
        return u.kind == "reinforcement" and ("turn" not in m.groups or int(m.groups["turn"]) == u.turn)
    if m.meaning == "turn-at":
        at = resolve_at(board, u.place, board.side_of(u)) if u.place else None
        turn_ok = "turn" not in m.groups or int(m.groups["turn"]) == u.turn
        if u.kind != "reinforcement" or not turn_ok or not at or target is None:
            return False
        return at <= target or at <= target | also_open(board, u.counter, u.turn)
    if m.meaning == "pool":
        return u.kind == "pool" and (m.pool_id is None or u.place == m.pool_id)
    if m.meaning == "box":
        return u.kind == "off_map" and u.place == m.spec["box"]
    return True


def _whereabouts(board: Board, u: Use) -> str:
    if u.kind == "setup":
        return f"starts in hex {board.describe(u.hex, u.label) if u.hex else u.label}"
    if u.kind == "off_map":
        return f"starts in off-map box {u.place}"
    if u.kind == "reinforcement":
        return f"arrives on turn {u.turn}" + (f" at {u.place}" if u.place else "")
    if u.kind == "pool":
        return f"is in pool {u.place}"
    return f"is withdrawn on turn {u.turn}"
