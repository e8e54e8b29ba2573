"""What the module's images are made of, and what the module compiler asks of whoever keeps them.

The compiler is pure: it names each image by a key its caller's `ImageKeys` makes (the catalogue's, in
`products.catalogue.ModuleKeys`) and asks an `Images` store (`products.images.ImageCache`: sealed entries,
missing ones drawn in forked workers) for the pages of each (key, draw) job. Nothing here keys or keeps.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from authoring.model import Counter, Game, Scenario, Table
from authoring.names import file_name
from authoring.render.shared.pdf import png_bytes as pdf_png_bytes
from authoring.vassal.archive import Deflated, Stored


def png_bytes(image: Image.Image) -> bytes:
    """PNG without metadata (no time stamps): same pixels, same bytes. Rows unfiltered, deflated at level 1
    (`pdf.png_bytes`, the maps' encoder): Pillow's adaptive filtering took twice as long for the module's
    counter faces and pages (Typhoon: 1.8 -> 0.85 CPU-s) and came out 13% larger."""
    if image.mode not in ("L", "RGB", "RGBA"):  # a palette or bilevel picture keeps Pillow's own encoding
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=1)
        return buffer.getvalue()
    return pdf_png_bytes(image)


def jpeg_bytes(image: Image.Image) -> bytes:
    """JPEG for big text pages (set-up cards): several times faster to encode than PNG."""
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


Draw = Callable[[], "Image.Image | bytes | Iterable[Image.Image]"]
"""A drawing: one image, its PNG already encoded (a map joined from kept segments), or its pages."""


@dataclass(frozen=True)
class Batch:
    """Cache jobs of one kind (`ImageCache.pages`'s arguments), for `ImageCache.draw_ahead`."""

    jobs: Sequence[tuple[str, Draw]]
    jpeg: bool = False
    heavy: bool = False
    zipped: bool = True


class Images(Protocol):
    """The module's image store: the pages of each (key, draw) job, read from its entries or drawn
    (`products.images.ImageCache`)."""

    @property
    def deflated(self) -> MutableMapping[bytes, Deflated]:
        """Image bytes handed out -> their zip member stream, for `archive.module_chunks`."""

    @property
    def map_pieces(self) -> object | None:
        """Where the maps' drawings keep their tiles (a `render.maps.tiled.PieceStore`), or None."""

    def has(self, key: str) -> bool: ...

    def prefetch(self, keys: Sequence[str]) -> None: ...

    def draw_ahead(self, batches: Sequence[Batch], meanwhile: Callable[[], object] | None = None) -> None: ...

    def pages(
        self, jobs: Sequence[tuple[str, Draw]], jpeg: bool = False, heavy: bool = False, zipped: bool = True
    ) -> list[list[memoryview | Stored]]:
        """The pages of each job; a page the previous module holds comes as it stores it (`Stored`)."""

    def many(
        self, jobs: Sequence[tuple[str, Draw]], heavy: bool = False, zipped: bool = True
    ) -> list[memoryview | Stored]: ...

    def png(self, key: str, draw: Draw) -> memoryview | Stored: ...


class ImageKeys(Protocol):
    """The key of each module image, from the model slice it shows (`products.catalogue.ModuleKeys`)."""

    def counter_faces(self, game: Game) -> Callable[[Counter, str, int], str]: ...

    def map_image(self, game: Game, map_id: str, px_per_hex: float) -> str: ...

    def board(self, map_keys: dict[str, str], plans: Sequence, plan: object) -> str: ...

    def marker(self, text: str, size_px: int, lines: tuple[str, ...], colour: str) -> str: ...

    def corner_mark(self, text: str, size_px: int, colour: str) -> str: ...

    def table(self, game: Game, table: Table) -> str: ...

    def turns(self, game: Game, scenario: Scenario) -> str: ...

    def cards(self, game: Game) -> Callable[[str, str], str]: ...

    def box(self, name: str, title: str, sections: list, counter_px: int) -> str: ...


def image_name(kind: str, *parts: str, ext: str = "png") -> str:
    """An archive image name: `names.file_name` (two ids never share a name; portable)."""
    return file_name(kind, *parts, ext=ext)


KEPT_IMAGES = "hexwright-kept-images.txt"
"""The module member listing, one a line, the images it keeps for old saved games: pieces of counters a later
data no longer has (`compile_module`'s `kept`), so that a build keeps them on from the module it replaces."""
