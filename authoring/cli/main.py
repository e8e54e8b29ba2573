"""The `hexwright` command. Thin (house style 2): parse options, call one library function, render, exit."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import click

from authoring import runtime
from authoring.bundled import root as bundled_root
from authoring.cli import art, author, build, check, combat, import_vmod, serve
from authoring.cli.args import GAME_HELP, Choice, choice_message, game_argument, project_option, select
from authoring.cli.output import emit
from authoring.diagnostics import has_errors
from authoring.diagnostics.text import printable
from authoring.errors import Stopped, fault, fault_help
from authoring.interrupt import begun, behind
from authoring.safepath import UnsafePath

FORMATS = ("full", "concise", "json", "sarif")
FAULT_HELP = (
    "check that the folder exists, is a folder and is writable, and that the disk has room; "
    "no half-written file was left behind"
)


def _fault_behind(exc: click.ClickException) -> str | None:
    """A build error that a fault of the machine caused (the module compiler wraps OSErrors)."""
    return fault(exc.__cause__) if exc.__cause__ is not None else None


def _fault_exit(message: str, exc: BaseException) -> None:
    """Print a fault of the machine (or a refused target) with its help, and exit 2."""
    click.echo(f"{message}\n  = help: {fault_help(exc) or FAULT_HELP}", err=True)
    sys.exit(2)


def _quiet_exit(line: str, code: int) -> None:
    """Print one line and exit with `code`: what an interrupt, a stop or a closed output ends with. The
    standard output, which may be the closed pipe, is pointed at /dev/null first, so that flushing it at
    the exit adds no second message. A further Ctrl-C or SIGTERM while it exits is ignored: the exit has begun."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(signum, signal.SIG_IGN)
        except (ValueError, OSError):  # not the main thread
            pass
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real standard output (tests capture it)
        pass
    try:
        click.echo(line, err=True)
    except OSError:
        pass
    sys.exit(code)


class _Group(click.Group):
    """Turns unexpected exceptions into a one-line message (exit 2) unless --debug is on."""

    def invoke(self, ctx: click.Context):
        heard = begun()  # from here Ctrl-C is a KeyboardInterrupt, answered below once workers and files are seen to
        try:
            done = super().invoke(ctx)
        except click.ClickException as exc:
            message = None if ctx.obj and ctx.obj.get("debug") else _fault_behind(exc)
            if message:
                _fault_exit(message, exc)
            raise
        except (click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            _quiet_exit("interrupted", 130)
        except Stopped as stop:
            _quiet_exit("stopped", 128 + stop.signum)
        except UnsafePath as exc:  # a writer met a link that would lead its file out of its folder
            click.echo(
                f"error: {exc}; nothing was written there" + (f"\n  = help: {exc.help}" if exc.help else ""), err=True
            )
            sys.exit(2)
        except BrokenPipeError:  # the reader of the output went away (`hexwright ... | head`)
            _quiet_exit("error: the output was closed before it was all written (broken pipe)", 2)
        except Exception as exc:  # noqa: BLE001 - last-resort guard
            if behind(exc, heard):  # a Ctrl-C came first: the error is what it left (a library's import)
                _quiet_exit("interrupted", 130)
            if ctx.obj and ctx.obj.get("debug"):
                raise

            message = fault(exc)
            if message:  # the machine said no (disk full, read-only, no permission): a fault, not a bug
                _fault_exit(message, exc)
            click.echo(
                f"internal error: {type(exc).__name__}: {exc}\n"
                "  = help: this is a bug in hexwright; rerun with --debug for a traceback",
                err=True,
            )
            sys.exit(2)
        if heard.lost:  # a Ctrl-C raised inside a finaliser, where Python drops it: still a Ctrl-C
            _quiet_exit("interrupted", 130)
        return done


@click.group(cls=_Group, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show a traceback on internal errors.")
@click.version_option(package_name="hexwright")
@click.pass_context
def main(ctx: click.Context, debug: bool) -> None:
    """Validate, check and build hex-and-counter wargames.

    Every command that takes a GAME accepts a game id (bfm) or a path, and --project."""
    ctx.obj = {"debug": debug}
    if ctx.invoked_subcommand is None:  # a bare `hexwright` is a request for help, not a mistake
        click.echo(ctx.get_help())


@main.command(epilog=GAME_HELP)
@game_argument
@project_option
@click.option("--format", "fmt", type=Choice(FORMATS), default="full", show_default=True)
@click.option("--no-rules", is_flag=True, help="Only schema and reference checks; skip the set-up rules engine.")
def validate(game: str | None, project: Path, fmt: str, no_rules: bool) -> None:
    """Validate every game in the project (or the one GAME names)."""
    from authoring.validate import validate_games

    root, games = select(project, game)
    diags = validate_games(games, rules=not no_rules)
    emit(diags, fmt, root)
    sys.exit(1 if has_errors(diags) else 0)


@main.command(name="list", epilog=GAME_HELP)
@game_argument
@project_option
@click.option("--format", "fmt", type=Choice(("text", "json")), default="text", show_default=True)
def list_(game: str | None, project: Path, fmt: str) -> None:
    """List games, their maps, scenarios and counter counts (with no project here: hexwright's bundled games)."""
    from authoring.load import discover, find_root
    from authoring.validate import summarize

    root = find_root(project)
    bundled = game is None and not discover(root)
    games = discover(bundled_root()) if bundled else select(project, game)[1]
    rows, diags = summarize(games)
    if bundled and fmt == "text":
        click.echo(f"No game at {root}. hexwright's bundled games:")
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
    else:
        for g in rows:
            click.echo(printable(f"{g['id']}: {g['name']} ({g['counters']} counters, {g['counter_mix']} in the mix)"))
            maps = ", ".join(f"{m['id']} ({m['hexes']} hexes)" for m in g["maps"]) or "-"
            click.echo(printable(f"  maps: {maps}"))
            click.echo(printable(f"  scenarios: {', '.join(s['id'] for s in g['scenarios']) or '-'}"))
    if bundled and fmt == "text":
        first = "bfm" if any(g["id"] == "bfm" for g in rows) else rows[0]["id"] if rows else "GAME"
        click.echo(f"Start a project from one: hexwright init mygame --from {first}")
    if has_errors(diags):
        click.echo("(some files have errors: run `hexwright validate`)", err=True)


@main.command()
@click.argument("kind", required=False)
def schema(kind: str | None) -> None:
    """Print the JSON Schema of a file KIND (game, map, counters, tables, scenario, setup-card)."""
    from authoring.load import schemas

    if kind is None:
        for k in schemas.KINDS:
            click.echo(f"{k}: schemas/{k}.schema.json")
        return
    if kind not in schemas.KINDS:
        raise click.BadParameter(choice_message(kind, list(schemas.KINDS)), param_hint="KIND")
    click.echo(schemas.schema_text(kind), nl=False)


def _register() -> None:
    """The commands defined in their own modules (an explicit table: house style 20)."""
    for command in (
        check.check,
        combat.combat,
        build.build,
        author.init,
        author.new,
        build.watch_cmd,
        author.import_setup_cmd,
        author.export_setup_cmd,
        author.docs,
        art.calibrate,
        import_vmod.import_vmod_cmd,
        serve.serve_cmd,
    ):
        main.add_command(command)


_register()


def run() -> None:
    """The console command: `main`, then the objects it leaves frozen for the exit. The interpreter's last
    garbage collection would walk every object of the loaded game to free memory that the operating
    system takes back at once; atexit
    handlers and flushing still run. Not in `main`: tests invoke it many times in one process."""
    signal.signal(signal.SIGTERM, _stop)
    try:
        main()
    finally:
        runtime.at_exit()


def _stop(signum: int, frame) -> None:
    """SIGTERM: stop as an interrupt does (workers stopped, temporary files removed, one line), exit 143."""
    raise Stopped(signum)
