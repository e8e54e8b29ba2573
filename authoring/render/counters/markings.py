"""The rule markings a game says its counters print (``printed:`` in game.yaml), checked against the layouts.

A rulebook that says a value is "marked on" every unit (Typhoon 3.2.1: stacking points) or that a
designation is on the counter (13.7.1: "Moscow" air units) is only honoured if the layout each such
counter is drawn with has a slot that prints it. This check finds the counters whose layout does not,
one finding per marking and layout (a cause, with the number of counters it concerns), so a build
never ships counters that leave out what the rules need.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_PRINT_001, HW_PRINT_002
from authoring.model import Counter, Game
from authoring.render.counter_art import CounterMemo, layout_for
from authoring.render.counters.layout import CounterLayout

EXAMPLES = 3
"""Counters named in a finding before the rest are counted."""


def printed_findings(game: Game) -> list[Diagnostic]:
    """HW-PRINT-001 for each declared marking a layout leaves out, HW-PRINT-002 for a flag with nothing to print."""
    out: list[Diagnostic] = []
    for i, entry in enumerate(game.printed):
        loc = game.printed_locs[i] if i < len(game.printed_locs) else game.loc
        out += _entry_findings(game, entry, loc)
    return out


def _entry_findings(game: Game, entry: Mapping, loc: Loc | None) -> list[Diagnostic]:
    rule = game.cite(str(entry.get("rule", "")))
    if "flag" in entry:
        flag = next((f for f in game.flags if f.id == entry["flag"]), None)
        if flag is None or not (flag.extra.get("badge") or flag.extra.get("band")):
            return [
                HW_PRINT_002.at(
                    f"flag '{entry['flag']}' must be printed ({rule}) but has no badge or band",
                    loc,
                    help="give the flag a `badge:` text (printed in a layout's badge slot) or a `band:`",
                )
            ]
    missing: dict[str, list[str]] = defaultdict(list)
    for counter, layout in _faces(game, entry):
        if not _prints(layout, entry, game):
            missing[layout.id].append(counter.id)
    return [_missing(entry, rule, layout_id, ids, loc) for layout_id, ids in sorted(missing.items())]


def _faces(game: Game, entry: Mapping) -> Iterator[tuple[Counter, CounterLayout]]:
    """Each face (hidden sides aside) of each counter the marking concerns, with the layout it is drawn with."""
    memo = CounterMemo()
    for counter in game.counters.values():
        if not _concerns(counter, entry):
            continue
        for face in counter.faces:  # the layout alone, as `face_art` chooses it: nothing else is drawn or fitted
            label = face.label or (counter.designation if counter.marker else "")
            yield counter, layout_for(game, counter, face, bool(label), memo=memo)


def _concerns(counter: Counter, entry: Mapping) -> bool:
    if "field" in entry:
        return not counter.marker and getattr(counter, str(entry["field"]), None) is not None
    return entry.get("flag") in counter.flags


def _prints(layout: CounterLayout, entry: Mapping, game: Game) -> bool:
    if "field" in entry:
        name = "{" + str(entry["field"]) + "}"
        return any(s.content == "text" and name in s.text for s in layout.slots)
    flag = next(f for f in game.flags if f.id == entry["flag"])
    wanted = "badge" if flag.extra.get("badge") else "band"
    return layout.slot(wanted) is not None


def _missing(entry: Mapping, rule: str, layout_id: str, ids: list[str], loc: Loc | None) -> Diagnostic:
    what = f"field '{entry['field']}'" if "field" in entry else f"flag '{entry['flag']}'"
    names = ", ".join(sorted(set(ids))[:EXAMPLES])
    count = len(set(ids))
    more = f" and {count - EXAMPLES} more" if count > EXAMPLES else ""
    how = (
        f'a `text:` slot whose template prints "{{{entry["field"]}}}"'
        if "field" in entry
        else "a badge slot (or band slot) for the flag"
    )
    return HW_PRINT_001.at(
        f"{what} must be printed on the counter ({rule}), but layout '{layout_id}' prints it nowhere: "
        f"{count} counter(s) ({names}{more})",
        loc,
        help=f"add {how} to layout '{layout_id}' in counter_layouts (a layout named like a default replaces it)",
    )
