"""`hexwright build module --force` timed part by part inside its process (bench helper, run by bench_pywargame.py).

    python hexwright_parts.py PROJECT OUT   ->  prints {"load_check": s, "module": s, "setups": s, "boards": s,
                                                        "pieces": s} (JSON)

After the imports, as the CLI runs them: the game loaded and checked with the collector off and then
frozen (`cli.build`), then the module built with its image cache warm. "setups" is the part of "module"
spent on the set-ups (what pywargame's set-up writer does): the pieces as played (`expanded`), each
scenario's saved game (`_setups`) and the time the build then waits for their zips (deflated in a
thread beside the rest of the build: only the wait adds to the build). "boards" is the part spent on the
boards (their plans, the map and board images read from the cache: `images.BoardWork`), "pieces" the part
spent on the pieces (the counter faces' keys and images, each counter's traits and definition, the palette:
`face_jobs`, `counter_faces`, `_pieces`, `_palette`), as pywargame_build.py times its own boards and pieces.
The build runs unchanged: those functions are wrapped with timers, nothing else.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import authoring.vassal.compile as compiler
import authoring.vassal.images as images
from authoring.load import discover
from authoring.pipeline import BuildContext, build_module
from authoring.pipeline.checked import load_checked

HOOKS = ("_setups", "expanded")
"""The functions of `authoring.vassal.compile` that make the set-ups (and nothing else)."""
PIECE_HOOKS = (("compile", "_pieces"), ("compile", "_palette"), ("images", "face_jobs"), ("images", "counter_faces"))
"""(module, function) of the compiler that make the pieces and the palette (and nothing else)."""
BOARD_HOOKS = ("__init__", "map_batches", "board_batches", "images")
"""The methods of `images.BoardWork`: every board, from its plan to its image."""


class Stopwatch:
    """Seconds spent inside the functions it wraps, added up."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.seconds = 0.0
        self.clock = clock

    def wrap(self, fn: Callable) -> Callable:
        def timed(*args, **kwargs):
            start = self.clock()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += self.clock() - start

        return timed

    def wrap_setups(self, fn: Callable) -> Callable:
        """`_setups` timed, and so is every wait for one of the saved games it returns."""
        timed = self.wrap(fn)
        return lambda *args, **kwargs: {name: self.wrap(made) for name, made in timed(*args, **kwargs).items()}


def main(argv: list[str]) -> int:
    project, out = Path(argv[1]), Path(argv[2])
    missing = [name for name in HOOKS if not callable(getattr(compiler, name, None))]
    if missing:
        raise SystemExit(f"authoring.vassal.compile has no {', '.join(missing)}: the set-up part cannot be timed")
    watch, boards, pieces = Stopwatch(), Stopwatch(), Stopwatch()
    compiler._setups = watch.wrap_setups(compiler._setups)
    compiler.expanded = watch.wrap(compiler.expanded)
    for module, name in PIECE_HOOKS:
        owner = compiler if module == "compile" else images
        setattr(owner, name, pieces.wrap(getattr(owner, name)))
    for name in BOARD_HOOKS:
        setattr(images.BoardWork, name, boards.wrap(getattr(images.BoardWork, name)))
    start = time.perf_counter()
    gc.disable()
    result, _findings = load_checked(discover(project)[0])
    gc.freeze()
    gc.enable()
    loaded = time.perf_counter()
    build_module(result, out / result.game.id, BuildContext.of(force=True))
    built = time.perf_counter()
    print(
        json.dumps(
            {
                "load_check": loaded - start,
                "module": built - loaded,
                "setups": watch.seconds,
                "boards": boards.seconds,
                "pieces": pieces.seconds,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
