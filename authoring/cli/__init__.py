"""The `hexwright` command, one module per command group: `main` (the group, validate, list, schema), `check`,
`build` (build and watch), `author` (init, new, set-up cards, docs), `art` (calibrate), `import_vmod`; option
types in `args`, printing findings in `output`."""

from authoring.cli.main import main, run

__all__ = ("main", "run")
