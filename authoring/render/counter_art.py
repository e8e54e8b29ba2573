"""Model -> counter art: the one place a Counter's data becomes a FaceArt.

Print sheets, set-up cards, findings images and the VASSAL module all call `counter_image`,
so the counter a player prints is the counter they move on screen.
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from authoring.model import Counter, Face, Game
from authoring.render.counter import (
    MIN_SCREEN_TEXT_PX,
    FaceArt,
    RenderIssue,
    draw_face,
    min_text_px,
    safe_inset_px,
)

MOVEMENT_IDS = ("movement", "ma", "move")


@dataclass(frozen=True)
class FaceRender:
    image: Image.Image
    issues: tuple[RenderIssue, ...]


def _type_def(items, ident):
    return next((t for t in items if t.id == ident), None)


def _values(game: Game, face: Face) -> tuple[str, ...]:
    order = [v.id for v in game.values] or list(face.values)
    return tuple(str(face.values[v]) for v in order if v in face.values)


def _styled_value(game: Game, counter: Counter, face: Face, style: str) -> int | None:
    """Index of the movement value when a flag asks for it boxed or filled."""
    wants = any((f.extra.get("value_style") == style) for f in game.flags if f.id in counter.flags)
    if not wants:
        return None
    present = [v.id for v in game.values if v.id in face.values] or list(face.values)
    for i, vid in enumerate(present):
        if vid in MOVEMENT_IDS:
            return i
    return len(present) - 1 if present else None


def face_art(game: Game, counter: Counter, face: Face) -> FaceArt:
    bg, fg = game.colours_for(counter.side, counter.nationality)
    utype = _type_def(game.unit_types, counter.type)
    size = _type_def(game.unit_sizes, counter.size)
    bands = [f.extra.get("band") for f in game.flags if f.id in counter.flags and f.extra.get("band")]
    reduced = counter.faces.index(face) > 0
    symbol = (utype.symbol if utype and utype.symbol else "fallback") if not counter.marker else "marker"
    label = face.label or (counter.designation if counter.marker else "")
    designation = face.designation if face.designation is not None else counter.designation
    return FaceArt(
        background=bg, foreground=fg, symbol=symbol,
        size_mark=(size.extra.get("mark") or "") if size else "",
        designation="" if counter.marker else designation,
        values=_values(game, face),
        boxed_value=_styled_value(game, counter, face, "box"),
        filled_value=_styled_value(game, counter, face, "fill"),
        setup_code=counter.setup_code if not reduced else "",
        band=" ".join(bands), reduced=reduced, label=label,
    )


def counter_image(game: Game, counter: Counter, state: str | None, size_px: int, bleed_px: int = 0,
                  counter_mm: float | None = None, screen: bool = False) -> Image.Image:
    """The face of `counter` at `state` (default: its first face), `size_px` square plus bleed.

    `screen=True` (VASSAL pieces, card thumbnails) lets text go down to a legible pixel size
    instead of 6 pt at the counter's print scale."""
    return render_face(game, counter, state, size_px, bleed_px, counter_mm, screen).image


def render_face(game: Game, counter: Counter, state: str | None, size_px: int, bleed_px: int = 0,
                counter_mm: float | None = None, screen: bool = False) -> FaceRender:
    face = counter.face(state) if state else counter.faces[0]
    face = face or counter.faces[0]
    mm = counter_mm or game.counter_size_in * 25.4
    floor = MIN_SCREEN_TEXT_PX if screen else min_text_px(size_px, mm)
    art, name = face_art(game, counter, face), f"{counter.id}/{face.state}"
    if face.image is not None or face.picture is not None:  # the designer's art (render/art.py)
        from authoring.render.art import draw_face_with_art
        image, issues = draw_face_with_art(face, art, size_px, bleed_px, safe_inset_px(size_px, mm), floor, name)
    else:
        image, issues = draw_face(art, size_px, bleed_px, safe_inset_px(size_px, mm), floor, name=name)
    return FaceRender(image, tuple(issues))
