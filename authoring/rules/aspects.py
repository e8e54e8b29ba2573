"""What each rule type checks, by aspect, so that an option can turn off one aspect of a rule and keep the rest
(`disable` with `aspects`, e.g. 1941 20.6: free deployment frees the set-up hexes, the arrival turns stay).

Aspects: `setup` (where and how units start: hexes, boxes, states), `arrival` (when and where units enter:
turns, entry hexes, pools), `values` (turn-record and scenario values).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from authoring.model import RuleSpec
from authoring.model.game import frozen_map

ASPECTS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "one-per-feature": ("setup",),
        "only-on-feature": ("setup",),
        "start-state": ("setup",),
        "arrival-state": ("arrival",),
        "not-on-map-at-start": ("setup",),
        "not-in-play-before": ("setup", "arrival"),
        "in-hex-set": ("setup",),
        "not-in-hex-set": ("setup", "arrival"),
        "unit-at": ("setup",),
        "max-per-map": ("setup",),
        "in-box": ("setup",),
        "garrison": ("setup",),
        "follow-setup-codes": ("setup", "arrival"),
        "prohibited-terrain": ("setup",),
        "pool-cost": ("arrival",),
        "arrive-in-hex-set": ("arrival",),
        "may-arrive-in-hex-set": ("arrival",),
        "order-of-battle": ("setup", "arrival"),
        "turn-value": ("values",),
        "scenario-value": ("values",),
        "card-matches-scenario": ("setup",),
        "substitute-for": ("setup", "arrival"),
        "adjacent-to-hexside": ("setup",),
        "near-unit": ("setup",),
        "steps-from-value": (),
        "disable": (),
    }
)
"""Rule type -> the aspects it checks. A type checking several aspects keeps checking all of them when only
some are turned off, unless it has a narrower below (a test keeps this table equal to the registry)."""

CODE_MEANINGS = MappingProxyType({"setup": ("hex", "hex-set", "box"), "arrival": ("turn", "turn-at", "pool")})
"""Printed-code meanings by aspect (follow-setup-codes)."""


def _narrow_codes(spec: RuleSpec, off: frozenset[str]) -> RuleSpec | None:
    """follow-setup-codes enforcing only the meanings of the aspects left on (its `only`, narrowed); None when
    it enforced none but those."""
    dropped = {m for a in off for m in CODE_MEANINGS.get(a, ())}
    every = [m for a in ("setup", "arrival") for m in CODE_MEANINGS[a]]
    only = [m for m in (spec.params.get("only") or every) if m not in dropped]
    return replace(spec, params=frozen_map({**spec.params, "only": only})) if only else None


NARROWERS: Mapping[str, Callable[[RuleSpec, frozenset[str]], RuleSpec | None]] = MappingProxyType(
    {"follow-setup-codes": _narrow_codes}
)


def narrowed(spec: RuleSpec, off: frozenset[str]) -> RuleSpec | None:
    """The rule with the aspects `off` turned off: None when nothing is left of it, the rule itself when it
    checks none of them (or cannot leave them out)."""
    mine = set(ASPECTS.get(spec.type, ()))
    if not mine & off:
        return spec
    if mine <= off:
        return None
    narrow = NARROWERS.get(spec.type)
    return narrow(spec, off) if narrow is not None else spec


def aspects_of(params: Mapping) -> frozenset[str]:
    return frozenset(str(a) for a in params.get("aspects", ()) or ())
