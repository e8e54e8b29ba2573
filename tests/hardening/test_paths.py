"""Files a game names stay inside the project; builds write only under the chosen output folder."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.safepath import UnsafePath, check_output, resolve_inside


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "docs" / "sub").mkdir(parents=True)
    (root / "docs" / "rules.html").write_text("<p>rules</p>")
    (tmp_path / "secret.txt").write_text("private")
    return root


def test_relative_paths_inside_resolve(tree: Path):
    assert resolve_inside(tree, "docs/rules.html", "rules summary") == (tree / "docs/rules.html").resolve()
    assert resolve_inside(tree, "sub/../rules.html", "x", base=tree / "docs") == (tree / "docs/rules.html").resolve()
    assert resolve_inside(tree, "..\\docs\\rules.html", "x", base=tree / "docs") == (tree / "docs/rules.html").resolve()


@pytest.mark.parametrize(
    "bad, message",
    [
        ("../secret.txt", "leads outside the project folder"),
        ("docs/../../secret.txt", "leads outside the project folder"),
        ("..\\secret.txt", "leads outside the project folder"),
        ("/etc/passwd", "is absolute"),
        ("C:\\Windows\\win.ini", "is absolute"),
        ("C:win.ini", "is absolute"),
        ("\\\\server\\share\\x", "is absolute"),
        ("", "path is empty"),
        ("   ", "path is empty"),
        ("a\x00b", "NUL character"),
    ],
)
def test_escapes_refused(tree: Path, bad: str, message: str):
    with pytest.raises(UnsafePath, match=re.escape(message)):
        resolve_inside(tree, bad, "rules summary")


def test_symlink_out_refused_symlink_in_allowed(tree: Path):
    (tree / "docs" / "out.txt").symlink_to(tree.parent / "secret.txt")
    (tree / "docs" / "in.html").symlink_to(tree / "docs" / "rules.html")
    (tree / "linkdir").symlink_to(tree.parent)
    with pytest.raises(UnsafePath, match="is a symbolic link to .*secret.txt.*outside the project folder"):
        resolve_inside(tree, "docs/out.txt", "rules summary")
    with pytest.raises(UnsafePath, match="symbolic link"):
        resolve_inside(tree, "linkdir/secret.txt", "rules summary")
    assert resolve_inside(tree, "docs/in.html", "x") == (tree / "docs/rules.html").resolve()


def test_check_output(tmp_path: Path):
    out = tmp_path / "build"
    assert check_output(out, out / "bfm" / "x.pdf") == out / "bfm" / "x.pdf"
    with pytest.raises(UnsafePath, match="outside the build folder"):
        check_output(out, out / ".." / "x.pdf")


def _summary(project: Path, value: str) -> None:
    game = project / "scenarios/mini/game.yaml"
    game.write_text(game.read_text() + f"rules_summary: {value!r}\n")


def _validate(project: Path):
    from authoring.cli import main

    r = CliRunner().invoke(main, ["validate", str(project), "--format", "concise"])
    assert "Traceback" not in r.output
    return r.exit_code, r.output


@pytest.mark.parametrize(
    "value, code, message",
    [
        (
            "../../../../etc/passwd",
            "HW-PATH-010",
            "rules summary path '../../../../etc/passwd' leads outside the project",
        ),
        ("/etc/passwd", "HW-PATH-010", "rules summary path '/etc/passwd' is absolute"),
        ("missing.html", "HW-PATH-011", "rules summary file 'missing.html' not found"),
    ],
)
def test_loader_refuses_rules_summary(mini_project: Path, value: str, code: str, message: str):
    _summary(mini_project, value)
    exit_code, out = _validate(mini_project)
    assert exit_code == 1, out
    assert re.search(rf"game\.yaml:\d+:16: error\[{code}\]: {re.escape(message)}", out), out


def test_loader_refuses_rules_summary_symlink(mini_project: Path, tmp_path: Path):
    (tmp_path / "secret.txt").write_text("private")
    (mini_project / "scenarios/mini/rules.html").symlink_to(tmp_path / "secret.txt")
    _summary(mini_project, "rules.html")
    exit_code, out = _validate(mini_project)
    assert exit_code == 1
    assert "error[HW-PATH-010]: rules summary path 'rules.html' is a symbolic link to" in out, out


def test_loader_accepts_rules_summary_inside(mini_project: Path):
    (mini_project / "docs").mkdir()
    (mini_project / "docs/rules.html").write_text("<p>x</p>")
    _summary(mini_project, "../../docs/rules.html")
    exit_code, out = _validate(mini_project)
    assert exit_code == 0, out


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.slow
def test_build_writes_only_under_out(mini_project: Path, tmp_path: Path, cli):
    out = tmp_path / "elsewhere" / "out"
    before = _snapshot(tmp_path)
    r = cli("build", "all", "mini", "--project", str(mini_project), "--out", str(out), "--dpi", "72")
    assert r.exit_code == 0, r.output
    after = _snapshot(tmp_path)
    changed = {k for k in after if before.get(k) != after[k]}
    assert changed, "the build wrote nothing"
    assert all(k.startswith(os.path.join("elsewhere", "out") + os.sep) for k in changed), changed
    assert any(k.endswith(".vmod") for k in changed) and any(k.endswith(".pdf") for k in changed)
    assert not [k for k in after if k.endswith(".tmp")]
