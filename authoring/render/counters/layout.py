"""Counter layouts as data: named slots on a face, and which layout a counter uses.

A layout is a list of slots. Each slot holds one kind of content (the set-up code, the size mark,
the unit symbol, the designation, the printed values, a marker's label, a "No ZOC" band, a value
template such as a range, a step mark or a picture) in a box given as fractions of the counter's
safe area (the face less 1.2 mm at every cut edge), with a font-size range in points at print
scale and an alignment. The layout engine (``counter.layout_face``) fits the content into its slot
or reports why it could not.

A game may declare ``counter_layouts:`` in game.yaml; each one is used by the counters its
``when`` matches (unit type, side, flags, marker), the first match winning. Declared layouts come
before the defaults below, so a game without any still gets good counters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

Frac = tuple[float, float, float, float]

CONTENTS = (
    "setup_code",
    "size_mark",
    "symbol",
    "designation",
    "values",
    "label",
    "band",
    "text",
    "badge",
    "state_mark",
    "picture",
)
"""What a slot may hold (``text`` is a template of printed values, e.g. ``"{support}({range})"``)."""

ALIGNS = ("left", "centre", "right")


@dataclass(frozen=True)
class Slot:
    """One area of a face and what it prints."""

    content: str
    """One of ``CONTENTS``."""
    box: Frac
    """x0, y0, x1, y1 as fractions of the safe area (0..1); a band's stripe runs to the cut at its edges."""
    font: tuple[float, float] = (6.0, 8.0)
    """Smallest and largest font size in points at print scale; never below 6 pt."""
    align: str = "centre"
    """left, centre or right."""
    lines: int = 1
    """Up to this many lines (a marker's label may break in two)."""
    bold: bool = True
    """Bold type (codes read better regular)."""
    values: tuple[str, ...] = ()
    """For ``values``: the value ids printed, in order (default: every value of the face)."""
    text: str = ""
    """For ``text``: a template naming value ids in braces."""
    drawn: bool = False
    """For ``size_mark``: X and I marks drawn as signs (narrower than letters) instead of set as text."""


@dataclass(frozen=True)
class CounterLayout:
    """A named arrangement of slots, and the counters it serves."""

    id: str
    slots: tuple[Slot, ...]
    when: Mapping[str, Any] = field(default_factory=dict)
    """Selectors (all must hold): type, side, flags (any of), marker (bool), face (a state id)."""

    def slot(self, content: str) -> Slot | None:
        return next((s for s in self.slots if s.content == content), None)


def _s(content: str, box: Frac, font: tuple[float, float] = (6.0, 8.0), **kw) -> Slot:
    return Slot(content, box, font, **kw)


# --- the defaults: a standard NATO unit counter and a marker ------------------------------------------

UNIT = CounterLayout(
    "unit",
    (
        _s("setup_code", (0.0, 0.0, 1.0, 0.16), (6.0, 7.0), align="left", bold=False),
        _s("size_mark", (0.1, 0.18, 0.9, 0.335), (6.0, 7.0)),
        _s("symbol", (0.14, 0.355, 0.86, 0.545)),
        _s("designation", (0.0, 0.56, 1.0, 0.765), (6.0, 8.5)),
        _s("values", (0.0, 0.78, 1.0, 1.0), (6.0, 16.0)),
        _s("picture", (0.14, 0.355, 0.86, 0.545)),
    ),
)
"""Code in the top-left corner, size mark above the symbol, designation, then the factors along the bottom."""

UNIT_LARGE = CounterLayout(
    "unit-large",
    (
        _s("setup_code", (0.0, 0.0, 1.0, 0.14), (6.0, 7.0), align="left", bold=False),
        _s("size_mark", (0.1, 0.155, 0.9, 0.28), (6.0, 7.0)),
        _s("symbol", (0.14, 0.295, 0.86, 0.5)),
        _s("designation", (0.0, 0.515, 1.0, 0.695), (6.0, 9.0)),
        _s("values", (0.0, 0.71, 1.0, 1.0), (7.0, 18.0)),
        _s("picture", (0.14, 0.295, 0.86, 0.5)),
    ),
    when={"min_in": 0.6},
)
"""The same on a 5/8" or bigger counter, where the factors can be 14-18 pt."""

MARKER = CounterLayout(
    "marker",
    (
        _s("label", (0.0, 0.0, 1.0, 0.72), (6.0, 11.0), lines=2),
        _s("values", (0.0, 0.75, 1.0, 1.0), (6.0, 14.0)),
        _s("picture", (0.1, 0.0, 0.9, 0.72)),
    ),
    when={"marker": True},
)
"""A marker: its label (one or two lines) over any values it prints."""

MARKER_ICON_VALUES = CounterLayout(
    "marker-icon-values",
    (
        _s("symbol", (0.2, 0.0, 0.8, 0.3)),
        _s("label", (0.0, 0.33, 1.0, 0.74), (6.0, 10.0), lines=2),
        _s("values", (0.0, 0.77, 1.0, 1.0), (6.0, 14.0)),
    ),
    when={"marker": True, "icon": True, "values": True},
)
"""A marker with an icon and values it prints (a step-loss marker's -2/-2): icon, label, values."""

MARKER_ICON = CounterLayout(
    "marker-icon",
    (
        _s("symbol", (0.1, 0.0, 0.9, 0.42)),
        _s("label", (0.0, 0.46, 1.0, 1.0), (6.0, 10.0), lines=2),
    ),
    when={"marker": True, "icon": True},
)
"""A marker with an icon (``icon:`` in the data): the icon over its label."""

LABELLED = CounterLayout(
    "labelled",
    (
        _s("setup_code", (0.0, 0.0, 1.0, 0.16), (6.0, 7.0), align="left", bold=False),
        _s("label", (0.0, 0.18, 1.0, 0.76), (6.0, 10.0), lines=2),
        _s("values", (0.0, 0.78, 1.0, 1.0), (6.0, 14.0)),
    ),
    when={"label": True},
)
"""A unit printed with a label instead of a symbol (a bridge, a dummy): code, label, values."""

BANDED = CounterLayout(
    "banded",
    (
        _s("band", (0.0, 0.0, 1.0, 0.16), (6.0, 7.0)),
        _s("setup_code", (0.0, 0.18, 0.66, 0.345), (6.0, 7.0), align="left", bold=False),
        _s("size_mark", (0.67, 0.18, 1.0, 0.345), (6.0, 7.0), align="right"),
        _s("symbol", (0.14, 0.365, 0.86, 0.545)),
        _s("designation", (0.0, 0.56, 1.0, 0.765), (6.0, 8.5)),
        _s("values", (0.0, 0.78, 1.0, 1.0), (6.0, 16.0)),
        _s("picture", (0.14, 0.365, 0.86, 0.545)),
    ),
    when={"band": True},
)
"""A unit with a flag's band (Typhoon 3.3.1 "No ZOC") across the top, inside the counter."""

HIDDEN = CounterLayout(
    "hidden",
    (
        _s("symbol", (0.12, 0.08, 0.88, 0.5)),
        _s("label", (0.0, 0.56, 1.0, 0.92), (6.0, 12.0)),
    ),
    when={"face": "hidden"},
)
"""The hidden side of a one-sided counter (Typhoon 11.1.6): the same for every counter that has one."""

UNIT_NO_CODE = CounterLayout(
    "unit-no-code",
    (
        _s("size_mark", (0.1, 0.0, 0.9, 0.15), (6.0, 7.5)),
        _s("symbol", (0.1, 0.165, 0.9, 0.5)),
        _s("designation", (0.0, 0.515, 1.0, 0.68), (6.0, 8.0)),
        _s("values", (0.0, 0.705, 1.0, 1.0), (6.0, 17.0)),
        _s("picture", (0.1, 0.165, 0.9, 0.5)),
    ),
    when={"code": False},
)
"""A counter without a set-up code: the room goes to the symbol and the factors."""

DEFAULTS: tuple[CounterLayout, ...] = (
    HIDDEN,
    MARKER_ICON_VALUES,
    MARKER_ICON,
    MARKER,
    BANDED,
    LABELLED,
    UNIT_NO_CODE,
    UNIT_LARGE,
    UNIT,
)
"""Tried after a game's own layouts; UNIT matches everything."""


# --- from data ----------------------------------------------------------------------------------------


def slot_from_data(content: str, d: Mapping[str, Any]) -> Slot:
    font = d.get("font", (6.0, 8.0))
    if isinstance(font, (int, float)):
        font = (float(font), float(font))
    return Slot(
        content,
        tuple(float(x) for x in d["box"]),
        (float(font[0]), float(font[1])),
        d.get("align", "centre"),
        int(d.get("lines", 1)),
        bool(d.get("bold", True)),
        tuple(d.get("values", ())),
        str(d.get("text", "")),
        bool(d.get("drawn", False)),
    )


def layout_from_data(d: Mapping[str, Any]) -> CounterLayout:
    """A layout as game.yaml declares it: ``slots`` maps a content name (or ``text:<name>``) to its slot."""
    slots = []
    for key, spec in (d.get("slots") or {}).items():
        content = key.split(":", 1)[0]
        slots.append(slot_from_data(content, spec))
    return CounterLayout(str(d["id"]), tuple(slots), dict(d.get("when") or {}))


def game_layouts(declared: Sequence[Mapping[str, Any]]) -> tuple[CounterLayout, ...]:
    """The game's layouts, then the defaults; a declared layout named like a default replaces it."""
    own = tuple(layout_from_data(d) for d in declared)
    names = {lay.id for lay in own}
    return own + tuple(lay for lay in DEFAULTS if lay.id not in names)


@dataclass(frozen=True)
class Facts:
    """What a layout's ``when`` may test about one face."""

    type: str | None
    side: str | None
    flags: frozenset[str]
    marker: bool
    label: bool
    face: str
    band: bool = False
    counter_in: float = 0.625
    """The printed counter edge in inches (a layout may need a bigger counter: ``when: {min_in: 0.6}``)."""
    code: bool = True
    """The counter has a set-up code (on either face: both faces of a counter use the same layout)."""
    icon: bool = False
    """A marker with an icon of its own (``icon:`` in the data)."""
    values: bool = False
    """The face prints values."""


def matches(layout: CounterLayout, facts: Facts) -> bool:
    w = layout.when

    def one_of(key: str, value) -> bool:
        want = w.get(key)
        if want is None:
            return True
        return value in (want if isinstance(want, (list, tuple)) else [want])

    if "marker" in w and bool(w["marker"]) != facts.marker:
        return False
    if "label" in w and bool(w["label"]) != facts.label:
        return False
    if "band" in w and bool(w["band"]) != facts.band:
        return False
    if "min_in" in w and facts.counter_in + 1e-6 < float(w["min_in"]):
        return False
    if "code" in w and bool(w["code"]) != facts.code:
        return False
    if "icon" in w and bool(w["icon"]) != facts.icon:
        return False
    if "values" in w and bool(w["values"]) != facts.values:
        return False
    if "flags" in w and not set(w["flags"]) & facts.flags:
        return False
    return one_of("type", facts.type) and one_of("side", facts.side) and one_of("face", facts.face)


def choose(layouts: Sequence[CounterLayout], facts: Facts) -> CounterLayout:
    """The first layout whose ``when`` holds (UNIT when none does)."""
    return next((lay for lay in layouts if matches(lay, facts)), UNIT)


def without(layout: CounterLayout, *contents: str) -> CounterLayout:
    return replace(layout, slots=tuple(s for s in layout.slots if s.content not in contents))
