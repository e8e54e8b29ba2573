"""Stages side by side (`workers.run_stages`): results and progress in stage order, failures raised as the
stage's own, a vanished stage named, and never more drawing jobs at once than there are tokens."""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from authoring import workers
from authoring.progress import Recorder

pytestmark = pytest.mark.skipif(not workers.can_fork(), reason="stages run side by side only where processes fork")


def _shown(recorders: dict):
    @contextmanager
    def show(stage: str):
        recorders[stage] = Recorder()
        yield recorders[stage]

    return show


def test_results_and_progress_come_in_stage_order():
    def work(stage: str, progress):
        time.sleep({"a": 0.4, "b": 0.0, "c": 0.1}[stage])  # b and c finish before a
        for i in range(1, 4):
            progress.advance(i, 3)
        progress.note(f"{stage} done")
        return stage.upper()

    recorders: dict = {}
    got = list(workers.run_stages(("a", "b", "c"), work, 2, _shown(recorders)))
    assert got == [("a", "A"), ("b", "B"), ("c", "C")]
    for stage, rec in recorders.items():
        assert rec.advances[-1] == (3, 3) and rec.notes == [f"{stage} done"]


def test_a_failing_stage_raises_its_own_error_and_stops_the_others(tmp_path: Path):
    def work(stage: str, progress):
        if stage == "bad":
            raise PermissionError(13, "Permission denied", "out/x.pdf")
        time.sleep(30)
        (tmp_path / stage).write_text("finished")

    start = time.monotonic()
    with pytest.raises(PermissionError) as err:
        list(workers.run_stages(("bad", "slow"), work, 2, _shown({})))
    assert err.value.filename == "out/x.pdf" and time.monotonic() - start < 20
    assert not (tmp_path / "slow").exists()


def test_a_stage_that_vanishes_is_named():
    def work(stage: str, progress):
        os._exit(3)

    with pytest.raises(RuntimeError, match=r"the maps stage stopped \(exit code 3\)"):
        list(workers.run_stages(("maps",), work, 2, _shown({})))


def _job(log: str, i: int) -> int:
    start = time.monotonic()
    time.sleep(0.15)
    with open(log, "a") as f:
        f.write(f"{start} {time.monotonic()}\n")
    return i


def test_jobs_of_all_stages_share_the_tokens(tmp_path: Path):
    """Two stages with a pool of two workers each, one token: no two jobs ever overlap."""
    log = str(tmp_path / "jobs.log")

    def work(stage: str, progress):
        with mp.get_context("fork").Pool(2) as pool:
            return pool.map(partial(workers.tokened, partial(_job, log)), range(3))

    got = dict(workers.run_stages(("x", "y"), work, 1, _shown({})))
    assert got == {"x": [0, 1, 2], "y": [0, 1, 2]}
    spans = sorted(tuple(map(float, line.split())) for line in Path(log).read_text().splitlines())
    assert len(spans) == 6 and all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def _any_job(job: tuple[str, str, int]) -> int:
    kind, log, i = job
    return _job(log + kind, i)


_any_job.large = lambda job: job[0] == "large"  # type: ignore[attr-defined]  # as tiles._map_file_job says


def test_large_jobs_take_a_large_token_too(tmp_path: Path):
    """Two cores, so one large-job token: large jobs never overlap each other, while a small one runs beside."""
    log = str(tmp_path / "jobs-")

    def work(stage: str, progress):
        with mp.get_context("fork").Pool(3) as pool:  # (a partial would lose the attribute on its way)
            return pool.map(
                partial(workers.tokened, _any_job),
                [("large", log, 0), ("large", log, 1), ("small", log, 2), ("large", log, 3)],
            )

    got = dict(workers.run_stages(("maps",), work, 2, _shown({})))
    assert got == {"maps": [0, 1, 2, 3]}
    large = sorted(tuple(map(float, line.split())) for line in Path(log + "large").read_text().splitlines())
    small = tuple(map(float, Path(log + "small").read_text().split()))
    assert len(large) == 3 and all(a[1] <= b[0] for a, b in zip(large, large[1:]))
    assert any(a[0] < small[1] and small[0] < a[1] for a in large)  # the small job ran beside a large one


def test_a_freed_token_goes_to_a_waiting_large_job_first(tmp_path: Path):
    """One token: a stage's two workers take turns at short jobs until a print map waits; the next token
    freed is the map's, however eager the short jobs' workers are."""
    log = str(tmp_path / "jobs-")

    def work(stage: str, progress):
        if stage == "maps":
            time.sleep(0.4)  # the cards' jobs hold and pass the token by now
            Path(log + "queued").write_text(str(time.monotonic()))
            return workers.tokened(_any_job, ("large", log, 0))
        with mp.get_context("fork").Pool(2) as pool:
            return pool.map(partial(workers.tokened, _any_job), [("small", log, i) for i in range(12)])

    got = dict(workers.run_stages(("cards", "maps"), work, 1, _shown({})))
    assert got == {"cards": list(range(12)), "maps": 0}
    queued = float(Path(log + "queued").read_text())
    large_start = float(Path(log + "large").read_text().split()[0])
    small = sorted(tuple(map(float, line.split())) for line in Path(log + "small").read_text().splitlines())
    started_meanwhile = [s for s in small if queued < s[0] < large_start]  # (one may have had its token already)
    assert len(started_meanwhile) <= 1 and any(s[0] > large_start for s in small)


def test_no_short_job_takes_a_free_token_while_a_large_job_waits():
    tokens = workers.Tokens(mp.get_context("fork"), 2, 1)
    tokens.acquire()  # a short job runs
    tokens._waiting.value = 1  # a print map waits (its wake-up is the operating system's to schedule)
    short = threading.Thread(target=tokens.acquire)
    short.start()
    short.join(0.3)
    assert short.is_alive()  # a token is free, yet the short job waits
    tokens.acquire(large=True)  # the map takes it
    tokens._waiting.value = 0
    tokens.release()  # the first short job ends: the waiting one starts beside the map
    short.join(5)
    assert not short.is_alive()


def test_while_the_large_tokens_are_taken_a_waiting_large_job_lets_short_jobs_run():
    tokens = workers.Tokens(mp.get_context("fork"), 2, 1)
    tokens.acquire(large=True)  # a print map runs
    waiting = threading.Thread(target=tokens.acquire, args=(True,))  # the next one waits for its turn
    waiting.start()
    short = threading.Thread(target=tokens.acquire)
    short.start()
    short.join(5)
    assert not short.is_alive() and waiting.is_alive()  # the free core draws a short job meanwhile
    tokens.release()
    tokens.release(large=True)  # the map ends: the next map starts
    waiting.join(5)
    assert not waiting.is_alive()


def test_outside_a_build_there_is_no_token_to_wait_for():
    assert workers.tokened(lambda x: x + 1, 1) == 2


def test_freed_memory_goes_back_beside_other_stages_or_after_a_large_job(monkeypatch, tmp_path: Path):
    """A stage alone keeps a small job's freed pages for its next job; beside other stages, or after a
    print map's bands, they go back to the system."""
    trims: list[str] = []
    log = str(tmp_path / "jobs-")
    monkeypatch.setattr(workers, "_trim", lambda: trims.append("trim"))
    assert workers.tokened(_any_job, ("small", log, 1)) == 1
    assert trims == []
    assert workers.tokened(_any_job, ("large", log, 2)) == 2
    assert trims == ["trim"]
    monkeypatch.setattr(workers, "_TOKENS", workers.Tokens(mp.get_context("fork"), 1, 1))
    assert workers.tokened(_any_job, ("small", log, 3)) == 3
    assert trims == ["trim", "trim"]


def test_a_stage_can_wait_for_another(tmp_path: Path):
    """What one stage leaves for another (the cards' pages for the module) is there once it waits."""

    def work(stage: str, progress):
        if stage == "module":
            assert workers.beside("cards") and not workers.beside("maps")
            workers.wait_for("cards")
            return (tmp_path / "pages").read_text()
        time.sleep(0.3)
        (tmp_path / "pages").write_text("drawn by cards")
        return None

    got = dict(workers.run_stages(("module", "cards"), work, 2, _shown({})))
    assert got["module"] == "drawn by cards"
    assert not workers.beside("cards")  # outside a build: nothing to wait for
