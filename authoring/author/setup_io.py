"""Set-up cards to and from spreadsheets: export a side's set-up as CSV (hex,unit,state) or a YAML
setup-card, and import one back into the scenario file. Export then import gives back the same bytes.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from authoring.author.card_book import card_workbook
from authoring.author.fsutil import did_you_mean, real_target
from authoring.author.keep import NotWritten, replace_checked
from authoring.author.yamlblock import BlockError, entry_line, replace_side, scalar
from authoring.checking import scenario_findings
from authoring.diagnostics import Diagnostic, Severity, has_errors
from authoring.errors import HexwrightError, UsageError
from authoring.load import discover, find_root, load_card, load_game
from authoring.load.argpath import game_and_scenario, help_line, looks_like_path, missing
from authoring.load.columns import CARD_COLUMNS, conform
from authoring.load.project import GameFiles, display
from authoring.load.source import SourceError, load_source
from authoring.readfile import read_limited
from authoring.rules.where import start_hexes

CSV_COLUMNS = ("hex", "unit", "state")
SCENARIO_HINT = "name a scenario file, GAME/SCENARIO or a scenario id; `hexwright list` shows them"


@dataclass(frozen=True)
class ScenarioFile:
    """A scenario located on disk: its game's files, its path, its id and its raw data."""

    files: GameFiles
    path: Path
    id: str
    data: dict


def find_scenario(project: Path, scenario: str, game: str | None = None) -> ScenarioFile:
    """A scenario by id (searched in every game, or in `game`), as GAME/SCENARIO, or by the path of its file."""
    root = find_root(project)
    games = discover(root)
    given = Path(scenario)
    if given.is_dir():
        raise UsageError(f"{scenario!r} is a folder, not a scenario file" + help_line(SCENARIO_HINT))
    pair = None if game is not None or given.exists() else game_and_scenario(scenario, [g.id for g in games])
    if pair:
        game, scenario = pair
    elif looks_like_path(scenario) and not given.exists():
        raise UsageError(str(missing(scenario, SCENARIO_HINT)))
    if game is not None:
        chosen = [g for g in games if g.id == game]
        if not chosen:
            raise UsageError(did_you_mean(game, [g.id for g in games], "game"))
        games = chosen
    as_path = Path(scenario)
    found, known = [], []
    for g in games:
        for p in g.scenarios:
            data = _read(p)
            sid = data.get("id") if isinstance(data, dict) else None
            known.append(str(sid or p.stem))
            if sid == scenario or (as_path.suffix in (".yaml", ".yml") and as_path.resolve() == p.resolve()):
                found.append(ScenarioFile(g, p, str(sid), data))
    if not found and given.exists():
        raise UsageError(f"{scenario!r} is not a scenario file of any game of this project" + help_line(SCENARIO_HINT))
    if not found:
        raise UsageError(did_you_mean(scenario, known, "scenario"))
    if len(found) > 1:
        raise UsageError(
            f"scenario {scenario!r} is in several games ({', '.join(f.files.id for f in found)}); say which with --game"
        )
    return found[0]


def _read(path: Path) -> dict:
    try:
        data = load_source(path, display(path)).data
    except SourceError as exc:
        raise HexwrightError(f"{exc.diag.loc}: {exc.diag.message}") from None
    return data if isinstance(data, dict) else {}


def _check_side(sf: ScenarioFile, side: str) -> None:
    sides = _game_sides(sf.files)
    if side not in sides:
        raise UsageError(did_you_mean(side, sides, "side"))


def _game_sides(files: GameFiles) -> list[str]:
    data = _read(files.manifest)
    return [str(s.get("id")) for s in data.get("sides", []) if isinstance(s, dict)]


# --- export -------------------------------------------------------------------------------


def side_entries(sf: ScenarioFile, side: str) -> list[dict]:
    """The side's placements as written in the scenario file (hex as printed, units, state, note)."""
    _check_side(sf, side)
    return [dict(e) for e in ((sf.data.get("setup") or {}).get(side) or [])]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
"""Cells a spreadsheet would run as a formula (OWASP CSV injection; fullwidth forms too, which some
spreadsheets fold to ASCII)."""


def neutralise(cell: str) -> str:
    """A cell that a spreadsheet would read as a formula gets a leading `'` (the OWASP rule); `restore`
    takes it off again on import, so a note round-trips unchanged."""
    return "'" + cell if cell.startswith(FORMULA_START) else cell


def restore(cell: str) -> str:
    return cell[1:] if isinstance(cell, str) and cell.startswith("'") and cell[1:].startswith(FORMULA_START) else cell


def card_rows(entries: Sequence[dict]) -> list[list[str]]:
    """The card's rows, header first: one unit per row; a `note` column only when some placement has a note (on
    its first row); a cell a spreadsheet would run as a formula neutralised (`neutralise`)."""
    with_note = any(e.get("note") for e in entries)
    rows = [list(CSV_COLUMNS + (("note",) if with_note else ()))]
    for e in entries:
        for i, unit in enumerate(e["units"]):
            row = [str(e["hex"]), str(unit), str(e.get("state") or "")]
            if with_note:
                row.append(str(e.get("note") or "") if i == 0 else "")
            rows.append([neutralise(cell) for cell in row])
    return rows


def to_csv(entries: list[dict]) -> str:
    """The card as CSV (`card_rows`)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(card_rows(entries))
    return out.getvalue()


def to_card_yaml(entries: list[dict], game: str, scenario: str, side: str) -> str:
    lines = [
        "kind: setup-card",
        f"game: {scalar(game)}",
        f"scenario: {scalar(scenario)}",
        f"side: {scalar(side)}",
        "entries:" + ("" if entries else " []"),
    ]
    lines += [f"  {entry_line(e)}" for e in entries]
    return "\n".join(lines) + "\n"


def export_setup(sf: ScenarioFile, side: str, fmt: str = "csv") -> str | bytes:
    """The side's card as CSV or YAML text, or as an .xlsx workbook (bytes) with drop-down lists."""
    entries = side_entries(sf, side)
    if fmt == "csv":
        return to_csv(entries)
    if fmt == "xlsx":
        return _workbook(sf, side, entries)
    return to_card_yaml(entries, sf.files.id, sf.id, side)


def _workbook(sf: ScenarioFile, side: str, entries: list[dict]) -> bytes:
    """The card as a workbook: its units and states offered in each row, and the hexes each unit may start in
    (none offered when the game does not load: its findings come with `validate`)."""
    units = [str(u) for e in entries for u in e["units"]]
    game = load_game(sf.files).game
    scenario = game.scenarios.get(sf.id) if game is not None else None
    if game is None or scenario is None:
        return card_workbook(card_rows(entries), side, units, [], {})
    states = [s.id for s in game.strength_states]
    return card_workbook(card_rows(entries), game.side(side).name, units, states, start_hexes(game, scenario, units))


# --- import -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportResult:
    path: Path
    side: str
    placements: int
    units: int
    dropped_comments: int
    findings: list[Diagnostic]  # the rules engine's findings for the scenario after the import


def read_card(card: Path) -> tuple[list[dict], str | None]:
    """Entries of a CSV card (consecutive rows with the same hex and state form one placement) or a YAML card."""
    src = load_source(card, display(card))
    if isinstance(src.data, dict):
        return [dict(e) for e in src.data.get("entries") or []], src.data.get("side")
    conformed, found = conform(src, CARD_COLUMNS)
    if conformed is None:
        raise CardError("the set-up card cannot be read", found)
    src = conformed
    entries: list[dict] = []
    for row in src.data:
        hex_, unit, state, note = (restore(row.get(k, "")) for k in ("hex", "unit", "state", "note"))
        last = entries[-1] if entries else None
        if last and last["hex"] == hex_ and (last.get("state") or "") == state and not note:
            last["units"].append(unit)
            continue
        entries.append(
            {"hex": hex_, "units": [unit], **({"state": state} if state else {}), **({"note": note} if note else {})}
        )
    return entries, None


def _card_side(entries: list[dict], card_side: str | None, side: str | None, counters: dict) -> str:
    if side and card_side and side != card_side:
        raise UsageError(f"the card is for side {card_side!r} but --side says {side!r}")
    side = side or card_side
    if side:
        return side
    owners = sorted({counters[u].side for e in entries for u in e["units"] if u in counters and counters[u].side})
    if len(owners) != 1:
        raise UsageError(
            "cannot tell which side this card sets up"
            + (f" (its units belong to {', '.join(owners)})" if owners else "")
            + "; pass --side"
        )
    return owners[0]


def import_setup(card: Path, sf: ScenarioFile, side: str | None = None) -> ImportResult:
    """Check the card against the scenario, then rewrite that side's `setup:` list in the scenario file.

    Nothing is written when the card has errors (unknown hex, unit or state) or when the set-up it makes
    has a rule error the old one had not (stacking, a unit placed twice: `keep.replace_checked`): the old
    set-up stays. The scenario's findings after the import are returned (errors it already had, warnings)."""
    result = load_game(sf.files)
    if result.game is None or sf.id not in result.game.scenarios:
        raise CardError(
            f"scenario {sf.id!r} does not load; fix it first (run `hexwright validate`)", result.diagnostics
        )
    try:
        entries, card_side = read_card(card)
    except SourceError as exc:
        raise CardError("the set-up card cannot be read", [exc.diag]) from None
    side = _card_side(entries, card_side, side, result.game.counters)
    _check_side(sf, side)
    _, diags = load_card(card, result, result.game.scenarios[sf.id], side)
    if has_errors(diags):
        raise CardError(f"{display(card)} has errors; nothing was written", diags)
    try:
        edit = replace_side(read_limited(sf.path).decode("utf-8"), side, entries, display(sf.path))
    except BlockError as exc:
        raise HexwrightError(f"{display(sf.path)}: {exc}") from None
    real_target(sf.path)  # a scenario linked out of the project is refused with its own message
    try:
        found = replace_checked(
            sf.files, sf.path, edit.text, f"the {side} set-up of {display(card)}", lambda f: game_findings(f, sf.id)
        )
    except NotWritten as exc:
        raise CardError(str(exc.message), exc.diagnostics, exc.shown) from None
    notes = [d for d in diags if d.severity is Severity.INFO]  # how the card was read (its encoding)
    return ImportResult(
        sf.path, side, len(entries), sum(len(e["units"]) for e in entries), edit.dropped_comments, notes + found
    )


def game_findings(files: GameFiles, scenario_id: str) -> list[Diagnostic]:
    """Loader findings of the game of `files` and rules-engine findings of its scenario `scenario_id`, as
    `check` gives them (with the note naming the files that kept the rules from running)."""
    result = load_game(files)
    return scenario_findings(result, result.game.scenarios.get(scenario_id) if result.game else None)


class CardError(HexwrightError):
    """The card (or the scenario it goes into) has data errors; they are in `diagnostics`."""

    def __init__(self, message: str, diagnostics: list[Diagnostic], shown: str = ""):
        super().__init__(message)
        self.diagnostics, self.shown = diagnostics, shown
        """`shown`: the findings rendered against a text that was not written (`keep.NotWritten`)."""
