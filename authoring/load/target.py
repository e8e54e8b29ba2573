"""What `hexwright check` checks: a scenario named by file path, `GAME/SCENARIO` or a bare scenario id.

Finds and loads only the game that holds the scenario. Problems with the request itself come back
as `TargetError` (the command turns them into usage errors, exit 2); data errors come back as
the load diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from authoring.diagnostics import Diagnostic
from authoring.diagnostics.suggest import suggest
from authoring.load import discover, find_root, game_for_path, load_game
from authoring.load.argpath import game_and_scenario, help_line, looks_like_path, missing, outside
from authoring.load.project import GameFiles, LoadResult
from authoring.model import Scenario


class TargetError(LookupError):
    """The scenario argument names nothing (or several things)."""


@dataclass
class Target:
    root: Path
    result: LoadResult
    scenario: Scenario | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


SCENARIO_HINT = (
    "name a scenario file (scenarios/<game>/<scenario>.yaml), GAME/SCENARIO, a scenario id or a map "
    "file (maps/<game>/<map>.yaml); `hexwright list` shows them"
)


def _hint(arg: str) -> str:
    if arg.lower().endswith(".csv"):
        return f"a set-up card is checked with its scenario: `hexwright check SCENARIO --card {arg}`"
    return SCENARIO_HINT


def find_target(arg: str, game_id: str | None = None, cwd: Path | None = None) -> Target:
    path = Path(arg)
    if path.is_file():
        return _from_file(arg)
    root = find_root(cwd or Path.cwd())
    games = discover(root)
    pair = None if game_id else game_and_scenario(arg, [g.id for g in games])
    if pair:
        game_id, arg = pair
    elif looks_like_path(arg):
        raise _path_error(arg, path)
    if game_id:
        chosen = [g for g in games if g.id == game_id]
        if not chosen:
            raise TargetError(f"no game {game_id!r} in {root}; {suggest(game_id, [g.id for g in games])}")
        return _by_id(root, chosen[0], arg)
    return _by_id(root, _game_with(games, arg), arg)


def _path_error(arg: str, path: Path) -> TargetError:
    if path.is_dir():
        return TargetError(f"{arg!r} is a folder, not a scenario file" + help_line(SCENARIO_HINT))
    return TargetError(str(missing(arg, _hint(arg))))


def _from_file(arg: str) -> Target:
    path = Path(arg)
    root, games = game_for_path(path)
    if not games and arg.lower().endswith(".csv"):
        raise TargetError(f"{arg!r} is not in a game" + help_line(_hint(arg)))
    if not games:
        raise TargetError(str(outside(arg, root)))
    result = load_game(games[0])
    want = path.resolve()
    scenario = None
    if result.game is not None:
        scenario = next((s for s in result.game.scenarios.values() if Path(s.path).resolve() == want), None)
    if scenario is None and result.ok:
        raise TargetError(f"{arg!r} is not a scenario of game {games[0].id!r}" + help_line(_hint(arg)))
    return Target(root, result, scenario, list(result.diagnostics))


def _game_with(games: list[GameFiles], scenario_id: str) -> GameFiles:
    """The one game with a scenario of that id (by file name first, then by loading)."""
    named = [g for g in games if any(p.stem == scenario_id for p in g.scenarios)]
    if not named:
        named = [g for g in games if _ids(g) and scenario_id in _ids(g)]
    if len(named) > 1:
        raise TargetError(
            f"scenario {scenario_id!r} is in games {', '.join(g.id for g in named)}; "
            f"write GAME/{scenario_id} or use --game"
        )
    if not named:
        known = sorted({p.stem for g in games for p in g.scenarios})
        raise TargetError(f"no scenario {scenario_id!r} in any game; {suggest(scenario_id, known)}")
    return named[0]


def _ids(files: GameFiles) -> set[str]:
    game = load_game(files).game
    return set(game.scenarios) if game else set()


def _by_id(root: Path, files: GameFiles, scenario_id: str) -> Target:
    result = load_game(files)
    if result.game is None:
        return Target(root, result, None, list(result.diagnostics))
    scenario = result.game.scenarios.get(scenario_id)
    if scenario is None and result.ok:
        raise TargetError(
            f"game {files.id!r} has no scenario {scenario_id!r}; {suggest(scenario_id, result.game.scenarios)}"
        )
    return Target(root, result, scenario, list(result.diagnostics))
