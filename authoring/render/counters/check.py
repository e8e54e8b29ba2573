"""Checks that a drawn face is what a player can read: by boxes, not by eye.

``box_findings`` takes every printed element of a face (text runs, the factor line, the symbol, a
picture) as ink boxes with the slot each belongs to, and reports

- two elements whose boxes overlap or touch (one overprints the other),
- an element outside its slot or outside the safe area (1.2 mm inside the cut),
- text below the legibility floor, or cut short with an ellipsis,
- content the face carries that was not printed at all (a symbol, a code, a size mark dropped).

``face_findings`` runs it on the layout engine's decisions for one ``FaceArt``; the test suite runs
it on every face of every bundled game and of the generated large game. The same box checker works
on any list of boxes, so aid pages (``page_findings``) are checked the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from authoring.render.counters.face import FaceArt, TextBox, element_boxes, layout_face, template_text

Box = tuple[int, int, int, int]

ELLIPSIS = "…"


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a face or page: what, and the element(s) concerned."""

    kind: str  # overlap, outside-slot, outside-safe, too-small, truncated, missing
    detail: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.detail}"


def _overlap(a: Box, b: Box, gap: int = 1) -> bool:
    """True when ``a`` and ``b`` are closer than ``gap`` px (touching ink counts as overprinting)."""
    return a[0] < b[2] + gap - 1 and b[0] < a[2] + gap - 1 and a[1] < b[3] + gap - 1 and b[1] < a[3] + gap - 1


def _inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def _name(tb: TextBox) -> str:
    return f"{tb.role} {tb.text!r}" if tb.text else tb.role


def box_findings(elements: Sequence[TextBox], safe: Box, floor: float, expected: Iterable[str] = ()) -> list[Finding]:
    """Everything wrong with a set of printed elements (see the module docstring)."""
    out: list[Finding] = []
    for i, a in enumerate(elements):
        for b in elements[i + 1 :]:
            same_block = a.role == b.role and a.slot == b.slot and a.role in ("label", "designation", "line")
            if _overlap(a.box, b.box, 0 if same_block else 1):
                out.append(Finding("overlap", f"{_name(a)} at {a.box} and {_name(b)} at {b.box}"))
        if a.slot != (0, 0, 0, 0) and not _inside(a.box, a.slot):
            out.append(Finding("outside-slot", f"{_name(a)} at {a.box} outside its slot {a.slot}"))
        if not _inside(a.box, safe):
            out.append(Finding("outside-safe", f"{_name(a)} at {a.box} outside the safe area {safe}"))
        if a.text and a.size_px + 1e-6 < floor:
            out.append(Finding("too-small", f"{_name(a)} at {a.size_px:g} px, below {floor:g} px"))
        if a.text.endswith(ELLIPSIS):
            out.append(Finding("truncated", f"{_name(a)}"))
    printed = {tb.role for tb in elements}
    for role in expected:
        if role not in printed:
            out.append(Finding("missing", f"{role} is not printed"))
    return out


def expected_roles(face: FaceArt) -> list[str]:
    """The elements a face must show: everything it carries (a layout without a slot for it fails)."""
    layout = face.layout
    want = {
        "setup_code": bool(face.setup_code),
        "size_mark": bool(face.size_mark),
        "designation": bool(face.designation) and not face.label,
        "values": bool(face.values),
        "label": bool(face.label),
        "band": bool(face.band),
        "picture": face.picture is not None,
        "badge": bool(face.badge),
        "state_mark": bool(face.state_mark),
        "symbol": face.symbol not in ("", "marker") and face.picture is None and not face.label,
    }
    roles = [role for role, wanted in want.items() if wanted]
    for slot in layout.slots if layout else ():
        if slot.content == "text" and template_text(face, slot.text):
            roles.append("text")
    return roles


def face_findings(
    face: FaceArt, size_px: int, safe_inset_px: int, min_text_px: float, counter_mm: float | None = None
) -> list[Finding]:
    """What is wrong with ``face`` as the layout engine draws it."""
    layout = layout_face(face, size_px, safe_inset_px, min_text_px, counter_mm=counter_mm)
    inset = layout.inset
    safe = (inset, inset, size_px - inset, size_px - inset)
    found = box_findings(element_boxes(layout), safe, layout.min_text_px, expected_roles(face))
    found += [Finding("truncated", issue.message) for issue in layout.issues]
    return found
