"""Forked workers (`workers.Workers`) and stages side by side (`build.side_by_side.run_stages`): results and
progress in order, failures raised as their own, a vanished worker or stage named, the state reaching the
workers through the fork, and never more drawing jobs at once than there are tokens."""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from types import MappingProxyType

import pytest

from authoring import atomic, runtime, workers
from authoring.pipeline.context import BuildContext
from authoring.pipeline.side_by_side import run_stages
from authoring.progress import Recorder
from authoring.workers import Workers

pytestmark = pytest.mark.skipif(not workers.can_fork(), reason="workers and stages side by side need fork")


def _context(slots: int) -> BuildContext:
    return BuildContext(workers=Workers(slots))


def _shown(recorders: dict):
    @contextmanager
    def show(stage: str):
        recorders[stage] = Recorder()
        yield recorders[stage]

    return show


def test_results_and_progress_come_in_stage_order():
    def work(stage: str, ctx: BuildContext):
        time.sleep({"a": 0.4, "b": 0.0, "c": 0.1}[stage])  # b and c finish before a
        for i in range(1, 4):
            ctx.progress.advance(i, 3)
        ctx.progress.note(f"{stage} done")
        return stage.upper()

    recorders: dict = {}
    got = list(run_stages(("a", "b", "c"), work, _context(2), _shown(recorders)))
    assert got == [("a", "A"), ("b", "B"), ("c", "C")]
    for stage, rec in recorders.items():
        assert rec.advances[-1] == (3, 3) and rec.notes == [f"{stage} done"]


def test_a_failing_stage_raises_its_own_error_and_stops_the_others(tmp_path: Path):
    def work(stage: str, ctx: BuildContext):
        if stage == "bad":
            raise PermissionError(13, "Permission denied", "out/x.pdf")
        time.sleep(30)
        (tmp_path / stage).write_text("finished")

    with pytest.raises(PermissionError) as err:
        list(run_stages(("bad", "slow"), work, _context(2), _shown({})))
    assert err.value.filename == "out/x.pdf" and not mp.active_children()
    assert not (tmp_path / "slow").exists()  # raised before the slow stage's end, which it stopped


def test_a_later_stage_that_fails_stops_the_build_without_waiting_for_the_earlier_ones(tmp_path: Path):
    """The stage shown first may be waiting for what the failed one will never give (its pages, a job token a
    stopped worker held): the first error is raised as it comes, and the stage still running is stopped."""

    def work(stage: str, ctx: BuildContext):
        if stage == "bad":
            time.sleep(0.5)
            raise PermissionError(13, "Permission denied", "out/x.pdf")
        time.sleep(60)  # stands for a wait that never ends
        (tmp_path / stage).write_text("finished")

    with pytest.raises(PermissionError):
        list(run_stages(("waiting", "bad"), work, _context(2), _shown({})))
    assert not mp.active_children()
    assert not (tmp_path / "waiting").exists()  # raised before the waiting stage's end, which it stopped


def test_a_stage_that_vanishes_is_named():
    def work(stage: str, ctx: BuildContext):
        os._exit(3)

    with pytest.raises(RuntimeError, match=r"the maps stage stopped \(exit code 3\)"):
        list(run_stages(("maps",), work, _context(2), _shown({})))


def _job(log: str, i: int) -> int:
    """A drawing job: a short sleep, its start and end logged."""
    start = time.monotonic()
    time.sleep(0.15)
    with open(log, "a") as f:
        f.write(f"{start} {time.monotonic()}\n")
    return i


def test_jobs_of_all_stages_share_the_tokens(tmp_path: Path):
    """Two stages with a pool of two workers each, one token: no two jobs ever overlap."""
    log = str(tmp_path / "jobs.log")

    def work(stage: str, ctx: BuildContext):
        return Workers(2, ctx.workers.tokens).map(_job, log, range(3))

    got = dict(run_stages(("x", "y"), work, _context(1), _shown({})))
    assert got == {"x": [0, 1, 2], "y": [0, 1, 2]}
    spans = sorted(tuple(map(float, line.split())) for line in Path(log).read_text().splitlines())
    assert len(spans) == 6 and all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


def _any_job(log: str, job: tuple[str, int]) -> int:
    kind, i = job
    return _job(log + kind, i)


def _large(job: tuple[str, int]) -> bool:
    return job[0] == "large"


def test_large_jobs_take_a_large_token_too(tmp_path: Path):
    """Two cores, so one large-job token: large jobs never overlap each other, while a small one runs beside."""
    log = str(tmp_path / "jobs-")

    def work(stage: str, ctx: BuildContext):
        jobs = [("large", 0), ("large", 1), ("small", 2), ("large", 3)]
        return Workers(3, ctx.workers.tokens).map(_any_job, log, jobs, large=_large)

    got = dict(run_stages(("maps",), work, _context(2), _shown({})))
    assert got == {"maps": [0, 1, 2, 3]}
    large = sorted(tuple(map(float, line.split())) for line in Path(log + "large").read_text().splitlines())
    small = tuple(map(float, Path(log + "small").read_text().split()))
    assert len(large) == 3 and all(a[1] <= b[0] for a, b in zip(large, large[1:]))
    assert any(a[0] < small[1] and small[0] < a[1] for a in large)  # the small job ran beside a large one


def test_a_freed_token_goes_to_a_waiting_large_job_first(tmp_path: Path):
    """One token: a stage's two workers take turns at short jobs until a print map waits; the next token
    freed is the map's, however eager the short jobs' workers are."""
    log = str(tmp_path / "jobs-")

    def work(stage: str, ctx: BuildContext):
        if stage == "maps":
            time.sleep(0.4)  # the cards' jobs hold and pass the token by now
            Path(log + "queued").write_text(str(time.monotonic()))
            return ctx.workers.run(_any_job, log, ("large", 0), large=True)
        return Workers(2, ctx.workers.tokens).map(_any_job, log, [("small", i) for i in range(12)])

    got = dict(run_stages(("cards", "maps"), work, _context(1), _shown({})))
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
    short.join(60)
    assert not short.is_alive()


def test_while_the_large_tokens_are_taken_a_waiting_large_job_lets_short_jobs_run():
    tokens = workers.Tokens(mp.get_context("fork"), 2, 1)
    tokens.acquire(large=True)  # a print map runs
    waiting = threading.Thread(target=tokens.acquire, args=(True,))  # the next one waits for its turn
    waiting.start()
    short = threading.Thread(target=tokens.acquire)
    short.start()
    short.join(60)
    assert not short.is_alive() and waiting.is_alive()  # the free core draws a short job meanwhile
    tokens.release()
    tokens.release(large=True)  # the map ends: the next map starts
    waiting.join(60)
    assert not waiting.is_alive()


def test_outside_a_build_there_is_no_token_to_wait_for():
    assert Workers(1).run(lambda state, x: state + x, 1, 1) == 2


def test_freed_memory_goes_back_beside_other_stages_or_after_a_large_job(monkeypatch, tmp_path: Path):
    """A stage alone keeps a small job's freed pages for its next job; beside other stages, or after a
    print map's bands, they go back to the system."""
    trims: list[str] = []
    log = str(tmp_path / "jobs-")
    monkeypatch.setattr(runtime, "trim", lambda: trims.append("trim"))
    alone = Workers(1)
    assert alone.run(_any_job, log, ("small", 1)) == 1
    assert trims == []
    assert alone.run(_any_job, log, ("large", 2), large=True) == 2
    assert trims == ["trim"]
    beside = Workers(1, workers.make_tokens(1))
    assert beside.run(_any_job, log, ("small", 3)) == 3
    assert trims == ["trim", "trim"]


def test_a_stage_can_wait_for_another(tmp_path: Path):
    """What one stage leaves for another (the cards' pages for the module) is there once it waits; the
    stage learns which stages run beside it from its context alone."""

    def work(stage: str, ctx: BuildContext):
        if stage == "module":
            wait = ctx.waiter("cards")
            assert wait is not None and ctx.waiter("maps") is None
            wait()
            return (tmp_path / "pages").read_text()
        time.sleep(0.3)
        (tmp_path / "pages").write_text("drawn by cards")
        return None

    got = dict(run_stages(("module", "cards"), work, _context(2), _shown({})))
    assert got["module"] == "drawn by cards"
    assert BuildContext().waiter("cards") is None  # outside a build: nothing to wait for


# --- the pool --------------------------------------------------------------------------------------


def _square(offset: int, i: int) -> int:
    return offset + i * i


def test_results_come_in_order_and_equal_the_serial_ones():
    items = list(range(40))
    assert Workers(3).map(_square, 5, items) == Workers(1).map(_square, 5, items) == [5 + i * i for i in items]


def _read_state(state: dict, key: str) -> str:
    return f"{key}={state[key]()}:{os.getpid()}"


def test_the_state_reaches_the_workers_through_the_fork_unpickled():
    """The state holds what pickle refuses (a mapping proxy, a lambda): the workers have it from the fork."""
    state = MappingProxyType({"a": lambda: "x", "b": lambda: "y"})
    got = Workers(2).map(_read_state, state, ["a", "b", "a", "b"])
    assert [g.split(":")[0] for g in got] == ["a=x", "b=y", "a=x", "b=y"]
    assert os.getpid() not in {int(g.split(":")[1]) for g in got}  # drawn in the workers


def _fail_on(bad: int, i: int) -> int:
    if i == bad:
        raise PermissionError(13, "Permission denied", f"out/{i}.png")
    return i


def test_a_failing_job_raises_its_own_error_at_its_place():
    got: list[int] = []
    with pytest.raises(PermissionError) as err:
        with Workers(2).start(_fail_on, 3, range(8)) as running:
            got += running
    assert err.value.filename == "out/3.png" and got == [0, 1, 2]


def _die_on(bad: int, i: int) -> int:
    if i == bad:
        os._exit(9)
    return i


def test_a_worker_that_vanishes_is_an_error_not_a_hang():
    with pytest.raises(RuntimeError, match="a worker process stopped"):
        Workers(2).map(_die_on, 2, range(6))
    assert not mp.active_children()


def _slow(log: str, i: int) -> int:
    time.sleep(0.3)
    Path(log, str(i)).write_text("drawn")
    return i


def test_leaving_early_stops_the_workers(tmp_path: Path):
    """An error in the caller (or Ctrl-C) while the workers draw stops them at once: nothing drawn after."""
    with pytest.raises(KeyError):
        with Workers(2).start(_slow, str(tmp_path), range(20)) as running:
            next(iter(running))
            raise KeyError("the caller failed")
    assert not mp.active_children()  # stopped when the block was left, not after their jobs
    drawn = sorted(p.name for p in tmp_path.iterdir())
    time.sleep(0.8)
    assert sorted(p.name for p in tmp_path.iterdir()) == drawn and len(drawn) < 20


def _write_or_fail(folder: str, i: int) -> int:
    """Job 0 fails at once; the others write their file slowly, chunk by chunk, through `atomic`."""
    if i == 0:
        time.sleep(0.2)
        raise OSError(28, "No space left on device")

    def chunks():
        for _ in range(40):
            time.sleep(0.05)
            yield b"x" * 1024

    atomic.write_chunks(Path(folder, f"{i}.bin"), chunks())
    return i


def test_a_failed_pool_leaves_no_temporary_file_in_a_swept_folder(tmp_path: Path):
    """When one job fails the others are stopped mid-write (SIGTERM ends a worker at once); the stage's
    `atomic.swept` folder then loses what they were writing (a disk-full build leaves its folder as it was)."""
    with pytest.raises(OSError), atomic.swept(tmp_path):
        with Workers(3).start(_write_or_fail, str(tmp_path), range(3)) as running:
            list(running)
    assert not mp.active_children()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(atomic.TMP_SUFFIX)) == []


def test_by_default_a_build_takes_the_cores_other_processes_leave_idle(monkeypatch):
    """`--jobs 0` (the default): one worker per idle core, at least one, so on a busy machine the stages run one
    after another in one process rather than side by side in forked ones; `--jobs N` is taken as given."""
    import os

    from authoring import runtime, workers

    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    for busy, processes in ((0.0, 4), (0.4, 4), (1.6, 2), (2.6, 1), (9.0, 1)):
        monkeypatch.setattr(workers, "busy_cores", lambda busy=busy: busy)
        assert Workers.for_jobs().processes == processes
        assert Workers.for_jobs(3).processes == 3
    monkeypatch.setenv(runtime.SWITCH, "off")  # the tuning off: one per core, as before
    assert Workers.for_jobs().processes == 4
