"""Run one fuzz case in-process: load, check, render every report format; nothing may escape, nothing may hang.

The project copies are made once per session (one per game) and each case restores the file it
changed, so a case costs one file write and one game load.
"""

from __future__ import annotations

import atexit
import shutil
import signal
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "load" / "mini"
CASE_SECONDS = 5
"""CPU seconds a case may use (this process's, as `signal.ITIMER_PROF` counts them): a busy machine slows
the clock, not the work, so the limit holds at any load."""
HANG_FACTOR = 60
"""A case that waits rather than works is cut off after HANG_FACTOR times its CPU seconds on the clock."""


class CaseTimeout(Exception):
    """A case ran longer than CASE_SECONDS of CPU (a limit not enforced early enough), or hung."""


@dataclass(frozen=True)
class FuzzGame:
    id: str
    project: Path  # a scratch copy holding only this game
    files: tuple[str, ...]  # data files, relative to the project


def _copy(game: str, scratch: Path) -> Path:
    src = MINI if game == "mini" else ROOT
    dst = scratch / game
    for part in ("scenarios", "maps", "counters"):
        if (src / part / game).is_dir():
            shutil.copytree(src / part / game, dst / part / game)
    return dst


def bundled_games() -> list[str]:
    """Every game with a manifest in the repository, plus the loader tests' mini game."""
    return ["mini"] + sorted(p.parent.name for p in (ROOT / "scenarios").glob("*/game.yaml"))


_GAMES: dict[str, FuzzGame] = {}


def fuzz_game(game: str) -> FuzzGame:
    if game not in _GAMES:
        scratch = Path(tempfile.mkdtemp(prefix="hw-fuzz-"))
        atexit.register(shutil.rmtree, scratch, True)
        project = _copy(game, scratch)
        files = sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file())
        _GAMES[game] = FuzzGame(game, project, tuple(files))
    return _GAMES[game]


@contextmanager
def time_limit(seconds: float = CASE_SECONDS):
    """Fail the case if it uses more than `seconds` of CPU, or waits HANG_FACTOR times that on the clock. The
    timer raises CaseTimeout where the case is, and the expiry is also recorded, so a timeout raised where Python
    ignores exceptions (a finaliser, a __del__, printed as "Exception ignored ... CaseTimeout") or caught by a
    broad `except` still fails the case."""
    expired: list[str] = []

    def expire(signum, frame):
        expired.append("a hang" if signum == signal.SIGALRM else f"more than {seconds} CPU-s")
        raise CaseTimeout(f"case used {expired[-1]}")

    previous = signal.signal(signal.SIGPROF, expire), signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * HANG_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])
    if expired:
        raise CaseTimeout(f"case used {expired[0]} (the timeout was swallowed inside the case)")


@contextmanager
def mutated(game: FuzzGame, rel: str, content: bytes):
    """The game's file `rel` replaced by `content` for the duration of the block."""
    path = game.project / rel
    original = path.read_bytes()
    path.write_bytes(content)
    try:
        yield path
    finally:
        path.write_bytes(original)


def exercise(project: Path, game_id: str) -> list:
    """What `validate` and `check` do for one game, in-process; returns the diagnostics."""
    from authoring.diagnostics import format as fmt
    from authoring.load import discover, load_game
    from authoring.rules import check_game, check_scenario

    (files,) = [f for f in discover(project) if f.id == game_id] or [None]
    if files is None:  # the manifest is gone: discover finds no game, the CLI says so (usage error)
        return []
    result = load_game(files)
    diags = list(result.diagnostics)
    if result.ok:  # validate runs the game checks; check runs each scenario's, whatever validate says
        diags += check_game(result.game)
        for scenario in result.game.scenarios.values():
            diags += check_scenario(result.game, scenario)
    for render in fmt.RENDERERS.values():
        render(diags)
    fmt.render_sarif(diags, project)
    return diags


BUILD_OUT: dict[str, Path] = {}


def exercise_build(project: Path, game_id: str) -> bool:
    """What `build` does for a game that validates (the contract: whatever validates, builds); False when the
    mutated game does not validate (then nothing may be built). The mini game goes through every stage, the
    larger ones through the module and the sheets (their maps and cards take longer than a case may). Outputs
    go to a scratch folder kept for the session, so the module's image cache is shared between cases."""
    if game_id not in BUILD_OUT:
        BUILD_OUT[game_id] = Path(tempfile.mkdtemp(prefix="hw-fuzz-build-"))
        atexit.register(shutil.rmtree, BUILD_OUT[game_id], True)
    stages = STAGES if game_id == "mini" else ("module", "sheets")
    return exercise_stages(project, game_id, BUILD_OUT[game_id] / game_id, stages)


STAGES = ("module", "sheets", "maps", "cards", "charts")


def exercise_stages(project: Path, game_id: str, out: Path, stages: tuple[str, ...] = STAGES) -> bool:
    """`validate`, then, for a game that passes, every build stage in `stages` (the contract: whatever
    validates, builds); False when the game does not validate. Every error found must be located in a file
    of the game (a refusal the designer can act on) and every stage must leave non-empty files."""
    from authoring import pipeline
    from authoring.diagnostics import format as fmt
    from authoring.diagnostics import has_errors
    from authoring.load import discover, load_game
    from authoring.validate import findings

    (files,) = [f for f in discover(project) if f.id == game_id] or [None]
    if files is None:  # the manifest is gone: discover finds no game, the CLI says so (usage error)
        return False
    result = load_game(files)
    diags = findings(result)
    for render in fmt.RENDERERS.values():
        render(diags)
    for d in diags:
        assert d.severity != "error" or (d.loc is not None and d.loc.file), f"unlocated error: {d.code} {d.message}"
    if has_errors(diags):
        return False
    for stage in stages:
        if stage == "sheets":
            made = pipeline.build_sheets(
                result, out, pipeline.BuildContext.of(1, sheets=pipeline.SheetSettings(dpi=72))
            )
        else:
            made = pipeline.BUILDERS[stage](result, out, pipeline.BuildContext.of(1))
        for path in made.paths:
            assert path.is_file() and path.stat().st_size > 0, path
    return True
