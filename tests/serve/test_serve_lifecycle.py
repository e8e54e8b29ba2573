"""Ctrl-C stops `hexwright serve` at once with one line, whatever it is doing: an open event stream, a request
still coming in, a picture being drawn. It waited for open requests, then printed a CancelledError traceback each
(issue 47: 72 s during a long export)."""

from __future__ import annotations

import os
import signal
import socket
import sys

import pytest
from processes import spawn
from serve_support import copy_game

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="Ctrl-C to a process group is POSIX's"),
]  # slow: subprocess lifecycles of a server


def _request(port: int, head: str, body: bytes = b"") -> socket.socket:
    """A connection that has sent `head` and `body` and waits (for the answer, or to send the rest)."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=60)
    conn.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
    return conn


def _until(conn: socket.socket, text: bytes) -> bool:
    """Read the answer until `text` comes (True) or the connection ends (False)."""
    got = b""
    while text not in got:
        chunk = conn.recv(4096)
        if not chunk:
            return False
        got += chunk
    return True


def test_ctrl_c_stops_at_once_with_one_line(tmp_path):
    """Typhoon, whose first set-up card takes seconds to draw (in a thread, which nothing can stop)."""
    project = copy_game("typhoon", tmp_path)
    serve = spawn(
        [sys.executable, "-m", "authoring.cli", "serve", "typhoon", "--project", str(project), "--port", "0"],
        new_session=True,
    )
    try:
        announce = serve.stderr.readline()
        assert announce.startswith("hexwright serve: http://127.0.0.1:"), announce + serve.stderr.read()
        port = int(announce.split("http://127.0.0.1:")[1].split("/")[0])
        own = f"Host: 127.0.0.1:{port}\nOrigin: http://127.0.0.1:{port}\n"
        events = _request(port, f"GET /events HTTP/1.1\n{own}")
        assert _until(events, b"event: hello")
        export = _request(  # a body announced and only begun: the request stays open
            port,
            f"POST /api/export HTTP/1.1\n{own}Content-Type: application/json\nContent-Length: 1000\n",
            b'{"game": "',
        )
        drawing = _request(port, f"GET /img/card/typhoon/0/campaign/axis/count HTTP/1.1\n{own}")
        answered = _request(port, f"GET /api/games HTTP/1.1\n{own}")  # so the card's request has been read
        assert _until(answered, b'"default"')
        os.killpg(serve.pid, signal.SIGINT)  # the whole group, as a terminal's Ctrl-C
        _, err = serve.communicate(timeout=60)
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
    for conn in (events, export, drawing, answered):
        conn.close()
    assert serve.returncode == 130, err
    assert err == "interrupted\n", err
