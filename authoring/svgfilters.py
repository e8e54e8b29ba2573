"""The cost of an SVG's filters, reckoned before resvg draws them: each filter primitive is at least one
pass over its region at every size a face is drawn at, and feMorphology and feConvolveMatrix a kernel's
worth per pixel, so 50 chained feMorphology primitives of a large radius drew for minutes. `filter_problem`
refuses an SVG past `budget.MAX_SVG_FILTER_PRIMITIVES` or `budget.MAX_SVG_FILTER_WORK` (`svgart.svg_problem`
asks it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from authoring.budget import MAX_SVG_FILTER_PRIMITIVES, MAX_SVG_FILTER_WORK, SVG_FILTER_REFERENCE_PX

_URL = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


def filter_problem(root, ids: dict, use_target: Callable) -> str | None:
    """Why the SVG's filters would draw too long, or None: more than `MAX_SVG_FILTER_PRIMITIVES` primitives
    applied, or more than `MAX_SVG_FILTER_WORK` passes (`_primitive_work`), each filtered element (a `filter`
    attribute, style or style-sheet rule) counting its filter's, every `<use>` expanded (`use_target(el, ids)`:
    the element a `<use>` names, or None)."""
    filters = {key: el for key, el in ids.items() if _local(el.tag) == "filter"}
    if not filters:
        return None
    side = _user_side(root)
    cost = {key: _filter_cost(el, side) for key, el in filters.items()}
    styled = _style_sheet_filters(root, set(filters))
    totals: dict[int, tuple[object, int, int]] = {}

    def total(el) -> tuple[int, int]:
        key = id(el)
        if key in totals:
            return totals[key][1:]  # type: ignore[return-value]
        count = work = 0
        for name in _filter_names(el, styled):
            own = cost.get(name, (0, 0))  # a url() naming no filter draws nothing
            count, work = count + own[0], work + own[1]
        parts = [child for child in el if isinstance(child.tag, str)]
        target = use_target(el, ids)
        for part in parts + ([target] if target is not None else []):
            if count > MAX_SVG_FILTER_PRIMITIVES or work > MAX_SVG_FILTER_WORK:
                break
            more = total(part)
            count, work = count + more[0], work + more[1]
        totals[key] = (el, count, work)
        return count, work

    count, work = total(root)
    if count > MAX_SVG_FILTER_PRIMITIVES:
        return f"its filters apply more than {MAX_SVG_FILTER_PRIMITIVES} primitives (each a pass over the picture)"
    if work > MAX_SVG_FILTER_WORK:
        return (
            f"its filters would draw for too long: more than {MAX_SVG_FILTER_WORK:,} units of work (a large "
            "feMorphology radius, feConvolveMatrix order or filter region, or many primitives)"
        )
    return None


def _local(tag) -> str:
    return str(tag).rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _user_side(root) -> float:
    """The longer side of the drawing in user units (viewBox, else width and height), at least 1."""
    box = (root.get("viewBox") or "").replace(",", " ").split()
    values = box[2:4] if len(box) == 4 else [root.get("width") or "", root.get("height") or ""]
    sides = [min(float(m.group(1)), 1e9) for v in values if (m := re.match(r"\s*([0-9]*\.?[0-9]+)", v))]
    return max([1.0, *sides])


def _filter_cost(el, side: float) -> tuple[int, int]:
    """(primitives, work) of one `<filter>`: its primitives' work times its region's area over the drawing's."""
    primitives = [child for child in el if _local(child.tag).startswith("fe")]
    work = sum(_primitive_work(p, side) for p in primitives)
    return len(primitives), round(work * _region_share(el, side))


_PASS = 16
"""Work of a primitive that reads each pixel of its region once or a few times (an offset, a blur, a blend)."""


def _primitive_work(el, side: float) -> int:
    """Work of one primitive (`MAX_SVG_FILTER_WORK`) drawn with the art's longer side at
    `SVG_FILTER_REFERENCE_PX`."""
    kind = _local(el.tag)
    if kind == "feMorphology":
        rx, ry = _pair(el.get("radius"), 0.0)
        scale = SVG_FILTER_REFERENCE_PX / side
        return (2 * min(SVG_FILTER_REFERENCE_PX, round(rx * scale)) + 1) * (
            2 * min(SVG_FILTER_REFERENCE_PX, round(ry * scale)) + 1
        )
    if kind == "feConvolveMatrix":
        ox, oy = _pair(el.get("order"), 3.0)
        return max(_PASS, min(10_000, round(ox)) * min(10_000, round(oy)))
    return _PASS


def _region_share(el, side: float) -> float:
    """A filter region's area over the drawing's, at least 1 (the default region, 120% of the element's box,
    counts as the drawing): a region set far larger makes every primitive work on all of it."""
    user = el.get("filterUnits") == "userSpaceOnUse"
    share = 1.0
    for key in ("width", "height"):
        text = (el.get(key) or "").strip()
        try:
            value = float(text[:-1]) / 100 if text.endswith("%") else float(text) / (side if user else 1)
        except ValueError:
            value = 1.0
        share *= min(abs(value), 1e3)
    return max(1.0, share)


def _pair(text: str | None, default: float) -> tuple[float, float]:
    """An SVG number pair ("2" or "2 3"); negative or unreadable values as `default`."""
    try:
        values = [abs(float(v)) for v in (text or "").replace(",", " ").split()[:2]]
    except ValueError:
        values = []
    values = [v if v < 1e9 else 1e9 for v in values] or [default]
    return values[0], values[-1]


def _filter_names(el, styled: dict[str, tuple[str, ...]]) -> list[str]:
    """The filters `el` is drawn through: its `filter` attribute and style, and the style sheet's rules for
    its classes (or for any element)."""
    names = _URL.findall(el.get("filter") or "") + _URL.findall(_style_filter(el.get("style") or ""))
    for cls in ["*", *(el.get("class") or "").split()]:
        names += styled.get(cls, ())
    return names


def _style_filter(style: str) -> str:
    return " ".join(part for part in style.split(";") if part.split(":", 1)[0].strip() == "filter")


def _style_sheet_filters(root, known: set[str]) -> dict[str, tuple[str, ...]]:
    """class -> filters the `<style>` sheets give it; "*" for rules whose selector is no plain class."""
    found: dict[str, tuple[str, ...]] = {}
    for el in root.iter():
        if _local(el.tag) != "style":
            continue
        for selectors, body in _RULE.findall("".join(el.itertext())):
            names = tuple(n for n in _URL.findall(_style_filter(body)) if n in known)
            for selector in selectors.split(","):
                cls = selector.strip()[1:] if re.fullmatch(r"\s*\.[\w-]+\s*", selector) else "*"
                found[cls] = found.get(cls, ()) + names
    return found
