"""The console script's entry point (`hexwright`): Ctrl-C answered before anything slow is imported
(`interrupt.answer_early`), then the command line (`cli.main.run`)."""

from __future__ import annotations

from authoring.interrupt import answer_early


def run() -> None:
    """The console command: `answer_early`, then import and run the command line."""
    answer_early()
    from authoring.cli.main import run as command

    command()
