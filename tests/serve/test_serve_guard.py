"""The preview as a local web server should be (issue 47): it answers only the names of the address it listens
on, its data only to its own pages, and a POST body only as bounded JSON of the export's shape; every
refusal is a short message with its status, never a 500. Starlette's TestClient, without a browser."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serve_support import copy_game

PORT = 8737
OWN = f"http://127.0.0.1:{PORT}"
JSON = {"Origin": OWN, "Content-Type": "application/json"}
EXPORT = {"game": "bfm", "scenario": "seven-turn", "side": "soviet", "rows": [{"hex": "0103", "unit": "sov-29"}]}


pytestmark = pytest.mark.slow  # the app's guards answering whole requests


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return copy_game("bfm", tmp_path_factory.mktemp("guard"))


def _client(project, listen: str = "127.0.0.1", server: str = "127.0.0.1"):
    """A client of the app (no lifespan: nothing drawn ahead), its requests arriving at `server`:PORT."""
    from starlette.testclient import TestClient

    from authoring.serve.app import make_app
    from authoring.serve.session import Session

    app = make_app(Session(project, "bfm"), watch_files=False, listen=listen)
    return TestClient(app, base_url=f"http://{server}:{PORT}")


@pytest.fixture(scope="module")
def client(project):
    return _client(project)


def _export(client, body, **headers):
    content = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post("/api/export", content=content, headers={**JSON, **headers})


@pytest.mark.parametrize("host", ["evil.example.com", f"evil.example.com:{PORT}", "127.0.0.1", "127.0.0.1:80", "::1"])
@pytest.mark.parametrize("path", ["/api/view?game=bfm", "/", "/static/common.js", "/events"])
def test_a_foreign_host_is_misdirected(client, host, path):
    """The issue's example (`curl -H 'Host: evil.example.com' .../api/view?game=bfm` answered 200): a name
    other than the listening address's, or that address on another port, is 421 on every route."""
    r = client.get(path, headers={"Host": host})
    assert r.status_code == 421 and "answers only the names of its own address" in r.json()["error"], r.text


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LocalHost", "[::1]"])
def test_the_loopback_names_with_the_port_are_answered(client, host):
    r = client.get("/api/view?game=bfm", headers={"Host": f"{host}:{PORT}"})
    assert r.status_code == 200 and r.json()["game"] == "bfm"


def test_a_remote_listener_answers_its_own_address_and_not_other_names(project):
    lan = _client(project, listen="192.168.1.5", server="192.168.1.5")
    assert lan.get("/api/games").status_code == 200
    assert lan.get("/api/games", headers={"Host": "box.example.com:8737"}).status_code == 421
    anywhere = _client(project, listen="0.0.0.0", server="10.1.2.3")  # the address the request arrived at
    assert anywhere.get("/api/games").status_code == 200
    assert anywhere.get("/api/games", headers={"Host": f"10.9.9.9:{PORT}"}).status_code == 421


@pytest.mark.parametrize(
    "path", ["/api/view?game=bfm", "/api/games", "/api/counters?game=bfm", "/img/tile/bfm/x.png", "/events"]
)
@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example.com"},
        {"Origin": f"http://localhost:{PORT}"},  # another origin of the same server
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ],
)
def test_data_and_the_event_stream_refuse_another_origin(client, path, headers):
    r = client.get(path, headers=headers)
    assert r.status_code == 403 and "only to its own pages" in r.json()["error"], r.text


@pytest.mark.parametrize(
    "headers", [{}, {"Origin": OWN}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}]
)
def test_data_is_answered_to_the_own_page_and_to_curl(client, headers):
    assert client.get("/api/view?game=bfm", headers=headers).status_code == 200


@pytest.mark.parametrize("path", ["/", "/counters", "/static/map.js", "/favicon.ico"])
def test_the_pages_own_files_can_be_linked_from_anywhere(client, path):
    """A link from another site opens the preview; its data then comes to its own page only."""
    assert client.get(path, headers={"Sec-Fetch-Site": "cross-site"}).status_code in (200, 204)


def test_the_export_answers_its_own_page(client):
    r = _export(client, EXPORT)
    assert r.status_code == 200 and r.json()["name"] == "setup.seven-turn.soviet.csv"
    assert r.json()["csv"].splitlines()[1] == "0103,sov-29,"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example.com", "Content-Type": "text/plain"},  # a form or no-cors fetch elsewhere
        {"Origin": "http://evil.example.com"},
        {"Origin": OWN, "Sec-Fetch-Site": "cross-site"},
        {"Origin": None},  # a write without Origin comes from no browser page
    ],
)
def test_a_cross_origin_post_is_refused(client, headers):
    r = client.post(
        "/api/export", content=json.dumps(EXPORT), headers={k: v for k, v in {**JSON, **headers}.items() if v}
    )
    assert r.status_code == 403, r.text


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""])
def test_a_post_that_is_not_json_is_unsupported(client, kind):
    r = _export(client, EXPORT, **{"Content-Type": kind})
    assert r.status_code == 415 and "application/json" in r.json()["error"], r.text


def test_a_json_content_type_with_a_charset_is_json(client):
    assert _export(client, EXPORT, **{"Content-Type": "application/json; charset=utf-8"}).status_code == 200


def test_an_oversize_body_is_refused_by_its_length(client):
    r = _export(client, {**EXPORT, "pad": "x" * (2 << 20)})
    assert r.status_code == 413 and "larger than 1024 KiB" in r.json()["error"]


def test_an_oversize_body_without_a_length_is_refused_as_it_comes(client):
    """100 MB sent in 1 MiB chunks without a Content-Length: refused once past the limit, the rest never read
    (TestClient reads a body whole before sending it, so the app is called as the server calls it)."""
    import asyncio

    read, answer = [], []

    async def receive():
        read.append(1)
        return {"type": "http.request", "body": b" " * (1 << 20), "more_body": len(read) < 100}

    async def send(message):
        answer.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/export",
        "raw_path": b"/api/export",
        "query_string": b"",
        "headers": [
            (b"host", f"127.0.0.1:{PORT}".encode()),
            *[(k.lower().encode(), v.encode()) for k, v in JSON.items()],
        ],
        "server": ("127.0.0.1", PORT),
        "client": ("127.0.0.1", 50000),
        "scheme": "http",
        "http_version": "1.1",
        "root_path": "",
    }
    asyncio.run(client.app(scope, receive, send))
    assert answer[0]["status"] == 413 and len(read) == 2, (answer[0], len(read))


@pytest.mark.parametrize("depth", [17, 100, 100_000])
def test_deep_nesting_is_a_bad_request(client, depth):
    r = _export(client, "[" * depth + "]" * depth)
    assert r.status_code == 400 and "nests deeper than 16 levels" in r.json()["error"], r.text[:300]
    r = _export(
        client, {**EXPORT, "rows": [{"hex": "0103", "unit": "sov-29", "state": json.loads("[" * 12 + "]" * 12)}]}
    )
    assert r.status_code == 400 and "rows/0/state" in r.json()["error"], r.text[:300]


@pytest.mark.parametrize(
    "body, said",
    [
        ({"rows": 5}, "is a required property"),  # the two 500s
        ({"rows": None}, "is a required property"),
        ({**EXPORT, "rows": 5}, "rows: 5 is not of type 'array'"),
        ({**EXPORT, "rows": None}, "rows: None is not of type 'array'"),
        ({**EXPORT, "rows": [5]}, "rows/0: 5 is not of type 'object'"),
        ({**EXPORT, "rows": [{"hex": "0103"}]}, "rows/0: 'unit' is a required property"),
        ({**EXPORT, "rows": [{"hex": [], "unit": "sov-29"}]}, "rows/0/hex"),
        ({**EXPORT, "rows": [{"hex": "0103", "unit": "../x"}]}, "rows/0/unit"),
        ({**EXPORT, "side": 7}, "side: 7 is not of type 'string'"),
        ({**EXPORT, "extra": 1}, "Additional properties are not allowed ('extra' was unexpected)"),
        ([EXPORT], "is not of type 'object'"),
        ('{"game": NaN}', "NaN is not a JSON number"),
        ("{not json", "the body is not JSON"),
        (b"\xff\xfe{", "the body is not JSON"),
        ("", "the body is not JSON"),
        ('{"n": ' + "9" * 5000 + "}", "the body is not JSON"),
    ],
)
def test_a_body_off_the_schema_is_a_bad_request_with_its_place(client, body, said):
    r = _export(client, body)
    assert r.status_code == 400 and said in r.json()["error"], r.text[:300]


def test_names_not_in_the_game_are_not_found(client):
    r = _export(client, {**EXPORT, "side": "martians"})
    assert r.status_code == 404 and "no side 'martians'" in r.json()["error"]


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
_rows = st.lists(st.fixed_dictionaries({"hex": _json, "unit": _json}, optional={"state": _json}), max_size=4)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=_json
    | st.fixed_dictionaries({"game": st.just("bfm"), "scenario": _json, "side": _json, "rows": _rows | _json})
)
def test_no_body_is_a_server_error(client, body):
    assert _export(client, body).status_code in (200, 400, 404)
