"""`check` is one library function (`authoring.checking`): `hexwright check --card` and the preview's card export
give the same findings for the same card, the options, the collapsed column mistakes and the "not checked"
notes included; and the set-up card import is held to the same assembly of a scenario's findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from serve_support import copy_game

from authoring import checking
from authoring.cli import main
from authoring.serve.cardexport import card_csv

PORT = 8737
HEADERS = {"Origin": f"http://127.0.0.1:{PORT}", "Content-Type": "application/json"}
NAME = "setup.seven-turn.soviet.csv"
"""The file name the preview gives a card of seven-turn's Soviet side."""
SHOCK = "improved-1st-shock"
"""A seven-turn option with a part no check sees (a note, HW-OPT-002)."""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return copy_game("bfm", tmp_path_factory.mktemp("same"))


@pytest.fixture(scope="module")
def client(project):
    from starlette.testclient import TestClient

    from authoring.serve.app import make_app
    from authoring.serve.session import Session

    return TestClient(make_app(Session(project, "bfm"), watch_files=False), base_url=f"http://127.0.0.1:{PORT}")


@pytest.fixture(scope="module")
def soviet(project) -> list[dict]:
    """Seven-turn's Soviet set-up as the page's rows (legal as written)."""
    scen = checking.check("bfm/seven-turn", project=project).scenario
    return [
        {"hex": p.label, "unit": u, "state": p.state or ""} for p in scen.setup if p.side == "soviet" for u in p.units
    ]


def _moved(rows: list[dict], **change) -> list[dict]:
    return [dict(rows[0], **change), *rows[1:]]


CARDS = {  # name: (the rows made of the legal ones, options, a code the findings must hold, None for no finding)
    "legal": (lambda rows: rows, (), None),
    "legal-with-an-option": (lambda rows: rows, (SHOCK,), "HW-OPT-002"),
    "onto-an-enemy-hex": (lambda rows: _moved(rows, hex="0103"), (), "HW-PLACE-003"),
    "onto-an-enemy-hex-with-an-option": (lambda rows: _moved(rows, hex="0103"), (SHOCK,), "HW-PLACE-003"),
    "a-column-of-wrong-states": (lambda rows: [dict(r, state="full") for r in rows], (), "HW-STATE-002"),
    "an-unknown-unit": (lambda rows: _moved(rows, unit="sov-299"), (SHOCK,), "HW-CHECK-001"),
}


def _key(severity, code, message, file, line, col, rule, help, hex) -> tuple:
    return (severity, code, message, file or "", line or 0, col or 0, rule or "", help or "", hex or "")


def _cli(project: Path, text: str, options: tuple[str, ...]) -> tuple[int, list[tuple]]:
    """`check --card` of the card `text` saved under the preview's name at the project's root, its JSON findings."""
    (project / NAME).write_text(text, encoding="utf-8")
    args = ["check", "bfm/seven-turn", "--card", NAME, "--side", "soviet", "--format", "json", "--project", "."]
    r = CliRunner().invoke(main, [*args, *(a for o in options for a in ("--option", o))], catch_exceptions=False)
    found = json.loads(r.stdout)
    keys = ("severity", "code", "message", "file", "line", "column", "rule", "help", "hex")
    return r.exit_code, [_key(*(f[k] for k in keys)) for f in found]


def _preview(client, rows: list[dict], options: tuple[str, ...]) -> tuple[str, list[tuple]]:
    body = {"game": "bfm", "scenario": "seven-turn", "side": "soviet", "rows": rows, "options": list(options)}
    r = client.post("/api/export", content=json.dumps(body), headers=HEADERS)
    assert r.status_code == 200, r.text
    keys = ("severity", "code", "message", "file", "line", "col", "rule", "help", "hex")
    return r.json()["csv"], [_key(*(f[k] for k in keys)) for f in r.json()["findings"]]


@pytest.mark.parametrize("case", CARDS)
def test_the_command_and_the_preview_find_the_same(case, project, client, soviet, monkeypatch):
    monkeypatch.chdir(project)
    make, options, code = CARDS[case]
    rows = make(soviet)
    text, shown = _preview(client, rows, options)
    assert text == card_csv(rows)
    exit_code, found = _cli(project, text, options)
    assert shown == found
    assert (code in {f[1] for f in found}) if code else found == []
    assert exit_code == (1 if any(f[0] == "error" for f in found) else 0)


def test_an_option_the_scenario_has_not_is_refused_by_both(project, client, soviet, monkeypatch):
    monkeypatch.chdir(project)
    body = {"game": "bfm", "scenario": "seven-turn", "side": "soviet", "rows": soviet, "options": ["improved-1st-shok"]}
    r = client.post("/api/export", content=json.dumps(body), headers=HEADERS)
    assert r.status_code == 400 and "did you mean 'improved-1st-shock'?" in r.json()["error"]
    (project / NAME).write_text(card_csv(soviet), encoding="utf-8")
    args = ["check", "bfm/seven-turn", "--card", NAME, "--option", "improved-1st-shok", "--project", "."]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "did you mean 'improved-1st-shock'?" in r.output


def test_the_library_function_says_what_it_found_and_what_was_not_checked(project, soviet, monkeypatch):
    monkeypatch.chdir(project)
    rows = [dict(r, state="full") for r in soviet]
    (project / NAME).write_text(card_csv(rows), encoding="utf-8")
    found = checking.check("bfm/seven-turn", project=project, card=checking.Card(Path(NAME)), options=[SHOCK])
    assert found.rules_ran and found.failed and found.card is not None
    assert {p.side for p in found.card.entries} == {"soviet"}  # the one side of its units
    assert found.scenario is not None and found.scenario.id == "seven-turn" and found.root == project
    assert [d.code for d in found.not_checked] == ["HW-OPT-002"]
    states = [d for d in found.findings if d.code == "HW-STATE-002"]
    assert len(states) == 1 and states[0].message.endswith(f"{len(rows)} rows alike (lines 2-{len(rows) + 1})")
    assert list(found.findings) == sorted(found.findings, key=lambda d: d.sort_key)
    text = checking.Card(Path(NAME), card_csv(rows))  # the same card as text: the same findings
    assert checking.check_loaded(project, found.result, found.scenario, text, None, [SHOCK]).findings == found.findings

    unknown = checking.check("bfm/seven-turn", project=project, card=checking.Card(Path(NAME), "hex,unit\n0301,x\n"))
    assert not unknown.rules_ran and unknown.failed
    assert [(d.code, d.loc.file) for d in unknown.not_checked] == [("HW-CHECK-001", NAME)]

    with pytest.raises(checking.BadChoice) as exc:
        checking.check("bfm/seven-turn", project=project, side="soviets")
    assert exc.value.choice == "side" and "did you mean 'soviet'?" in str(exc.value)
    with pytest.raises(checking.TargetError):
        checking.check("bfm/eight-turn", project=project)


def test_a_card_import_is_held_to_its_scenarios_rules_when_another_file_has_an_error(tmp_path):
    """`import-setup` assembles the scenario's findings as `check` does: the rules run whenever every file
    loaded, not only on a game without errors (a dangling unit in another scenario let a stacked card in)."""
    from authoring.author.setup_io import CardError, export_setup, find_scenario, import_setup

    project = copy_game("bfm", tmp_path / "project")
    campaign = project / "scenarios" / "bfm" / "campaign.yaml"
    campaign.write_text(campaign.read_text(encoding="utf-8").replace("sov-29", "sov-299", 1), encoding="utf-8")
    planted = checking.check("bfm/campaign", project=project)
    assert planted.failed and planted.rules_ran  # an error, yet every file loaded
    sf = find_scenario(project, "seven-turn")
    before = sf.path.read_bytes()
    card = tmp_path / "s.csv"
    card.write_text(export_setup(sf, "soviet").replace("0302,sov-30,half\n", "0302,sov-30,half\n0302,sov-5,half\n"))
    with pytest.raises(CardError) as exc:
        import_setup(card, sf)
    assert "HW-STACK-001" in {d.code for d in exc.value.diagnostics}
    assert sf.path.read_bytes() == before
