"""Every command that checks runs the same checks on the same data, however its files were saved.

One planted rule error (a unit set up off the hex its set-up code names) goes through every kind of data file
(counters as CSV, tab-separated, Excel's Unicode Text and YAML; the scenario; a set-up card as CSV and YAML)
saved in every encoding the loader accepts for that kind (UTF-8, with a byte-order mark or without; for
spreadsheets also UTF-16 little- and big-endian with one, Windows-1252 and Mac Roman, a note naming the last
two), and each of
`validate`, `check`, `build`, one round of `watch` and the live preview's set-up view must report it and
(the commands) exit 1. A note once switched the set-up rules off: a Windows-1252 counters file was "All
checks passed. (1 note)", exit 0, for every command but `check`.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main

GAME_RULES = """setup_codes:
  - {pattern: '^(?P<hex>[0-9]{4})$', meaning: hex}
  - {pattern: '^(?P<turn>[0-9])$', meaning: turn}
setup_rules:
  - {type: follow-setup-codes, rule: "1.0"}
"""
COUNTERS = [  # id, side, designation, name (accented: a code page shows), set-up code, full and reduced values
    ("red-1", "red", "1", "Kampfgruppe Müller", "0101", (4, 4), (2, 4)),
    ("blue-1", "blue", "1", "Général Bleu", "0505", (3, 5), None),
    ("red-2", "red", "2", "Königsberg", "2", (5, 4), (2, 4)),
]
HEADER = ["id", "side", "type", "size", "designation", "name", "setup_code", "quantity"]
HEADER += ["full.attack", "full.movement", "reduced.attack", "reduced.movement"]
SCENARIO = """kind: scenario
game: mini
id: intro
name: Introduction — Général’s day
maps: [board]
turns:
  - {turn: 1, date: "Day 1", weather: clear}
  - {turn: 2, date: "Day 2", weather: rain}
setup:
  red:
    - {hex: "RED1", units: [red-1]}
  blue:
    - {hex: "0505", units: [blue-1]}
reinforcements:
  - {turn: 2, side: red, units: [red-2], at: west}
"""
SCENARIO_LINE = 11
"""The line of red-1's placement: where the planted error is found, whichever file holds it."""

YAML_CODECS = ("utf-8", "utf-8-sig")
"""YAML files are UTF-8, with or without a byte-order mark (`load.source.decode_text`)."""
SHEET_CODECS = (*YAML_CODECS, "utf-16-le", "utf-16-be", "cp1252", "mac-roman")
"""Spreadsheets' text tables are read in any encoding a spreadsheet program saves (`textcodec`)."""


def encoded(text: str, codec: str, line_end: str = "\n") -> bytes:
    """`text` as a program saves it in `codec` (UTF-16 with its byte-order mark, as Excel and LibreOffice write it)."""
    text = text.replace("\n", line_end)
    if codec == "utf-16-le":
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    if codec == "utf-16-be":
        return codecs.BOM_UTF16_BE + text.encode("utf-16-be")
    return text.encode({"mac-roman": "mac_roman"}.get(codec, codec))


def counter_rows(code_of_red_1: str) -> list[list[str]]:
    rows = [HEADER]
    for cid, side, desig, name, code, full, reduced in COUNTERS:
        code = code_of_red_1 if cid == "red-1" else code
        rows.append([cid, side, "infantry", "division", desig, name, code, "1", *map(str, full)])
        rows[-1] += [*map(str, reduced)] if reduced else ["", ""]
    return rows


def counters_yaml(code_of_red_1: str) -> str:
    out = ["kind: counters", "game: mini", "counters:"]
    for cid, side, desig, name, code, full, reduced in COUNTERS:
        code = code_of_red_1 if cid == "red-1" else code
        faces = [f"{{state: full, values: {{attack: {full[0]}, movement: {full[1]}}}}}"]
        faces += [f"{{state: reduced, values: {{attack: {reduced[0]}, movement: {reduced[1]}}}}}"] if reduced else []
        out.append(
            f'  - {{id: {cid}, side: {side}, type: infantry, size: division, designation: "{desig}", name: "{name}", '
            f'setup_code: "{code}", faces: [{", ".join(faces)}]}}'
        )
    return "\n".join(out) + "\n"


def write_project(mini: Path, counters: str, counters_codec: str, scenario_codec: str, planted: str) -> Path:
    """The mini game with set-up codes, its counters as `counters` (a file name), and one error `planted` in
    "counters" (red-1's code names 0202), "scenario" (red-1 set up in 0102) or nowhere ("card": a card has it)."""
    game = mini / "scenarios/mini/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + GAME_RULES, encoding="utf-8")
    for old in (mini / "counters/mini").iterdir():
        old.unlink()
    code = "0202" if planted == "counters" else "0101"
    if counters.endswith(".yaml"):
        data = encoded(counters_yaml(code), counters_codec)
    else:
        sep = "\t" if counters.endswith((".tsv", ".txt")) else ","
        table = "".join(sep.join(row) + "\n" for row in counter_rows(code))
        data = encoded(table, counters_codec, "\r\n")
    (mini / "counters/mini" / counters).write_bytes(data)
    hex_of_red_1 = "0102" if planted == "scenario" else "0101"
    (mini / "scenarios/mini/intro.yaml").write_bytes(encoded(SCENARIO.replace("RED1", hex_of_red_1), scenario_codec))
    return mini


def write_card(folder: Path, name: str, codec: str) -> Path:
    """Red's set-up with red-1 in 0102, off its code's 0101 (line 2 of the CSV, 3 of the YAML), with a note."""
    if name.endswith(".yaml"):
        data = encoded('kind: setup-card\nentries:\n  - {hex: "0102", units: [red-1], note: "Müller’s"}\n', codec)
    else:
        sep = "\t" if name.endswith(".txt") else ","
        data = encoded(f"hex{sep}unit{sep}note\n0102{sep}red-1{sep}Müller’s\n", codec, "\r\n")
    path = folder / name
    path.write_bytes(data)
    return path


def _cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


FOUND = re.compile(r"^(error|warning|info)\[(HW-[A-Z]+-\d+)\]: .*\n --> (\S+):(\d+):\d+", re.M)


def _from_json(out: str) -> set[tuple[str, str, int]]:
    return {(f["code"], Path(f["file"]).name, f["line"]) for f in json.loads(out) if f["severity"] == "error"}


def _from_text(out: str) -> set[tuple[str, str, int]]:
    return {(code, Path(file).name, int(line)) for sev, code, file, line in FOUND.findall(out) if sev == "error"}


def validate(project: Path) -> tuple[int, set]:
    r = _cli("validate", str(project), "--format", "json")
    return r.exit_code, _from_json(r.stdout)


def check(project: Path, *card: str) -> tuple[int, set]:
    r = _cli("check", "mini/intro", "--project", str(project), "--format", "json", *card)
    return r.exit_code, _from_json(r.stdout)


def build(project: Path) -> tuple[int, set]:
    r = _cli("build", "charts", "mini", "--project", str(project))
    return r.exit_code, _from_text(r.output)


def watch(project: Path) -> tuple[int, set]:
    r = _cli("watch", "mini", "--once", "--no-build", "--project", str(project))
    return r.exit_code, _from_text(r.output)


def serve(project: Path) -> tuple[int, set]:
    """The live preview's set-up view of the scenario (its load errors and its findings), asked of the app as a
    page asks it; exit code 1 when it shows an error, as the commands'."""
    from authoring.serve.app import make_app
    from authoring.serve.session import Session

    out = asgi_get(make_app(Session(project, "mini"), watch_files=False), "/api/view", "game=mini&scenario=intro")
    shown = out["errors"] + (out["view"]["findings"] if out["view"] else [])
    errors = {(f["code"], Path(f["file"]).name, f["line"]) for f in shown if f["severity"] == "error"}
    return (1 if errors else 0), errors


def asgi_get(app, path: str, query: str) -> dict:
    """One GET through the app's ASGI interface (no server, no socket), its JSON body."""
    body: list[bytes] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            assert message["status"] == 200, message
        elif message["type"] == "http.response.body":
            body.append(message.get("body", b""))

    asyncio.run(app(scope, receive, send))
    return json.loads(b"".join(body))


COMMANDS = {"validate": validate, "check": check, "build": build, "watch": watch, "serve": serve}
CASES = [
    *[("counters", "counters.csv", c, "utf-8") for c in SHEET_CODECS],
    ("counters", "counters.tsv", "utf-16-le", "utf-8"),
    ("counters", "counters.txt", "utf-16-le", "utf-8"),  # Excel's "Unicode Text"
    ("counters", "counters.txt", "cp1252", "utf-8"),
    *[("counters", "counters.yaml", c, "utf-8") for c in YAML_CODECS],
    *[("scenario", "counters.csv", "cp1252", c) for c in YAML_CODECS],
    ("scenario", "counters.csv", "mac-roman", "utf-8-sig"),
    ("scenario", "counters.txt", "utf-16-le", "utf-8"),
]
PLANTED = ("HW-CODE-002", "intro.yaml", SCENARIO_LINE)


def _case_id(case) -> str:
    where, counters, counters_codec, scenario_codec = case
    return f"{where}-{counters}-{counters_codec}-scenario-{scenario_codec}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_each_command_reports_the_planted_error(case, mini: Path):
    where, counters, counters_codec, scenario_codec = case
    project = write_project(mini, counters, counters_codec, scenario_codec, where)
    for name, command in COMMANDS.items():
        assert command(project) == (1, {PLANTED}), name


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_the_same_files_without_the_error_pass(case, mini: Path):
    """The control: the planted error is the only one, so each command finds it and nothing else."""
    _where, counters, counters_codec, scenario_codec = case
    project = write_project(mini, counters, counters_codec, scenario_codec, "card")
    for name, command in COMMANDS.items():
        assert command(project) == (0, set()), name


CARDS = [
    *[("card.csv", c) for c in SHEET_CODECS],
    ("card.txt", "utf-16-le"),
    *[("card.yaml", c) for c in YAML_CODECS],
]


@pytest.mark.parametrize("card,codec", CARDS)
def test_a_card_is_checked_in_every_encoding(card: str, codec: str, mini: Path, tmp_path: Path):
    project = write_project(mini, "counters.csv", "cp1252", "utf-8", "card")
    path = write_card(tmp_path, card, codec)
    code, found = check(project, "--card", str(path))
    assert (code, found) == (1, {("HW-CODE-002", card, 3 if card.endswith(".yaml") else 2)})


def test_an_excel_windows_counters_file_with_a_wrong_code_fails_validate(mini: Path):
    """The report's case: Excel for Windows' "CSV" (Windows-1252), an accented name, red-1's code on 0202."""
    project = write_project(mini, "counters.csv", "cp1252", "utf-8", "counters")
    assert "Müller".encode("cp1252") in (project / "counters/mini/counters.csv").read_bytes()
    r = _cli("validate", str(project), "--format", "json")
    found = json.loads(r.stdout)
    assert r.exit_code == 1
    assert [(f["severity"], f["code"]) for f in found] == [("info", "HW-IO-004"), ("error", "HW-CODE-002")]
    assert found[1]["message"] == "red-1's code '0202' says set up in hex 0202, but it starts in hex 0101 (clear)"
    text = _cli("validate", str(project)).output
    assert "All checks passed" not in text and text.rstrip().endswith("Found 1 error.")


def test_codes_without_their_zeros_in_a_code_page_file_are_found_by_every_command(mini: Path):
    """Set-up codes a spreadsheet stored as numbers (101 for 0101), in a Windows-1252 file: HW-CODE-005 (a finding
    of the rules engine) from every command, not skipped with the rules as the note once made it."""
    project = write_project(mini, "counters.csv", "cp1252", "utf-8", "card")
    path = project / "counters/mini/counters.csv"
    table = path.read_bytes().decode("cp1252").replace(",0101,", ",101,").replace(",0505,", ",505,")
    path.write_bytes(table.encode("cp1252"))
    expected = {("HW-CODE-005", "counters.csv", 2)}
    for name in ("validate", "check", "build", "watch"):
        assert COMMANDS[name](project) == (1, expected), name


@pytest.mark.parametrize("name", list(COMMANDS)[:4])
def test_rules_that_could_not_run_are_named_and_fail(name: str, mini: Path):
    """A counters file that does not read (a row longer than its header): its error, and the note that the set-up
    rules did not run in place of "All checks passed" and of findings that would only echo the missing file."""
    project = write_project(mini, "counters.csv", "cp1252", "utf-8", "scenario")
    path = project / "counters/mini/counters.csv"
    path.write_bytes(path.read_bytes() + b"red-9,red,infantry,division,9,,,1,1,1,1,1,extra\r\n")
    args = {
        "validate": ("validate", str(project)),
        "check": ("check", "mini/intro", "--project", str(project)),
        "build": ("build", "charts", "mini", "--project", str(project)),
        "watch": ("watch", "mini", "--once", "--no-build", "--project", str(project)),
    }[name]
    r = _cli(*args)
    assert r.exit_code == 1
    assert _from_text(r.output) == {("HW-CSV-004", "counters.csv", 5)}  # not the planted HW-CODE-002: not checked
    assert "info[HW-CHECK-001]: the set-up rules of game 'mini' were not checked: " in r.output
    assert "counters/mini/counters.csv could not be used" in r.output
    assert "Found 1 error. The set-up rules were not checked (HW-CHECK-001 says why)." in r.output
