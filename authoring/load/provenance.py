"""A table's or map's `source:`, `source_note:` and `representative_part:` as a `Provenance` (the schema has checked the values)."""

from __future__ import annotations

from collections.abc import Mapping

from authoring.model.provenance import DESIGNERS, Provenance


def provenance(data: Mapping, default: Provenance = DESIGNERS) -> Provenance:
    """`data`'s own source and note; `default` (a tables file's own `source:`) where it names no source."""
    source, note, part = data.get("source"), data.get("source_note"), data.get("representative_part")
    if source is None and note is None and part is None:
        return default
    return Provenance(
        str(source or default.source),
        str(note if note is not None else default.note),
        str(part if part is not None else default.part),
    )
