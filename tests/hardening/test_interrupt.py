"""A Ctrl-C behind an error is answered as the Ctrl-C (`interrupt.behind`): heard while the command ran, or
kept by a library as the cause or context of the error it raised in its place."""

from __future__ import annotations

import pytest

from authoring.interrupt import Heard, behind


def test_a_ctrl_c_kept_as_the_cause_or_context_is_found():
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ImportError("numpy._core.multiarray failed to import")  # noqa: B904 - as the library does
    except ImportError as exc:
        assert behind(exc)
    assert not behind(ImportError("no module named x"))


def test_a_ctrl_c_heard_while_the_command_ran_explains_any_error():
    heard = Heard()
    error = ImportError("numpy._core.multiarray failed to import")  # the C extension printed the interrupt
    assert not behind(error, heard)
    with pytest.raises(KeyboardInterrupt):
        heard(2, None)
    assert heard.times == 1 and behind(error, heard)


CTRL_C_IN_A_FINALISER = """
import gc, os, signal, sys
sys.argv = ["hexwright", "version-of-a-finaliser"]
import click
import importlib
cli = importlib.import_module("authoring.cli.main")


class Held:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C arrives while the garbage collector runs a finaliser


@cli.main.command("version-of-a-finaliser")
def lose():
    a, b = Held(), Held()
    a.other, b.other = b, a  # a cycle: only the collector frees it, and drops what its finaliser raises
    del a, b
    gc.collect()
    click.echo("done")


cli.main(standalone_mode=True)
"""


def test_a_ctrl_c_a_finaliser_dropped_still_ends_as_interrupted(tmp_path):
    """The CI run's case: Ctrl-C while multiprocessing's heap ran a finaliser. Python drops an exception
    raised there with an "Exception ignored" traceback, and the command went on to exit 0."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    r = subprocess.run(
        [sys.executable, "-c", CTRL_C_IN_A_FINALISER], cwd=root, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 130, r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr, r.stderr
    assert r.stderr.strip().splitlines()[-1] == "interrupted", r.stderr
