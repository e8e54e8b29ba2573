"""Builds of bfm are reproducible (byte-identical across hash seeds, clock and worker counts) and atomic
(SIGKILL at any moment leaves every artifact at its final path either the previous one or a complete new one).

One reference pair of builds is shared by both tests to keep `make test` short.
"""

from __future__ import annotations

import hashlib
import io
import os
import random
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from hw_support import ROOT, copy_game

GAME = "bfm"
SHEETS = ["--dpi", "100"]  # smaller counter sheets: the writing path is the same, the build is faster
ARTIFACTS = (".vmod", ".pdf", ".png")
KILLS = 20


pytestmark = pytest.mark.slow  # whole builds of the bundled games


def build_cmd(project: Path, out: Path, force: bool = True, jobs: int = 0) -> list[str]:
    """`hexwright build all` for the test game."""
    common = [GAME, "--project", str(project), "--out", str(out), "--jobs", str(jobs)] + (["--force"] if force else [])
    return [sys.executable, "-m", "authoring.cli", "build", "all", *common, *SHEETS]


def run_build(project: Path, out: Path, seed: str, **kw) -> float:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    start = time.monotonic()
    r = subprocess.run(build_cmd(project, out, **kw), cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return time.monotonic() - start


def digests(folder: Path, artifacts_only: bool = False) -> dict[str, str]:
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not (artifacts_only and (p.name.startswith(".") or p.suffix not in ARTIFACTS)):
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> tuple[Path, Path, Path, float]:
    """(project, out A, out B, seconds of build A): A with PYTHONHASHSEED=1, one worker; B later, seed 2, two."""
    base = tmp_path_factory.mktemp("builds")
    project = copy_game(ROOT, base / "project", GAME)
    seconds = run_build(project, base / "a", "1", jobs=1)
    time.sleep(1.5)  # a different wall-clock second: timestamps must not leak
    run_build(project, base / "b", "2", jobs=2)
    return project, base / "a", base / "b", seconds


def test_two_builds_are_byte_identical(pair):
    _, a, b, _ = pair
    da, db = digests(a), digests(b)
    assert any(k.endswith(".vmod") for k in da) and any(k.endswith(".pdf") for k in da)
    assert any(k.endswith(".png") for k in da)
    outputs = lambda d: {k for k in d if not k.startswith(".cache")}  # noqa: E731 - cache entries may be shared
    assert outputs(da) == outputs(db)
    sealed = lambda k: (  # noqa: E731 - bound to their place, or to when the cache was used (its record of use)
        Path(k).name.startswith(".") or k.endswith(".manifest.json") or k == ".cache/used"
    )
    assert [k for k in da.keys() & db.keys() if da[k] != db[k] and not sealed(k)] == []
    entries = {k for k in da if k.startswith(".cache/vassal/")}
    assert entries and {k: da[k] for k in entries} == {k: db.get(k) for k in entries}


def test_artifacts_are_valid(pair):
    from pypdf import PdfReader

    _, a, _, _ = pair
    names = digests(a / GAME, artifacts_only=True)
    for stage, made in (
        ("module", ".vmod"),
        ("sheets", ".letter.pdf"),
        ("maps", ".png"),
        ("cards", ".pdf"),
        ("charts", ".pdf"),
    ):
        folder = "" if stage in ("module", "sheets") else stage + "/"
        assert any(n.startswith(folder) and n.endswith(made) for n in names), stage
    for name in names:
        data = (a / GAME / name).read_bytes()
        if name.endswith(".vmod"):
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                assert z.testzip() is None
                assert [i.filename for i in z.infolist()] == sorted(i.filename for i in z.infolist())
                assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
        elif name.endswith(".pdf"):
            assert len(PdfReader(io.BytesIO(data)).pages) >= 1
        else:
            assert data.startswith(b"\x89PNG\r\n\x1a\n")


def _temp_count(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.name.endswith(".tmp"))


def _kill_after(project: Path, out: Path, delay: float, nth_temp: int | None, seed: int) -> None:
    """Start a forced build; SIGKILL its whole process group after `delay` s, or once the nth temp file shows."""
    proc = subprocess.Popen(
        build_cmd(project, out),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "PYTHONHASHSEED": str(seed)},
    )
    deadline = time.monotonic() + delay
    seen, before = 0, _temp_count(out / GAME)
    while proc.poll() is None and time.monotonic() < deadline and (nth_temp is None or seen < nth_temp):
        if nth_temp is not None:
            now = _temp_count(out / GAME)
            seen, before = seen + max(0, now - before), now
        time.sleep(0.002)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _changed_copy(project: Path, dst: Path) -> Path:
    """The project with edits that change several artifacts (counter sheet, module, set-up cards, maps)."""
    import shutil

    shutil.copytree(project, dst)
    counters = dst / "counters" / GAME / "counters.yaml"
    counters.write_text(counters.read_text().replace('designation: "3"', 'designation: "33"', 1))
    board = dst / "maps" / GAME / "main.yaml"
    board.write_text(board.read_text().replace("\nname: ", "\nname: Changed ", 1))
    return dst


def test_sigkill_never_leaves_a_broken_artifact(pair, tmp_path: Path):
    """Kill builds over earlier outputs, alternating the changed and the original data so that every kill may
    replace artifacts: each artifact is always, byte for byte, the old one or the new one."""
    project, a, _, _ = pair
    old = digests(a / GAME, artifacts_only=True)
    changed = _changed_copy(project, tmp_path / "changed")
    run_build(changed, tmp_path / "fresh", "4")  # a clean build of the changed data: the new artifacts
    seconds = run_build(project, a, "5")  # how long a forced build over existing outputs runs
    assert digests(a / GAME, artifacts_only=True) == old
    new = digests(tmp_path / "fresh" / GAME, artifacts_only=True)
    assert new.keys() == old.keys()
    assert sum(new[k] != old[k] for k in new) >= 3, "the edit should change several artifacts"
    rng = random.Random(8)
    for i in range(KILLS):
        # at random moments over the whole run; every other one earlier still, once the nth temp file shows
        delay = rng.uniform(0.05, seconds)
        nth = rng.randint(1, 8) if i % 2 else None
        _kill_after(changed if i % 4 < 2 else project, a, delay, nth, rng.randrange(10**6))
        now = digests(a / GAME, artifacts_only=True)
        broken = {k: now.get(k) for k in old if now.get(k) not in (old[k], new[k])}
        assert now.keys() == old.keys() and not broken, f"kill {i + 1} ({delay:.2f} s, temp {nth}): {broken}"
    run_build(changed, a, "3", force=False)  # stamps and caches left by the kills still give the clean result
    assert digests(a / GAME, artifacts_only=True) == new
