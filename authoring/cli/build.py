"""`hexwright build`: every artifact of one game or all games, after the data checks clean."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from authoring.budget import COUNTER_SIZE_IN, length_problem
from authoring.cli.args import (
    GAME_HELP,
    Choice,
    Number,
    OutPath,
    finite_pair,
    game_argument,
    project_option,
    refuse,
    select,
)
from authoring.cli.output import emit, render
from authoring.diagnostics import sorted_diagnostics
from authoring.diagnostics.summary import summarised
from authoring.interrupt import behind
from authoring.lengths import FORM, parse_length
from authoring.progress import SILENT, Progress
from authoring.safepath import refuse_build_tree, refuse_out_dir, refuse_output


def _counter_size(ctx, param, value):
    if value is None:
        return None
    inches = parse_length(value)
    if inches is None or inches <= 0:
        raise click.BadParameter(f"{value!r}; write {FORM}")
    problem = length_problem(value, "counter size", COUNTER_SIZE_IN)  # the same range as game.yaml's counter_size
    if problem:
        raise click.BadParameter(problem)
    return inches


BACK_OFFSET_MM = 10.0
"""Largest shift of the backs either way: the page margin (0.4in); a back shifted further prints off the paper."""


def _offset(ctx, param, value):
    try:
        return finite_pair(value, BACK_OFFSET_MM, "mm")
    except ValueError as exc:
        reason = str(exc) if "out of range" in str(exc) else f"{value!r}; expected X,Y in mm, e.g. 0.5,-0.3"
        raise click.BadParameter(reason) from None


def _run(
    stages: tuple[str, ...],
    game: str | None,
    project: Path,
    out: Path | None,
    force: bool,
    jobs: int,
    sheet_opts: dict | None = None,
) -> None:
    """`build.run` on the chosen games, its progress and outputs printed as they come, then its summary."""
    from authoring import pipeline

    root, games = select(project, game)
    sheets = pipeline.SheetSettings(**(sheet_opts or {}))
    context = pipeline.BuildContext.of(jobs, force, sheets, cache_budget=_cache_budget())
    try:
        report = pipeline.run(pipeline.Request(root, games, stages, out, context), _Printer())
    except pipeline.Refused as refused:
        if refused.fault:
            _refuse_fault(refused.reason)
        refuse(refused.reason)
        raise
    if report.errors:
        emit(report.errors, "full", root)
        click.echo("Nothing was built: fix the errors above first.", err=True)
        sys.exit(1)
    if report.warnings:  # many alike (art too small for print, one per image) are counted, not listed
        click.echo(
            render(summarised(sorted_diagnostics(report.warnings)), "concise", counted=report.warnings), err=True
        )
    sys.stdout.flush()  # the closing line after the files, on a terminal as in a log
    click.echo(report.line(), err=True)


CACHE_ENV = "HEXWRIGHT_CACHE_MB"


def _cache_budget() -> int | None:
    """The caches' budget in bytes from `$HEXWRIGHT_CACHE_MB` (None: the default)."""
    text = os.environ.get(CACHE_ENV, "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise click.UsageError(f"{CACHE_ENV}={text!r}: expected a whole number of megabytes, e.g. {CACHE_ENV}=2048")
    return int(text) << 20


class _Printer:
    """A build told on the terminal: a bar (or a line) per stage, then the files it wrote or kept."""

    def stage(self, label: str):
        return _progress(label)

    def up_to_date(self, game_id: str) -> None:
        click.echo(f"{game_id}: up to date", err=True)

    def quoted(self, game_id: str, warnings) -> None:
        from authoring.pipeline.run import quoted_line

        if warnings:
            click.echo(quoted_line(game_id, warnings), err=True)

    def outputs(self, outputs) -> None:
        from authoring.pipeline.run import output_lines

        for line in output_lines(outputs, _rel):
            click.echo(line)

    def changed(self, paths: list[Path]) -> None:
        shown = ", ".join(_rel(p) for p in paths[:3]) + (" ..." if len(paths) > 3 else "")
        click.echo(f"note: {shown} changed during the build; the next build makes what it feeds again", err=True)


def _refuse_fault(reason: str | None) -> None:
    """Exit 2 with `reason`: the build folder would lead outputs out of the project (a fault of the folder
    the game came with, not of its data)."""
    if reason:
        click.echo(
            f"error: {reason}\n  = help: remove the symbolic link (or the folder) and build again; "
            "hexwright writes only into real folders inside the build folder",
            err=True,
        )
        sys.exit(2)


@contextmanager
def _progress(label: str) -> Iterator[Progress]:
    """A progress bar on a terminal, full when its stage ends; one line per stage otherwise (logs, CI)."""
    if not sys.stderr.isatty():
        click.echo(label, err=True)
        yield SILENT
        return
    with click.progressbar(length=1, label=_Bar.fit(label), width=_Bar.width(), file=sys.stderr) as bar:
        shown = _Bar(bar, label)
        yield shown
        shown.finish()


class _Bar(Progress):
    """`Progress` drawn as click's bar: advances move it, notes show after the stage's label, the whole
    line kept within the terminal's width (a line that wraps is redrawn below itself)."""

    FIGURES = 21
    """Columns of click's line besides the label and the bar: brackets, gaps, percent, time left, and one
    spare (a line that fills the last column wraps on some terminals)."""

    def __init__(self, bar, label: str) -> None:
        self.bar, self.label = bar, label

    @staticmethod
    def width() -> int:
        """The bar's own width: click's 36 columns on a wide terminal, a quarter of a narrow one."""
        return max(10, min(36, shutil.get_terminal_size().columns // 4))

    @classmethod
    def fit(cls, label: str) -> str:
        room = max(12, shutil.get_terminal_size().columns - cls.width() - cls.FIGURES)
        return label if len(label) <= room else label[: room - 3] + "..."

    def advance(self, done: int, total: int) -> None:
        self.bar.length = max(total, 1)
        self.bar.update(max(0, min(done, self.bar.length) - self.bar.pos))

    def note(self, message: str) -> None:
        self.bar.label = self.fit(f"{self.label}: {message}")
        self.bar.render_progress()

    def finish(self) -> None:
        """The stage ended: the bar shows all of it done (stages that count nothing too)."""
        self.bar.update(max(0, self.bar.length - self.bar.pos))


def _rel(p: Path) -> str:
    try:
        return str(Path(p).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(p)


common = (
    game_argument,
    project_option,
    click.option(
        "--out",
        type=OutPath(file_okay=False, path_type=Path),
        default=None,
        help="Output folder [default: <project>/build].",
    ),
    click.option("--force", is_flag=True, help="Rebuild even when nothing changed."),
    click.option("--jobs", type=click.IntRange(0, 64), default=0, help="Worker processes (0: one per idle core)."),
)
sheet_options = (
    click.option("--paper", type=Choice(["letter", "a4"]), default="letter", show_default=True),
    click.option(
        "--counter-size",
        callback=_counter_size,
        default=None,
        help="Counter edge, e.g. 1/2, 9/16, 5/8, 3/4, 1 (inches) or 16mm [default: the game's].",
    ),
    click.option("--bleed", type=Number(0, 6), default=1.5, show_default=True, help="Bleed in mm."),
    click.option("--bleed-outer-only", is_flag=True, help="Bleed only on the outer edge of each block."),
    click.option(
        "--back-offset",
        callback=_offset,
        default="0,0",
        show_default=True,
        help="Shift of the backs in mm, X,Y (measure it with the calibration sheet).",
    ),
    click.option(
        "--duplex",
        type=Choice(["long", "short"]),
        default="long",
        show_default=True,
        help="Which edge your printer flips on.",
    ),
    click.option("--cut-marks", type=Choice(["front", "back", "both", "none"]), default="both", show_default=True),
    click.option("--cut-lines", is_flag=True, help="Full-length cut lines across the sheet."),
    click.option("--dpi", type=click.IntRange(72, 1200), default=300, show_default=True),
)


watch_options = (
    project_option,
    click.option("--once", is_flag=True, help="Check and build once, then exit (1 if there are errors)."),
    click.option("--no-build", is_flag=True, help="Only check; build nothing."),
    click.option(
        "--stage",
        "stages",
        multiple=True,
        type=Choice(["module", "sheets", "maps", "cards", "charts"]),
        help="Build only these outputs (repeatable) [default: all].",
    ),
    click.option(
        "--out",
        type=OutPath(file_okay=False, path_type=Path),
        default=None,
        help="Output folder [default: <project>/build].",
    ),
    click.option(
        "--interval",
        type=Number(0.05, 60),
        default=0.5,
        show_default=True,
        help="Seconds between checks for saved files.",
    ),
)


def _apply(options):
    def deco(f):
        for opt in reversed(options):
            f = opt(f)
        return f

    return deco


def _sheet_settings(paper, counter_size, bleed, bleed_outer_only, back_offset, duplex, cut_marks, cut_lines, dpi):
    return dict(
        paper=paper,
        counter_in=counter_size,
        bleed_mm=bleed,
        bleed_outer_only=bleed_outer_only,
        back_offset_mm=back_offset,
        duplex=duplex,
        cut_marks=cut_marks,
        cut_lines=cut_lines,
        dpi=dpi,
    )


@click.command(name="watch", epilog=GAME_HELP)
@game_argument
@_apply(watch_options)
def watch_cmd(game, project, once, no_build, stages, out, interval) -> None:
    """Re-check (and rebuild what changed) every time a data file is saved."""
    from authoring.author.watch import ALL_STAGES, Watcher

    root, games = select(project, game)
    refuse(refuse_out_dir(root, out or root / "build", named=out is not None))
    _refuse_fault(
        refuse_build_tree(
            root, out or root / "build", [g.id for g in games], tuple(stages) or ALL_STAGES, explicit=out is not None
        )
    )
    w = Watcher(
        root,
        tuple(g.id for g in games) if game else (),
        tuple(stages) or ALL_STAGES,
        out,
        lambda s: click.echo(s),
        build=not no_build,
    )
    budget = _cache_budget()
    if budget is not None:
        w.cache_budget = budget
    if once:
        sys.exit(0 if w.start().ok else 1)
    try:
        w.run(interval)
    except KeyboardInterrupt:
        click.echo("stopped watching")
    except Exception as exc:
        if not behind(exc):  # a Ctrl-C a library's import wrapped in its own error stops watching as well
            raise
        click.echo("stopped watching")


@click.group(invoke_without_command=True)
@click.option("--watch", is_flag=True, help="Keep running: re-check and rebuild what changed on every save.")
@_apply(watch_options)
@click.pass_context
def build(ctx: click.Context, watch: bool, **watching) -> None:
    """Build VASSAL modules, counter sheets, maps, set-up cards and charts into build/<game>/.

    `hexwright build --watch` rebuilds what changed whenever a data file is saved; it takes the
    options of `hexwright watch`."""
    if watch:
        ctx.invoke(watch_cmd, game=None, **watching)
    elif ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@build.command(name="all")
@_apply(common + sheet_options)
def build_all(game, project, out, force, jobs, **sheet):
    """Every artifact of every game (or of GAME)."""
    from authoring.pipeline import STAGES

    _run(STAGES, game, project, out, force, jobs, _sheet_settings(**sheet))


@build.command()
@_apply(common + sheet_options)
def sheets(game, project, out, force, jobs, **sheet):
    """Print-and-play counter sheets (PDF: fronts, mirrored backs, bleed, cut marks)."""
    _run(("sheets",), game, project, out, force, jobs, _sheet_settings(**sheet))


def _stage_command(stage: str, doc: str) -> None:
    """`hexwright build <stage>`: one stage, the same options as the others (table-driven, not copied)."""

    def command(game, project, out, force, jobs):
        _run((stage,), game, project, out, force, jobs)

    command.__doc__ = doc
    build.command(name=stage)(_apply(common)(command))


for _stage, _doc in (
    ("module", "The VASSAL module, with every scenario as a ready set-up."),
    ("maps", "Map images (PNG) and tiled print maps (PDF)."),
    ("cards", "Set-up cards per scenario and side (PDF and PNG)."),
    ("charts", "Charts from the rule tables: CRT, TEC, turn record, weather... (PDF and PNG)."),
):
    _stage_command(_stage, _doc)


@build.command()
@click.option(
    "--out",
    type=OutPath(dir_okay=False, path_type=Path),
    default=Path("build/duplex-calibration.pdf"),
    show_default=True,
)
@click.option("--force", is_flag=True, help="Write even where a data file or a file of another kind is.")
@_apply(sheet_options)
def calibration(out, force, **sheet):
    """A one-page duplex calibration sheet to measure your printer's back offset."""
    from authoring.load import find_root
    from authoring.render.print.sheets import SheetOptions, write_calibration_pdf

    refuse(refuse_output(find_root(Path(".")), out, (".pdf",), "--out", force))
    s = _sheet_settings(**sheet)
    opts = SheetOptions(
        paper=s["paper"],
        counter_in=s["counter_in"] or 0.625,
        dpi=s["dpi"],
        duplex=s["duplex"],
        back_offset_mm=tuple(s["back_offset_mm"]),
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    write_calibration_pdf(opts, out)
    click.echo(f"  wrote {_rel(out)}")
