"""Run hexwright with a real terminal attached (a pseudo-terminal), as a designer does.

Piped runs never draw progress bars, so only a run under a pty exercises them."""

from __future__ import annotations

import fcntl
import hashlib
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class TerminalRun:
    returncode: int
    output: str  # stdout and stderr as the terminal showed them, escape sequences included


def run_in_terminal(*args: str, cwd: Path = ROOT, timeout: float = 300) -> TerminalRun:
    """`hexwright ARGS` with stdin, stdout and stderr on a 120x40 pseudo-terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "authoring.cli", *args],
        cwd=cwd,
        env=env,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not chunk:
                    break
                chunks.append(chunk)
            elif proc.poll() is not None:
                break
        else:
            proc.kill()
            raise TimeoutError(f"hexwright {' '.join(args)} ran past {timeout} s")
        code = proc.wait(timeout=30)
    finally:
        os.close(master)
    return TerminalRun(code, b"".join(chunks).decode("utf-8", "replace"))


def piped(*args: str, cwd: Path = ROOT, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "authoring.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def tree_digest(folder: Path) -> dict[str, str]:
    """Every file under `folder` (relative path -> SHA-256), hexwright's image cache and the stamps left out (they
    are sealed for the very file they stamp, which another build replaces); a module's manifest without its seal."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(_unsealed(p)).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and ".cache" not in p.relative_to(folder).parts
        and not (p.name.startswith(".") and p.name.endswith(".digest"))
    }


def _unsealed(path: Path) -> bytes:
    if not path.name.endswith(".manifest.json"):
        return path.read_bytes()
    import json

    return json.dumps({k: v for k, v in json.loads(path.read_text()).items() if k != "seal"}, sort_keys=True).encode()
