"""`make bench` section: the designer's loop on Typhoon (the bundled large game), whole processes.

After one clean build of a scratch copy of Typhoon, each round edits the data and runs `hexwright build all
typhoon`, as a designer does after saving:
- one counter edited: one unit's attack factor in counters.csv, a value not used before in the run (so no
  cache holds its drawing);
- one map edited: one town's name on map N, a new name each round.
Prints, as median (min-max) over interleaved rounds: wall, CPU (the command and its workers), peak memory,
and how many output files the build rewrote (by inode and modification time; stamps left out).
Goal (issue 34): a counter edit rewrites no map file and builds in under 2 s on 2 cores.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
from pathlib import Path

from benchlib import HEXWRIGHT, interleaved, repeat, runs_line, scratch
from measure import run as measured

ROOT = Path(__file__).resolve().parents[2]
GAME = "typhoon"
UNIT = re.compile(r"^(ger-1pz-pz,(?:[^,]*,){11})(\d+),", re.M)
"""The 1st Panzer's armour regiment: its full attack factor is the 13th column of counters.csv."""
TOWN = re.compile(r'("N3949": \{name: ")([^"]*)(")')
"""Kirov, on map N."""


def _project(tmp: Path) -> Path:
    project = tmp / "loop"
    shutil.rmtree(project, ignore_errors=True)
    for part in ("counters", "maps", "scenarios"):
        shutil.copytree(ROOT / part / GAME, project / part / GAME)
    return project


def _outputs(project: Path) -> dict[str, tuple[int, int]]:
    """Every output file of the game (stamps and the image caches left out): (inode, mtime_ns) by path."""
    folder, out = project / "build" / GAME, {}
    for top, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if not name.startswith("."):
                st = os.lstat(os.path.join(top, name))
                out[os.path.join(top, name)] = (st.st_ino, st.st_mtime_ns)
    return out


def _edit(path: Path, pattern: re.Pattern, new: str) -> None:
    text, count = pattern.subn(lambda m: m.group(1) + new + (m.group(3) if m.lastindex == 3 else ","), path.read_text())
    if count != 1:
        raise RuntimeError(f"{path}: the bench's edit matched {count} places")
    path.write_text(text)


def _case(project: Path, edit):
    """A round: `edit(round)`, then `build all` timed; (Run, files rewritten, map files rewritten)."""
    rounds = iter(range(20, 10_000))

    def case():
        edit(next(rounds))
        before = _outputs(project)
        result = measured([*HEXWRIGHT, "build", "all", GAME], cwd=project)
        if result.returncode:
            raise RuntimeError(f"hexwright build all {GAME} exited {result.returncode}")
        after = _outputs(project)
        changed = [p for p in after if before.get(p) != after[p]]
        return result, len(changed), sum(os.sep + "maps" + os.sep in p for p in changed)

    return case


def run(synth_root: Path, tmp: Path) -> None:
    n = repeat(5)
    project = _project(Path(tmp))
    print(f"designer's loop, {GAME}, whole processes on {os.cpu_count()} cores, {n} interleaved rounds (goal: < 2 s)")
    clean = measured([*HEXWRIGHT, "build", "all", GAME], cwd=project)
    print(f"  {'build all, clean (once)':<32} {clean.wall:.2f} s   CPU {clean.cpu:.1f} s")
    counters, town = project / "counters" / GAME / "counters.csv", project / "maps" / GAME / "N.yaml"
    cases = {
        "one counter edited, build all": _case(project, lambda k: _edit(counters, UNIT, str(k % 90 + 10))),
        "one map edited, build all": _case(project, lambda k: _edit(town, TOWN, f"Kirov {k}")),
    }
    results = interleaved(cases, n, warmup=True)
    for name, rounds in results.items():
        files = statistics.median(r[1] for r in rounds)
        maps = statistics.median(r[2] for r in rounds)
        print(f"  {name:<32} {runs_line([r[0] for r in rounds])}   rewrote {files:.0f} files ({maps:.0f} in maps/)")
    shutil.rmtree(project, ignore_errors=True)


if __name__ == "__main__":
    with scratch() as tmp:
        run(tmp, tmp)
