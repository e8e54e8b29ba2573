"""The real VASSAL engine (../shared/tools/vassal-check) on an original and a rebuilt module: which piece
stands on which hex name in each predefined set-up."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKER = ROOT / ".." / "shared" / "tools" / "vassal-check" / "vassal-check"
SKIP_REASON = "../shared/tools/vassal-check not found: the real-engine round trip cannot run"


def engine_report(module: Path) -> dict:
    """The checker's JSON report (cached beside the module)."""
    cache = module.with_suffix(".engine.json")
    if cache.exists() and cache.stat().st_mtime >= module.stat().st_mtime:
        return json.loads(cache.read_text())
    run = subprocess.run([str(CHECKER), str(module), "--pieces"], capture_output=True, text=True, timeout=900)
    assert run.returncode in (0, 1), run.stderr[-2000:]
    cache.write_text(run.stdout)
    return json.loads(run.stdout)


def pieces_on_hexes(report: dict, labels: set[str], boards: set[str]) -> dict[str, Counter]:
    """Set-up name -> Counter of (piece name, hex name) for pieces on `boards` the engine names by a hex in
    `labels`."""
    return {
        s["name"]: Counter(
            (p["name"], p["location"]) for p in s["pieces"] if p.get("location") in labels and p.get("board") in boards
        )
        for s in report["setups"]
    }


def pieces_on_boards(report: dict, boards: set[str], zones: set[str] = frozenset()) -> dict[str, int]:
    """Set-up name -> pieces on the named boards, except those in the named zones."""
    return {
        s["name"]: sum(1 for p in s["pieces"] if p.get("board") in boards and p.get("location") not in zones)
        for s in report["setups"]
    }
