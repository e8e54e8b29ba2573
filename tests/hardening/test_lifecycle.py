"""Point 4 of issue 33: a build's workers die with it and write nothing after the command ends; an interrupt
prints one line, never a worker's traceback.

Each case starts a real build in a session of its own (so its process group is the build's), waits until
its workers are running, stops it, then reads /proc for what is left of the group and the output folder for
what is still being written.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hw_support import ROOT, copy_game
from processes import spawn

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; the parent-death signal is Linux's"),
]  # slow: subprocess lifecycles (signals, killed builds)


def _group(pgid: int) -> list[int]:
    """Live (not zombie) processes of the process group `pgid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.append(int(entry))
    return found


def _files(out: Path) -> dict[str, tuple[int, int]]:
    if not out.exists():
        return {}
    return {str(p.relative_to(out)): (p.stat().st_size, p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}


def _wait(condition, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _start(project: Path, out: Path, *stage: str) -> subprocess.Popen:
    """`hexwright build STAGE` in a new session; returns once it has forked at least two workers."""
    build = spawn(
        [sys.executable, "-m", "authoring.cli", "build", *stage, str(project), "--out", str(out), "--jobs", "2"],
        new_session=True,
    )
    assert _wait(lambda: len(_group(build.pid)) >= 3 or build.poll() is not None), "the build never forked"
    assert build.poll() is None, "the build ended before its workers could be stopped"
    return build


@pytest.fixture(scope="module")
def bfm(tmp_path_factory) -> Path:
    return copy_game(ROOT, tmp_path_factory.mktemp("lifecycle") / "project", "bfm")


def _stop_and_watch(build: subprocess.Popen, out: Path, how) -> None:
    how(build.pid)
    build.wait(timeout=120)
    ended = _files(out)
    assert _wait(lambda: not _group(build.pid), 30), f"workers outlived the build: {_group(build.pid)}"
    time.sleep(1.5)  # a worker left alive would still be drawing and writing
    later = _files(out)
    assert later == ended, sorted(set(later.items()) ^ set(ended.items()))


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
def test_killing_the_build_ends_its_workers_and_their_writing(bfm: Path, tmp_path: Path, signum: int):
    """The issue's example: `build all` (stages side by side, each with its pool) killed by its parent's pid."""
    out = tmp_path / "out"
    build = _start(bfm, out, "all")
    _stop_and_watch(build, out, lambda pid: os.kill(pid, signum))
    if signum == signal.SIGKILL:
        assert build.returncode == -signal.SIGKILL
        return
    err = build.stderr.read()
    assert build.returncode == 143, err[-3000:]
    assert "Traceback" not in err and err.rstrip().splitlines()[-1] == "stopped", err[-3000:]


def test_a_killed_single_stage_leaves_no_pool_worker(bfm: Path, tmp_path: Path):
    """Another instance: `build maps`, whose pool the main process holds itself (no stage processes)."""
    out = tmp_path / "out"
    build = _start(bfm, out, "maps")
    _stop_and_watch(build, out, lambda pid: os.kill(pid, signal.SIGKILL))


@pytest.mark.parametrize("stage", ["all", "module"])
def test_ctrl_c_prints_one_line_and_no_traceback(bfm: Path, tmp_path: Path, stage: str):
    """Ctrl-C on a terminal signals the whole process group: the workers ignore it, the parent stops them
    and says so in one line, with exit code 130."""
    out = tmp_path / "out"
    build = _start(bfm, out, stage)
    os.killpg(build.pid, signal.SIGINT)
    _, err = build.communicate(timeout=120)
    assert build.returncode == 130, err[-3000:]
    assert "Traceback" not in err and "Error" not in err, err[-3000:]
    assert err.rstrip().splitlines()[-1] == "interrupted", err[-3000:]
    assert _wait(lambda: not _group(build.pid), 30)


def test_a_worker_whose_parent_is_gone_leaves_at_once():
    """The race `die_with_parent` closes: a parent that died before the worker armed its signal."""
    code = (
        "import os, sys\nfrom authoring.workers import die_with_parent\n"
        "pid = os.fork()\n"
        "if pid == 0:\n    die_with_parent(os.getppid() + 1)\n    os._exit(7)\n"
        "_, status = os.waitpid(pid, 0)\nprint(os.waitstatus_to_exitcode(status))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "1", r.stdout + r.stderr


@pytest.mark.parametrize("args", [["schema", "scenario"], ["list", "--project", str(ROOT)]])
def test_a_closed_output_is_one_line(tmp_path: Path, args: list[str]):
    """`hexwright ... | head -1`: the reader goes away; one line on stderr, exit 2, no traceback."""
    code = (
        f"import sys\nsys.argv = ['hexwright', *{args!r}]\n"
        "import os\nr, w = os.pipe()\nos.close(r)\nos.dup2(w, 1)\n"
        "from authoring.cli import run\nrun()\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    assert r.stderr.strip().splitlines() == ["error: the output was closed before it was all written (broken pipe)"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full to make a real ENOSPC")
@pytest.mark.parametrize("stages", [("all",), ("module",)])
def test_disk_full_with_workers_is_one_fault_and_no_worker_traceback(bfm: Path, tmp_path: Path, stages):
    """The disk fills while stages and their pools run side by side: the stage that meets it fails, the
    others and every pool are stopped; one fault (exit 2), never a worker's BrokenPipeError traceback."""
    from test_faults import DEV_FULL, RUN

    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n" + DEV_FULL + RUN,
            "build",
            *stages,
            str(bfm),
            "--out",
            str(tmp_path / "out"),
            "--jobs",
            "2",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 2, r.stderr[-3000:]
    assert "Traceback" not in r.stderr and "Error" not in r.stderr, r.stderr[-3000:]
    assert r.stderr.count("error: the disk is full") == 1, r.stderr[-3000:]


@pytest.mark.parametrize(
    "args, expected",
    [
        (["build", "sheets", "--bleed", "nan"], "Invalid value for '--bleed'"),
        (["build", "sheets", "--bleed", "inf"], "Invalid value for '--bleed'"),
        (["build", "sheets", "--back-offset", "nan,0"], "Invalid value for '--back-offset': 'nan,0'"),
        (["build", "calibration", "--back-offset", "1e308,1e308"], "Invalid value for '--back-offset': '1e308,1e308'"),
        (["build", "calibration", "--back-offset", "0,-11"], "from -10 to 10"),
    ],
)
def test_option_values_are_finite_and_in_range(tmp_path: Path, args: list[str], expected: str):
    """The issue's `--bleed nan`, `--back-offset nan,0` and `1e308,1e308` were internal errors: a usage error now."""
    from click.testing import CliRunner

    from authoring.cli import main

    where = [] if args[1] == "calibration" else [str(ROOT / "tests/load/mini")]
    r = CliRunner().invoke(
        main, [*args, *where, "--out", str(tmp_path / ("cal.pdf" if args[1] == "calibration" else "out"))]
    )
    assert r.exit_code == 2 and expected in r.output, r.output
    assert "internal error" not in r.output and not (tmp_path / "out").exists()
