"""A POST body as the preview accepts it: JSON (415 otherwise), at most `MAX_BODY` bytes read as they come
(413), nested at most `MAX_DEPTH` deep and shaped as its JSON Schema says (400 with the place and the
reason). So a hostile or broken body is a short message, never a 500 or a server holding 100 MB."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from starlette.requests import Request

from authoring.schema.documents import inline_document

MAX_BODY = 1 << 20
"""Bytes of a POST body (a card export of every counter of the largest game is about 60 KB)."""
MAX_DEPTH = 16
"""Nesting of objects and arrays in a POST body (an export is three deep)."""
SCHEMAS = Path(__file__).parent
"""The request bodies' schemas (`<name>.schema.json`), beside the routes that read them; they point into
schemas/common.schema.json for ids and hex ids, as the data files' schemas do."""


class BadRequest(ValueError):
    """A request refused with `status` and a message for the page (or curl) to show."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def json_body(request: Request, schema: str) -> dict:
    """The request's JSON body, checked against `SCHEMAS/<schema>.schema.json`."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise BadRequest(415, f"the body must be JSON (Content-Type: application/json), not {kind or 'untyped'!r}")
    data = _parse(await _read(request))
    _check_depth(data)
    _check_schema(data, schema)
    return data


async def _read(request: Request) -> bytes:
    too_big = BadRequest(413, f"the body is larger than {MAX_BODY // 1024} KiB")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise too_big
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise too_big
        chunks.append(chunk)
    return b"".join(chunks)


def _parse(body: bytes):
    try:
        return json.loads(body, parse_constant=_no_constant)
    except RecursionError:
        raise BadRequest(400, f"the body nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # also bad UTF-8 and numbers of more than 4300 digits
        raise BadRequest(400, f"the body is not JSON: {exc}") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _check_depth(data) -> None:
    """Refuse objects and arrays nested deeper than `MAX_DEPTH` (looked at no deeper than that)."""
    level = [data]
    for _ in range(MAX_DEPTH):
        level = [v for x in level if isinstance(x, dict | list) for v in (x.values() if isinstance(x, dict) else x)]
        if not level:
            return
    if any(isinstance(x, dict | list) for x in level):
        raise BadRequest(400, f"the body nests deeper than {MAX_DEPTH} levels")


def _check_schema(data, schema: str) -> None:
    from jsonschema.exceptions import best_match

    error = best_match(_validator(schema).iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the body"
        raise BadRequest(400, f"{where}: {_short(error.message)}")


def _short(message: str, limit: int = 200) -> str:
    """jsonschema's message cut to `limit` characters (it quotes the whole offending value)."""
    return message if len(message) <= limit else message[: limit - 3] + "..."


@cache
def _validator(schema: str):
    """The validator of a bundled schema by name; process-wide: the bundled schemas no process writes."""
    from jsonschema import Draft202012Validator

    doc = json.loads((SCHEMAS / f"{schema}.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(inline_document(doc))
