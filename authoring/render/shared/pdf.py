"""Lossless image -> PDF and PNG writing, always atomic (temp file + os.replace).

PNG pages go into the PDF through img2pdf, which copies the PNG's compressed
data unchanged: no JPEG artefacts on hex ids or factors, and byte-identical
output for identical images (`nodate=True`: img2pdf otherwise stamps the clock into
/CreationDate, and its pikepdf engine a random /ID; the internal engine writes neither).
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType, ModuleType

from PIL import Image

from authoring import atomic

PAPER_MM: Mapping[str, tuple[float, float]] = MappingProxyType({"letter": (215.9, 279.4), "a4": (210.0, 297.0)})
"""Portrait paper sizes in millimetres: the one table every printed output uses."""

PAPER_IN: Mapping[str, tuple[float, float]] = MappingProxyType(
    {k: (w / 25.4, h / 25.4) for k, (w, h) in PAPER_MM.items()}
)
"""The same sizes in inches."""


PNG_LEVEL = 1
"""zlib level: flat-colour maps gain little from higher levels and encode several times slower."""


def paper_in(paper: str) -> tuple[float, float]:
    """Portrait (width, height) of a paper name, in inches; ValueError if unknown."""
    try:
        return PAPER_IN[paper.lower()]
    except KeyError:
        raise ValueError(f"Expected one of: {sorted(PAPER_IN)} but received: {paper!r}") from None


_BAND = 256
"""Rows encoded per step."""

_NO_FILTER = b"\x00"
"""A PNG row's filter byte: stored as it is."""

_PNG_COLOUR = MappingProxyType({"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)})
"""Pillow mode -> (PNG colour type, bytes per pixel)."""


def png_bytes(image: Image.Image, dpi: float | None = None) -> bytes:
    """PNG encoding of an RGB/RGBA/L image, with its dpi recorded when given.

    Written here rather than by Pillow because maps are mostly flat colour: rows stored
    unfiltered and deflated at level 1 come out smaller than Pillow's adaptive filtering and
    several times faster, which matters for 50-megapixel maps.
    """
    if image.mode not in _PNG_COLOUR:
        image = image.convert("RGBA" if "A" in image.mode else "RGB")
    return png_from_bands(image.size, image.mode, [(0, image)], dpi)


def png_from_bands(
    size: tuple[int, int], mode: str, bands: Iterable[tuple[int, Image.Image]], dpi: float | None = None
) -> bytes:
    """The PNG of an image given as horizontal bands (top row, band image), top to bottom: a map
    is encoded while it is drawn, never held whole. The same bytes as `png_bytes` of the joined image
    (rows are deflated `_BAND` at a time either way; bands start on multiples of `_BAND`)."""
    colour, bpp = _PNG_COLOUR[mode]
    w, h = size
    packer = zlib.compressobj(PNG_LEVEL)
    parts = []
    for top, image in bands:
        if top % _BAND:
            raise ValueError(f"a band starts at row {top}, not on a multiple of {_BAND}")
        pixels, stride = memoryview(image.tobytes()), w * bpp
        for y in range(0, image.height, _BAND):  # _BAND rows at a time: memory stays near one image, not four
            rows = range(y * stride, min(y + _BAND, image.height) * stride, stride)
            parts.append(packer.compress(b"".join(p for at in rows for p in (_NO_FILTER, pixels[at : at + stride]))))
    parts.append(packer.flush())
    data = b"".join(parts)
    out = [b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0))]
    if dpi:
        ppm = int(round(dpi / 0.0254))
        out.append(_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))
    step = 1 << 22
    out += [_chunk(b"IDAT", data[i : i + step]) for i in range(0, len(data), step)]
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)


Segment = tuple[bytes, int, int]
"""A band of a PNG's rows on its own (`deflate_band`): its raw deflate blocks, the Adler-32 of its filtered rows
and their length. A map's PNG is joined from such segments (`png_from_segments`), so a band whose pixels are
unchanged is never encoded again: its segment is the same bytes whether kept or made anew."""

_ZLIB_HEADER = b"\x78\x01"
"""A zlib stream's header for the fastest levels (no preset dictionary)."""
_LAST_BLOCK = b"\x03\x00"
"""An empty final deflate block (fixed codes): ends a stream of segments, each flushed but not final."""
_ADLER_BASE = 65521


def deflate_band(image: Image.Image) -> Segment:
    """`image`'s rows as a PNG stores them (unfiltered), deflated at `PNG_LEVEL` with no history before
    them and flushed to a byte boundary (`Segment`): any band can follow any other."""
    bpp = _PNG_COLOUR[image.mode][1]
    pixels, stride = memoryview(image.tobytes()), image.width * bpp
    packer = zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, -15)
    parts, adler, length = [], 1, 0
    for y in range(0, image.height, _BAND):
        rows = range(y * stride, min(y + _BAND, image.height) * stride, stride)
        raw = b"".join(p for at in rows for p in (_NO_FILTER, pixels[at : at + stride]))
        adler, length = zlib.adler32(raw, adler), length + len(raw)
        parts.append(packer.compress(raw))
    parts.append(packer.flush(zlib.Z_SYNC_FLUSH))
    return b"".join(parts), adler, length


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's and the second's length (zlib's
    `adler32_combine`, which Python's zlib does not offer)."""
    base = _ADLER_BASE
    rem = second_length % base
    low = first & 0xFFFF
    high = (rem * low) % base
    low = (low + (second & 0xFFFF) + base - 1) % base
    high = (high + ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + base - rem) % base
    return low | (high << 16)


def png_from_segments(size: tuple[int, int], mode: str, segments: Iterable[Segment], dpi: float | None = None) -> bytes:
    """The PNG whose rows are the `segments` (`deflate_band`), top to bottom: one zlib stream of them all."""
    colour = _PNG_COLOUR[mode][0]
    w, h = size
    parts, adler = [_ZLIB_HEADER], 1
    for data, band_adler, length in segments:
        parts.append(data)
        adler = adler32_combine(adler, band_adler, length)
    parts += [_LAST_BLOCK, struct.pack(">I", adler)]
    data = b"".join(parts)
    out = [b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0))]
    if dpi:
        ppm = int(round(dpi / 0.0254))
        out.append(_chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)))
    step = 1 << 22
    out += [_chunk(b"IDAT", data[i : i + step]) for i in range(0, len(data), step)]
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def save_png(image: Image.Image, path: Path, dpi: float | None = None) -> Path:
    """Atomically save ``image`` as PNG."""
    return atomic.write_bytes(Path(path), png_bytes(image, dpi))


def write_pdf(
    pages: Iterable[Image.Image | bytes], path: Path, dpi: float, paper: str | tuple[float, float] | None = None
) -> Path:
    """One page per image, each at ``dpi`` (1:1), centred on ``paper`` (or page = image).

    Items may be PIL images or ready PNG bytes (encoded once by the caller).
    """
    blobs = [p if isinstance(p, bytes) else png_bytes(_flat(p), dpi) for p in pages]
    if not blobs:
        raise ValueError("a PDF needs at least one page")
    page = (paper_in(paper) if isinstance(paper, str) else paper) if paper is not None else None
    img2pdf = load_img2pdf()
    # Rotation.none: our pages carry no EXIF, and looking for it makes img2pdf decode every page
    data = img2pdf.convert(
        blobs,
        rotation=img2pdf.Rotation.none,
        layout_fun=_one_to_one(dpi, page),
        nodate=True,
        engine=img2pdf.Engine.internal,
    )
    return atomic.write_bytes(Path(path), data)


def load_img2pdf() -> ModuleType:
    """img2pdf, imported when a PDF is first written (a build from cached images writes none) and without
    pikepdf: hexwright uses img2pdf's internal engine only (pikepdf's writes a random /ID), and img2pdf
    imports pikepdf when it can, a noticeable start-up cost for every process that writes a PDF (the counter
    sheets write theirs at the end, on one core). Another import of pikepdf later in the process is not affected."""
    if "img2pdf" not in sys.modules and "pikepdf" not in sys.modules:
        sys.modules["pikepdf"] = None  # type: ignore[assignment]  # `import pikepdf` raises ImportError
        try:
            import img2pdf  # noqa: F401
        finally:
            del sys.modules["pikepdf"]
    import img2pdf

    return img2pdf


def _one_to_one(dpi: float, page_in: tuple[float, float] | None):
    """img2pdf layout: the image at exactly ``dpi`` (never scaled to fit), centred on the page."""

    def layout(width_px: int, height_px: int, _ndpi) -> tuple[float, float, float, float]:
        w_pt, h_pt = width_px * 72.0 / dpi, height_px * 72.0 / dpi
        if page_in is None:
            return w_pt, h_pt, w_pt, h_pt
        return page_in[0] * 72.0, page_in[1] * 72.0, w_pt, h_pt

    return layout


def _flat(image: Image.Image) -> Image.Image:
    """PDF pages carry no alpha: composite on white."""
    if image.mode in ("RGB", "L"):
        return image
    rgba = image.convert("RGBA")
    base = Image.new("RGB", rgba.size, (255, 255, 255))
    base.paste(rgba, mask=rgba.getchannel("A"))
    return base
