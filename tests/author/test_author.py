"""init, new scenario, set-up import/export, watch and the generated format reference, on real files."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.author import formatdoc
from authoring.author.project import init_project
from authoring.author.scenario import new_scenario
from authoring.author.setup_io import CardError, export_setup, find_scenario, import_setup, read_card
from authoring.author.watch import Watcher, stages_for
from authoring.author.yamlblock import replace_side
from authoring.cli import main
from authoring.load.source import parse_yaml
from authoring.serve.cardexport import card_csv
from authoring.validate import validate_path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def bfm_copy(tmp_path: Path) -> Path:
    for folder in ("maps", "counters", "scenarios"):
        shutil.copytree(ROOT / folder / "bfm", tmp_path / folder / "bfm")
    return tmp_path


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    init_project(tmp_path / "tiny")
    return tmp_path / "tiny"


# --- init -----------------------------------------------------------------------------------


def test_init_template_passes_every_check_and_has_schema_lines(tiny):
    _, diags, count = validate_path(tiny)
    assert count == 1 and diags == []
    game = (tiny / "scenarios/tiny/game.yaml").read_text()
    assert game.startswith("# yaml-language-server: $schema=../../schemas/game.schema.json\n")
    assert (tiny / "schemas/game.schema.json").read_text() == (ROOT / "schemas/game.schema.json").read_text()


def test_init_template_rules_are_live(tiny):
    """The starter game's set-up rules really run: a red unit off its set-up hexes is caught."""
    path = tiny / "scenarios/tiny/first-clash.yaml"
    path.write_text(path.read_text().replace('{hex: "0104", units: [red-3]', '{hex: "0105", units: [red-3]'))
    _, diags, _ = validate_path(tiny)
    assert [d.code for d in diags] == ["HW-PLACE-005"]


def test_init_refuses_to_overwrite(tiny):
    before = (tiny / "README.md").read_bytes()
    result = run("init", str(tiny))
    assert result.exit_code == 2 and "never overwrites" in result.output
    assert (tiny / "README.md").read_bytes() == before


def test_init_from_unknown_game_suggests(tmp_path):
    result = run("init", str(tmp_path / "x"), "--from", "bfn")
    assert result.exit_code == 2 and "did you mean 'bfm'?" in result.output
    assert not (tmp_path / "x").exists()


def test_init_from_bfm_copies_the_game(tmp_path):
    plan = init_project(tmp_path / "m", "bfm")
    assert plan.game_id == "bfm"
    assert (tmp_path / "m/scenarios/bfm/seven-turn.yaml").read_text() == (
        ROOT / "scenarios/bfm/seven-turn.yaml"
    ).read_text()
    assert validate_path(tmp_path / "m")[1] == []


# --- new scenario ---------------------------------------------------------------------------


def test_new_scenario_copy_changes_only_id_and_name(bfm_copy):
    path = new_scenario(bfm_copy, "bfm", "winter-war", "seven-turn")
    old, new = (bfm_copy / "scenarios/bfm/seven-turn.yaml").read_text(), path.read_text()
    a, b = parse_yaml(old, "a").data, parse_yaml(new, "b").data
    assert b["id"] == "winter-war" and b["name"] == "Winter war"
    assert {k: v for k, v in a.items() if k not in ("id", "name")} == {
        k: v for k, v in b.items() if k not in ("id", "name")
    }
    result = run("new", "scenario", "bfm", "winter-war", "--project", str(bfm_copy))
    assert result.exit_code == 2 and "already exists" in result.output


def test_new_scenario_skeleton_lists_the_game_sides_and_maps(bfm_copy):
    data = parse_yaml(new_scenario(bfm_copy, "bfm", "Autumn Storm").read_text(), "s").data
    assert data["id"] == "autumn-storm" and data["maps"] == ["main"]
    assert data["setup"] == {"soviet": [], "german": []}


# --- set-up cards ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["csv", "yaml"])
def test_export_then_import_gives_back_the_same_bytes(bfm_copy, tmp_path, fmt):
    sf = find_scenario(bfm_copy, "seven-turn")
    before = sf.path.read_bytes()
    for side in ("soviet", "german"):
        card = tmp_path / f"{side}.{fmt}"
        card.write_text(export_setup(sf, side, fmt))
        result = import_setup(card, sf)
        assert result.side == side and result.findings == []
    assert sf.path.read_bytes() == before


def test_import_then_export_gives_back_the_same_csv(bfm_copy, tmp_path):
    sf = find_scenario(bfm_copy, "seven-turn")
    rows = export_setup(sf, "german").splitlines()
    rows[1], rows[2] = (
        rows[1].split(",")[0] + "," + rows[2].split(",", 1)[1],
        rows[2].split(",")[0] + "," + rows[1].split(",", 1)[1],
    )
    card = tmp_path / "g.csv"
    card.write_text("\n".join(rows) + "\n")
    import_setup(card, sf)
    assert export_setup(find_scenario(bfm_copy, "seven-turn"), "german") == card.read_text()


def test_import_of_a_bad_card_writes_nothing_and_helps(bfm_copy, tmp_path):
    sf = find_scenario(bfm_copy, "seven-turn")
    before = sf.path.read_bytes()
    card = tmp_path / "bad.csv"
    card.write_text("hex,unit,state\n301,sov-29,half\n0302,sov-30x,half\n0303,sov-19,halff\n")
    with pytest.raises(CardError) as exc:
        import_setup(card, sf)
    helps = {d.code: d.help for d in exc.value.diagnostics}
    assert helps["HW-HEX-001"].startswith("did you mean '0301'? spreadsheets drop leading zeros")
    assert helps["HW-REF-002"] == "did you mean 'sov-30'?"
    assert helps["HW-REF-001"] == "did you mean 'half'?"
    assert sf.path.read_bytes() == before
    result = run("import-setup", str(card), "--scenario", "seven-turn", "--project", str(bfm_copy))
    assert result.exit_code == 1 and "nothing was written" in result.output


def test_a_stacked_import_is_refused_and_reported_the_old_set_up_kept(bfm_copy, tmp_path):
    """Issue 47: a card whose set-up breaks a rule (stacking, a unit placed twice) no longer replaces a good set-up."""
    sf = find_scenario(bfm_copy, "seven-turn")
    before = sf.path.read_bytes()
    card = tmp_path / "s.csv"
    card.write_text(export_setup(sf, "soviet").replace("0302,sov-30,half\n", "0302,sov-30,half\n0302,sov-5,half\n"))
    with pytest.raises(CardError) as exc:
        import_setup(card, sf)
    assert {"HW-STACK-001", "HW-MIX-001"} <= {d.code for d in exc.value.diagnostics}
    assert "nothing was written" in str(exc.value.message)
    assert sf.path.read_bytes() == before


def test_rows_for_one_hex_in_two_states_stay_two_placements(mini, tmp_path):
    """Issue 48: a card's rows for one hex are one placement only when their states agree, so a unit stacked
    at reduced strength with a full-strength one imports reduced."""
    intro = mini / "scenarios/mini/intro.yaml"
    intro.write_text(intro.read_text().split("reinforcements:")[0])  # red-2 is set up instead
    card = tmp_path / "red.csv"
    card.write_text("hex,unit,state\n0101,red-1,full\n0101,red-2,reduced\n")
    two = [
        {"hex": "0101", "units": ["red-1"], "state": "full"},
        {"hex": "0101", "units": ["red-2"], "state": "reduced"},
    ]
    assert read_card(card)[0] == two
    sf = find_scenario(mini, "intro")
    assert import_setup(card, sf).findings == []
    assert parse_yaml(intro.read_text(), "s").data["setup"]["red"] == two


def test_a_dragged_set_up_keeps_each_state_of_a_hex_apart():
    """The preview's card (`serve.cardexport.card_csv`) groups a hex's units by state, never across states."""
    rows = [
        {"hex": "0103", "unit": "a", "state": "full"},
        {"hex": "0104", "unit": "c", "state": "full"},
        {"hex": "0103", "unit": "b", "state": "half"},
        {"hex": "0103", "unit": "d", "state": "full"},
    ]
    assert card_csv(rows).splitlines() == [
        "hex,unit,state",
        "0103,a,full",
        "0103,d,full",
        "0104,c,full",
        "0103,b,half",
    ]


def test_cli_usage_errors_suggest(bfm_copy):
    r = run("export-setup", "sevn-turn", "--side", "german", "--project", str(bfm_copy))
    assert r.exit_code == 2 and "seven-turn" in r.output
    r = run("export-setup", "seven-turn", "--side", "germn", "--project", str(bfm_copy))
    assert r.exit_code == 2 and "did you mean 'german'?" in r.output
    r = run("watch", "bfn", "--once", "--project", str(bfm_copy))
    assert r.exit_code == 2 and "did you mean 'bfm'?" in r.output


TEXT = """kind: scenario
# lead
setup:
  red:
  # keep me
  - {hex: "0101", units: [a]}
  # between
  - {hex: "0102", units: [b]}
  blue: []
victory: []
"""


def test_replace_side_keeps_the_rest_and_handles_layouts():
    edit = replace_side(TEXT, "red", [{"hex": "0201", "units": ["a", "b"], "state": "full"}])
    assert edit.text == TEXT.replace(
        '  - {hex: "0101", units: [a]}\n  # between\n  - {hex: "0102", units: [b]}\n',
        '  - {hex: "0201", units: [a, b], state: full}\n',
    )
    assert edit.dropped_comments == 1
    blue = replace_side(TEXT, "blue", [{"hex": "0303", "units": ["c"]}]).text
    assert blue.endswith('  blue:\n    - {hex: "0303", units: [c]}\nvictory: []\n')
    green = replace_side(TEXT, "green", [{"hex": "0404", "units": ["true"]}]).text
    assert '  green:\n    - {hex: "0404", units: ["true"]}\nvictory' in green
    bare = replace_side("kind: scenario\nvictory: []\n", "red", [{"hex": "1", "units": ["a"]}]).text
    assert bare == 'kind: scenario\nsetup:\n  red:\n    - {hex: "1", units: [a]}\nvictory: []\n'


# --- watch ----------------------------------------------------------------------------------


def test_watch_reports_new_and_fixed_findings(tiny):
    lines: list[str] = []
    w = Watcher(tiny, ("tiny",), emit=lines.append, build=False)
    assert w.start().ok and w.step() is None
    path = tiny / "scenarios/tiny/first-clash.yaml"
    good = path.read_text()
    path.write_text(good.replace('{hex: "0104", units: [red-3]', '{hex: "0105", units: [red-3]'))
    os.utime(path, ns=(1, 1))
    cycle = w.step()
    assert cycle.changed == [path] and not cycle.ok and cycle.new >= 1
    assert any(ln.startswith("changed: ") and ln.endswith("first-clash.yaml") for ln in lines)
    assert any("error[HW-PLACE-005]: red-3 starts in hex 0105" in ln for ln in lines)
    path.write_text(good)
    os.utime(path, ns=(2, 2))
    cycle = w.step()
    assert cycle.ok and cycle.fixed >= 1 and cycle.new == 0


@pytest.mark.slow
def test_watch_once_builds_and_skips_missing_stages(tiny):
    result = run("watch", "--once", "--stage", "sheets", "--project", str(tiny))
    assert result.exit_code == 0, result.output
    pdf = tiny / "build/tiny/counters.tiny.letter.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")


def test_changed_files_choose_the_stages(tiny):
    assert stages_for(tiny / "counters/tiny/c.yaml", tiny) == {"sheets", "module", "cards"}
    assert stages_for(tiny / "scenarios/tiny/tables.yaml", tiny) == {"charts", "module"}
    assert stages_for(tiny / "scenarios/tiny/game.yaml", tiny) >= {"module", "sheets", "maps", "cards", "charts"}


# --- docs/format.md -------------------------------------------------------------------------


def test_format_doc_is_generated_from_the_schemas():
    text = formatdoc.render()
    assert (ROOT / "docs/format.md").read_text(encoding="utf-8") == text, (
        "docs/format.md is stale: run `hexwright docs format --write`"
    )
    for name, schema in formatdoc.load_schemas().items():

        def titles(node):
            if isinstance(node, dict):
                for key, child in node.get("properties", {}).items():
                    yield key, child.get("title", "")
                for v in node.values():
                    yield from titles(v)
            elif isinstance(node, list):
                for v in node:
                    yield from titles(v)

        for key, title in titles(schema):
            assert f"**{title}.**" in text or title in text, (name, key)


def test_docs_format_check_command():
    assert run("docs", "format", "--check").exit_code == 0
    assert "## `kind: scenario`" in run("docs", "format").output


def test_watch_parses_only_the_saved_file_again(tiny, monkeypatch):
    """A watch round after a save reads the unchanged files from its memo (`load.reads.Reads`): a large game's
    check after a one-line save does not parse every map and counters file again."""
    import authoring.load.project as project

    parsed: list[str] = []
    real = project.load_source
    monkeypatch.setattr(
        project, "load_source", lambda path, *a, **k: parsed.append(Path(path).name) or real(path, *a, **k)
    )
    w = Watcher(tiny, ("tiny",), emit=lambda line: None, build=False)
    assert w.start().ok and len(parsed) > 2
    parsed.clear()
    path = tiny / "scenarios/tiny/first-clash.yaml"
    path.write_text(path.read_text().replace('{hex: "0104", units: [red-3]', '{hex: "0105", units: [red-3]'))
    os.utime(path, ns=(1, 1))
    cycle = w.step()
    assert parsed == ["first-clash.yaml"] and not cycle.ok  # the moved unit's finding, from the new text


@pytest.mark.slow
def test_watch_keeps_the_caches_within_their_budget(tiny):
    """A watch session rebuilds on every save: the drawings of the data before the save go once the caches are
    over their budget, and the round says so."""
    lines: list[str] = []
    w = Watcher(tiny, ("tiny",), ("sheets",), emit=lines.append, cache_budget=0)
    assert w.start().ok
    cache = tiny / "build" / ".cache"
    first = {p for p in cache.rglob("*") if p.is_file()}
    assert first
    for p in first:  # drawn long ago
        os.utime(p, (1000.0, 1000.0))
    units = next((tiny / "counters" / "tiny").glob("*.yaml"))
    text = units.read_text()
    changed = re.sub(r"attack: (\d+)", lambda m: f"attack: {int(m.group(1)) + 1}", text, count=1)
    assert changed != text
    units.write_text(changed)
    os.utime(units, ns=(1, 1))
    assert w.step().ok
    left = {p for p in cache.rglob("*") if p.is_file()}
    closing = [ln for ln in lines if re.match(r"1 game: \d+ files? written, ", ln)]  # the round closes as a build does
    assert left and first - left and "old cache entries removed (" in closing[-1], lines


def test_init_inside_a_project_refuses_with_a_hint(tiny):
    """A project nested in another would be invisible: every command run in it finds the outer one's games."""
    result = run("init", str(tiny / "maps" / "mine"))
    assert result.exit_code == 2 and "lies inside the project at" in result.output
    assert "= help: give a folder outside it" in result.output
    assert not (tiny / "maps" / "mine").exists()


def test_the_first_session_in_an_empty_folder_points_at_init(tmp_path, monkeypatch):
    """With only the package, in an empty folder: `list` shows the bundled games and how to start from one,
    and a bundled game's id given to any command says that `init --from` brings it."""
    monkeypatch.chdir(tmp_path)
    listed = run("list")
    assert listed.exit_code == 0, listed.output
    assert "bundled games" in listed.output and "bfm: Battle for Moscow" in listed.output
    assert "typhoon:" in listed.output and listed.output.rstrip().endswith("hexwright init mygame --from bfm")
    missing = run("validate", "typhoon")
    assert missing.exit_code == 2
    assert "'typhoon' is one of hexwright's bundled games; `hexwright init mygame --from typhoon`" in missing.output
    assert not list(tmp_path.iterdir())


def test_an_unknown_id_in_a_real_project_names_its_games_only(tiny, monkeypatch):
    monkeypatch.chdir(tiny)
    result = run("validate", "nosuch")
    assert result.exit_code == 2 and "known ids: tiny" in result.output and "bundled" not in result.output


def test_the_format_reference_names_every_key_placeholder_in_words():
    """A mapping's keys show as `<map-id>`, `<size-id>`: never a scrap of its description (`<any-size)>`)."""
    text = formatdoc.render()
    placeholders = set(re.findall(r"<([^>`]*)>", "".join(re.findall(r"^\| `([^`]*)`", text, re.M))))
    assert placeholders and all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*(\|[a-z0-9-]+)*", p) for p in placeholders), (
        sorted(placeholders)
    )
