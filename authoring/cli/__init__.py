"""The `hexwright` command, one module per command group: `main` (the group, validate, list, schema), `check`,
`build` (build and watch), `author` (init, new, set-up cards, docs), `art` (calibrate), `import_vmod`; option
types in `args`, printing findings in `output`."""

import sys

if sys.argv[:1] == ["-m"]:  # `python -m authoring.cli` (argv[0] is "-m" while the module is found): the command
    from authoring.interrupt import answer_early  # starts here, so Ctrl-C is answered before the slow imports

    answer_early()

from authoring.cli.main import main, run  # noqa: E402

__all__ = ("main", "run")
