"""The minimal test game with its combat table, its map and its introduction marked representative (with notes):
what the provenance tests of the charts, the module and the preview label."""

from __future__ import annotations

from pathlib import Path


def mark_representative(root: Path) -> Path:
    """Mark the copy of the minimal game at `root` representative (the table and map with a note); returns it."""
    tables = root / "scenarios" / "mini" / "tables.yaml"
    tables.write_text(
        tables.read_text().replace(
            "    name: Combat Results\n",
            '    name: Combat Results\n    source: representative\n    source_note: "every cell"\n',
        )
    )
    board = root / "maps" / "mini" / "board.yaml"
    board.write_text(
        board.read_text().replace(
            "name: Mini Board\n", 'name: Mini Board\nsource: representative\nsource_note: "the forest"\n'
        )
    )
    intro = root / "scenarios" / "mini" / "intro.yaml"
    intro.write_text(intro.read_text().replace("name: Introduction\n", "name: Introduction\nsource: representative\n"))
    return root
