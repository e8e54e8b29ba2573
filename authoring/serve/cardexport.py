"""A set-up dragged on the page, as a set-up card CSV (the format `check --card` reads) and its findings.

The data files are never written: the card goes to a temporary folder, is read back by the loader as
`check --card` reads it, and checked by the rules engine with the scenario's other sides as written."""

from __future__ import annotations

import tempfile
from pathlib import Path

from authoring.author.setup_io import to_csv
from authoring.diagnostics.rows import one_per_column
from authoring.load import load_card
from authoring.load.project import LoadResult
from authoring.model import Scenario
from authoring.names import file_name
from authoring.rules import check_scenario
from authoring.serve.setupview import findings


def card_csv(rows: list[dict]) -> str:
    """Rows of {hex, unit, state} grouped into placements (one per hex and state, in first-seen order)."""
    entries: dict[tuple[str, str], dict] = {}
    for r in rows:
        key = (str(r["hex"]), str(r.get("state") or ""))
        entries.setdefault(key, {"hex": key[0], "units": [], "state": key[1]})["units"].append(str(r["unit"]))
    return to_csv(list(entries.values()))


def card_findings(result: LoadResult, scen: Scenario, side: str, text: str) -> tuple[str, list[dict]]:
    """The card's file name and its findings (the card's own, then the rules engine's) as the page shows them."""
    name = file_name("setup", scen.id, side, ext="csv")
    with tempfile.TemporaryDirectory(prefix="hexwright-card-") as tmp:
        path = Path(tmp) / name
        path.write_text(text, encoding="utf-8")
        card, diags = load_card(path, result, scen, side)
        if card is not None and not any(d.severity.value == "error" for d in diags):
            diags = one_per_column(diags + check_scenario(result.valid_game, scen, card), result.valid_game.counters)
        return name, findings(diags, Path(tmp))
