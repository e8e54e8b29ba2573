"""`hexwright serve`: the live preview in the browser. Thin (house style 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring.cli.args import GAME_HELP, game_argument, project_option, select

DEFAULT_PORT = 8737


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
    help="Address to listen on; the default answers this machine only.",
)
def serve_cmd(game: str | None, project: Path, port: int, host: str) -> None:
    """A live preview of GAME in the browser: the map with a scenario's set-up and its findings, counters, cards
    and charts, redrawn on every save of a data or art file."""
    import uvicorn

    from authoring.serve.app import make_app
    from authoring.serve.session import Session

    root, games = select(project, game)
    session = Session(root, games[0].id if game else None)
    server = uvicorn.Server(
        uvicorn.Config(make_app(session), host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
    )
    shown = f"[{host}]" if ":" in host else host

    @_after_start(server)
    def announce(bound: int) -> None:
        click.echo(
            f"hexwright serve: http://{shown}:{bound}/ ({'all games' if not game else games[0].id}; Ctrl-C to stop)",
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
