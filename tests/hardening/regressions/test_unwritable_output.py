"""Regression: `--out` under a file (or any folder the OS refuses) printed "internal error ... this is a bug
in hexwright" for what is a user's mistake.

Found by tests/hardening/test_exit_codes.py. Fix: `authoring.cli._Group.invoke` reports an OSError
that names a file as `error: <reason>: <path>` with a help line, exit 2 (with --debug: the traceback).
"""

from __future__ import annotations

from pathlib import Path


def test_out_under_a_file_is_a_usage_error(mini_project: Path, tmp_path: Path, cli):
    (tmp_path / "afile").write_text("x")
    r = cli(
        "build",
        "sheets",
        "mini",
        "--project",
        str(mini_project),
        "--out",
        str(tmp_path / "afile" / "sub"),
        "--dpi",
        "72",
    )
    assert r.exit_code == 2
    assert f"error: Not a directory: {tmp_path / 'afile' / 'sub'}" in r.stderr
    assert "internal error" not in r.output and "Traceback" not in r.output
