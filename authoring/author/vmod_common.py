"""What the parts of `hexwright import-vmod` share: the plan, the counters it makes, the art files, YAML and
names (`authoring.author.import_vmod` and its `vmod_maps`, `vmod_setups`)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import yaml
from PIL import Image

from authoring.budget import FACE_ART_ASPECT
from authoring.load.schemas import validator
from authoring.vmod.archive import is_svg, svg_size
from authoring.vmod.buildfile import Finding
from authoring.vmod.picture import opened
from authoring.vmod.pieces import FacePlan, Piece

TODO = "TODO"
PRINT_DPI = 150
"""Board pixels per inch assumed for print: hex_size in inches = hex height in px / 150 (HW-ART-015 quiet)."""
_ART_TYPES = MappingProxyType({".png": ".png", ".jpg": ".jpg", ".jpeg": ".jpg", ".svg": ".svg"})


@dataclass
class ImportPlan:
    """Every file of an imported project (path -> text or bytes) and what the import could not carry over."""

    dest: Path
    game_id: str
    files: dict[Path, str | bytes]
    findings: list[Finding]
    figures: dict = field(default_factory=dict)


@dataclass
class ImportCounter:
    """A counter made from a piece slot: its faces (art file names) and what matches placed pieces to it."""

    id: str
    name: str
    side: str
    faces: list[str]
    signature: tuple
    where: str
    level_names: list[str] = field(default_factory=list)
    prototypes: list[str] = field(default_factory=list)
    type: str | None = None
    states: list[str] = field(default_factory=list)
    """State id of each face (set once the game's states are known)."""


def signature(piece: Piece, faces: FacePlan) -> tuple:
    return (piece.name, tuple(faces.images))


def art_file(image_name: str, data: bytes) -> tuple[str, bytes] | None:
    """The art's file name under art/ and its bytes, its kind told by its content, never by its name: a PNG,
    JPEG or SVG kept as it is (named `.png`, `.jpg`, `.svg` by what it is), anything else Pillow reads (GIF,
    TIFF, BMP, WebP, also under a `.png` name) made PNG at its own size; None for bytes that are no image."""
    base = re.sub(r"[^A-Za-z0-9_.+-]+", "_", image_name.rsplit("/", 1)[-1]) or "image"
    stem, dot, ext = base.rpartition(".")
    stem = stem if dot and ("." + ext.lower()) in _ART_TYPES else base
    if is_svg(data):
        return f"{stem}.svg", data
    try:
        with opened(data) as im:
            kind = _KEPT.get(im.format or "")
            if kind is not None:
                return (base if ext.lower() in kind[1] and dot else f"{stem}{kind[0]}"), data
            out = io.BytesIO()
            im.convert("RGBA").save(out, "PNG")
    except Exception:  # noqa: BLE001 - bytes no decoder reads are a finding, never a crash
        return None
    return f"{stem}.png", out.getvalue()


_KEPT = MappingProxyType({"PNG": (".png", ("png",)), "JPEG": (".jpg", ("jpg", "jpeg"))})
"""Raster kinds a project's art may be, kept byte for byte: Pillow's format -> (suffix, suffixes it may have)."""


def squared(name: str, data: bytes) -> tuple[str, bytes, tuple[int, int]] | None:
    """Raster art longer than a counter face can take (`FACE_ART_ASPECT`), centred on a transparent square
    PNG of its longer side (name, bytes, original size); None for art within the limit, or SVG."""
    if is_svg(data):
        return None
    with opened(data) as im:
        w, h = im.size
        if max(w, h) <= FACE_ART_ASPECT * max(min(w, h), 1):
            return None
        side = max(w, h)
        square = Image.new("RGBA", (side, side), (0, 0, 0, 0))
        square.paste(im.convert("RGBA"), ((side - w) // 2, (side - h) // 2))
    out = io.BytesIO()
    square.save(out, "PNG")
    return f"{name.rpartition('.')[0] or name}.png", out.getvalue(), (w, h)


def image_size(data: bytes | None) -> tuple[int, int] | None:
    """Pixel size of PNG/JPEG/GIF bytes, or of an SVG's width and height (viewBox); None if unknown."""
    if data is None:
        return None
    if is_svg(data):
        return svg_size(data)

    try:
        with Image.open(io.BytesIO(data)) as im:  # the size only: nothing is decoded
            return im.size
    except Exception:  # noqa: BLE001 - a bomb Pillow refuses to open has no size to give either
        return None


class Sizes:
    """Pixel sizes of module images, each read once."""

    def __init__(self, archive) -> None:
        self.archive, self.known = archive, {}

    def __call__(self, name: str) -> tuple[int, int] | None:
        if name not in self.known:
            self.known[name] = image_size(self.archive.image(name))
        return self.known[name]


def inches(px: float, limits: tuple[float, float]) -> float:
    """`px` module pixels as inches at PRINT_DPI, within the project's `limits` for that length."""
    return round(min(max(px / PRINT_DPI, limits[0]), limits[1]), 4)


def dump_yaml(kind: str, doc: dict) -> str:
    """A project file of `kind` from `doc`, its text made safe first (`safe_texts`)."""
    head = f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n"
    doc = safe_texts(kind, doc)
    return head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=110, default_flow_style=None)


_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What no project text may hold (`load.source` refuses it, HW-TEXT-001): control characters, line and paragraph
separators, bidirectional overrides and isolates (U+202E shows `gnp.exe` as `exe.png`)."""


def safe_texts(kind: str, doc):
    """`doc` with every text a module gave it made one a project file may hold: control and bidirectional
    characters dropped (a tab made a space), a trailing backslash dropped, and each value cut to the length
    the schema of `kind` allows it (a module's name of 5,000 characters becomes a name of 200, with an ellipsis).
    The lengths come from the schema itself, so a field is bounded without being listed here."""
    doc = _clean(doc)
    for _ in range(1000):  # each round cuts every value over its limit; a cut never makes another
        cuts = [e for e in validator(kind).iter_errors(doc) if e.validator == "maxLength"]
        if not cuts:
            break
        for err in cuts:
            _cut(doc, tuple(err.absolute_path), int(err.validator_value))
    return doc


def _clean(value):
    if isinstance(value, str):
        return _UNSAFE.sub("", value.replace("\t", " ")).rstrip("\\")
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _cut(doc, path: tuple, limit: int) -> None:
    holder = doc
    for part in path[:-1]:
        holder = holder[part]
    text = holder[path[-1]]
    if isinstance(text, str) and len(text) > limit:
        holder[path[-1]] = text[: max(limit - 1, 0)].rstrip().rstrip("\\") + "\u2026"


NAME_LIMIT = 60
"""Characters of a counter name at most (the schema's limit for names)."""


def short_name(name: str) -> str:
    """`name` within NAME_LIMIT: cut at the last space that fits, with an ellipsis."""
    if len(name) <= NAME_LIMIT:
        return name
    cut = name[: NAME_LIMIT - 1].rsplit(" ", 1)[0].rstrip(" ,-;")
    return (cut or name[: NAME_LIMIT - 1]) + "\u2026"


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:60]


class Folded(set):
    """File names taken, compared as a file system that ignores case (macOS, Windows) compares them, so that
    names made unique here stay distinct files everywhere."""

    def __init__(self, names=()) -> None:
        super().__init__(str(n).casefold() for n in names)

    def __contains__(self, name: object) -> bool:
        return super().__contains__(str(name).casefold())

    def add(self, name: str) -> None:
        super().add(name.casefold())


def unique(base: str, taken, tried: dict[str, int] | None = None) -> str:
    """`base`, or `base-K` with the first K from 2 not in `taken`. With `tried` (the caller's, kept across
    calls while `taken` only grows), the search for a base starts where the last one ended, so 200,000 slots
    of one name take linear time, not quadratic."""
    if base not in taken:
        return base
    k = tried.get(base, 2) if tried is not None else 2
    while f"{base}-{k}" in taken:
        k += 1
    if tried is not None:
        tried[base] = k + 1
    return f"{base}-{k}"


def unique_file(name: str, taken, tried: dict[str, int] | None = None) -> str:
    """`name`, or `stem-K.ext` not in `taken` (as `unique`)."""
    if name not in taken:
        return name
    stem, _, ext = name.rpartition(".")
    k = tried.get(name, 2) if tried is not None else 2
    while f"{stem}-{k}.{ext}" in taken:
        k += 1
    if tried is not None:
        tried[name] = k + 1
    return f"{stem}-{k}.{ext}"
