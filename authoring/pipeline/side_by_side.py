"""Stages side by side, sharing the cores: how `build all` keeps every core busy without holding more in memory.

Each stage splits its drawing over a pool of workers, but also has serial parts (writing the module's
set-ups and archive, laying out the sheet index, the charts), during which one stage alone leaves cores
idle. `run_stages` runs the stages at once, each in a forked process, their heavy jobs sharing the build's
job tokens (`workers.Tokens`): a stage's serial part runs while the others' jobs keep the cores busy.
Progress and results come back over a queue and are shown stage by stage, in order, as a one-stage-at-a-time
run shows them; a stage can wait for another running beside it (the module for the cards stage's pages),
through the events its `BuildContext` carries.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import queue as queues
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager

from authoring.pipeline.context import BuildContext
from authoring.progress import Progress
from authoring.workers import die_with_parent, forking, make_tokens

Work = Callable[[str, BuildContext], object]
"""``work(stage, context)``: one stage, its progress in `context.progress`."""


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


def _child(stage: str, work: Work, context: BuildContext, channel, parent: int) -> None:
    die_with_parent(parent)
    try:
        outcome = ("done", work(stage, context.for_stage(_Relay(stage, channel))))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent, which raises it
        outcome = ("error", exc)
    finally:
        context.beside[stage].set()
    try:
        pickle.dumps(outcome[1])
    except Exception:  # noqa: BLE001 - an unpicklable error still arrives, as its type and words
        outcome = ("error", RuntimeError(f"{type(outcome[1]).__name__}: {outcome[1]}"))
    channel.put((stage, *outcome))


def run_stages(
    stages: Sequence[str],
    work: Work,
    context: BuildContext,
    show: Callable[[str], AbstractContextManager[Progress]],
) -> Iterator[tuple[str, object]]:
    """``work(stage, context)`` for every stage at once, each in a forked process, jobs sharing one token per
    worker of `context.workers`; yields (stage, result) in the order of `stages`, each stage's progress shown
    in ``show(stage)`` meanwhile. The first stage to fail has its exception raised here as soon as it comes,
    and the other stages are stopped."""
    ctx = mp.get_context("fork")
    channel = ctx.Queue()
    together = context.side_by_side(make_tokens(context.workers.processes), {s: ctx.Event() for s in stages})
    procs = {
        s: ctx.Process(target=_child, args=(s, work, together, channel, os.getpid()), name=f"hexwright {s}")
        for s in stages
    }
    try:
        with forking():
            for p in procs.values():
                p.start()
        seen: dict[str, dict] = {s: {} for s in stages}
        for stage in stages:
            with show(stage) as progress:
                _replay(seen[stage], progress)
                while "done" not in seen[stage]:
                    _raise_first_error(seen, stages)
                    _receive(channel, seen, stage, procs[stage], progress)
            procs[stage].join()
            yield stage, seen[stage]["done"]
    finally:
        for p in procs.values():
            if p.is_alive():
                p.terminate()
            if p.pid is not None:
                p.join()


def _raise_first_error(seen: dict[str, dict], stages: Sequence[str]) -> None:
    """A stage failed: raise its error at once, whichever stage is being shown. The others are then stopped
    (`run_stages`' finally); waiting for them could wait forever, for a job token a stopped worker held or
    for pages a failed stage will never draw."""
    failed = next((s for s in stages if "error" in seen[s]), None)
    if failed is not None:
        raise seen[failed]["error"]


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
