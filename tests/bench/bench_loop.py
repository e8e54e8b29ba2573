"""`make bench` section: the designer's loop, whole processes: one edit saved, then `hexwright build all GAME`.

A scratch project holds copies of Typhoon (the bundled large game) and of bfm-art (the one with counter art).
After one clean build of each, every round makes each kind of edit a designer makes, once, and rebuilds:
- one counter: the 1st Panzer's armour regiment's attack factor in counters.csv;
- one hex's terrain inside map M (a hex no other map shows), and one on the column maps M and N share
  (M's column 01 is N's column 39: edited in both files, as a valid edit must be);
- one hexside feature: a river hexside of map M taken out;
- one unit moved in a scenario (a stack of moscow-gates, another hex each round);
- a rule table: one cell of the Terrain Effects Chart;
- art: the colour of bfm-art's red-star counter picture (an SVG), `build all bfm-art`;
- nothing changed; and, beside them, the start-up alone (`python -c "import authoring.cli"`), the floor of
  every whole-process figure.
Every edit gives data no earlier round had (no cache holds its drawing). Prints, as median (min-max) over
interleaved rounds: wall, CPU (the command and its workers), peak memory, and how many output files the build
rewrote (by inode and modification time; stamps left out). Records the issue-49 goals it measures (`goals`).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

from benchlib import HEXWRIGHT, interleaved, repeat, runs_line, scratch
from edits import drop, interior_hexes, river_lines, shared_hexes, substitute
from goals import BOARD
from measure import Run
from measure import run as measured

ROOT = Path(__file__).resolve().parents[2]
GAME = "typhoon"
ART_GAME = "bfm-art"
UNIT = re.compile(r"^(ger-1pz-pz,(?:[^,]*,){11})(\d+)(,)", re.M)
"""The 1st Panzer's armour regiment: its full attack factor is the 13th column of counters.csv."""
STACK = re.compile(r'(\{hex: ")(M\d{4})(", units: \[ger-art-2, ger-eng-1\]\})')
"""A stack of moscow-gates' Axis set-up, moved round these hexes (each a legal start)."""
STACK_HEXES = ("M0408", "M0507", "M0508", "M0306", "M0406", "M0506", "M0606", "M0409")
TEC_CLEAR = re.compile(r'(- \["Clear", (?:[^,\]]*, ){8})("[^"]*")(\])')
STAR_FILL = re.compile(r'(<polygon [^>]*fill=")(#[0-9a-f]{6})(")', re.S)


def _project(tmp: Path) -> Path:
    project = tmp / "loop"
    shutil.rmtree(project, ignore_errors=True)
    for game in (GAME, ART_GAME):
        for part in ("counters", "maps", "scenarios"):
            shutil.copytree(ROOT / part / game, project / part / game)
    return project


def _outputs(project: Path, game: str) -> dict[str, tuple[int, int]]:
    """Every output file of the game (stamps and the image caches left out): (inode, mtime_ns) by path."""
    folder, out = project / "build" / game, {}
    for top, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if not name.startswith("."):
                st = os.lstat(os.path.join(top, name))
                out[os.path.join(top, name)] = (st.st_ino, st.st_mtime_ns)
    return out


def edits(project: Path) -> dict[str, tuple[str, Callable[[int], None]]]:
    """Each kind of edit: (the game to build, `edit(round)`, which makes data no round before had)."""
    maps, scen = project / "maps" / GAME, project / "scenarios" / GAME
    m_map, n_map = maps / "M.yaml", maps / "N.yaml"
    inside = list(interior_hexes(m_map.read_text(encoding="utf-8")))
    shared = list(shared_hexes(m_map.read_text(encoding="utf-8"), n_map.read_text(encoding="utf-8")))
    rivers = river_lines(m_map.read_text(encoding="utf-8"))

    def hex_inside(k: int) -> None:
        m_map.write_text(drop(m_map.read_text(encoding="utf-8"), inside[k], "terrain"), encoding="utf-8")

    def hex_shared(k: int) -> None:
        m_label, n_label = shared[k]
        m_map.write_text(drop(m_map.read_text(encoding="utf-8"), m_label, "terrain"), encoding="utf-8")
        n_map.write_text(drop(n_map.read_text(encoding="utf-8"), n_label, "terrain"), encoding="utf-8")

    def hexside(k: int) -> None:
        text = m_map.read_text(encoding="utf-8")
        m_map.write_text(text.replace(rivers[-1 - k], "", 1), encoding="utf-8")

    return {
        "one counter": (
            GAME,
            lambda k: substitute(project / "counters" / GAME / "counters.csv", UNIT, str(k % 90 + 10)),
        ),
        "one hex's terrain, inside map M": (GAME, hex_inside),
        "one hex's terrain, column M/N share": (GAME, hex_shared),
        "one hexside feature (river)": (GAME, hexside),
        "one unit moved (a stack)": (
            GAME,
            lambda k: substitute(scen / "moscow-gates.yaml", STACK, STACK_HEXES[k % len(STACK_HEXES)]),
        ),
        "a rule table's cell (TEC)": (GAME, lambda k: substitute(scen / "tables.yaml", TEC_CLEAR, f'"none ({k})"')),
        "art: a counter picture (bfm-art)": (
            ART_GAME,
            lambda k: substitute(project / "counters" / ART_GAME / "art" / "red-star.svg", STAR_FILL, f"#c1{k:02x}2d"),
        ),
        "nothing changed": (GAME, lambda k: None),
    }


def _case(project: Path, game: str, edit: Callable[[int], None]) -> Callable[[], tuple[Run, int, int]]:
    """A round: `edit(round)`, then `build all GAME` timed; (Run, files rewritten, map files rewritten)."""
    rounds = iter(range(10_000))

    def case() -> tuple[Run, int, int]:
        edit(next(rounds))
        before = _outputs(project, game)
        result = measured([*HEXWRIGHT, "build", "all", game], cwd=project)
        if result.returncode:
            raise RuntimeError(f"hexwright build all {game} exited {result.returncode}")
        after = _outputs(project, game)
        changed = [p for p in after if before.get(p) != after[p]]
        return result, len(changed), sum(os.sep + "maps" + os.sep in p for p in changed)

    return case


STARTUP = "start-up alone (import authoring.cli)"
"""The floor under every whole-process figure: the interpreter and the CLI's imports, nothing read."""
GOAL_KEYS = {
    "one counter": "counter",
    "one hex's terrain, inside map M": "hex inside map M",
    "one hex's terrain, column M/N share": "hex column M/N share",
    "one unit moved (a stack)": "unit",
    "nothing changed": "nothing",
}


def run(synth_root: Path, tmp: Path) -> None:
    n = repeat(5)
    project = _project(Path(tmp))
    print(
        f"designer's loop: one edit, then build all; whole processes on {os.cpu_count()} cores, {n} interleaved rounds"
    )
    for game in (GAME, ART_GAME):
        clean = measured([*HEXWRIGHT, "build", "all", game], cwd=project)
        if clean.returncode:
            raise RuntimeError(f"hexwright build all {game} exited {clean.returncode}")
        print(f"  {'build all ' + game + ', clean (once)':<38} {clean.wall:.2f} s   CPU {clean.cpu:.1f} s")
    cases = {name: _case(project, game, edit) for name, (game, edit) in edits(project).items()}
    cases[STARTUP] = lambda: (measured([sys.executable, "-c", "import authoring.cli"], cwd=project), 0, 0)
    results = interleaved(cases, n, warmup=True)
    for name, rounds in results.items():
        files = statistics.median(r[1] for r in rounds)
        maps = statistics.median(r[2] for r in rounds)
        print(f"  {name:<38} {runs_line([r[0] for r in rounds])}   rewrote {files:.0f} files ({maps:.0f} in maps/)")
    floor = statistics.median(r[0].wall for r in results[STARTUP])
    for name, key in GOAL_KEYS.items():
        rounds = results[name]
        note = f"whole processes; start-up alone {floor:.2f} s" if key == "nothing" else ""
        BOARD.record(key, [r[0].wall for r in rounds], [r[0].cpu for r in rounds], note)
    shutil.rmtree(project, ignore_errors=True)


if __name__ == "__main__":
    with scratch() as tmp:
        run(tmp, tmp)
