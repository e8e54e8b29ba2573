"""Saves become page updates: watchfiles' native events reload the game, and a `Hub` tells every open page
by a server-sent event carrying the game's new generation."""

from __future__ import annotations

import asyncio
import gc
import json
from pathlib import Path

from starlette.requests import Request
from watchfiles import awatch

from authoring.serve.drawn import prewarm, prewarm_picture
from authoring.serve.session import Session

DATA_FOLDERS = ("maps", "counters", "scenarios")
STEP_MS = 30
"""How long watchfiles waits for more events after one before it reports (an editor's save is several)."""
IDLE_S = 3.0
"""Seconds without a save after which the heap is collected (`Quiet`)."""


class Hub:
    """The open pages' event queues."""

    def __init__(self) -> None:
        self.queues: set[asyncio.Queue] = set()

    def publish(self, event: dict | None) -> None:
        for q in list(self.queues):
            q.put_nowait(event)

    def close(self) -> None:
        """End every open stream (a server stopping without a signal, as in the tests, is not waited for)."""
        self.publish(None)

    async def stream(self, request: Request):
        q: asyncio.Queue = asyncio.Queue()
        self.queues.add(q)
        try:
            yield {"event": "hello", "data": "{}"}
            while (event := await q.get()) is not None:
                yield {"event": "update", "data": json.dumps(event)}
        finally:
            self.queues.discard(q)


class Quiet:
    """Keeps Python's full collections out of a save's way. One walks every live object (a large game's models,
    scenes and tiles: half a million, 0.3-0.7 s on a busy machine) and may fall in the middle of a save. So
    before each save everything alive is frozen out of the collector's walk (`gc.freeze`; reference counts still
    free what is no longer used), and the heap is collected whole once the saves pause for `IDLE_S`."""

    def __init__(self) -> None:
        self.timer: asyncio.Task | None = None

    def saving(self) -> None:
        gc.freeze()
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.create_task(self._later())

    async def _later(self) -> None:
        await asyncio.sleep(IDLE_S)
        await asyncio.to_thread(_collect)

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        gc.unfreeze()


def _collect() -> None:
    gc.unfreeze()
    gc.collect()
    gc.freeze()


async def watch(session: Session, hub: Hub) -> None:
    """Reload each loaded game whose files changed, then publish its generation."""
    folders = [session.root / f for f in DATA_FOLDERS if (session.root / f).is_dir()]
    if not folders:
        return
    quiet = Quiet()
    try:
        await _follow(session, hub, folders, quiet)
    finally:
        quiet.close()


async def _follow(session: Session, hub: Hub, folders: list[Path], quiet: Quiet) -> None:
    drawing: set[asyncio.Task] = set()  # held until done (the loop keeps only weak references to tasks)
    async for changes in awatch(*folders, step=STEP_MS, debounce=400, recursive=True):
        games = sorted({gid for _change, path in changes for gid in session.affected(Path(path))})
        if games:
            quiet.saving()
        for gid in games:
            st = await asyncio.to_thread(session.reload, gid)
            if st is not None:
                if not st.errors:  # the changed tiles drawn before the pages ask (a few, unless much changed)
                    await asyncio.to_thread(prewarm_picture, session, gid)
                hub.publish({"game": gid, "gen": st.gen, "ok": not st.errors})
                task = asyncio.create_task(asyncio.to_thread(prewarm, session, gid))  # the rest made ahead
                drawing.add(task)
                task.add_done_callback(drawing.discard)
