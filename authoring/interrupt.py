"""Ctrl-C before a command has begun: one line and exit 130 at once (`answer_early`, which the console entry
`authoring.command` and `python -m authoring.cli` call first), a KeyboardInterrupt again once it has begun
(`begun`, which the CLI calls as it invokes the command).

Importing the command line takes a few tenths of a second; a Ctrl-C then raised KeyboardInterrupt in
whatever module was being imported (a 15-25 line traceback, exit -2), and one raised inside a finaliser
or a library's broad `except` was lost. Before the command begins nothing has been written, so the
process ends at once; from then on the command answers a KeyboardInterrupt by stopping its workers and
removing its temporary files.

Built-in modules only (`_signal`, not `signal`, which imports `enum` first: 10 ms in which a Ctrl-C was still
a traceback), so that it is in place before the first slow import. What is left is Python's own start-up
before the entry runs, a few milliseconds no program can answer.
"""

from __future__ import annotations

import _signal as signal  # the C module `signal` wraps: the same handlers, without its imports
import os
import sys

INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (128 + SIGINT), as `cli.main` exits after an interrupt."""


def early_interrupt(signum: int, frame) -> None:
    """Ctrl-C before the command has begun: one line and exit 130, at once."""
    try:
        os.write(2, b"interrupted\n")
    except OSError:
        pass
    os._exit(INTERRUPTED)


def answer_early() -> None:
    """Ctrl-C ends the process at once until `begun`. Left alone where it is ignored (a job started in the
    background, or under nohup, inherits Ctrl-C ignored and keeps it so, as Python does) or taken by
    another handler (a test)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, early_interrupt)


class Heard:
    """Ctrl-C once the command has begun: counted, then raised as KeyboardInterrupt as Python's own handler
    does. The count lets the command answer an error that a Ctrl-C caused as the Ctrl-C: a C extension's
    import (numpy's `import_array`) prints a KeyboardInterrupt and raises an ImportError in its place."""

    def __init__(self) -> None:
        self.times = 0
        self.lost = 0

    def __call__(self, signum: int, frame) -> None:
        self.times += 1
        raise KeyboardInterrupt

    def unraisable(self, unraisable, keep=None) -> None:
        """`sys.unraisablehook` while the command runs: a KeyboardInterrupt raised where Python cannot pass it
        on (a finaliser run by the garbage collector, as multiprocessing's shared-memory heap has) is counted
        as `lost`, with no "Exception ignored" traceback, so that the command still ends as interrupted.
        Anything else goes to the hook that was in place."""
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            self.lost += 1
            return
        (keep or sys.__unraisablehook__)(unraisable)


def begun() -> Heard:
    """The command begins: Ctrl-C raises KeyboardInterrupt again, which it answers (if `answer_early` had
    taken it, or Python's own handler is in place); the returned `Heard` counts them."""
    heard = Heard()
    if signal.getsignal(signal.SIGINT) in (early_interrupt, signal.default_int_handler):
        signal.signal(signal.SIGINT, heard)
        keep = sys.unraisablehook
        sys.unraisablehook = lambda unraisable: heard.unraisable(unraisable, keep)
    return heard


def behind(exc: BaseException, heard: Heard | None = None) -> bool:
    """Whether a Ctrl-C lies behind `exc`: one was `heard` while the command ran, or a library that turned
    it into an error of its own kept it as the cause or context. The command answers it as the Ctrl-C it
    was, not as a bug."""
    if heard is not None and heard.times:
        return True
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen:
        if isinstance(found, KeyboardInterrupt):
            return True
        seen.add(id(found))
        found = found.__cause__ or found.__context__
    return False
