"""`python -m authoring.cli`."""

from authoring.cli.main import run

run()
