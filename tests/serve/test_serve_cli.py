"""`hexwright serve` refuses what it cannot serve with a usage message (exit 2), never a traceback."""

from __future__ import annotations

import socket

from click.testing import CliRunner
from serve_support import ROOT


def _run(*args: str):
    from authoring.cli.main import main

    return CliRunner().invoke(main, ["serve", *args, "--project", str(ROOT)])


def test_unknown_game_is_a_usage_error():
    r = _run("bfn")
    assert r.exit_code == 2 and "did you mean 'bfm'" in r.output


def test_a_port_in_use_says_so():
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        r = _run("bfm", "--port", str(held.getsockname()[1]))
    assert r.exit_code == 2 and "cannot listen on 127.0.0.1:" in r.output and "--port" in r.output
    assert "Traceback" not in r.output
