"""The goals `make bench` measures (issue 49), each printed at the end beside the figure this run measured.

A section that measures a goal's figure records it (`record`): its values over the runs (seconds, MB or a
ratio), with the CPU seconds of the same runs where a whole process was timed. The closing table lists every
goal, in the issue's order, with its target, the median [min-max], the CPU beside it, and whether the median
meets the target (every run, for a goal that says "never"); a goal whose section did not run this time says so. The machine's load (`load_line`) is
printed at the start and the end of a run, since figures measured on a busy machine are not a quiet one's.
"""

from __future__ import annotations

import operator
import os
import statistics
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Goal:
    key: str
    what: str
    op: str
    """'<', '<=' or '>=': how the median must compare with `limit`."""
    limit: float
    unit: str
    section: str
    """The `make bench ONLY=...` section that measures it."""
    every_run: bool = False
    """Met only when every run meets it (a 'never'), not the median."""

    @property
    def target(self) -> str:
        return f"{self.op} {_number(self.limit, self.unit)}"


GOALS = (
    Goal("hex", "Typhoon: one hex's terrain edited, build all", "<", 1.5, "s", "loop"),
    Goal("counter", "Typhoon: one counter edited, build all", "<", 0.8, "s", "loop"),
    Goal("unit", "Typhoon: one unit moved, build all", "<", 0.5, "s", "loop"),
    Goal("nothing", "Typhoon: nothing changed, build all", "<", 0.1, "s", "loop"),
    Goal("clean", "Typhoon: build all, clean", "<", 10.0, "s", "clean"),
    Goal("jobs", "Typhoon clean: --jobs 2 wall / --jobs 1 wall, every round", "<=", 1.0, "x", "clean", every_run=True),
    Goal("memory", "Typhoon clean --jobs 2: memory, all processes", "<", 400.0, "MB", "clean"),
    Goal("module", "module: pywargame / hexwright, whole module", ">=", 2.0, "x", "module"),
    Goal("module-boards", "module: pywargame / hexwright, boards", ">=", 2.0, "x", "module"),
    Goal("module-pieces", "module: pywargame / hexwright, pieces", ">=", 2.0, "x", "module"),
    Goal("module-setups", "module: pywargame / hexwright, set-ups", ">=", 2.0, "x", "module"),
    Goal("validate", "validate / bare parse, whole processes", "<=", 2.0, "x", "load"),
)
OPS = {"<": operator.lt, "<=": operator.le, ">=": operator.ge}


@dataclass
class Measured:
    values: list[float]
    cpu: list[float] | None = None
    """CPU seconds of the same runs; for a ratio, the ratio of their CPU times."""
    note: str = ""


@dataclass
class Board:
    """What this run measured, by goal key (and, for goals per game, by game: 'validate bfm')."""

    figures: dict[str, Measured] = field(default_factory=dict)

    def record(self, key: str, values: list[float], cpu: list[float] | None = None, note: str = "") -> None:
        self.figures[key] = Measured(list(values), list(cpu) if cpu is not None else None, note)

    def rows(self) -> list[tuple[str, str, str, str, str]]:
        """(goal, target, measured, CPU, verdict) for every goal, in order; a goal measured per game has a
        row per game."""
        out = []
        for goal in GOALS:
            keys = [k for k in self.figures if k == goal.key or k.startswith(goal.key + " ")]
            if not keys:
                out.append((goal.what, goal.target, f"not measured (ONLY={goal.section})", "", ""))
            for key in keys:
                m = self.figures[key]
                name = goal.what + key[len(goal.key) :].replace(" ", ", ", 1) + (f" ({m.note})" if m.note else "")
                judged = m.values if goal.every_run else [statistics.median(m.values)]
                met = all(OPS[goal.op](v, goal.limit) for v in judged)
                cpu = f"CPU {spread(m.cpu, 's' if goal.unit == 's' else goal.unit)}" if m.cpu else ""
                out.append((name, goal.target, spread(m.values, goal.unit), cpu, "met" if met else "NOT met"))
        return out

    def table(self) -> list[str]:
        rows = [("goal", "target", "measured: median [min-max]", "CPU", ""), *self.rows()]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, [*widths, 0])).rstrip() for r in rows]


def record_module(fig: dict[str, list[float]], game: str) -> None:
    """The module goals of one game from bench_pywargame's figures by round: pywargame's time over hexwright's,
    round by round, for the whole module (whole processes) and each part both sides time under one name."""
    pairs = {"module": ("pywargame whole", "hexwright whole")}
    pairs.update({f"module-{p}": (f"pywargame {p}", f"hexwright {p}") for p in ("boards", "pieces", "setups")})
    for key, (theirs, ours) in pairs.items():
        if theirs in fig and ours in fig:
            BOARD.record(f"{key} {game}", [a / b for a, b in zip(fig[theirs], fig[ours])])


def spread(values: list[float], unit: str) -> str:
    """'median [min-max] unit' (the unit's own number of digits)."""
    med = statistics.median(values)
    if len(values) == 1:
        return _number(med, unit)
    return f"{_number(med, unit)} [{_bare(min(values), unit)}-{_bare(max(values), unit)}]"


def _bare(value: float, unit: str) -> str:
    return f"{value:.0f}" if unit == "MB" else f"{value:.2f}"


def _number(value: float, unit: str) -> str:
    return f"{_bare(value, unit)}{unit}" if unit == "x" else f"{_bare(value, unit)} {unit}"


def load_line(when: str) -> str:
    """The machine's load averages (1, 5, 15 minutes) and its cores, e.g. for the start and end of a run."""
    one, five, fifteen = os.getloadavg()
    return f"load average {when}: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) on {os.cpu_count()} cores"


BOARD = Board()
"""This run's figures: the sections record into it and run.py prints it at the end."""
