"""The bench's helpers do what their figures claim (nothing here times anything: clocks are fakes)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

BENCH = Path(__file__).parent
sys.path.insert(0, str(BENCH))

import bench_build  # noqa: E402
import bench_pywargame  # noqa: E402
import benchlib  # noqa: E402
import fresh  # noqa: E402
import hexwright_parts  # noqa: E402

from authoring.load import discover  # noqa: E402

ROOT = BENCH.parents[1]


def test_bare_parse_reads_every_file_of_the_game_yaml_and_csv():
    """The base of validate's ratio: each of the game's files parsed into plain data, CSV rows included."""
    files = next(g for g in discover(ROOT) if g.id == "typhoon")
    assert any(p.suffix == ".csv" for p in files.all)
    parsed = fresh.bare(list(files.all))
    assert len(parsed) == len(files.all)
    for path, data in zip(files.all, parsed):
        if path.suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as f:
                assert data == list(csv.reader(f))
        else:
            assert data == yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_set_up_part_counts_the_call_and_every_wait_for_a_saved_game():
    ticks = iter(range(100))
    watch = hexwright_parts.Stopwatch(clock=lambda: float(next(ticks)))

    def setups() -> dict:
        next(ticks)  # the call itself takes one tick
        return {"a.vsav": lambda: (next(ticks), b"a")[1], "b.vsav": lambda: b"b"}

    made = watch.wrap_setups(setups)()
    assert watch.seconds == 2  # start 0, one tick inside, end 2
    assert made["a.vsav"]() == b"a"  # start 3, one tick inside, end 5
    assert made["b.vsav"]() == b"b"  # start 6, end 7
    assert watch.seconds == 2 + 2 + 1


def test_the_set_up_functions_timed_are_still_the_compilers():
    """hexwright_parts.py wraps these by name: a renamed or moved one would leave the set-ups untimed."""
    import authoring.vassal.compile as compiler
    import authoring.vassal.images as images

    for name in hexwright_parts.HOOKS:
        assert callable(getattr(compiler, name, None)), name
    for module, name in hexwright_parts.PIECE_HOOKS:
        assert callable(getattr(compiler if module == "compile" else images, name, None)), name
    for name in hexwright_parts.BOARD_HOOKS:
        assert callable(getattr(images.BoardWork, name, None)), name


def test_boards_and_pieces_are_compared_when_both_sides_timed_them():
    rounds = [{**_round(1, 3, 1, 14, 12), "hexwright boards": 0.5, "pywargame boards": 2.0}] * 3
    lines = bench_pywargame.report(rounds)
    assert any("boards alone     4.0x" in line for line in lines), lines
    assert not any("pieces alone" in line for line in lines)


def _round(hw_load: float, hw_module: float, hw_setups: float, pw_total: float, pw_setups: float) -> dict:
    return {
        "hexwright whole": hw_load + hw_module + 0.5,
        "hexwright load_check": hw_load,
        "hexwright module": hw_module,
        "hexwright setups": hw_setups,
        "pywargame whole": pw_total + 0.5,
        "pywargame total": pw_total,
        "pywargame setups": pw_setups,
        "pywargame whole, no set-ups": pw_total - pw_setups + 0.5,
        "pywargame no set-ups": pw_total - pw_setups,
    }


def test_parts_without_set_ups_are_taken_round_by_round():
    rounds = [_round(1, 3, 1, 14, 12), _round(1, 5, 2, 20, 19), _round(1, 4, 3, 10, 1)]
    fig = bench_pywargame.parts(rounds)
    assert fig["hexwright no set-ups"] == [2, 3, 1]
    assert fig["hexwright loaded"] == [4, 6, 5]
    assert fig["hexwright loaded, no set-ups"] == [3, 4, 2]
    assert fig["pywargame less set-ups"] == [2, 1, 9]


def test_ratios_are_pywargame_over_hexwright_with_and_without_set_ups():
    rounds = [_round(1, 3, 1, 14, 12)] * 3
    fig = bench_pywargame.parts(rounds)
    assert bench_pywargame.ratio(fig, "pywargame total", "hexwright module") == pytest.approx(14 / 3)
    assert bench_pywargame.ratio(fig, "pywargame no set-ups", "hexwright no set-ups") == pytest.approx(1.0)
    lines = bench_pywargame.report(rounds)
    assert any("set-ups alone    12.0x" in line for line in lines)
    assert any(
        "without set-ups  after imports: module 1.0x, with hexwright's load and check 0.7x" in line for line in lines
    )


def test_the_bench_never_installs_pywargame(tmp_path, monkeypatch):
    """Without .venv-pywargame the comparison is skipped with the one command that makes it."""

    def no_search():
        raise AssertionError("the bench looked for a Python to install pywargame with")

    monkeypatch.setattr(bench_pywargame, "VENV", tmp_path / ".venv-pywargame")
    monkeypatch.setattr(bench_pywargame, "find_python", no_search)
    with pytest.raises(bench_pywargame.Skip, match="make bench-setup"):
        bench_pywargame.venv_python()
    assert not (tmp_path / ".venv-pywargame").exists()


def test_the_profile_runs_each_stage_with_a_build_context(mini, tmp_path, capsys):
    """`make bench PROFILE=1` (issue 48): the stage functions take a BuildContext, not (force, jobs)."""
    bench_build.profile(mini, tmp_path, top=3, stages=("charts",))
    out = capsys.readouterr().out
    assert "profile: build charts, one worker" in out
    assert not (tmp_path / "bench-profile").exists()  # the profile's outputs are removed after


def test_the_bench_scratch_folder_is_under_the_build_folder_for_its_commands_too(tmp_path):
    """The bench's temporary files (hundreds of MB) go under build/bench-tmp, its commands' TMPDIR too."""
    assert benchlib.SCRATCH == ROOT / "build" / "bench-tmp"
    before = os.environ.get("TMPDIR"), tempfile.gettempdir()
    with benchlib.scratch(tmp_path / "bench-tmp") as folder:
        assert folder.parent == tmp_path / "bench-tmp" and folder.is_dir()
        assert Path(tempfile.mkdtemp()).parent == folder
        child = subprocess.run(
            [sys.executable, "-c", "import tempfile; print(tempfile.gettempdir())"], capture_output=True, text=True
        )
        assert child.stdout.strip() == str(folder)
    assert not folder.exists() and (os.environ.get("TMPDIR"), tempfile.gettempdir()) == before


def test_the_goals_table_lists_every_goal_with_its_median_range_cpu_and_verdict():
    import goals

    board = goals.Board()
    board.record("counter", [0.9, 0.7, 0.75], cpu=[1.2, 1.0, 1.1])
    board.record("validate bfm", [1.5, 2.5, 1.9])
    board.record("validate typhoon", [2.1, 2.2, 2.3])
    rows = {r[0]: r[1:] for r in board.rows()}
    assert len(board.rows()) == len(goals.GOALS) + 1  # one row a goal, validate one a game
    assert rows["Typhoon: one counter edited, build all"] == (
        "< 0.80 s",
        "0.75 s [0.70-0.90]",
        "CPU 1.10 s [1.00-1.20]",
        "met",
    )
    assert rows["validate / bare parse, whole processes, bfm"][1:] == ("1.90x [1.50-2.50]", "", "met")
    assert rows["validate / bare parse, whole processes, typhoon"][3] == "NOT met"
    assert rows["Typhoon: build all, clean"] == ("< 10.00 s", "not measured (ONLY=clean)", "", "")
    board.record("jobs", [0.6, 0.7, 1.08])  # two jobs must never cost more than one: the worst round decides
    assert {r[0]: r[4] for r in board.rows()}["Typhoon clean: --jobs 2 wall / --jobs 1 wall, every round"] == "NOT met"
    lines = board.table()
    assert lines[0].split() == ["goal", "target", "measured:", "median", "[min-max]", "CPU"]


def test_the_module_goals_are_pywargame_over_hexwright_round_by_round():
    import goals

    before = dict(goals.BOARD.figures)
    try:
        goals.record_module(
            {
                "pywargame whole": [4, 6],
                "hexwright whole": [2, 2],
                "pywargame setups": [1, 1],
                "hexwright setups": [2, 4],
            },
            "typhoon",
        )
        assert goals.BOARD.figures["module typhoon"].values == [2, 3]
        assert goals.BOARD.figures["module-setups typhoon"].values == [0.5, 0.25]
        assert "module-boards typhoon" not in goals.BOARD.figures  # a part not timed on both sides is not made up
        rows = [r for r in goals.BOARD.rows() if r[0].startswith("module")]
        assert rows[0][0] == "module: pywargame / hexwright, whole module, typhoon" and rows[0][4] == "met"
        assert rows[1][2] == "not measured (ONLY=module)"  # boards
    finally:
        goals.BOARD.figures = before


def test_memory_is_measured_per_process_of_the_tree():
    """A command that starts a child: the tree's peak and each process's own (the sampler sees both)."""
    import measure

    child = "import time; b = bytearray(30 << 20); time.sleep(1.0)"
    result = measure.run(
        [sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}])"]
    )
    if not measure.HAVE_PSS:
        pytest.skip("no /proc/PID/smaps_rollup here")
    assert result.returncode == 0 and len(result.processes_mb) == 2
    assert result.processes_mb[1] > 30 and result.peak_mb >= result.processes_mb[1]


def test_the_loops_edits_change_the_data_and_keep_typhoon_valid(tmp_path):
    """Two rounds of every kind of edit the designer's loop makes (bench_loop), then `hexwright validate`."""
    import bench_loop

    project = bench_loop._project(tmp_path)
    originals = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    for _name, (_game, edit) in bench_loop.edits(project).items():
        for k in range(2):
            edit(k)
    changed = {p.relative_to(project).as_posix() for p, data in originals.items() if p.read_bytes() != data}
    assert changed == {
        "counters/typhoon/counters.csv",
        "maps/typhoon/M.yaml",
        "maps/typhoon/N.yaml",
        "scenarios/typhoon/moscow-gates.yaml",
        "scenarios/typhoon/tables.yaml",
        "counters/bfm-art/art/red-star.svg",
    }
    for game in ("typhoon", "bfm-art"):
        done = subprocess.run(
            [sys.executable, "-m", "authoring.cli", "validate", game, "--project", str(project)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_interior_and_shared_hexes_are_told_apart():
    import edits

    m = (ROOT / "maps" / "typhoon" / "M.yaml").read_text(encoding="utf-8")
    n = (ROOT / "maps" / "typhoon" / "N.yaml").read_text(encoding="utf-8")
    inside = list(edits.interior_hexes(m))
    assert inside and all(3 < int(h[1:3]) <= 36 and 3 < int(h[3:]) <= 50 for h in inside)
    pairs = list(edits.shared_hexes(m, n))
    assert pairs and all(a[:3] == "M01" and b == "N39" + a[3:] for a, b in pairs)
    first, _ = pairs[0]
    dropped = edits.drop(m, first, "terrain")
    assert first not in dropped.split("\nfeatures:")[0] and len(m) - len(dropped) < 12


def test_memory_per_process_names_the_command_and_its_largest_worker():
    import bench_clean
    from measure import Run

    runs = [Run(1, 1, 600, 0, (66, 175, 14, 254)), Run(1, 1, 600, 0, (70, 180, 250, 20))]
    assert bench_clean.workers_line(runs) == "main 68 MB (66-70); 3 workers in all, the largest 252 MB (250-254)"
