"""Forked worker processes: the one pool every stage draws in, and the job tokens stages share.

`Workers` says how a stage may use the cores: up to `processes` forked workers and, when stages run side by
side, the build's job `Tokens` (one per core): a heavy job (a map, a sheet, a card) holds one while it
works, so the stages share the cores rather than each taking all of them, and no more heavy jobs are in
memory at once than there are cores (a print map, the largest, also takes one of half as many large-job
tokens). `Workers.start(fn, state, items)` runs ``fn(state, item)`` for every item in forked workers and
gives the results in order. `state` (a loaded game, options) reaches the workers through the fork itself,
never pickled and never through a module global: a forked process starts with its parent's memory, the
arguments of the pool that forked it included; only the results travel back, over one pipe per worker.

Every worker stays in the build's process group, so that a terminal's Ctrl-C or a `kill -- -PGID` reaches
them all; it ignores Ctrl-C, which its parent answers by stopping it, and dies the moment its parent ends
(`die_with_parent`), so that a killed build leaves nothing drawing or writing behind it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, cast

from authoring import runtime


class Tokens:
    """The build's job tokens, one per core, shared by the forked processes of every stage, and among
    them fewer large-job tokens: a large job (a print map in bands) needs both, as two such jobs side by
    side would take a gigabyte.

    A token freed while a large job waits for one is that job's: the print maps are the build's longest
    jobs and run one at a time, and with plain semaphores the other stages' short jobs took every freed
    token while a print map waited, so the maps came last and the build ended on one core. Both counts
    live under one lock, so a print map's end hands both its tokens to the next one at once."""

    def __init__(self, ctx, slots: int, large_slots: int) -> None:
        self._turn = ctx.Condition()
        self._free = ctx.RawArray("i", [slots, large_slots])
        self._waiting = ctx.RawValue("i", 0)
        """Large jobs waiting: while one could run, no short job takes a freed token."""

    def _ready(self, large: bool) -> bool:
        free, large_free = self._free
        if large:
            return free > 0 and large_free > 0
        return free > 0 and not (self._waiting.value and large_free > 0)

    def acquire(self, large: bool = False) -> None:
        with self._turn:
            self._waiting.value += large
            try:
                self._turn.wait_for(lambda: self._ready(large))
            finally:
                self._waiting.value -= large
            self._free[0] -= 1
            self._free[1] -= large

    def release(self, large: bool = False) -> None:
        with self._turn:
            self._free[0] += 1
            self._free[1] += large
            self._turn.notify_all()


def make_tokens(slots: int) -> Tokens:
    """Tokens for `slots` cores (and half as many large jobs), made before the processes that share them fork."""
    return Tokens(mp.get_context("fork"), max(1, slots), max(1, slots // 2))


def busy_cores() -> float:
    """How many cores other processes keep busy: the fewer of the last minute's load average and the processes
    runnable this moment, less this one (so a build that just ended, still in the minute's average, does not
    count); 0 where the system tells neither."""
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            fields = f.read().split()
        return max(0.0, min(float(fields[0]), float(int(fields[3].split("/")[0]) - 1)))
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.getloadavg()[0]
    except (OSError, AttributeError):
        return 0.0


def idle_cores(cores: int) -> int:
    """Of `cores`, those `busy_cores` leaves idle (rounded), at least one."""
    return max(1, min(cores, cores - int(busy_cores() + 0.5)))


def _never(item: object) -> bool:
    return False


@dataclass(frozen=True)
class Workers:
    """How a stage may use the cores: up to `processes` forked workers, and the build's job tokens when
    stages run side by side (None: a stage alone, nothing to share)."""

    processes: int = 1
    tokens: Tokens | None = None

    @classmethod
    def for_jobs(cls, jobs: int = 0, tokens: Tokens | None = None) -> Workers:
        """`--jobs`: that many workers; 0 one per core (at most eight) that other processes leave idle
        (`idle_cores`), at least one: on a busy machine a second worker and the stages side by side cost
        memory and time and gained nothing (Typhoon at load 5 on two cores: slower than one job)."""
        cores = max(1, min(os.cpu_count() or 1, 8))
        return cls(jobs or (idle_cores(cores) if runtime.tuned() else cores), tokens)

    @contextmanager
    def token(self, large: bool = False) -> Iterator[None]:
        """Hold one of the build's job tokens for the duration, and a large job's token too when `large`
        (taken together, so a large job never holds a core while it waits); nothing to hold without tokens."""
        if self.tokens is None:
            yield
            return
        self.tokens.acquire(large)
        try:
            yield
        finally:
            self.tokens.release(large)

    def run(self, fn: Callable[[Any, Any], Any], state: object, item: object, large: bool = False) -> Any:
        """``fn(state, item)`` holding a token. With the stages side by side, the job's freed memory goes
        back to the system before the token does: a worker waiting for a token would otherwise keep the
        pages of its last job, and every idle worker would. A stage alone keeps them for its worker's next
        job, which reuses them; only a large job's (a print map's bands) go back either way."""
        with self.token(large):
            try:
                return fn(state, item)
            finally:
                if large or self.tokens is not None:
                    runtime.trim()

    def start(
        self,
        fn: Callable[[Any, Any], Any],
        state: object,
        items: Sequence[object],
        *,
        light: Callable[[Any], bool] = _never,
        large: Callable[[Any], bool] = _never,
    ) -> Running:
        """``fn(state, item)`` for every item, in forked workers started now (so the caller can work
        meanwhile) when there are several items and cores, else one by one as the results are read.
        Each job holds a token, a `large` one a large-job token too, a `light` one none."""
        count = min(self.processes, len(items))
        if count < 2 or not can_fork():
            return Running(self, fn, state, items, light, large, 0)
        return Running(self, fn, state, items, light, large, count)

    def map(self, fn: Callable[[Any, Any], Any], state: object, items: Sequence[object], **kinds) -> list:
        """`start`, every result in order."""
        with self.start(fn, state, items, **kinds) as results:
            return list(results)


class Running:
    """The results of `Workers.start`, in the order of the items; a `with` block stops the workers when it
    ends early (an error, an interrupt) and waits for them when every result was read."""

    def __init__(self, workers: Workers, fn, state, items: Sequence, light, large, count: int) -> None:
        self._job = (workers, fn, state, items, light, large)
        self._done: dict[int, tuple[str, Any]] = {}
        self._arrived = threading.Condition()
        self._procs: list = []
        self._readers: list[Connection] = []
        self._collector: threading.Thread | None = None
        self._read = 0
        if count:
            self._fork(count)

    def _one(self, item) -> Any:
        workers, fn, state, _items, light, large = self._job
        if light(item):
            return fn(state, item)
        return workers.run(fn, state, item, large(item))

    def _fork(self, count: int) -> None:
        ctx = mp.get_context("fork")
        taken = ctx.Value("i", 0)
        parent = os.getpid()
        try:
            with forking():
                for _ in range(count):
                    reader, writer = ctx.Pipe(duplex=False)
                    proc = ctx.Process(target=self._serve, args=(taken, writer, parent), daemon=True)
                    proc.start()
                    writer.close()
                    self._procs.append(proc)
                    self._readers.append(reader)
        except BaseException:  # a Ctrl-C held during the fork arrives as the block ends: stop the workers just made
            self._stop()
            raise
        self._collector = threading.Thread(target=self._collect, name="hexwright results", daemon=True)
        self._collector.start()

    def _serve(self, taken, channel: Connection, parent: int) -> None:
        """A worker: take the next item until none is left, sending each result (or error) back."""
        die_with_parent(parent)
        runtime.in_worker()
        items = self._job[3]
        while True:
            with taken.get_lock():
                index = taken.value
                taken.value += 1
            if index >= len(items):
                break
            try:
                outcome: tuple = ("done", index, self._one(items[index]))
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent, which raises it
                outcome = ("error", index, exc)
            channel.send_bytes(_pickled(outcome))
        channel.close()

    def _collect(self) -> None:
        """In the parent: every result into `_done` as it comes (the workers never wait on a full pipe)."""
        open_ = list(self._readers)
        while open_:
            for reader in cast(list[Connection], wait(open_)):
                try:
                    kind, index, value = pickle.loads(reader.recv_bytes())
                except (EOFError, OSError):
                    open_.remove(reader)
                    continue
                with self._arrived:
                    self._done[index] = (kind, value)
                    self._arrived.notify_all()
        with self._arrived:
            self._arrived.notify_all()

    def __iter__(self) -> Iterator[Any]:
        items = self._job[3]
        while self._read < len(items):
            index = self._read
            kind, value = ("done", self._one(items[index])) if self._collector is None else self._wait(index)
            self._read += 1
            if kind == "error":
                raise value
            yield value

    def _wait(self, index: int) -> tuple[str, Any]:
        with self._arrived:
            while index not in self._done:
                assert self._collector is not None
                if not self._collector.is_alive():
                    codes = sorted({p.exitcode for p in self._procs if p.exitcode})
                    return "error", RuntimeError(f"a worker process stopped (exit code {', '.join(map(str, codes))})")
                self._arrived.wait(0.5)
            return self._done.pop(index)

    def __enter__(self) -> Running:
        return self

    def __exit__(self, kind, error, trace) -> None:
        if kind is None and self._read == len(self._job[3]):
            for proc in self._procs:
                proc.join()
        self._stop()

    def _stop(self) -> None:
        for proc in self._procs:
            if proc.is_alive():
                proc.terminate()
        for proc in self._procs:
            proc.join()
        if self._collector is not None:
            self._collector.join()
        for reader in self._readers:
            reader.close()


def _pickled(outcome: tuple) -> bytes:
    try:
        return pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - an unpicklable result or error still arrives, as its type and words
        kind, index, value = outcome
        return pickle.dumps(("error", index, RuntimeError(f"{type(value).__name__}: {value}")))


def can_fork() -> bool:
    return "fork" in mp.get_all_start_methods()


PR_SET_PDEATHSIG = 1
"""prctl option (linux/prctl.h): the signal a process gets when the thread that forked it ends."""


def die_with_parent(parent: int) -> None:
    """Bind a forked worker's life to its parent's: killed (SIGKILL) the moment the parent ends, however it
    ends, so that no worker draws or writes on after the command has stopped. `parent` is the forking
    process's id, taken before the fork: a parent that died before the signal was armed is seen by
    `getppid` and the worker leaves at once.

    Ctrl-C on a terminal reaches the whole process group; the workers ignore it and the parent alone
    answers (it stops its workers and prints one line), and a SIGTERM from the parent ends a worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # held since before the fork (`forking`)
    libc = runtime.libc()
    if libc is not None and hasattr(libc, "prctl"):
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def forking() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while workers are forked: a signal that came between the fork and
    `die_with_parent` would otherwise run the parent's handler in the new worker (a KeyboardInterrupt
    traceback from its start-up). The parent gets it when the block ends; the worker ignores it."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
