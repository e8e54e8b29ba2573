"""SVG counter art as the loader checks it and the renderer reads it, in one place, so that whatever
validates is what resvg is given.

resvg takes the SVG as a string. A file in UTF-16 or ISO-8859-1 (which its XML declaration or byte-order
mark names) is decoded in that encoding and handed on as text, not decoded as UTF-8 (an unlocated
UnicodeDecodeError in a worker); resvg's own parser then checks it (`resvg_problem`). resvg expands every
`<use>` into a copy of what it names, so ten nested groups of ten uses are ten billion elements: the loader
counts the elements as expanded and refuses an image past `MAX_SVG_ELEMENTS` (`svg_problem`), filters
that would draw for too long (`svgfilters`), and one embedding (data: URI) a picture of more than
`MAX_SVG_IMAGE_PIXELS`, which resvg would decode whole, or an SVG that does either.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
import warnings
from urllib.parse import unquote_to_bytes

import resvg_py
from lxml import etree
from PIL import Image

from authoring.budget import MAX_SVG_ELEMENTS, MAX_SVG_IMAGE_PIXELS
from authoring.safepath import xml_parser
from authoring.svgfilters import filter_problem

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

    try:
        return etree.fromstring(data, xml_parser()).getroottree().docinfo.encoding or "utf-8"
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"not readable XML: {exc}") from None


def resvg_problem(text: str) -> str | None:
    """Why resvg refuses the SVG `text` (as `svg_text` gives it), or None: it is parsed as the build will,
    drawn at 1 x 1 px (an entity it does not know, a reference loop). Run after `svg_problem`, whose limits
    keep the parse short."""
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
    return filter_problem(root, ids, _use_target) or _embedded_problem(root, depth)


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
    head, _, payload = uri.partition(",")
    try:
        data = base64.b64decode(payload, validate=False) if head.endswith(";base64") else unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None  # resvg leaves out a picture it cannot decode
    if "svg" in head.lower():
        if depth >= 3:
            return "it embeds SVG pictures more than 3 deep"

        try:
            inner = etree.fromstring(data, xml_parser())
        except etree.XMLSyntaxError:
            return None
        problem = svg_problem(inner, depth + 1)
        return f"an SVG picture it embeds cannot be drawn: {problem}" if problem else None

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
