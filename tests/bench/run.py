"""`make bench`: speed figures for every bundled game and a synthetic large game (printed, never asserted).

Each figure is the median of several in-process runs after a warm-up; the machine is shared and
noisy, so compare ratios rather than absolute times.
"""
from __future__ import annotations

import importlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))

from synth import generate  # noqa: E402

from authoring.load import discover, load_game  # noqa: E402


def timed(fn, runs: int = 5) -> float:
    fn()
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def bare_yaml(files) -> None:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in files.all:
        if path.suffix == ".csv":
            import csv
            with path.open(newline="", encoding="utf-8") as f:
                list(csv.reader(f))
        else:
            yaml.load(path.read_text(encoding="utf-8"), Loader=loader)


def _sources(files):
    from authoring.load.resolve_counters import csv_to_counters
    from authoring.load.source import load_source
    out = []
    for path in files.all:
        src = load_source(path)
        kind = "counters" if path.suffix == ".csv" else src.data["kind"]
        out.append((kind, csv_to_counters(src) if path.suffix == ".csv" else src))
    return out


def bench_load(name: str, files) -> None:
    from authoring.load import schemas
    full = timed(lambda: load_game(files))
    bare = timed(lambda: bare_yaml(files))
    ours = timed(lambda: _sources(files))
    parsed = _sources(files)
    schema = timed(lambda: [schemas.validate(src, kind) for kind, src in parsed])
    refs = full - ours - schema
    print(f"  {name:<28} load+validate {full * 1000:7.1f} ms = parse with source marks {ours * 1000:6.1f} "
          f"+ schema {schema * 1000:6.1f} + references/model {refs * 1000:6.1f}   "
          f"(bare YAML parse {bare * 1000:6.1f} ms; schema validation adds {schema / bare * 100:3.0f}%, "
          f"everything after parsing {(full - ours) / ours * 100:3.0f}%)")


def section_load(synth_root: Path) -> None:
    print("load + validate (target: large game < 2 s; validation <= +50% over bare parsing)")
    for files in discover(ROOT):
        bench_load(files.id, files)
    bench_load("synthetic (3x60x45, 1080)", discover(synth_root)[0])


SECTIONS = [section_load]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        synth_root = generate(Path(tmp) / "synth")
        for section in SECTIONS:
            section(synth_root)
        extra = ROOT / "tests" / "bench"
        for mod in sorted(extra.glob("bench_*.py")):
            importlib.import_module(mod.stem).run(synth_root, Path(tmp))


if __name__ == "__main__":
    main()
