"""Issue 47, point 10: a temporary file is swept unless the very process that writes it still runs.

A writer's temporary name carries its process id and that process's start time (`atomic.staged`); a file
named with a live process id but no start time, or another start time, is no running writer's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from authoring import atomic

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process start times come from /proc")


@pytest.fixture
def live() -> Iterator[int]:
    """The id of a running process that is not this one (it writes nothing)."""
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        yield child.pid
    finally:
        child.communicate(b"")


def _plant(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text("half a file")
    return path


def test_a_planted_name_with_a_live_process_id_is_swept(tmp_path: Path, live: int):
    """The issue's case: the old pattern `.<name>.<pid>.<random>.tmp`, with the id of a process that runs."""
    planted = _plant(tmp_path, f".map-board.png.{live}.abcd1234.tmp")
    assert atomic.sweep(tmp_path) == 1 and not planted.exists()


def test_a_name_with_a_live_process_id_but_another_start_time_is_swept(tmp_path: Path, live: int):
    started = atomic._started(live)
    assert started is not None
    reused = _plant(tmp_path, f".map-board.png.{live}-{started + 1}.abcd1234.tmp")
    assert atomic.sweep(tmp_path) == 1 and not reused.exists()


def test_the_file_of_a_running_writer_is_kept(tmp_path: Path, live: int):
    theirs = _plant(tmp_path, f".map-board.png.{live}-{atomic._started(live)}.abcd1234.tmp")
    mine = _plant(tmp_path, f".sheet.pdf.{atomic.writer_name()}.abcd1234.tmp")
    assert atomic.sweep(tmp_path) == 0 and theirs.exists() and mine.exists()


def test_a_dead_writers_file_and_absurd_ids_are_swept(tmp_path: Path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = _plant(tmp_path, f".x.png.{dead.stdout.strip()}-1.abcd1234.tmp")
    huge = _plant(tmp_path, f".x.png.{'9' * 19}-1.abcd1234.tmp")
    kept = _plant(tmp_path, "notes.tmp")
    assert atomic.sweep(tmp_path) == 2 and not gone.exists() and not huge.exists() and kept.exists()


def test_a_write_names_its_temporary_file_with_pid_and_start_time(tmp_path: Path):
    seen = []
    with atomic.staged(tmp_path / "a.txt", (b"x",)) as tmp:
        seen.append(tmp.name)
        assert atomic.sweep(tmp_path) == 0 and tmp.exists()  # a sweep during the write leaves it
    assert seen[0].startswith(f".a.txt.{os.getpid()}-{atomic._started(os.getpid())}.")
    assert (tmp_path / "a.txt").read_bytes() == b"x"
