"""`build.run`, the one function `hexwright build` calls: a library caller gets the same build without the CLI,
told what happens through a `Listener`, its outcome in the `Report`."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from authoring import pipeline
from authoring.load import select_games
from authoring.pipeline.run import CLOCK_SLACK

ROOT = Path(__file__).resolve().parents[2]


class _Told(pipeline.Listener):
    def __init__(self) -> None:
        self.events: list[str] = []

    def up_to_date(self, game_id: str) -> None:
        self.events.append(f"fresh {game_id}")

    def outputs(self, outputs: pipeline.Outputs) -> None:
        self.events.append(f"{'reused' if outputs.reused else 'wrote'} {len(outputs.paths)}")


def _request(project: Path, out: Path, **context) -> pipeline.Request:
    root, games = select_games(project, "mini")
    return pipeline.Request(root, games, ("sheets", "charts"), out, pipeline.BuildContext.of(1, **context))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "tests/load/mini", tmp_path / "g")
    return tmp_path / "g"


def test_a_build_then_the_same_build_again(project: Path, tmp_path: Path):
    told = _Told()
    sheets = pipeline.SheetSettings(dpi=72)
    first = pipeline.run(_request(project, tmp_path / "out", sheets=sheets), told)
    assert first.errors == [] and first.written >= 2 and first.reused == 0
    assert told.events[0] == "wrote 1" and (tmp_path / "out/mini/charts/index.txt").is_file()
    again = pipeline.run(_request(project, tmp_path / "out", sheets=sheets), told)
    assert (again.written, again.reused) == (0, first.written) and told.events[-1] == "fresh mini"


def test_a_game_with_errors_builds_nothing_and_reports_them(project: Path, tmp_path: Path):
    units = project / "counters/mini/units.yaml"
    units.write_text(units.read_text().replace("side:", "sidee:", 1))
    report = pipeline.run(_request(project, tmp_path / "out"))
    assert report.errors and report.written == 0 and not (tmp_path / "out/mini").exists()


def test_a_build_folder_inside_the_data_is_refused_before_anything_is_written(project: Path):
    before = sorted(p.name for p in (project / "counters" / "mini").iterdir())
    with pytest.raises(pipeline.Refused) as refused:
        pipeline.run(_request(project, project / "counters" / "mini"))
    assert not refused.value.fault and "data folder" in refused.value.reason
    assert sorted(p.name for p in (project / "counters" / "mini").iterdir()) == before


def _entries(out: Path) -> dict[str, float]:
    """Every cache entry of the build folder, by path, with when it was last used."""
    return {str(p.relative_to(out)): p.stat().st_mtime for p in (out / ".cache").glob("*/*") if p.is_file()}


def _outputs(out: Path) -> dict[str, bytes]:
    """The files a player gets (not the caches, not the stage stamps, which name the build folder)."""
    return {
        str(p.relative_to(out)): p.read_bytes()
        for p in out.rglob("*")
        if p.is_file() and ".cache" not in p.parts and not p.name.startswith(".")
    }


@pytest.mark.slow
def test_a_build_keeps_its_caches_within_their_budget_least_recently_used_first(project: Path, tmp_path: Path):
    """An edit leaves the drawings of the old data in the caches; a build over the budget removes them, keeps
    what it used itself, and draws the same files as a build with every entry kept."""
    import os

    from authoring.products.store import last_used

    out = tmp_path / "out"
    first = pipeline.run(_request(project, out))
    assert first.trimmed.entries == 0 and first.written > 0
    before = _entries(out)
    assert any(k.startswith(".cache/sheets/") for k in before)
    for path in (out / ".cache").rglob("*"):  # the first build was long ago
        if path.is_file():
            os.utime(path, (1000.0, 1000.0))
    record = out / ".cache" / "used"
    if record.exists():
        record.write_text("".join(f"1000 {line.split()[1]}\n" for line in record.read_text().splitlines()))
    units = project / "counters" / "mini" / "units.yaml"
    units.write_text(units.read_text().replace("attack: 4, movement: 4", "attack: 5, movement: 4", 1))
    second = pipeline.run(_request(project, out, cache_budget=0))
    after = _entries(out)
    assert second.trimmed.entries > 0 and second.trimmed.left == sum((out / k).stat().st_size for k in after)
    used = {f".cache/{name}": when for name, when in last_used(out / ".cache").items()}
    assert after and all(
        max(mtime, used.get(k, 0.0)) > 1000.0 for k, mtime in after.items()
    )  # only what this build used or wrote
    assert set(before) - set(after)  # the old counter's face is gone
    assert "old cache entries removed" in second.line()
    fresh = tmp_path / "fresh"
    pipeline.run(_request(project, fresh))
    assert _outputs(out) == _outputs(fresh)
    began = time.time()
    pipeline.run(_request(project, out, force=True, cache_budget=0))  # what is kept serves, and is all it used
    assert _outputs(out) == _outputs(fresh)
    used = {f".cache/{name}": when for name, when in last_used(out / ".cache").items()}
    assert all(used.get(k, 0.0) >= began or m > began - 5 for k, m in _entries(out).items())  # the third's only


@pytest.mark.parametrize(
    "edited, redrawn",
    [
        ("counters/mini/units.yaml", {"module", "sheets", "cards"}),  # cards show the counters' faces
        ("maps/mini/board.yaml", {"module", "maps", "cards"}),  # cards show the maps' grids
        ("scenarios/mini/intro.yaml", {"module", "cards", "charts"}),  # charts show each turn record
        ("scenarios/mini/tables.yaml", {"module", "charts"}),
    ],
)
def test_an_edit_restamps_exactly_the_stages_that_draw_what_it_changed(project: Path, edited: str, redrawn: set):
    """A stage's stamp covers every file whose data its outputs show (a counter edit redraws the set-up cards
    that show the counter) and no other (a counter edit never redraws a map)."""
    from authoring.pipeline.stages import stage_digest

    def digests() -> dict[str, str]:
        files = select_games(project, "mini")[1][0]
        return {stage: stage_digest(files, stage) for stage in pipeline.STAGES}

    before = digests()
    path = project / edited
    path.write_text(path.read_text() + "\n# an edit\n")
    after = digests()
    assert {stage for stage in before if before[stage] != after[stage]} == redrawn


def _stamps(out: Path) -> dict[str, int]:
    return {str(p.relative_to(out)): p.stat().st_mtime_ns for p in (out / ".cache").rglob("*") if p.is_file()}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_rebuild_from_the_caches_writes_nothing_in_them_but_the_record_of_use(project: Path, tmp_path: Path, jobs):
    """Reading an entry leaves it as it is (no time set on each one): what a build used is written once, in the
    cache's one record (`build/.cache/used`), by the build's end, also when the entries were read in forked
    stages and workers (jobs 2: the stages side by side)."""
    from authoring.products.store import last_used

    out = tmp_path / "out"
    stages = ("module", "sheets", "cards", "charts")
    root, games = select_games(project, "mini")

    def build(**context) -> pipeline.Report:
        ctx = pipeline.BuildContext.of(jobs, sheets=pipeline.SheetSettings(dpi=72), **context)
        return pipeline.run(pipeline.Request(root, games, stages, out, ctx))

    build()
    before, between = _stamps(out), time.time()
    entries = {k for k in before if k.count("/") == 2}
    assert len(entries) > 10
    again = build(force=True)  # every stage again, every drawing from the caches
    after = _stamps(out)
    assert again.errors == [] and set(after) == set(before)
    assert {k for k in before if before[k] != after[k]} == {".cache/used"}
    used = last_used(out / ".cache")
    assert {f".cache/{name}" for name in used} == entries  # the module read them all (the sheets most of them)
    assert min(used.values()) >= between - CLOCK_SLACK  # as used by the second build
