"""Issue 43, item 6: counts that are true.

"Files written" counts the files whose bytes changed, and a file whose bytes would not change is not written
again (its inode and modification time stay): a counter edit that no set-up card shows rewrote and listed
every card of its side, and moving one unit rewrote all the charts byte for byte. The warnings of a project
are counted alike by import-vmod, validate, check, the first build, an up-to-date build and watch: an
imported project said 12 on import, 88 on validate, "4 warnings" then "88 warnings" on its first build and
0 once up to date.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main
from authoring.diagnostics import Diagnostic, Severity
from authoring.diagnostics.codes import HW_ART_021

ROOT = Path(__file__).resolve().parents[2]
GAME = "bfm"
BUILD = ("build", "all", "--jobs", "1", "--dpi", "72")
SOV_3 = '{id: sov-3, side: soviet, type: infantry, size: army, designation: "3",\n     faces: [{state: full, values: {attack: 8,'
"""sov-3 sets up at half strength: its full face's attack is on the counter sheet and in the module, on no card."""
CLOSING = re.compile(r"^\d+ games?: (\d+) files? written, (\d+) up to date, (\d+) warnings?", re.M)
FOUND = re.compile(r"^Found (\d+) errors?, (\d+) warnings?\.$", re.M)


def _run(*args: str) -> str:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    return r.output


def _outputs(folder: Path) -> dict[str, tuple[str, int, int]]:
    """Every output a player gets (stamps, records and the module's manifest left out): (sha256, inode, mtime_ns)."""
    out = {}
    for top, _dirs, names in os.walk(folder):
        for name in names:
            if name.startswith(".") or name.endswith(".manifest.json"):
                continue
            path = os.path.join(top, name)
            st = os.lstat(path)
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            out[os.path.relpath(path, folder)] = (digest, st.st_ino, st.st_mtime_ns)
    return out


def _written(output: str) -> tuple[int, set[str]]:
    """The closing line's count of files written, and the files the build listed as written."""
    listed = {line.split("wrote ", 1)[1].strip() for line in output.splitlines() if line.startswith("  wrote ")}
    return int(CLOSING.findall(output)[-1][0]), {p.split(f"build/{GAME}/", 1)[1] for p in listed}


def _changed(before: dict, after: dict) -> set[str]:
    return {k for k in after if before.get(k, ("",))[0] != after[k][0]}


def _untouched(before: dict, after: dict) -> set[str]:
    """Of the files whose bytes did not change, those still the very same file (inode and mtime_ns)."""
    return {k for k in after if k in before and before[k][0] == after[k][0] and before[k][1:] == after[k][1:]}


@pytest.fixture(scope="module")
def steps(tmp_path_factory) -> dict:
    """bfm built, built again unchanged, after a counter edit and after two units swap their hexes."""
    project = tmp_path_factory.mktemp("counts") / "project"
    for part in ("counters", "maps", "scenarios"):
        shutil.copytree(ROOT / part / GAME, project / part / GAME)
    folder = project / "build" / GAME
    build = (*BUILD, GAME, "--project", str(project))
    seen: dict = {"project": project}
    _run(*build)
    seen["first"] = _outputs(folder)
    seen["again_out"] = _run(*build)
    seen["again"] = _outputs(folder)
    counters = project / "counters" / GAME / "counters.yaml"
    assert SOV_3 in counters.read_text()
    counters.write_text(counters.read_text().replace(SOV_3, SOV_3.replace("attack: 8,", "attack: 7,")))
    seen["counter_out"] = _run(*build)
    seen["counter"] = _outputs(folder)
    campaign = project / "scenarios" / GAME / "campaign.yaml"
    text = campaign.read_text()
    assert "units: [sov-29]" in text and "units: [sov-30]" in text
    swapped = text.replace("units: [sov-29]", "units: [x]").replace("units: [sov-30]", "units: [sov-29]")
    campaign.write_text(swapped.replace("units: [x]", "units: [sov-30]"))
    seen["move_out"] = _run(*build)
    seen["move"] = _outputs(folder)
    return seen


@pytest.mark.slow
def test_an_unchanged_build_writes_nothing(steps: dict) -> None:
    assert _written(steps["again_out"]) == (0, set())
    assert steps["again"] == steps["first"]


@pytest.mark.slow
@pytest.mark.parametrize("step, before", [("counter", "again"), ("move", "counter")])
def test_written_is_the_files_whose_bytes_changed(steps: dict, step: str, before: str) -> None:
    old, new = steps[before], steps[step]
    changed = _changed(old, new)
    count, listed = _written(steps[f"{step}_out"])
    assert changed, "the edit changes some output"
    assert (count, listed) == (len(changed), changed)
    assert _untouched(old, new) == set(new) - changed  # every other file is the same file, its mtime kept


@pytest.mark.slow
def test_a_counter_no_card_shows_rewrites_no_card(steps: dict) -> None:
    changed = _changed(steps["again"], steps["counter"])
    assert {"bfm.vmod", "counters.bfm.letter.pdf"} <= changed
    assert not {k for k in steps["counter"] if k.startswith("cards/")} - _untouched(steps["again"], steps["counter"])


@pytest.mark.slow
def test_moving_a_unit_rewrites_no_chart(steps: dict) -> None:
    charts = {k for k in steps["move"] if k.startswith("charts/")}
    assert charts and charts <= _untouched(steps["counter"], steps["move"])
    assert "charts/" not in "".join(line for line in steps["move_out"].splitlines() if "wrote" in line)
    assert "cards/setup.campaign.soviet.png" in _changed(steps["counter"], steps["move"])


# --- warnings: one count from every command -------------------------------------------------------------


def _found(output: str) -> list[int]:
    return [int(w) for _e, w in FOUND.findall(output)]


@pytest.mark.slow
def test_an_imported_project_counts_its_warnings_alike_everywhere(steps: dict, tmp_path: Path) -> None:
    """A module hexwright built (bfm's, with its 60-pixel counter art) imported: the art is too small for
    print, one warning per image, and every command says how many alike."""
    project = tmp_path / "imported"
    said = _run("import-vmod", str(steps["project"] / "build" / GAME / f"{GAME}.vmod"), "--out", str(project))
    on_import = _found(said)
    assert len(on_import) == 1, said  # the project's count; the import's own findings (about the module) apart
    assert "The import: " in said and "TODO notes written to fill in (HW-VMOD-002)" in said
    total = on_import[0]
    assert total > 0
    game = next(p.name for p in (project / "scenarios").iterdir())
    scenario = sorted(p.stem for p in (project / "scenarios" / game).glob("*.yaml") if p.name != "game.yaml")[0]
    where = ("--project", str(project))
    assert _found(_run("validate", *where)) == [total]
    assert _found(_run("check", scenario, *where)) == [total]
    first = _run("build", "all", "--jobs", "1", *where)
    assert _found(first) == [total] and int(CLOSING.findall(first)[-1][2]) == total
    again = _run("build", "all", "--jobs", "1", *where)
    assert f"{game}: up to date" in again and "quoted from the last check of the same data" in again
    assert _found(again) == [total] and CLOSING.findall(again)[-1][0::2] == ("0", str(total))
    sheets = _run("build", "sheets", "--jobs", "1", *where)  # one stage, up to date: the same warnings
    assert _found(sheets) == [total] and int(CLOSING.findall(sheets)[-1][2]) == total
    watched = _run("watch", "--once", *where)
    assert _found(watched) == [total] and CLOSING.findall(watched)[-1][0::2] == ("0", str(total))


# --- the parts ------------------------------------------------------------------------------------------


def test_a_write_of_the_same_bytes_leaves_the_file_as_it_is(tmp_path: Path) -> None:
    from authoring import atomic

    path = tmp_path / "a.bin"
    atomic.write_bytes(path, b"hello")
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    before = os.lstat(path)
    atomic.write_chunks(path, (b"hel", memoryview(b"lo")))
    after = os.lstat(path)
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    for data in (b"hello!", b"hell", b""):  # longer, shorter, empty: written (a new file, of this time)
        os.utime(path, ns=(1_000_000_000, 1_000_000_000))
        atomic.write_bytes(path, data)
        assert path.read_bytes() == data and os.lstat(path).st_mtime_ns != 1_000_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.bin"]  # no temporary file left


def test_a_link_is_replaced_even_by_its_targets_bytes(tmp_path: Path) -> None:
    from authoring import atomic

    target = tmp_path / "target"
    target.write_bytes(b"same")
    link = tmp_path / "out"
    link.symlink_to(target)
    atomic.write_bytes(link, b"same")
    assert not link.is_symlink() and link.read_bytes() == b"same"


def test_a_findings_record_quotes_only_the_inputs_it_was_made_from(tmp_path: Path, monkeypatch) -> None:
    from authoring.diagnostics import Loc
    from authoring.pipeline import findings

    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    found = [
        HW_ART_021.at("'a.png' is 9 x 9 px", Loc("counters/g/c.yaml", 4, 7, 4, 14), help="bigger", path=("a", 0)),
        Diagnostic(Severity.WARNING, "HW-X-001", "no place", None, related=(Loc("maps/g/m.yaml", 1, 1),), hex="0101"),
    ]
    record = tmp_path / "build" / ".findings"
    findings.keep(record, "digest-1", found)
    assert findings.quoted(record, "digest-1") == tuple(found)  # its span too: a quote is the finding made
    assert findings.quoted(record, "digest-2") is None
    monkeypatch.chdir(tmp_path / "sub")  # paths are shown from where the command runs
    assert findings.quoted(record, "digest-1")[0].loc == Loc(os.path.join("..", "counters/g/c.yaml"), 4, 7, 4, 14)
    data = record.read_bytes()
    record.write_bytes(data.replace(b"9 x 9", b"8 x 8"))
    assert findings.quoted(record, "digest-1") is None  # changed after it was sealed: a miss


def test_the_closing_line_counts_what_the_cut_findings_stand_for() -> None:
    from authoring.diagnostics import Loc
    from authoring.diagnostics.format import render_concise
    from authoring.diagnostics.summary import summarised

    alike = [HW_ART_021.at(f"'a{i}.png' is 9 x 9 px", Loc("c.yaml", i + 1, 1)) for i in range(9)]
    text = render_concise(summarised(alike), alike)
    assert "6 more like the 3 above (9 in all)" in text and text.endswith("Found 0 errors, 9 warnings.")


def test_the_build_and_its_findings_count_a_crowded_file_alike() -> None:
    """Past 200 warnings of one file the rest are counted in one finding (HW-LIMIT-001): the build's closing
    line counts as every command's "Found" line does."""
    from authoring.diagnostics import Loc
    from authoring.diagnostics.format import render_concise
    from authoring.diagnostics.summary import summarised
    from authoring.pipeline import Report

    crowded = [HW_ART_021.at(f"'a{i}.png' is 9 x 9 px", Loc("c.yaml", i + 1, 1)) for i in range(250)]
    report = Report(games=1, warnings=crowded)
    found = FOUND.search(render_concise(summarised(crowded), crowded))
    assert found and CLOSING.search(report.line()).group(3) == found.group(2) == "201"
