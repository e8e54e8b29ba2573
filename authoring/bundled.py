"""hexwright's own data: the JSON Schemas and the bundled games, read as package data.

They are kept once, at the top of the source tree (`schemas/`, `maps/`, `counters/`, `scenarios/`: the
project layout, which the `$schema` line of every data file points into). Building a wheel or an sdist
copies them into the package as `authoring/_bundled/` (`setup.py`), where an installed hexwright finds
them through importlib.resources. An editable install of a source checkout has no copy: it reads the
checkout's own folders, so an edited schema takes effect at once.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from pathlib import Path

PACKAGED = "_bundled"
"""The folder inside the package that a build fills with the schemas and the bundled games."""
_MARKER = Path("schemas") / "game.schema.json"


class MissingData(RuntimeError):
    """hexwright is installed without its schemas (a broken or hand-made install)."""


@lru_cache(maxsize=1)
def package() -> Path:
    """The folder of the `authoring` package (its code, which digests hash, and its data). Process-wide: where
    the running code was imported from does not change while it runs."""
    found = files("authoring")
    if not isinstance(found, Path):  # a zip import: every reader here needs real files
        raise MissingData(f"hexwright must be installed as files, not run from an archive ({found})")
    return found


@lru_cache(maxsize=1)
def root() -> Path:
    """The folder, laid out as a project, that holds `schemas/` and the bundled games (fixed, as `package`)."""
    package_dir = package()
    for candidate in (package_dir / PACKAGED, package_dir.parent):  # an installed package, then a source checkout
        if (candidate / _MARKER).is_file():
            return candidate
    raise MissingData(
        f"hexwright's schemas are missing from {package_dir / PACKAGED}; reinstall hexwright "
        "(a wheel or sdist built with its setup.py carries them)"
    )


def schema_dir() -> Path:
    """The JSON Schemas, one per file kind."""
    return root() / "schemas"
