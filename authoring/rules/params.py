"""Rule parameters: shape against schemas/rules.schema.json (HW-RULE-001), references against the game (HW-RULE-002).

Rules written in game.yaml and scenarios were already schema-checked by the loader; this catches
rules built outside the loader and every reference by id.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from authoring.bundled import schema_dir
from authoring.diagnostics import Diagnostic
from authoring.diagnostics.codes import HW_RULE_001, HW_RULE_002
from authoring.diagnostics.suggest import suggest
from authoring.model import Game, RuleSpec
from authoring.schema.documents import inlined
from authoring.schema.fastcheck import compile_schema

if TYPE_CHECKING:  # imported only for a rule that fails the fast check (jsonschema's import is slow)
    from jsonschema import Draft202012Validator

RULES_SCHEMA_ID = "https://hexwright.dev/schemas/rules.schema.json"


@cache
def _fast(definition: str):
    """A yes/no check of one rules-schema definition (None when fastcheck cannot compile it). Process-wide,
    keyed by the definition's name: the bundled rules schema no process writes."""
    return compile_schema(inlined(f"{RULES_SCHEMA_ID}#/$defs/{definition}"))


@cache
def _validator(definition: str) -> Draft202012Validator:
    """The jsonschema validator of one rules-schema definition (process-wide, as `_fast`)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    resources = []
    for path in sorted(schema_dir().glob("*.schema.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        resources.append((doc["$id"], Resource.from_contents(doc)))
    registry = Registry().with_resources(resources)
    return Draft202012Validator({"$ref": f"{RULES_SCHEMA_ID}#/$defs/{definition}"}, registry=registry)


def schema_types() -> tuple[str, ...]:
    """The rule types the schema describes (kept equal to the registry by a test)."""
    doc = json.loads((schema_dir() / "rules.schema.json").read_text(encoding="utf-8"))
    return tuple(doc["$defs"]["setupRule"]["properties"]["type"]["enum"])


def _where(path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def shape_findings(game: Game, spec: RuleSpec, known_types: Iterable[str]) -> Iterator[Diagnostic]:
    """HW-RULE-001 when the type is not registered or its parameters do not fit the type's schema."""
    known = sorted(known_types)
    cite = game.cite(spec.rule)
    if spec.type == "stacking":
        instance, definition = dict(spec.params), "stacking"
    elif spec.type not in known:
        yield HW_RULE_001.at(f"unknown rule type {spec.type!r}", spec.loc, help=suggest(spec.type, known), rule=cite)
        return
    else:
        instance = {"type": spec.type, **({"rule": spec.rule} if spec.rule else {}), **spec.params}
        definition = "setupRule"
    fast = _fast(definition)
    if fast is not None and fast(instance):
        return
    errors = list(_validator(definition).iter_errors(instance))
    if errors:
        from jsonschema.exceptions import best_match

        err = best_match(errors)
        where = _where(err.absolute_path)
        yield HW_RULE_001.at(
            f"rule {spec.type}: {where + ': ' if where else ''}{err.message}",
            spec.loc,
            help=err.schema.get("description", "") if isinstance(err.schema, dict) else "",
            rule=cite,
        )


def _ids(items) -> frozenset[str]:
    return frozenset(x.id for x in items)


def known_ids(game: Game, registered: Iterable[str]) -> Mapping[str, tuple[str, frozenset[str]]]:
    """Parameter name -> (what it names, the ids it may take); worked out once per check of a game's rules
    (`engine`) and passed to `ref_findings`, read-only."""
    counters = frozenset(game.counters)
    return MappingProxyType(
        {
            "feature": ("hex feature", _ids(game.hex_features)),
            "side": ("side", _ids(game.sides)),
            "hexside": ("hexside feature", _ids(game.hexside_features)),
            "nationality": ("nationality", _ids(game.nationalities)),
            "unit_type": ("unit type", _ids(game.unit_types)),
            "size": ("unit size", _ids(game.unit_sizes)),
            "flag": ("flag", _ids(game.flags)),
            "state": ("strength state", _ids(game.strength_states)),
            "hex_set": ("hex set", frozenset(game.hex_sets)),
            "terrain": ("terrain type", _ids(game.terrain)),
            "value": ("value", _ids(game.values)),
            "units": ("counter", counters),
            "unit": ("counter", counters),
            "replaces": ("counter", counters),
            "rules": ("rule type or rule id", frozenset(registered) | {"stacking"} | rule_ids(game)),
        }
    )


def rule_ids(game: Game) -> set[str]:
    """The ids rules are given in game.yaml, the scenarios and their options (what `disable` may name)."""
    specs: list[RuleSpec] = [*game.setup_rules]
    for s in game.scenarios.values():
        specs += s.setup_rules
        specs += [r for o in s.options for r in o.effects.setup_rules]
    ids = set()
    for r in specs:
        found = r.params.get("id")
        if found:
            ids.add(str(found))
    return ids


def _values(value) -> list[str]:
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


def ref_findings(game: Game, spec: RuleSpec, known: Mapping[str, tuple[str, frozenset[str]]]) -> Iterator[Diagnostic]:
    """HW-RULE-002 for every id a rule names that the game does not declare (`known`: `known_ids(game, ...)`)."""
    yield from _refs(game, spec, spec.params, known)
    if spec.type == "stacking":
        yield from _stacking_refs(game, spec, known)


def _refs(game: Game, spec: RuleSpec, params: Mapping, known: Mapping) -> Iterator[Diagnostic]:
    for key, value in params.items():
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
            for item in value:  # nested entries (card-matches-scenario's `free`) name ids as rules do
                yield from _refs(game, spec, item, known)
            continue
        if isinstance(value, Mapping) and key == "of":  # near-unit's selectors of the other unit
            yield from _refs(game, spec, value, known)
            continue
        if key not in known or value is None:
            continue
        what, ids = known[key]
        for v in _values(value):
            if v not in ids:
                yield HW_RULE_002.at(
                    f"rule {spec.type} names unknown {what} {v!r} in `{key}`",
                    spec.loc,
                    help=suggest(v, ids),
                    rule=game.cite(spec.rule),
                )


def _stacking_refs(game: Game, spec: RuleSpec, known: Mapping) -> Iterator[Diagnostic]:
    sizes = known["size"][1] | {"*"}
    groups = [({"side": side}, per.get("combos", ())) for side, per in spec.params.get("per_side", {}).items()]
    groups += [(o, o.get("combos", ())) for o in spec.params.get("overrides", ())]
    for params, combos in groups:
        yield from _refs(game, spec, {k: v for k, v in params.items() if k in ("side", "feature", "terrain")}, known)
        for combo in combos:
            yield from _refs(
                game, spec, {"size": [k for k in combo if k not in sizes]} if set(combo) - sizes else {}, known
            )


def code_findings(game: Game) -> Iterator[Diagnostic]:
    """Each set-up code pattern that names a hex set names a declared one."""
    sides = {s.id for s in game.sides}
    for i, spec in enumerate(game.setup_codes):
        loc = game.setup_code_locs[i] if i < len(game.setup_code_locs) else game.loc
        per_side = spec.get("sides") or {}
        for part in (spec, *per_side.values()):
            name = part.get("hex_set")
            if name is not None and name not in game.hex_sets:
                yield HW_RULE_002.at(
                    f"set-up code pattern {spec['pattern']!r} names unknown hex set {name!r}",
                    loc,
                    help=suggest(name, game.hex_sets),
                    rule=game.cite(str(part.get("rule", ""))),
                )
        for side in per_side:
            if side not in sides:
                yield HW_RULE_002.at(
                    f"set-up code pattern {spec['pattern']!r} gives a meaning for unknown side {side!r}",
                    loc,
                    help=suggest(side, sides),
                    rule=game.cite(str(spec.get("rule", ""))),
                )
