"""How every command prints findings: one renderer per `--format`, errors to stderr, the rest to stdout.

The command modules share these (and not the top-level `cli`, which imports them to register their
commands): output flows one way, from this module up to the commands.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from authoring.diagnostics import format as f
from authoring.diagnostics import has_errors


def render(diags, fmt: str, root: Path | None = None, counted=None) -> str:
    """`diags` as text in format `fmt` (full, concise, json, sarif; SARIF paths relative to `root`); the text
    formats' closing line counts `counted` when given (the findings `diags` stand for, alike ones cut)."""
    if fmt == "sarif":
        return f.render_sarif(diags, root)
    if counted is not None and fmt in ("full", "text", "concise"):
        return f.RENDERERS[fmt](diags, counted)
    return f.RENDERERS[fmt](diags)


def emit(diags, fmt: str, root: Path | None = None, counted=None) -> None:
    """Print `diags`: machine formats and clean runs to stdout, human findings with errors to stderr
    (`counted`: what the closing line counts, as `render`)."""
    out = render(diags, fmt, root, counted)
    stream = sys.stdout if fmt in ("json", "sarif") or not has_errors(diags) else sys.stderr
    click.echo(out, file=stream)
