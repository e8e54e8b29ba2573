"""Where a table, map or chart comes from (its `source:`), and the label a player reads on representative data.

The 1941 and Typhoon rulebooks print no charts and no maps, so their bundled tables and maps stand in for the
published ones; every output a player sees labels such data with one wording (`Provenance.label`), so no one
takes it for the published game. A designer's own data and the published game's carry no label."""

from __future__ import annotations

from collections.abc import Iterable

from authoring.model.frozen import frozen

PUBLISHED = "published"
DESIGNER = "designer"
REPRESENTATIVE = "representative"
SOURCES = (PUBLISHED, DESIGNER, REPRESENTATIVE)
"""The values of `source:`; absent means `designer`."""

REPRESENTATIVE_LABEL = "Representative data: not from the published game"
"""What every output prints on representative data (followed by the data's `source_note`)."""

PART_LABEL = "Representative data"
"""How the label of a representative part begins (the part named after it)."""


@frozen
class Provenance:
    """A table's or map's `source:`, `source_note:` and `representative_part:` (the part of published or
    designer's data that no source gives: the data is labelled for that part alone)."""

    source: str = DESIGNER
    note: str = ""
    part: str = ""

    @property
    def representative(self) -> bool:
        """Whether players see a label: representative data, or data with a representative part."""
        return self.source == REPRESENTATIVE or bool(self.part)

    @property
    def label(self) -> str:
        """The label players read ('' for published and designer's data with no representative part): the
        wording, then the note (or the representative part)."""
        if self.source != REPRESENTATIVE:
            part = self.part.strip().rstrip(".")
            return f"{PART_LABEL}: {part}; not from the published game." if part else ""
        note = self.note.strip().rstrip(".")
        return f"{REPRESENTATIVE_LABEL} ({note})." if note else f"{REPRESENTATIVE_LABEL}."


DESIGNERS = Provenance()
"""The default: the designer's own data, unlabelled."""


def labels(named: Iterable[tuple[str, Provenance]]) -> tuple[str, ...]:
    """The labels of the representative items of (name, provenance) pairs, each as `name: label`, in order."""
    return tuple(f"{name}: {p.label}" for name, p in named if p.representative)
