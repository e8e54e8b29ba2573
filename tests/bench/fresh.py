"""One figure of the load section, measured in a fresh interpreter (bench helper, run by bench_load.py).

    python fresh.py bare FILELIST              parse every file FILELIST names (one path a line) as the bare base does
    python fresh.py validate PROJECT GAME_ID   `validate_games` on that one game

Each prints the seconds of its one timed call as JSON (`{"seconds": ...}`). The imports come first and
are not timed: for `validate` every module the call would import on first use, so that both sides time
their work, not their imports (the whole-process figures count those). Both run with the cyclic garbage
collector off, as `validate_games` runs (`runtime.gc_paused`), and in a process holding no other game,
so the collector's setting and the heap's size are the same on both sides of the ratio.

The bare side imports nothing of hexwright: run as a whole process, it is the plain parse a designer
could write in a few lines, the base that `hexwright validate GAME` is compared with.
"""

from __future__ import annotations

import csv
import gc
import json
import sys
import time
from pathlib import Path

import yaml


def bare(paths: list[Path]) -> list:
    """Every YAML file through libyaml's C loader into plain data, every CSV file through csv.reader into
    rows: no locations, no checks. The data is kept until the end, as validate keeps its game."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out = []
    for path in paths:
        if path.suffix == ".csv":
            with path.open(newline="", encoding="utf-8") as f:
                out.append(list(csv.reader(f)))
        else:
            out.append(yaml.load(path.read_text(encoding="utf-8"), Loader=loader))
    return out


def _validate_call(project: Path, game_id: str):
    """The game's files and `validate_games`, imported with what its first call would import."""
    import authoring.render.counters.markings  # noqa: F401 - imported by validate's first call
    import authoring.render.limits  # noqa: F401
    import authoring.rules  # noqa: F401
    from authoring.load import discover
    from authoring.validate import validate_games

    games = [g for g in discover(project) if g.id == game_id]
    if len(games) != 1:
        raise SystemExit(f"no game {game_id!r} in {project}")
    return lambda: validate_games(games)


def main(argv: list[str]) -> int:
    if argv[1:2] == ["bare"] and len(argv) == 3:
        paths = [Path(line) for line in Path(argv[2]).read_text(encoding="utf-8").splitlines() if line]
        call = lambda: bare(paths)  # noqa: E731
    elif argv[1:2] == ["validate"] and len(argv) == 4:
        call = _validate_call(Path(argv[2]), argv[3])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    gc.disable()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds}))
    gc.freeze()  # as `hexwright` exits: no last collection over what the call made
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
