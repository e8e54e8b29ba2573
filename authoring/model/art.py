"""A designer's own art: image files named by map and counter files, checked and fingerprinted at load.

The model carries each image's content hash (`ArtImage.sha256`), so every cache keyed by the
model (module images, build stages) redraws exactly what uses an image when its bytes change.
"""

from __future__ import annotations

from authoring.diagnostics import Loc
from authoring.hexgrid import Hex
from authoring.hexgrid.registration import Registration
from authoring.model.frozen import frozen


@frozen
class ArtImage:
    """One image file: PNG, JPEG or SVG."""

    name: str
    """The path as the data file writes it."""
    sha256: str
    format: str
    """"PNG", "JPEG" or "SVG"."""
    size: tuple[int, int]
    """Pixels (SVG: its own width and height)."""
    path: str = ""
    """The real file (left out of cache keys: moving the project redraws nothing)."""
    loc: Loc | None = None


@frozen
class ArtPoint:
    """A hex centre the designer read off the map art (for `calibrate`, and checked by `validate`)."""

    hex: Hex
    label: str
    at: tuple[float, float]
    loc: Loc | None = None


@frozen
class MapImage:
    """A map's painted art and where its hexes lie on it."""

    image: ArtImage
    registration: Registration | None
    """None while the map file names only calibration points (run `hexwright calibrate`)."""
    points: tuple[ArtPoint, ...] = ()
    loc: Loc | None = None
    overlay: tuple[str, ...] = ()
    """Hex feature ids hexwright draws over the art (marks the rules use that the painting leaves out)."""
