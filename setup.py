"""The one build step pyproject.toml cannot declare: hexwright's own data goes into the package.

The schemas and the bundled games stay where the project layout puts them (`schemas/`, `maps/`,
`counters/`, `scenarios/` at the top of the tree: data files name `../../schemas/...` for editors).
`build_py` copies them into the built package as `authoring/_bundled/`, so that a wheel, and a wheel
built from the sdist (MANIFEST.in carries the folders), reads them as package data (`authoring.bundled`).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA_FOLDERS = ("schemas", "maps", "counters", "scenarios")
PACKAGED = Path("authoring") / "_bundled"


def _data_files(folder: Path):
    """Every file of `folder`, sorted, leaving out hidden files and folders."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            yield path


class BuildPyWithData(build_py):
    """`build_py`, then the data folders copied into the built package (a stale copy is replaced)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:   # an editable install reads the checkout's own folders
            return
        target = Path(self.build_lib) / PACKAGED
        shutil.rmtree(target, ignore_errors=True)
        for name in DATA_FOLDERS:
            source = HERE / name
            if not source.is_dir():
                raise SystemExit(f"setup.py: {source} is missing; build from a checkout or an sdist")
            for path in _data_files(source):
                dest = target / name / path.relative_to(source)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, dest)


setup(cmdclass={"build_py": BuildPyWithData})
