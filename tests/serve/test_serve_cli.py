"""`hexwright serve` refuses what it cannot serve with a message (exit 2; exit 1 for an address other machines reach
without --allow-remote), never a traceback."""

from __future__ import annotations

import socket
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from serve_support import ROOT

pytestmark = pytest.mark.slow  # a live server


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


@contextmanager
def _taken():
    """A port taken on every address, IPv4 and IPv6 (one dual-stack socket where the machine has IPv6)."""
    try:
        held = socket.socket(socket.AF_INET6)
        held.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        held.bind(("::", 0))
    except OSError:
        held = socket.socket()
        held.bind(("0.0.0.0", 0))
    with held:
        held.listen()
        yield held.getsockname()[1]


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "box.example.com"])
def test_an_address_other_machines_reach_needs_allow_remote(host):
    """`--host 0.0.0.0` or `::` served the game's data to the network without a word (issue 47). (The port is
    taken, so that a server which did start would stop at once.)"""
    with _taken() as port:
        r = _run("bfm", "--host", host, "--port", str(port))
    assert r.exit_code == 1 and "would let other machines read the game's data" in r.output, r.output
    assert "--allow-remote" in r.output and "Traceback" not in r.output


def test_allow_remote_warns():
    """With the flag the server starts (here it cannot: the port is taken) after a warning naming the address."""
    with _taken() as port:
        r = _run("bfm", "--host", "0.0.0.0", "--allow-remote", "--port", str(port))
    assert f"warning: listening on 0.0.0.0:{port}: every machine that reaches this one" in r.output, r.output
    assert r.exit_code == 2 and "cannot listen on 0.0.0.0:" in r.output


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
def test_loopback_addresses_need_no_flag(host):
    from authoring.serve.guard import is_loopback

    assert is_loopback(host)
