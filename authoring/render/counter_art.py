"""Model -> counter art: the one place a Counter's data becomes a FaceArt.

Print sheets, set-up cards, findings images and the VASSAL module all call `counter_image`,
so the counter a player prints is the counter they move on screen. The face is laid out by the
counter layout the game declares for it (`counter_layout.py`), the rule-driven markings coming
from the data: a flag's `band` ("No ZOC"), `value_style` (box / fill) and `value_color`, and its
`symbol_color` and `symbol_fill` (Typhoon 13.5: the Guards' box red, the NKVD's green); a unit type's `back: hidden` gives a
one-sided counter a hidden side (Typhoon 11.1.6: air units and dummies).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PIL import Image

from authoring.model import Counter, Face, Game, face_texts
from authoring.render.counters.face import (
    MIN_SCREEN_TEXT_PX,
    FaceArt,
    RenderIssue,
    draw_face,
    layout_face,
    min_text_px,
    px_per_pt,
    safe_inset_px,
)
from authoring.render.counters.icons import is_icon
from authoring.render.counters.layout import CounterLayout, Facts, choose, game_layouts
from authoring.render.shared.art import draw_over_art, picture_image
from authoring.render.shared.fonts import SIZE_STEP

MOVEMENT_IDS = ("movement", "ma", "move")

HIDDEN = "hidden"
"""The state name of a generated hidden side (a unit type with `back: hidden`)."""


@dataclass(frozen=True)
class FaceRender:
    image: Image.Image
    issues: tuple[RenderIssue, ...]


def _type_def(items, ident):
    return next((t for t in items if t.id == ident), None)


class CounterMemo:
    """What drawing a game's faces works out once for all of them: its counter layouts, and each marker
    layout's uniform label size (`_marker_label_pt`, which lays out every marker of the layout). Keyed by the
    identity of the (frozen) game, which it keeps alive: a new load is a new key, never stale. It lives as
    long as its owner: a `Faces`, the module's face jobs, a sheets stage's face drawer, one call."""

    def __init__(self) -> None:
        self._layouts: dict[int, tuple[Game, tuple[CounterLayout, ...]]] = {}
        self._label_pt: dict[tuple[int, str, float | None], tuple[Game, float | None]] = {}

    def layouts(self, game: Game) -> tuple[CounterLayout, ...]:
        hit = self._layouts.get(id(game))
        if hit is None or hit[0] is not game:
            hit = (game, game_layouts(game.counter_layouts))
            self._layouts[id(game)] = hit
        return hit[1]

    def marker_label_pt(self, game: Game, layout_id: str, counter_mm: float | None) -> float | None:
        key = (id(game), layout_id, counter_mm)
        hit = self._label_pt.get(key)
        if hit is None or hit[0] is not game:
            hit = (game, _marker_label_pt(game, layout_id, counter_mm, self))
            self._label_pt[key] = hit
        return hit[1]


def _value_items(game: Game, counter: Counter, face: Face) -> list[tuple[str, str]]:
    """(id, printed) in the game's value order, carried values filled in (`model.face_values`)."""
    return list(face_texts(game, counter, face).items())


def _flag_extra(game: Game, counter: Counter, key: str):
    return [f.extra.get(key) for f in game.flags if f.id in counter.flags and f.extra.get(key)]


def _styled_value(game: Game, counter: Counter, ids: list[str], style: str) -> int | None:
    """Index of the movement value when a flag asks for it boxed or filled."""
    if style not in _flag_extra(game, counter, "value_style"):
        return None
    for i, vid in enumerate(ids):
        if vid in MOVEMENT_IDS:
            return i
    return len(ids) - 1 if ids else None


def printed_fields(counter: Counter) -> tuple[tuple[str, str], ...]:
    """Counter fields a layout's text template may print: its stacking points (Typhoon 3.2.1), 0 included."""
    if counter.stacking is None:
        return ()
    points = counter.stacking
    return (("stacking", str(int(points)) if float(points).is_integer() else f"{points:g}"),)


def hidden_back(game: Game, counter: Counter) -> bool:
    """A one-sided counter whose type prints a hidden side on its back (Typhoon 11.1.6)."""
    utype = _type_def(game.unit_types, counter.type)
    return len(counter.faces) == 1 and bool(utype and utype.extra.get("back") == HIDDEN)


def back_state(game: Game, counter: Counter) -> str | None:
    """The state printed on a counter's back: its second face, a hidden side, or None (blank)."""
    if len(counter.faces) > 1:
        return counter.faces[1].state
    return HIDDEN if hidden_back(game, counter) else None


def layout_for(
    game: Game,
    counter: Counter,
    face: Face,
    label: bool,
    counter_mm: float | None = None,
    memo: CounterMemo | None = None,
) -> CounterLayout:
    band = bool(_flag_extra(game, counter, "band")) and face.state != HIDDEN
    inches = counter_mm / 25.4 if counter_mm else game.counter_size_in
    facts = Facts(
        counter.type,
        counter.side,
        counter.flags,
        counter.marker,
        label,
        face.state,
        band,
        inches,
        bool(counter.setup_code),
        counter.marker and is_icon(counter.symbol),
        bool(face_texts(game, counter, face)),
    )
    return choose((memo or CounterMemo()).layouts(game), facts)


def _uniform_markers(game: Game, layout: CounterLayout, counter_mm: float | None, memo: CounterMemo) -> CounterLayout:
    """A marker layout whose label prints at one size on every marker drawn with it: the size the longest
    label fits at (markers of one kind read as a set, not 'Step Loss' large and 'Activation' small)."""
    cap = memo.marker_label_pt(game, layout.id, counter_mm)
    return layout if cap is None else _capped(layout, cap)


def _marker_label_pt(game: Game, layout_id: str, counter_mm: float | None, memo: CounterMemo) -> float | None:
    """The largest label size (pt) at which every marker drawn with layout `layout_id` prints its label in
    the same bold, full-width type (a step down each time one of them needs a narrower or lighter face)."""
    mm = counter_mm or game.counter_size_in * 25.4
    size = round(mm / 25.4 * PRINT_DPI)
    arts = [
        art
        for counter in game.counters.values()
        if counter.marker
        for face in counter.faces
        if (art := face_art(game, counter, face, counter_mm, uniform=False, memo=memo)).layout is not None
        and art.layout.id == layout_id
    ]

    def runs(cap: float | None, among=None) -> list:
        out = []
        for art in among if among is not None else arts:
            layout = art.layout if cap is None else _capped(art.layout, cap)
            laid = layout_face(
                replace(art, layout=layout), size, safe_inset_px(size, mm), min_text_px(size, mm), counter_mm=mm
            )
            out += [p.run for p in laid.texts if p.role == "label"]
        return out

    def plain(found) -> bool:
        return all(r.bold and not r.condensed for r in found)

    found = runs(None)
    if not found:
        return None
    least = min(s.font[0] for a in arts for s in a.layout.slots if s.content == "label")
    bold = [a for a in arts if plain(runs(least, [a]))]  # a word too long for bold type at any size is set lighter
    cap = min(r.size_px for r in runs(None, bold) or found) / px_per_pt(size, mm)
    while cap - SIZE_STEP >= least and not plain(runs(cap, bold)):
        cap -= SIZE_STEP
    return cap


def _capped(layout: CounterLayout, cap: float) -> CounterLayout:
    slots = tuple(
        replace(s, font=(s.font[0], max(s.font[0], min(s.font[1], cap)))) if s.content == "label" else s
        for s in layout.slots
    )
    return replace(layout, slots=slots)


def face_art(
    game: Game,
    counter: Counter,
    face: Face,
    counter_mm: float | None = None,
    uniform: bool = True,
    memo: CounterMemo | None = None,
) -> FaceArt:
    """What one face prints, from the data; `uniform` (the default) gives markers of one layout one label size.
    `memo`: what the faces of one game share (a caller drawing many faces passes one)."""
    memo = memo or CounterMemo()
    bg, fg = game.colours_for(counter.side, counter.nationality)
    utype = _type_def(game.unit_types, counter.type)
    size = _type_def(game.unit_sizes, counter.size)
    reduced = counter.faces.index(face) > 0
    symbol = counter.symbol or (utype.symbol if utype and utype.symbol else "fallback")
    symbol = (counter.symbol or "marker") if counter.marker else symbol  # a marker may carry one (an arrow)
    label = face.label or (counter.designation if counter.marker else "")
    layout = layout_for(game, counter, face, bool(label), counter_mm, memo)
    if uniform and counter.marker and label:
        layout = _uniform_markers(game, layout, counter_mm, memo)
    items = _value_items(game, counter, face)
    ids = [vid for vid, _ in items]
    designation = face.designation if face.designation is not None else counter.designation
    colours = _flag_extra(game, counter, "symbol_color")
    boxes = _flag_extra(game, counter, "symbol_fill")
    fills = [
        f.extra.get("value_color")
        for f in game.flags
        if f.id in counter.flags and f.extra.get("value_style") == "fill" and f.extra.get("value_color")
    ]
    bands = _flag_extra(game, counter, "band")
    band_colours = _flag_extra(game, counter, "band_color")
    return FaceArt(
        background=bg,
        foreground=fg,
        symbol=symbol,
        size_mark=(size.extra.get("mark") or "") if size else "",
        designation="" if counter.marker else designation,
        values=tuple(v for _, v in items),
        value_ids=tuple(ids),
        boxed_value=_styled_value(game, counter, ids, "box"),
        filled_value=_styled_value(game, counter, ids, "fill"),
        setup_code=counter.setup_code if not reduced else "",
        band=" ".join(bands),
        band_color=band_colours[0] if band_colours else "#ffffff",
        reduced=reduced,
        label=label,
        designation_short="" if counter.marker else counter.short,
        label_short=face.short or (counter.short if counter.marker else ""),
        symbol_color=colours[0] if colours else None,
        symbol_fill=boxes[0] if boxes else None,
        fill_color=fills[0] if fills else None,
        abbreviations=tuple(game.abbreviations.items()),
        badge=" ".join(str(b) for b in _flag_extra(game, counter, "badge")),
        fields=printed_fields(counter),
        state_mark=str(next((s.extra.get("mark", "") for s in game.strength_states if s.id == face.state), "")),
        layout=layout,
    )


def hidden_art(game: Game, counter: Counter, memo: CounterMemo | None = None) -> FaceArt:
    """The hidden side: the side's colours and the type's `back_label` (what a player may see of it)."""
    bg, fg = game.colours_for(counter.side, counter.nationality)
    utype = _type_def(game.unit_types, counter.type)
    text = str(utype.extra.get("back_label", "")) if utype else ""
    facts = Facts(counter.type, counter.side, frozenset(), False, bool(text), HIDDEN)
    layouts = (memo or CounterMemo()).layouts(game)
    layout = choose(tuple(lay for lay in layouts if lay.when.get("face") == HIDDEN), facts)
    symbol = str(utype.extra.get("back_symbol", "air")) if utype else "air"
    return FaceArt(background=bg, foreground=fg, symbol=symbol, label=text, layout=layout)


def counter_image(
    game: Game,
    counter: Counter,
    state: str | None,
    size_px: int,
    bleed_px: int = 0,
    counter_mm: float | None = None,
    screen: bool = False,
    faces: Faces | None = None,
    memo: CounterMemo | None = None,
) -> Image.Image:
    """The face of `counter` at `state` (default: its first face), `size_px` square plus bleed.

    `screen=True` (VASSAL pieces, card thumbnails) lets text go down to a legible pixel size
    instead of 6 pt at the counter's print scale.

    With `faces`, each face is drawn once into it and the same image returned again (callers must not
    change it). `memo`: see `face_art` (a `faces` has its own)."""
    if faces is None:
        return render_face(game, counter, state, size_px, bleed_px, counter_mm, screen, memo=memo).image
    return faces.get(game, counter, (state, size_px, bleed_px, counter_mm, screen))


class Faces:
    """Faces drawn once and kept, keyed by the identity of their (frozen) game and counter: set-up cards
    show a counter on every card and paper size. A worker forked after some were drawn starts with them
    and fills its own copy."""

    def __init__(self) -> None:
        self._drawn: dict[tuple, tuple[Game, Counter, Image.Image]] = {}
        self.memo = CounterMemo()
        """What the faces drawn into this share (`face_art`)."""

    def get(self, game: Game, counter: Counter, how: tuple) -> Image.Image:
        key = (id(game), id(counter), *how)
        hit = self._drawn.get(key)
        if hit is None or hit[0] is not game or hit[1] is not counter:
            hit = (game, counter, render_face(game, counter, *how, memo=self.memo).image)
            self._drawn[key] = hit
        return hit[2]


def _face(game: Game, counter: Counter, state: str | None) -> Face | None:
    """The model face drawn for `state` (None for a hidden back, which no face of the data is)."""
    if state == HIDDEN and hidden_back(game, counter):
        return None
    return (counter.face(state) if state else None) or counter.faces[0]


def art_for(
    game: Game, counter: Counter, state: str | None, counter_mm: float | None = None, memo: CounterMemo | None = None
) -> tuple[FaceArt, str]:
    """The FaceArt of `counter` at `state` and the face's name in reports (`memo`: see `face_art`)."""
    face = _face(game, counter, state)
    if face is None:
        return hidden_art(game, counter, memo), f"{counter.id}/{HIDDEN}"
    return face_art(game, counter, face, counter_mm, memo=memo), f"{counter.id}/{face.state}"


PRINT_DPI = 300
"""A face smaller than this resolution (a module piece, a card thumbnail) is laid out and drawn at it,
then scaled down: the same layout as the printed counter, whatever the pixel size (small type is
hinted wider than its size, so a face laid out at 75 px would not match the print)."""


def render_face(
    game: Game,
    counter: Counter,
    state: str | None,
    size_px: int,
    bleed_px: int = 0,
    counter_mm: float | None = None,
    screen: bool = False,
    picture=None,
    memo: CounterMemo | None = None,
) -> FaceRender:
    """One face, laid out and fitted; the designer's art (docs/art.md) under or inside the layout.

    `picture` (a PIL image) overrides the face's own `picture:` art in the layout's picture slot; `memo`: see
    `face_art`."""
    mm = counter_mm or game.counter_size_in * 25.4
    art, name = art_for(game, counter, state, mm, memo)
    face = _face(game, counter, state)
    print_px = round(mm / 25.4 * PRINT_DPI)
    if picture is None and face is not None and face.picture is not None:
        picture = picture_image(face.picture, (print_px, print_px))
    if picture is not None:
        art = replace(art, picture=picture)
    full_art = face.image if face is not None else None
    if full_art is not None:  # the art scaled once to the size asked for; the layout from print size
        big = size_px if screen or size_px >= print_px else print_px
        floor = MIN_SCREEN_TEXT_PX if screen else min_text_px(big, mm)
        image, issues = draw_over_art(full_art, art, size_px, bleed_px, safe_inset_px(big, mm), floor, name, mm, big)
        return FaceRender(image, tuple(issues))
    if screen or size_px >= print_px:
        floor = MIN_SCREEN_TEXT_PX if screen else min_text_px(size_px, mm)
        image, issues = draw_face(art, size_px, bleed_px, safe_inset_px(size_px, mm), floor, name=name, counter_mm=mm)
        return FaceRender(image, tuple(issues))
    big_bleed = round(bleed_px * print_px / size_px)
    image, issues = draw_face(
        art, print_px, big_bleed, safe_inset_px(print_px, mm), min_text_px(print_px, mm), name=name, counter_mm=mm
    )
    side = size_px + 2 * bleed_px
    return FaceRender(image.resize((side, side), Image.Resampling.LANCZOS), tuple(issues))
