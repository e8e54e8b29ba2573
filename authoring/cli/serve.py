"""`hexwright serve`: the live preview in the browser. Thin (house style 2)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from types import MappingProxyType

import click

from authoring.cli.args import GAME_HELP, game_argument, project_option, select

DEFAULT_PORT = 8737
OPEN_AT = MappingProxyType({"0.0.0.0": "127.0.0.1", "::": "[::1]"})
"""The address to open for a server listening on every address (a browser refuses 0.0.0.0 itself)."""


@click.command(name="serve", epilog=GAME_HELP)
@game_argument
@project_option
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=DEFAULT_PORT,
    show_default=True,
    help="TCP port (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; the default answers this machine only (another needs --allow-remote).",
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Let --host be an address other machines reach (0.0.0.0, ::, a LAN address): they can then read the game.",
)
def serve_cmd(game: str | None, project: Path, port: int, host: str, allow_remote: bool) -> None:
    """A live preview of GAME in the browser: the map with a scenario's set-up and its findings, counters, cards
    and charts, redrawn on every save of a data or art file."""
    from authoring.serve.guard import host_name, is_loopback

    shown = host_name(host)
    if not is_loopback(host):
        _remote(shown, port, allow_remote)
    root, games = select(project, game)
    server = _server(root, games[0].id if game else None, host, port)

    @_after_start(server)
    def announce(bound: int) -> None:
        click.echo(
            f"hexwright serve: http://{OPEN_AT.get(host, shown)}:{bound}/ ({'all games' if not game else games[0].id}; Ctrl-C to stop)",
            err=True,
        )

    try:
        server.run()
    except SystemExit:
        if server.started:
            raise
    if not server.started:  # uvicorn has logged why (the address in use, no permission)
        click.echo(
            f"hexwright serve: cannot listen on {shown}:{port}\n"
            "  = help: choose another port with --port (0 picks a free one)",
            err=True,
        )
        sys.exit(2)


def _remote(shown: str, port: int, allowed: bool) -> None:
    """Refuse an address other machines reach unless --allow-remote says so (exit 1), and warn when it does."""
    if not allowed:
        click.echo(
            f"error: --host {shown} would let other machines read the game's data and files\n"
            f"  = help: add --allow-remote to mean it, or leave --host out (127.0.0.1: this machine only)",
            err=True,
        )
        sys.exit(1)
    click.echo(
        f"warning: listening on {shown}:{port}: every machine that reaches this one can read the game's data",
        err=True,
    )


def _server(root: Path, game: str | None, host: str, port: int):
    """uvicorn's server for the app, stopped at once by Ctrl-C or SIGTERM (`_Server`)."""
    import uvicorn

    from authoring.serve.app import make_app
    from authoring.serve.session import Session

    app = make_app(Session(root, game), listen=host)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1, proxy_headers=False
    )
    return _stopping(uvicorn.Server)(config)


def _stopping(base):
    """A uvicorn server class whose first Ctrl-C (or SIGTERM) ends the process at once, with one line.

    uvicorn would wait for open requests, then cancel them (a traceback each), and the process would then wait
    for the threads still drawing or checking an export, which cannot be stopped. Nothing the preview
    leaves unfinished needs finishing: it writes only cache entries, each to a temporary file renamed when
    whole, and a stray temporary file names this process, so the next build sweeps it."""

    class Server(base):
        def handle_exit(self, sig: int, frame) -> None:
            try:
                click.echo("interrupted" if sig == signal.SIGINT else "stopped", err=True)
            except OSError:
                pass
            os._exit(128 + sig)  # 130 for Ctrl-C, 143 for SIGTERM, as every command

    return Server


def _after_start(server):
    """Call the decorated function with the bound port once the server listens (port 0 picks one)."""

    def register(fn):
        startup = server.startup

        async def started(sockets=None):
            await startup(sockets)
            servers = getattr(server, "servers", [])
            bound = next((s.sockets[0].getsockname()[1] for s in servers if s.sockets), server.config.port)
            fn(bound)

        server.startup = started
        return fn

    return register
