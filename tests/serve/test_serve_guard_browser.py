"""The preview refuses other sites in a real headless Chromium (issue 47). Chromium resolves `evil.example.com`
to 127.0.0.1 (`--host-resolver-rules`), as a page's own name does after DNS rebinding: a script of that page
asking its own origin reaches the preview with that name in `Host`, and is refused. A page of another
origin (a second local server under that name) posts to `/api/export` as a form would (`text/plain`,
no-cors), reads the data and opens the event stream: the server answers every one 403 (recorded at the
server, since a no-cors answer is opaque to the page)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from serve_support import Served, chrome, copy_game, wait_for

EVIL = "evil.example.com"
EXPORT = {"game": "bfm", "scenario": "seven-turn", "side": "soviet", "rows": [{"hex": "0103", "unit": "sov-29"}]}


pytestmark = pytest.mark.slow  # the browser


@pytest.fixture(scope="module")
def driver():
    d = chrome(f"--host-resolver-rules=MAP {EVIL} 127.0.0.1", "--disable-features=HttpsUpgrades")
    yield d
    d.quit()


class Recorder:
    """ASGI middleware outside the app's own: each request's method, path, Origin and answered status."""

    def __init__(self, app, seen: list) -> None:
        self.app, self.seen = app, seen

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        origin = dict(scope["headers"]).get(b"origin", b"").decode()

        async def noted(message):
            if message["type"] == "http.response.start":
                self.seen.append((scope["method"], scope["path"], origin, message["status"]))
            await send(message)

        await self.app(scope, receive, noted)


class _Blank(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>elsewhere</title><p>another site"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def served(tmp_path):
    seen: list = []
    s = Served(copy_game("bfm", tmp_path), "bfm")
    s.app.add_middleware(Recorder, seen=seen)
    with s:
        yield s, seen


def test_a_page_whose_name_points_here_reads_nothing(driver, served):
    """DNS rebinding: the page's origin is evil.example.com:PORT, which now reaches the preview."""
    s, _ = served
    driver.get(s.url("/api/view?game=bfm"))
    assert '"game":"bfm"' in driver.find_element("tag name", "body").text  # the preview's own name answers
    driver.get(f"http://{EVIL}:{s.port}/api/view?game=bfm")
    assert "answers only the names of its own address" in driver.find_element("tag name", "body").text
    script = "return fetch('/api/view?game=bfm').then(r => r.status + ' ' + r.headers.get('content-type'))"
    assert driver.execute_script(script).startswith("421 ")
    driver.get(f"http://{EVIL}:{s.port}/")
    assert "answers only the names" in driver.find_element("tag name", "body").text


def test_another_origin_can_neither_post_nor_read(driver, served):
    s, seen = served
    other = ThreadingHTTPServer(("127.0.0.1", 0), _Blank)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        driver.get(f"http://{EVIL}:{other.server_address[1]}/")
        assert "another site" in driver.find_element("tag name", "body").text
        base = s.url("")
        driver.execute_script(
            """
            const [base, body] = arguments;
            window.outcome = {};
            const note = (k) => (v) => { window.outcome[k] = String(v); };
            fetch(base + '/api/export', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},
                                         body}).then(note('form'), note('form'));
            fetch(base + '/api/export', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                         body}).then(note('json'), note('json'));
            fetch(base + '/api/view?game=bfm').then((r) => r.text()).then(note('view'), note('view'));
            const es = new EventSource(base + '/events');
            es.onopen = () => note('events')('open');
            es.onerror = () => { note('events')('error'); es.close(); };
            """,
            base,
            json.dumps(EXPORT),
        )
        wait_for(driver, "Object.keys(window.outcome).length === 4", 30)
        outcome = driver.execute_script("return window.outcome")
    finally:
        other.shutdown()
        other.server_close()
    origin = f"http://{EVIL}:{other.server_address[1]}"
    assert outcome["json"].startswith("TypeError") and outcome["view"].startswith("TypeError"), outcome
    assert outcome["events"] == "error", outcome
    theirs = [(m, p, status) for m, p, o, status in seen if o == origin]
    assert ("POST", "/api/export", 403) in theirs, seen  # the form-like post reached the server and was refused
    assert ("GET", "/api/view", 403) in theirs and ("GET", "/events", 403) in theirs, seen
    assert all(status == 403 for _, _, status in theirs), seen
