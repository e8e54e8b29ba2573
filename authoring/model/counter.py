"""Counters: units and markers, one face per strength level with its printed values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from authoring.diagnostics import Loc
from authoring.model.art import ArtImage
from authoring.model.frozen import frozen
from authoring.model.game import EMPTY


@frozen
class Face:
    state: str
    values: Mapping[str, object] = field(default_factory=lambda: EMPTY)
    label: str = ""
    designation: str | None = None
    image: ArtImage | None = None
    """Full-face art: painted as the face, with the data's values drawn over it."""
    picture: ArtImage | None = None
    """Art for the picture slot of the drawn layout (in place of the unit symbol)."""
    short: str = ""
    """A shorter label printed when the full one does not fit."""


@frozen
class Counter:
    id: str
    side: str | None
    nationality: str | None
    type: str | None
    size: str | None
    designation: str
    faces: tuple[Face, ...]
    steps: int
    stacking: float | None = None
    flags: frozenset[str] = frozenset()
    setup_code: str = ""
    quantity: int = 1
    marker: bool = False
    name: str = ""
    loc: Loc | None = None
    short: str = ""
    """A shorter designation printed when the full one does not fit its slot."""
    symbol: str = ""
    """Overrides the unit type's symbol (a cavalry corps in a game with no cavalry type)."""
    code_loc: Loc | None = None
    """Where `setup_code` is written (a counters CSV's cell): a finding about the code points there."""

    def face(self, state: str) -> Face | None:
        return next((f for f in self.faces if f.state == state), None)

    @property
    def display_name(self) -> str:
        return self.name or self.designation or self.id
