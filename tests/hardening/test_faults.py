"""Class 6 of issue 17: faults of the machine are reported as faults (exit 2, a plain message), never as bugs;
temporary files are unique per process and never left behind; a kill during --force loses no manifest.

Disk full is real here: every file hexwright opens for writing in the child process is pointed at
/dev/full, whose writes fail with ENOSPC, exactly as on a full disk. A second fault, a file-size
limit (RLIMIT_FSIZE, EFBIG), is set with `resource` in the child.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hw_support import ROOT

DEV_FULL = """
import os, sys
_fdopen = os.fdopen
def fdopen(fd, mode="r", *a, **k):
    if "w" in mode or "a" in mode:
        full = os.open("/dev/full", os.O_WRONLY)
        os.dup2(full, fd)
        os.close(full)
    return _fdopen(fd, mode, *a, **k)
os.fdopen = fdopen
"""
FSIZE = """
import resource, signal
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))
"""
RUN = """
sys.argv = ["hexwright"] + sys.argv[1:]
from authoring.cli import main
main()
"""


def _run(preamble: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import sys\n" + preamble + RUN, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


VASSAL_CACHE = (
    ".cache/vassal/"  # products/images.py ImageCache._put: owned by the module work, switches to atomic.write_bytes
)


def _temps(folder: Path, skip: str | None = VASSAL_CACHE) -> list[Path]:
    found = [p for p in folder.rglob("*") if p.name.endswith(".tmp")] if folder.exists() else []
    return [p for p in found if not (skip and skip in p.relative_to(folder).as_posix())]


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full to make a real ENOSPC")
@pytest.mark.parametrize("stage", ["module", "sheets", "maps", "cards", "charts"])
def test_disk_full_is_a_fault_not_a_bug(mini_project: Path, tmp_path: Path, stage: str):
    out = tmp_path / "out"
    r = (
        _run(DEV_FULL, "build", stage, str(mini_project), "--out", str(out), "--dpi", "72")
        if stage == "sheets"
        else _run(DEV_FULL, "build", stage, str(mini_project), "--out", str(out))
    )
    assert r.returncode == 2, r.stderr[-3000:]
    assert "error: the disk is full" in r.stderr, r.stderr[-3000:]
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    assert _temps(out) == []


@pytest.mark.slow
def test_disk_full_leaves_no_temp_file_in_the_image_cache(mini_project: Path, tmp_path: Path):
    out = tmp_path / "out"
    _run(DEV_FULL, "build", "module", str(mini_project), "--out", str(out))
    assert _temps(out, skip=None) == []


def test_file_size_limit_is_a_fault(mini_project: Path, tmp_path: Path):
    out = tmp_path / "out"
    r = _run(FSIZE, "build", "charts", str(mini_project), "--out", str(out))
    assert r.returncode == 2, r.stderr[-3000:]
    assert "error: the file is larger than this system allows" in r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr
    assert _temps(out) == []


def test_a_killed_writers_temp_files_are_swept_but_a_live_ones_kept(tmp_path: Path):
    from authoring import atomic

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = tmp_path / f".x.png.{dead.stdout.strip()}.abcd1234.tmp"
    live = tmp_path / f".y.png.{atomic.writer_name()}.abcd1234.tmp"  # this process's name: pid and start time
    other = tmp_path / "keep.tmp"
    for p in (gone, live, other):
        p.write_text("x")
    assert atomic.sweep(tmp_path) == 1
    assert not gone.exists() and live.exists() and other.exists()


def test_stamps_are_written_through_a_name_unique_to_the_process(tmp_path: Path, monkeypatch):
    from authoring.products import stamps as cache

    seen = []
    real = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (seen.append(Path(a).name), real(a, b)))
    cache.record(tmp_path / "a.pdf", "d1")
    assert cache.up_to_date(tmp_path / "a.pdf", "d1") is False  # the target itself is missing
    (tmp_path / "a.pdf").write_text("x")
    assert cache.up_to_date(tmp_path / "a.pdf", "d1") is False  # a file put there after the stamp: not the one stamped
    cache.record(tmp_path / "a.pdf", "d1")
    assert cache.up_to_date(tmp_path / "a.pdf", "d1")
    assert seen and all(f".{os.getpid()}-" in name for name in seen)


@pytest.mark.slow
def test_a_lost_module_manifest_is_restored_by_the_next_build(mini_project: Path, tmp_path: Path, cli):
    out = tmp_path / "out"
    assert cli("build", "module", str(mini_project), "--out", str(out)).exit_code == 0
    manifest = out / "mini" / "mini.vmod.manifest.json"
    assert manifest.is_file()
    manifest.unlink()  # as a kill right after --force removed it
    r = cli("build", "module", str(mini_project), "--out", str(out))
    assert r.exit_code == 0, r.output
    assert manifest.is_file()


@pytest.mark.slow
@pytest.mark.skipif(
    not Path("/sys/kernel").is_dir(), reason="needs sysfs, where no one (not even root) may create files"
)
@pytest.mark.parametrize("stage", ["module", "charts"])
def test_an_unwritable_out_folder_is_a_fault(mini_project: Path, stage: str):
    """The module stage wraps OSErrors in its BuildError; both end as the same plain fault."""
    r = _run("", "build", stage, str(mini_project), "--out", "/sys/kernel")
    assert r.returncode == 2, r.stderr[-3000:]
    assert (
        "error: Operation not permitted: /sys/kernel/mini" in r.stderr
        or "error: permission denied" in r.stderr
        or "error: operation not permitted" in r.stderr
    ), r.stderr
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr


RACE = """
import sys
from pathlib import Path
from authoring.products import stamps as cache
target = Path(sys.argv[1])
for i in range(1500):
    cache.record(target, f"{sys.argv[2]}-{i}")
    cache.up_to_date(target, "x")
"""


@pytest.mark.slow
def test_two_processes_recording_one_stamp_never_collide(tmp_path: Path):
    """Two builds stamping the same output at once (the old fixed temporary name raced in 2% of calls)."""
    target = tmp_path / "bfm.vmod"
    target.write_text("x")
    procs = [
        subprocess.Popen([sys.executable, "-c", RACE, str(target), tag], cwd=ROOT, stderr=subprocess.PIPE, text=True)
        for tag in ("a", "b")
    ]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    assert _temps(tmp_path, skip=None) == []
    assert (tmp_path / ".bfm.vmod.digest").read_text().split("\n")[1] in ("a-1499", "b-1499")
    from authoring.products import stamps as cache

    assert cache.up_to_date(target, "a-1499") or cache.up_to_date(target, "b-1499")
