"""Who the preview answers: its own address, and for its data its own pages.

A page elsewhere can reach a server on this machine two ways. By DNS rebinding, its own name made to point
at 127.0.0.1: the request then carries that name in `Host`, so only the names of the address the server
listens on are answered (421 otherwise). By a request from its own origin: the browser names that origin
in `Origin` (and `Sec-Fetch-Site`), so every route but the pages' own files (the HTML, scripts, styles)
answers only the preview's origin or a request without one, as curl makes (403 otherwise). A request that
writes (any method but GET and HEAD) must name the preview's origin: every browser sends `Origin` with one.

Starlette's `TrustedHostMiddleware` compares the name without the port (and misreads `[::1]:8737`), and
answers 400; this one compares the whole `Host` value."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARDS = ("0.0.0.0", "::", "")
READS = frozenset({"GET", "HEAD"})
SAME = frozenset({"same-origin", "none"})
"""`Sec-Fetch-Site` values of the preview's own requests and of an address typed into the browser."""


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or `localhost`) answers this machine only."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(host: str) -> str:
    """`host` as a `Host` header names it: IPv6 addresses in brackets, lower case."""
    host = host.lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


class Guard:
    """ASGI middleware: the `Host` check on every request, the `Origin` check on every one outside `open_paths`
    (exact paths) and `open_prefixes`."""

    def __init__(
        self, app: ASGIApp, listen: str, open_paths: Iterable[str] = (), open_prefixes: Iterable[str] = ()
    ) -> None:
        self.app = app
        names = set(LOOPBACK_NAMES)
        if listen not in WILDCARDS:
            names.add(host_name(listen))
        self.names = frozenset(names)
        self.open_paths = frozenset(open_paths)
        self.open_prefixes = tuple(open_prefixes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "").lower()
        refusal = self._host_refusal(scope, host) or self._origin_refusal(scope, headers, host)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await JSONResponse({"error": refusal[1]}, refusal[0])(scope, receive, send)

    def _host_refusal(self, scope: Scope, host: str) -> tuple[int, str] | None:
        """421 unless `Host` is one of the listening address's names (or the address the request came to)."""
        server = scope.get("server") or ("", 80)
        port = server[1]
        names = self.names | {host_name(str(server[0]))} if server[0] else self.names
        if host in {f"{n}:{port}" for n in names} or (port == 80 and host in names):
            return None
        return (
            421,
            f"hexwright serve answers only the names of its own address (such as localhost:{port}), not {host!r}",
        )

    def _origin_refusal(self, scope: Scope, headers: Headers, host: str) -> tuple[int, str] | None:
        """403 for a request of another site (its `Origin` or `Sec-Fetch-Site`), and for a write without `Origin`."""
        path = scope.get("path", "")
        if path in self.open_paths or path.startswith(self.open_prefixes):
            return None
        origin = headers.get("origin")
        site = headers.get("sec-fetch-site")
        if origin is not None and origin.lower() != f"http://{host}":
            return 403, f"hexwright serve answers its data only to its own pages, not to {origin!r}"
        if site is not None and site.lower() not in SAME:
            return 403, f"hexwright serve answers its data only to its own pages, not to a {site} request"
        if origin is None and scope.get("method", "GET") not in READS:
            return 403, "a request that writes must come from the preview's own page (it has no Origin header)"
        return None
