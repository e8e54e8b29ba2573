"""SVG counter art as the loader checks it and the renderer reads it, in one place, so that whatever
validates is what resvg is given.

resvg takes the SVG as a string. A file in UTF-16 or ISO-8859-1 (which its XML declaration or byte-order
mark names) is decoded in that encoding and handed on as text, not decoded as UTF-8 (an unlocated
UnicodeDecodeError in a worker); resvg's own parser then checks it (`resvg_problem`). resvg expands every `<use>` into a copy of what it names, so ten nested
groups of ten uses are ten billion elements: the loader counts the elements as expanded and refuses an
image past `MAX_SVG_ELEMENTS` (`svg_problem`), and one embedding (data: URI) a picture of more than
`MAX_SVG_IMAGE_PIXELS`, which resvg would decode whole, or an SVG that does either.
"""

from __future__ import annotations

import re

from authoring.budget import (
    MAX_SVG_ELEMENTS,
    MAX_SVG_FILTER_PRIMITIVES,
    MAX_SVG_FILTER_WORK,
    MAX_SVG_IMAGE_PIXELS,
    SVG_FILTER_REFERENCE_PX,
)

_DECLARED = re.compile(rb"""\A(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")


def svg_text(data: bytes) -> str:
    """The SVG file's text: UTF-8 as it is (a byte-order mark dropped); any other encoding its byte-order mark
    or declaration names (or the XML parser finds) decoded, and the declaration, which would name an encoding
    the text no longer has, left out. The DOCTYPE stays, so resvg expands the entities it declares as it does
    in a UTF-8 file (a file parsed and written back lost it, and resvg then met entities it did not know).
    Raises ValueError when it cannot be read."""
    declared = _DECLARED.match(data)
    if declared is None or declared.group(1).lower().replace(b"_", b"-") in (b"utf-8", b"utf8"):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass  # UTF-16 with a byte-order mark, or a declaration-less file in another encoding
    try:
        text = data.decode(_encoding(data, declared))
    except (LookupError, UnicodeDecodeError) as exc:
        raise ValueError(f"not readable XML: {exc}") from None
    return _DECLARATION.sub("", text.lstrip("\ufeff"), count=1)


_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")
_BOMS = ((b"\xff\xfe\0\0", "utf-32"), (b"\0\0\xfe\xff", "utf-32"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def _encoding(data: bytes, declared: re.Match | None) -> str:
    """The encoding of an SVG that is not UTF-8: its byte-order mark's, its declaration's, or the one the XML
    parser finds (a UTF-16 declaration without a mark)."""
    for mark, name in _BOMS:
        if data.startswith(mark):
            return name
    if declared is not None:
        return declared.group(1).decode("ascii")
    from lxml import etree

    from authoring.safepath import xml_parser

    try:
        return etree.fromstring(data, xml_parser()).getroottree().docinfo.encoding or "utf-8"
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"not readable XML: {exc}") from None


def resvg_problem(text: str) -> str | None:
    """Why resvg refuses the SVG `text` (as `svg_text` gives it), or None: it is parsed as the build will,
    drawn at 1 x 1 px (an entity it does not know, a reference loop). Run after `svg_problem`, whose limits
    keep the parse short."""
    import resvg_py

    try:
        resvg_py.svg_to_bytes(svg_string=text, width=1, height=1, skip_system_fonts=True)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - ValueError, or a panic of the Rust code (a BaseException)
        return f"resvg cannot read it: {exc}"
    return None


class _Cycle(Exception):
    """A `<use>` reached again while it is being expanded."""


def svg_problem(root, depth: int = 0) -> str | None:
    """Why resvg cannot be given the parsed SVG `root` (an lxml element), or None: more elements than
    `MAX_SVG_ELEMENTS` once every `<use>` is expanded, or a `<use>` that contains itself."""
    ids = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    sizes: dict[int, tuple[object, int]] = {}
    """id of an element -> (the element, kept alive so that its id is not reused by another proxy; its size)."""
    busy: set[int] = set()

    def size(el) -> int:
        """Elements `el` stands for, expanded; counts past the limit stop early."""
        key = id(el)
        if key in sizes:
            return sizes[key][1]
        if key in busy:
            raise _Cycle
        busy.add(key)
        total = 1
        for child in el:
            if isinstance(child.tag, str):
                total += size(child)
                if total > MAX_SVG_ELEMENTS:
                    break
        target = _use_target(el, ids)
        if target is not None and total <= MAX_SVG_ELEMENTS:
            total += size(target)
        busy.discard(key)
        sizes[key] = (el, total)
        return total

    try:
        count = size(root)
    except _Cycle:
        return "a <use> element refers to itself (directly or through the elements it names)"
    except RecursionError:
        return "its <use> elements name one another in a chain too deep to expand"
    if count > MAX_SVG_ELEMENTS:
        return (
            f"the SVG has more than {MAX_SVG_ELEMENTS:,} elements once every <use> is expanded (nested <use> "
            "elements multiply)"
        )
    return _filter_problem(root, ids) or _embedded_problem(root, depth)


_URL = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")


def _filter_problem(root, ids: dict) -> str | None:
    """Why the SVG's filters would draw too long, or None: more than `MAX_SVG_FILTER_PRIMITIVES` primitives
    applied, or more than `MAX_SVG_FILTER_WORK` passes (`_primitive_work`), each filtered element (a `filter`
    attribute, style or style-sheet rule) counting its filter's, every `<use>` expanded."""
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
        target = _use_target(el, ids)
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


def _embedded_problem(root, depth: int) -> str | None:
    """Why a picture the SVG embeds (a data: URI) cannot be drawn, or None."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for key, value in el.attrib.items():
            if key.endswith("href") and value.lstrip().startswith("data:"):
                problem = _data_uri_problem(value.strip(), depth)
                if problem:
                    return problem
    return None


def _data_uri_problem(uri: str, depth: int) -> str | None:
    import base64
    import binascii
    import io
    import warnings
    from urllib.parse import unquote_to_bytes

    head, _, payload = uri.partition(",")
    try:
        data = base64.b64decode(payload, validate=False) if head.endswith(";base64") else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None  # resvg leaves out a picture it cannot decode
    if "svg" in head.lower():
        if depth >= 3:
            return "it embeds SVG pictures more than 3 deep"
        from lxml import etree

        from authoring.safepath import xml_parser

        try:
            inner = etree.fromstring(data, xml_parser())
        except etree.XMLSyntaxError:
            return None
        problem = svg_problem(inner, depth + 1)
        return f"an SVG picture it embeds cannot be drawn: {problem}" if problem else None
    from PIL import Image

    try:
        with warnings.catch_warnings():  # a picture past Pillow's warning size is measured here, not warned of
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as picture:
                w, h = picture.size
    except Image.DecompressionBombError:
        return (
            f"it embeds a picture of more than {Image.MAX_IMAGE_PIXELS:,} pixels, over the limit of "
            f"{MAX_SVG_IMAGE_PIXELS:,} pixels for a picture inside SVG art"
        )
    except Exception:  # noqa: BLE001 - any other decoder failure: resvg leaves the picture out
        return None
    if w * h > MAX_SVG_IMAGE_PIXELS:
        return (
            f"it embeds a {w:,} x {h:,} px picture, over the limit of {MAX_SVG_IMAGE_PIXELS:,} pixels for a "
            "picture inside SVG art"
        )
    return None


def _use_target(el, ids: dict):
    if not str(el.tag).endswith("use"):
        return None
    for key, value in el.attrib.items():
        if key.endswith("href") and value.strip().startswith("#"):
            return ids.get(value.strip()[1:])
    return None
