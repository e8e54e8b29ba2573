"""Stages side by side, sharing the cores: how `build all` keeps every core busy without holding more in memory.

Each stage splits its drawing over a pool of worker processes, but also has serial parts (writing the
module's set-ups and archive, laying out the sheet index, the charts), during which one stage alone leaves
cores idle. `run_stages` runs the stages at once, each in a forked process, and a heavy job (a map, a sheet,
a card) takes one of `slots` tokens (one per core) while it works (`tokened`): the stages share the cores
instead of each taking all of them, a stage's serial part runs while the others' jobs keep the cores busy,
and no more heavy jobs are in memory at once than there are cores (a print map, the largest, also takes one
of half as many large-job tokens). The module's counter faces are light and run without a token. Progress
and results come back over a queue and are shown stage by stage, in order, as a one-stage-at-a-time run
shows them; a stage can wait for another running beside it (the module for the cards stage's pages).

Every worker (a stage's process, a pool's) is forked here (`pool`, `run_stages`) and stays in the build's
process group, so that a terminal's Ctrl-C or a `kill -- -PGID` reaches them all; it ignores Ctrl-C, which
its parent answers by stopping it, and dies the moment its parent ends (`die_with_parent`), so that a
killed build leaves nothing drawing or writing behind it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import queue as queues
import signal
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from functools import cache

from authoring.progress import Progress

_TOKENS: Tokens | None = None
"""The build's job tokens (inherited through fork); None: no budget (one stage at a time)."""
_ENDED: dict = {}
"""Stage -> an event set when that stage's work has ended (done or failed), for the stages running side by side."""


def beside(stage: str) -> bool:
    """Whether `stage` is running side by side with the caller's stage in this build."""
    return stage in _ENDED


def wait_for(stage: str) -> None:
    """Wait until `stage`, running beside the caller, has ended (at once when it is not running beside it)."""
    ended = _ENDED.get(stage)
    if ended is not None:
        ended.wait()


class Tokens:
    """The build's job tokens, one per core, shared by the forked processes of every stage, and among
    them fewer large-job tokens: a large job (a print map in bands, ~400 MB) needs both, as two such jobs
    side by side would take a gigabyte.

    A token freed while a large job waits for one is that job's. The print maps are the build's longest
    jobs and run one at a time; with plain semaphores the other stages' short jobs took every freed token
    while a print map waited, so the maps came last and the build ended on one core (two print maps
    queued at 0.7 s started at 14.6 and 23.7 s). Both counts live under one lock, so a print map's end
    hands both its tokens to the next one at once."""

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


@contextmanager
def token(large: bool = False) -> Iterator[None]:
    """Hold one of the build's job tokens for the duration, and a large job's token too when `large`
    (taken together, so a large job never holds a core while it waits); nothing to hold outside
    `run_stages`."""
    if _TOKENS is None:
        yield
        return
    _TOKENS.acquire(large)
    try:
        yield
    finally:
        _TOKENS.release(large)


def tokened(fn: Callable, arg):
    """``fn(arg)`` holding a token: what a pool runs (``functools.partial(tokened, fn)`` pickles by name).
    A worker function says which of its jobs are large with a `large(arg)` attribute.

    With the stages side by side, the job's freed memory goes back to the system before the token does:
    a worker waiting for a token would otherwise keep the pages of its last job, and every idle worker
    would. A stage alone keeps them for its worker's next job, which reuses them instead of faulting
    fresh ones in (sheets on 2 workers: 250,000 -> 170,000 page faults, a twentieth of the CPU); only a
    large job's (a print map's bands) go back either way."""
    large = bool(getattr(fn, "large", None) and fn.large(arg))
    with token(large):
        try:
            return fn(arg)
        finally:
            if large or _TOKENS is not None:
                _trim()


def _trim() -> None:
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


def _libc():
    """glibc, which can hand freed heap pages back (elsewhere: None, and memory stays with the worker)."""
    libc = _libc_any()
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


@cache
def _libc_any():
    """The C library (None where ctypes cannot open it)."""
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None


def can_fork() -> bool:
    return "fork" in mp.get_all_start_methods()


PR_SET_PDEATHSIG = 1
"""prctl option (linux/prctl.h): the signal a process gets when the thread that forked it ends."""


def die_with_parent(parent: int) -> None:
    """Bind a forked worker's life to its parent's: killed (SIGKILL) the moment the parent ends, however it
    ends, so that no worker draws or writes on after the command has stopped (a SIGKILLed build left eleven
    workers writing artifacts for seconds). `parent` is the forking process's id, taken before the fork: a
    parent that died before the signal was armed is seen by `getppid` and the worker leaves at once.

    Ctrl-C on a terminal reaches the whole process group; the workers ignore it and the parent alone
    answers (it stops its workers and prints one line), and a SIGTERM from the parent ends a worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)  # held since before the fork (`_forking`)
    libc = _libc_any()
    if libc is not None and hasattr(libc, "prctl"):
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def _forking() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while workers are forked: a signal that came between the fork and
    `die_with_parent` would otherwise run the parent's handler in the new worker (a KeyboardInterrupt
    traceback from its start-up). The parent gets it when the block ends; the worker ignores it."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _start_worker(parent: int, then: Callable[[], object] | None) -> None:
    die_with_parent(parent)
    if then is not None:
        then()


def pool(processes: int, initializer: Callable[[], object] | None = None):
    """A pool of `processes` forked workers that die with the process that made it (`die_with_parent`);
    `initializer` runs in each worker after that. Every pool of a build is made here."""
    made = None
    try:
        with _forking():
            made = mp.get_context("fork").Pool(
                processes, initializer=_start_worker, initargs=(os.getpid(), initializer)
            )
    except BaseException:  # a Ctrl-C held during the fork arrives as the block ends: stop the workers just made
        if made is not None:
            made.terminate()
        raise
    return made


class _Relay(Progress):
    """A stage's progress sent to the parent (a message each time the whole percent changes)."""

    def __init__(self, stage: str, channel) -> None:
        self.stage, self.channel, self.last = stage, channel, -1

    def advance(self, done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if percent != self.last:
            self.last = percent
            self.channel.put((self.stage, "advance", (done, total)))

    def note(self, message: str) -> None:
        self.channel.put((self.stage, "note", message))


def _child(stage: str, work: Callable[[str, Progress], object], channel, parent: int) -> None:
    die_with_parent(parent)
    try:
        outcome = ("done", work(stage, _Relay(stage, channel)))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent, which raises it
        outcome = ("error", exc)
    finally:
        _ENDED[stage].set()
    try:
        pickle.dumps(outcome[1])
    except Exception:  # noqa: BLE001 - an unpicklable error still arrives, as its type and words
        outcome = ("error", RuntimeError(f"{type(outcome[1]).__name__}: {outcome[1]}"))
    channel.put((stage, *outcome))


def run_stages(
    stages: Sequence[str],
    work: Callable[[str, Progress], object],
    slots: int,
    show: Callable[[str], AbstractContextManager[Progress]],
) -> Iterator[tuple[str, object]]:
    """``work(stage, progress)`` for every stage at once, each in a forked process, jobs sharing `slots`
    tokens; yields (stage, result) in the order of `stages`, each stage's progress shown in ``show(stage)``
    meanwhile. A stage's exception is raised here, in order, after the other stages are stopped."""
    global _TOKENS
    ctx = mp.get_context("fork")
    channel = ctx.Queue()
    _TOKENS = Tokens(ctx, max(1, slots), max(1, slots // 2))
    _ENDED.update({s: ctx.Event() for s in stages})
    procs = {s: ctx.Process(target=_child, args=(s, work, channel, os.getpid()), name=f"hexwright {s}") for s in stages}
    try:
        with _forking():
            for p in procs.values():
                p.start()
        seen: dict[str, dict] = {s: {} for s in stages}
        for stage in stages:
            with show(stage) as progress:
                _replay(seen[stage], progress)
                while "done" not in seen[stage] and "error" not in seen[stage]:
                    _receive(channel, seen, stage, procs[stage], progress)
            procs[stage].join()
            if "error" in seen[stage]:
                raise seen[stage]["error"]
            yield stage, seen[stage]["done"]
    finally:
        _TOKENS = None
        _ENDED.clear()
        for p in procs.values():
            if p.is_alive():
                p.terminate()
            if p.pid is not None:
                p.join()


def _replay(state: dict, progress: Progress) -> None:
    if "note" in state:
        progress.note(state["note"])
    if "advance" in state:
        progress.advance(*state["advance"])


def _receive(channel, seen: dict[str, dict], current: str, proc, progress: Progress) -> None:
    """Take one message (or notice that the current stage's process died without a word)."""
    try:
        stage, kind, value = channel.get(timeout=0.5)
    except queues.Empty:
        if not proc.is_alive() and proc.exitcode is not None:
            try:
                stage, kind, value = channel.get(timeout=0.5)  # its last words may still be in flight
            except queues.Empty:
                seen[current]["error"] = RuntimeError(f"the {current} stage stopped (exit code {proc.exitcode})")
                return
        else:
            return
    seen[stage][kind] = value
    if stage == current and kind == "advance":
        progress.advance(*value)
    elif stage == current and kind == "note":
        progress.note(value)
