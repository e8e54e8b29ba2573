"""Issue 32, part 4: a writer replaces only a regular file. A FIFO, a socket, a folder or a device node where it
would write is refused with exit 2, `--force` or not, and left exactly as it was (same kind, same inode).

Every node is made in the test's temporary folder; the device is a character device made with `os.mknod`
(only as root) with the numbers of the null device, so even a write through it would go nowhere.
"""

from __future__ import annotations

import os
import socket
import stat
import sys
from contextlib import chdir
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vmod"))
import corpus  # noqa: E402  (the small VASSAL modules of the import tests)

KINDS = ("fifo", "socket", "folder", "device")
NOT_FOLDERS = ("fifo", "socket", "device")
KIND_WORDS = {"fifo": "named pipe (FIFO)", "socket": "socket", "folder": "folder", "device": "character device"}


def make_node(path: Path, kind: str) -> tuple[int, int, int]:
    """A `kind` node at `path` (parents created); its (mode, inode, device numbers)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        with chdir(path.parent), socket.socket(socket.AF_UNIX) as s:  # relative: socket paths are short
            s.bind(path.name)
    elif kind == "folder":
        path.mkdir()
        (path / "keep.txt").write_text("mine")
    else:
        if os.geteuid() != 0:
            pytest.skip("a device node can only be made as root")
        try:
            os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError as exc:
            pytest.skip(f"this system does not let root make a device node: {exc}")
    return identity(path)


def identity(path: Path) -> tuple[int, int, int]:
    st = os.lstat(path)
    return st.st_mode, st.st_ino, st.st_rdev


def refused(result, path: Path, before: tuple[int, int, int], kind: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert identity(path) == before, f"{path} was replaced"
    if kind == "folder":
        assert sorted(p.name for p in path.iterdir()) == ["keep.txt"]


@pytest.fixture
def project(mini_project: Path, monkeypatch) -> Path:
    monkeypatch.chdir(mini_project)
    return mini_project


FILE_WRITERS = {  # writer -> (its arguments with {out}, whether a folder is refused by click's own check first)
    "export-setup": ["export-setup", "mini/intro", "--side", "red", "--out", "{out}", "--force"],
    "check --image": ["check", "mini/intro", "--image", "{out}", "--force"],
    "check MAP --image": ["check", "maps/mini/board.yaml", "--image", "{out}", "--force"],
    "build calibration": ["build", "calibration", "--out", "{out}", "--force"],
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("writer", sorted(FILE_WRITERS))
def test_an_out_file_that_is_no_regular_file_is_refused_even_with_force(project, cli, writer: str, kind: str):
    target = project / "out" / "target.png"
    before = make_node(target, kind)
    r = cli(*[a.format(out="out/target.png") for a in FILE_WRITERS[writer]])
    refused(r, target, before, kind)
    if kind != "folder":  # click itself says "is a directory" for a folder where a file is wanted
        assert f"is a {KIND_WORDS[kind]}" in r.output and "even with --force" in r.output
        assert "add --force" not in r.output


@pytest.mark.parametrize("kind", NOT_FOLDERS)
@pytest.mark.parametrize(
    "args", [["build", "module", "mini", "--force"], ["build", "charts", "mini"], ["watch", "mini", "--once"]]
)
def test_a_build_out_folder_that_is_no_folder_is_refused(project, cli, args: list[str], kind: str):
    target = project / "elsewhere"
    before = make_node(target, kind)
    r = cli(*args, "--out", "elsewhere")
    refused(r, target, before, kind)
    assert f"is a {KIND_WORDS[kind]}, not a folder" in r.output


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "stage, output",
    [
        ("module", "mini/mini.vmod"),
        ("sheets", "mini/counters.mini.letter.pdf"),
        ("charts", "mini/charts/legend.png"),
        ("maps", "mini/maps/map-board.png"),
    ],
)
def test_a_build_output_that_is_no_regular_file_is_refused(project, cli, stage: str, output: str, kind: str):
    """The maps are drawn and written by worker processes: the refusal comes back from one."""
    target = project / "build" / output
    before = make_node(target, kind)
    r = cli("build", stage, "mini", "--force", "--jobs", "2")
    refused(r, target, before, kind)
    assert f"refusing to replace a {KIND_WORDS[kind]}: " in r.output and "writes only over regular files" in r.output


@pytest.mark.parametrize("kind", KINDS)
def test_docs_format_write_refuses_a_node_at_docs_format_md(project, cli, kind: str):
    target = project / "docs" / "format.md"
    before = make_node(target, kind)
    r = cli("docs", "format", "--write")
    refused(r, target, before, kind)


@pytest.mark.parametrize("kind", KINDS)
def test_new_scenario_refuses_a_node_at_its_file(project, cli, kind: str):
    target = project / "scenarios" / "mini" / "second.yaml"
    before = make_node(target, kind)
    r = cli("new", "scenario", "mini", "second")
    refused(r, target, before, kind)


@pytest.mark.parametrize("kind", KINDS)
def test_import_setup_leaves_a_node_in_place_of_the_scenario(project, cli, kind: str):
    target = project / "scenarios" / "mini" / "intro.yaml"
    target.unlink()
    before = make_node(target, kind)
    (project / "red.csv").write_text("hex,unit,state\n0102,red-1,\n")
    r = cli("import-setup", "red.csv", "--scenario", "mini/intro")
    refused(r, target, before, kind)


@pytest.mark.parametrize("kind", NOT_FOLDERS)
@pytest.mark.parametrize("command", ["init", "import-vmod"])
def test_a_new_project_folder_that_is_no_folder_is_refused(tmp_path: Path, cli, command: str, kind: str):
    target = tmp_path / "new"
    before = make_node(target, kind)
    args = (
        ["init", str(target)]
        if command == "init"
        else ["import-vmod", str(corpus.write(corpus.CORPUS["flat-offset"], tmp_path)), "--out", str(target)]
    )
    r = cli(*args)
    refused(r, target, before, kind)
    assert f"is a {KIND_WORDS[kind]}; give a folder" in r.output


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["init", "import-vmod"])
def test_a_node_where_a_new_project_puts_a_file_or_folder_is_refused(tmp_path: Path, cli, command: str, kind: str):
    dest = tmp_path / "new"
    targets = [dest / ("README.md" if command == "init" else ".gitignore")]
    if kind != "folder":  # in the place of a folder the project needs
        targets.append(dest / ("scenarios" if command == "init" else "counters"))
    before = [make_node(t, kind) for t in targets]
    args = (
        ["init", str(dest)]
        if command == "init"
        else ["import-vmod", str(corpus.write(corpus.CORPUS["flat-offset"], tmp_path)), "--out", str(dest)]
    )
    r = cli(*args)
    for target, ident in zip(targets, before):
        refused(r, target, ident, kind)
    assert "already exist" in r.output and sorted(p.name for p in dest.iterdir()) == sorted(t.name for t in targets)


def test_force_still_replaces_a_regular_file_and_a_link_is_replaced_not_followed(project, cli):
    (project / "notes.md").write_text("mine")
    r = cli("export-setup", "mini/intro", "--side", "red", "--out", "notes.md", "--force")
    assert r.exit_code == 0 and "hex" in (project / "notes.md").read_text()
    fifo = project / "pipe"
    before = make_node(fifo, "fifo")
    (project / "link.csv").symlink_to(fifo)
    r = cli("export-setup", "mini/intro", "--side", "red", "--out", "link.csv", "--force")
    assert r.exit_code == 0, r.output
    assert identity(fifo) == before and (project / "link.csv").is_file() and not (project / "link.csv").is_symlink()


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_a_node_in_place_of_a_stale_output_is_left_when_the_build_removes_stale_outputs(project, cli, kind: str):
    """A rebuild removes the files an earlier build made that no longer have a source (the set-up cards of a
    deleted scenario), but only files: a node put in the place of one stays."""
    assert cli("new", "scenario", "mini", "second", "--from", "intro").exit_code == 0
    assert cli("build", "cards", "mini").exit_code == 0
    cards = project / "build" / "mini" / "cards"
    stale = sorted(cards.glob("setup.second.*"))
    assert stale
    stale[0].unlink()
    before = make_node(stale[0], kind)
    (project / "scenarios" / "mini" / "second.yaml").unlink()
    r = cli("build", "cards", "mini")
    assert r.exit_code == 0, r.output
    assert identity(stale[0]) == before and not any(p.exists() for p in stale[1:])
    assert sorted(cards.glob("setup.intro.*"))
