"""Point 8 of issue 47: Ctrl-C at every point of a command's life is one line ("interrupted") and exit 130.

In the first ~0.3 s of any command (the imports) it was a 15-25 line KeyboardInterrupt traceback and exit -2;
in `watch` one landed in an import and was lost. The console script's entry (`authoring.command`) and
`python -m authoring.cli` now answer Ctrl-C before their first slow import.

Two ways to hit a point: deterministically, a `sitecustomize` on PYTHONPATH sends the process Ctrl-C as it
starts importing a chosen module (the command's start-up imports, and those the command makes once begun);
and by the clock, Ctrl-C at small delays after the spawn. What no program can answer is Python's own
start-up before the entry module runs (a few milliseconds): a Ctrl-C there kills the process before Python
has a handler (-2, nothing printed: a shell reports 130) or is a traceback of the interpreter's own frozen
modules. The clock cases accept those, never a traceback through hexwright's code or a lost Ctrl-C.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hw_support import MINI, ROOT
from processes import spawn

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals sent to a process"),
]

HOOK = """
import os, signal, sys

_AT = os.environ.get("HW_TEST_SIGINT_AT")


class _CtrlCAt:
    \"\"\"Ctrl-C to this process as it starts importing the module HW_TEST_SIGINT_AT names.\"\"\"

    def find_spec(self, name, path=None, target=None):
        if name == _AT:
            sys.meta_path.remove(self)
            os.kill(os.getpid(), signal.SIGINT)
        return None


if _AT:
    sys.meta_path.insert(0, _CtrlCAt())
"""

SCRIPT = Path(sys.executable).parent / "hexwright"
ENTRIES = {"console-script": [str(SCRIPT)], "python-m": [sys.executable, "-m", "authoring.cli"]}


@pytest.fixture(scope="module")
def hook(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sigint-hook")
    (folder / "sitecustomize.py").write_text(HOOK)
    return folder


def _one_line(code: int, err: str) -> None:
    """Exit 130 and "interrupted" as the last line of stderr (a stage's progress line may come before it)."""
    assert "Traceback" not in err and "Exception ignored" not in err, err[-3000:]
    assert code == 130, (code, err[-3000:])
    lines = err.strip().splitlines()
    assert lines and lines[-1] == "interrupted" and len(lines) <= 2, err[-3000:]


STARTUP = ("authoring.cli.main", "click", "authoring.cli.args", "authoring.cli.build", "json")
"""Imported before the command begins (its start-up): Ctrl-C ends the process at once. (The package
`authoring.cli` itself is found by Python's runpy before any of its code runs.)"""
BEGUN = ("authoring.pipeline", "authoring.load.project", "authoring.vassal.compile", "numpy._core.multiarray")
"""Imported by `build module` once it has begun: a KeyboardInterrupt, which the command answers (numpy turns
one during its import into its own ImportError, with the Ctrl-C as the cause: answered as the Ctrl-C)."""


@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is installed by `make install`")
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("module", STARTUP + BEGUN)
def test_ctrl_c_as_a_module_is_imported_is_one_line(entry: str, module: str, hook: Path, tmp_path: Path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hook), str(ROOT)]), HW_TEST_SIGINT_AT=module)
    out = tmp_path / "out"
    proc = spawn([*ENTRIES[entry], "build", "module", str(MINI), "--out", str(out)], env)
    _, err = proc.communicate(timeout=300)
    _one_line(proc.returncode, err)
    assert not list(out.rglob("*.vmod")), "the build went on after Ctrl-C"


DELAYS = (0.0, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5)
OUR_FRAME = re.compile(r'File "[^"]*[/\\]authoring[/\\][^"]*\.py"')
"""A traceback frame in one of hexwright's own source files (the console script's first import, still looking
for the package in Python's import machinery, is not one: no line of hexwright has run)."""


@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is installed by `make install`")
@pytest.mark.parametrize("entry", ENTRIES)
@pytest.mark.parametrize("delay", DELAYS)
def test_ctrl_c_soon_after_the_start_is_one_line_or_before_python(entry: str, delay: float, tmp_path: Path):
    out = tmp_path / "out"
    proc = spawn([*ENTRIES[entry], "build", "module", str(MINI), "--out", str(out)])
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    if proc.returncode == -signal.SIGINT or "Traceback" in err:  # before Python had a handler, or in its own
        assert proc.returncode != 0, err[-3000:]  # start-up (its frozen modules, the site's .pth files)
        assert not OUR_FRAME.search(err), err[
            -3000:
        ]  # never in a line of hexwright's (finding its package is Python's)
        assert "site-packages" not in err.replace("site-packages/__editable__", ""), err[-3000:]
        return
    _one_line(proc.returncode, err)


WATCH_POINTS = (
    "authoring.author.watch",
    "authoring.validate",
    "authoring.pipeline",
    "authoring.vassal.compile",
    "numpy._core.multiarray",
)
"""Imported by `watch` as it starts, checks and builds."""


@pytest.mark.parametrize("module", WATCH_POINTS)
def test_ctrl_c_as_watch_imports_is_never_lost(module: str, hook: Path, tmp_path: Path):
    """`watch` never ends by itself: a Ctrl-C it lost would leave it running to the timeout."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hook), str(ROOT)]), HW_TEST_SIGINT_AT=module)
    proc = spawn([*ENTRIES["python-m"], "watch", str(MINI), "--out", str(tmp_path / "out")], env)
    _watch_ended(proc)


@pytest.mark.parametrize("delay", (0.05, 0.2, 0.4, 0.8, 1.5, 3.0))
def test_ctrl_c_in_watch_at_any_time_ends_it(delay: float, tmp_path: Path):
    proc = spawn([*ENTRIES["python-m"], "watch", str(MINI), "--out", str(tmp_path / "out")])
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    _watch_ended(proc)


def _watch_ended(proc: subprocess.Popen) -> None:
    """`watch` stopped by Ctrl-C: "stopped watching" (exit 0) once it watches, "interrupted" (exit 130)
    before; never a traceback."""
    try:
        out, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"watch did not end after Ctrl-C:\n{out[-2000:]}\n{err[-2000:]}")
    assert "Traceback" not in err and "Exception ignored" not in err, err[-3000:]
    if proc.returncode == 0:
        assert out.strip().splitlines()[-1] == "stopped watching", out[-2000:]
    else:
        _one_line(proc.returncode, err)
