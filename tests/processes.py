"""A hexwright process as the lifecycle tests start it: from the project folder, its output read as text, and
Ctrl-C answered as a terminal's foreground command has it (a suite run in the background hands its children
Ctrl-C ignored, and Python keeps it so)."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ctrl_c_answered() -> None:
    """In the child before it runs: Ctrl-C back to its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: list[str], env: dict | None = None, new_session: bool = False) -> subprocess.Popen:
    """`args` started in the project folder, standard output and error piped as text."""
    return subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        start_new_session=new_session,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_answered,
    )
