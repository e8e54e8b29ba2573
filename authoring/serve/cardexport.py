"""A set-up dragged on the page, as a set-up card CSV (the format `check --card` reads) and its findings.

The data files are never written, nor the card: its text is checked as `check --card` checks a card file
(`checking.check_loaded`), with the scenario's other sides as written, so the page and the command find the same."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from authoring.author.setup_io import to_csv
from authoring.checking import Card, check_loaded
from authoring.load.project import LoadResult
from authoring.model import Scenario
from authoring.names import file_name
from authoring.serve.setupview import findings


def card_csv(rows: list[dict]) -> str:
    """Rows of {hex, unit, state} grouped into placements (one per hex and state, in first-seen order)."""
    entries: dict[tuple[str, str], dict] = {}
    for r in rows:
        key = (str(r["hex"]), str(r.get("state") or ""))
        entries.setdefault(key, {"hex": key[0], "units": [], "state": key[1]})["units"].append(str(r["unit"]))
    return to_csv(list(entries.values()))


def card_findings(
    result: LoadResult, scen: Scenario, side: str, text: str, options: Sequence[str] = ()
) -> tuple[str, list[dict]]:
    """The card's file name and its findings as the page shows them: those `check --card` gives for a card of
    that name at the project's root (the game's, the card's own, the rules engine's with `options` on).
    Raises `checking.BadChoice` for an option the scenario has not."""
    name = file_name("setup", scen.id, side, ext="csv")
    root = result.files.root if result.files else Path.cwd()
    checked = check_loaded(root, result, scen, Card(root / name, text), side, options)
    return name, findings(checked.findings, root)
