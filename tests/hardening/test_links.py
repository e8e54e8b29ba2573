"""Issue 47, class 2: no writer follows a link out of the folder it writes into (`safepath.confine`).

A matrix of writer x link position. For each, the folder (or file) at that position is moved out of the
project to a "victim" place and a symbolic link left where it was, so the writer finds everything it needs
through the link; the victim must come out byte for byte as it went in, and the writer ends without a
traceback (a refusal, exit 1 or 2; a link at the final file may instead be replaced by the new file).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from authoring.products.store import Entries

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vmod"))
import corpus  # noqa: E402  (the small VASSAL modules of the import tests)

ROOT = Path(__file__).resolve().parents[2]


def _tree(folder: Path) -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        out[rel] = p.read_bytes() if p.is_file() and not p.is_symlink() else ("link" if p.is_symlink() else "dir")
    return out


def _plant(path: Path, victim: Path) -> dict:
    """Move `path` (a folder or file) to `victim`, link it back; what the victim holds now."""
    victim.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        shutil.move(str(path), str(victim))
    else:
        victim.mkdir(parents=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(victim, target_is_directory=victim.is_dir())
    (victim if victim.is_dir() else victim.parent).joinpath("keep.txt").write_text("mine")
    return _tree(victim.parent)


def _kept(result, path: Path, victim: Path, before: dict, final: bool = False) -> None:
    out = result.output
    assert "Traceback" not in out and "internal error" not in out, out[-2000:]
    assert _tree(victim.parent) == before, f"{victim} was written through the link at {path}"
    if final and not path.is_symlink():  # the link itself was replaced by the new file: allowed
        return
    assert result.exit_code in (1, 2), out[-2000:]


# --- builds: every stage, every folder it writes into, its caches ------------------------------------------

STAGE_POSITIONS = {
    "module": [".cache", ".cache/vassal", "mini", "mini/mini.vmod"],
    "sheets": [".cache", ".cache/sheets", "mini", "mini/counters.mini.letter.pdf"],
    "maps": ["mini", "mini/maps", "mini/maps/map-board.png"],
    "cards": [".cache", ".cache/cards", "mini", "mini/cards", "mini/cards/setup.intro.red.png"],
    "charts": ["mini", "mini/charts", "mini/charts/legend.png"],
}
BUILD_CASES = [(stage, pos) for stage, positions in STAGE_POSITIONS.items() for pos in ["--out", *positions]]


@pytest.mark.slow
@pytest.mark.parametrize("stage, position", BUILD_CASES)
def test_a_build_stage_never_writes_through_a_link(mini_project: Path, cli, tmp_path: Path, stage: str, position):
    """`--force` makes every stage write again (it lifts no link refusal but the one of a named `--out`)."""
    out = mini_project / "out"
    dpi = ["--dpi", "72"] if stage == "sheets" else []
    args = ["build", stage, "mini", "--project", str(mini_project), "--out", str(out), *dpi, "--jobs", "1"]
    first = cli(*args)
    assert first.exit_code == 0, first.output
    path = out if position == "--out" else out / position
    victim = tmp_path / "victim" / path.name
    before = _plant(path, victim)
    r = cli(*args, *([] if position == "--out" else ["--force"]))
    _kept(r, path, victim, before, final="." in path.name and position != ".cache")


def test_a_default_build_folder_with_a_linked_cache_is_refused(mini_project: Path, cli, tmp_path: Path):
    """The issue's case: `build/.cache/sheets` a link out of the project (build/ itself named by no --out)."""
    victim = tmp_path / "victim" / "sheets"
    before = _plant(mini_project / "build" / ".cache" / "sheets", victim)
    r = cli("build", "sheets", "mini", "--project", str(mini_project), "--dpi", "72", "--jobs", "1")
    _kept(r, mini_project / "build/.cache/sheets", victim, before)
    assert r.exit_code == 2 and "is a symbolic link" in r.output


def test_an_out_that_is_a_link_is_refused_without_force(mini_project: Path, cli, tmp_path: Path):
    victim = tmp_path / "victim" / "out"
    before = _plant(mini_project / "out", victim)
    r = cli("build", "charts", "mini", "--project", str(mini_project), "--out", str(mini_project / "out"))
    _kept(r, mini_project / "out", victim, before)
    assert r.exit_code == 2 and "is a symbolic link" in r.output and "add --force" in r.output


def test_a_cache_entry_is_never_stored_through_a_linked_cache_folder(tmp_path: Path):
    """Every cache (the module's images, sheets, cards, the preview's tiles) stores through `Entries`."""
    victim = tmp_path / "victim"
    victim.mkdir()
    for kind in ("vassal", "sheets", "cards", "serve"):
        folder = tmp_path / "build" / ".cache" / kind
        folder.parent.mkdir(parents=True, exist_ok=True)
        folder.symlink_to(victim, target_is_directory=True)
        Entries(folder).put([("abc", b"picture")])
    (tmp_path / "elsewhere").mkdir()
    linked = tmp_path / "build2"
    linked.mkdir()
    (linked / ".cache").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    Entries(linked / ".cache" / "sheets").put([("abc", b"picture")])
    assert list(victim.iterdir()) == [] and list((tmp_path / "elsewhere").iterdir()) == []


# --- import-vmod -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def vmod(tmp_path_factory) -> Path:
    return corpus.write(corpus.CORPUS["flat-offset"], tmp_path_factory.mktemp("module"))


@pytest.mark.parametrize(
    "position", ["--out", "scenarios", "counters", "counters/flat-offset/art", "scenarios/flat-offset/game.yaml"]
)
def test_import_vmod_never_writes_through_a_link(vmod: Path, cli, tmp_path: Path, position: str):
    dest = tmp_path / "project"
    path = dest if position == "--out" else dest / position
    victim = tmp_path / "victim" / path.name
    if "." in path.name:  # a file the import would write
        victim.parent.mkdir(parents=True)
        victim.write_text("kind: game\n")
        path.parent.mkdir(parents=True)
        path.symlink_to(victim)
        before = _tree(victim.parent)
    else:
        before = _plant(path, victim)
    r = cli("import-vmod", str(vmod), "--out", str(dest))
    _kept(r, path, victim, before)


def test_import_vmod_refuses_an_empty_out(vmod: Path, cli, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("import-vmod", str(vmod), "--out", "")
    assert r.exit_code == 2 and "is empty" in r.output, r.output
    assert list(tmp_path.iterdir()) == []


# --- writers into the project: import-setup, new scenario, docs --write, calibrate --write, export-setup ----

PROJECT_CASES = {
    "import-setup": (
        ["import-setup", "red.csv", "--scenario", "mini/intro"],
        ["scenarios", "scenarios/mini", "scenarios/mini/intro.yaml"],
    ),
    "new scenario": (["new", "scenario", "mini", "Spring"], ["scenarios", "scenarios/mini"]),
    "docs format --write": (["docs", "format", "--write"], ["docs", "docs/format.md"]),
    "docs codes --write": (["docs", "codes", "--write"], ["docs", "docs/codes.md"]),
    "export-setup": (
        ["export-setup", "mini/intro", "--side", "red", "--out", "sub/red.csv", "--force"],
        ["sub", "sub/red.csv"],
    ),
    "check --image": (["check", "mini/intro", "--image", "sub/red.png", "--force"], ["sub", "sub/red.png"]),
    "build calibration": (["build", "calibration", "--out", "sub/cal.pdf", "--force"], ["sub", "sub/cal.pdf"]),
}


@pytest.mark.parametrize("writer, position", [(w, p) for w, (_, positions) in PROJECT_CASES.items() for p in positions])
def test_a_project_writer_never_writes_through_a_link(mini_project: Path, cli, tmp_path, monkeypatch, writer, position):
    monkeypatch.chdir(mini_project)
    (mini_project / "red.csv").write_text("hex,unit,state\n0102,red-1,\n")
    (mini_project / "docs").mkdir()
    (mini_project / "docs" / "format.md").write_text("old\n")
    (mini_project / "docs" / "codes.md").write_text("old\n")
    (mini_project / "sub").mkdir()
    for name in ("red.csv", "red.png", "cal.pdf"):
        (mini_project / "sub" / name).write_text("an earlier output\n")
    path = mini_project / position
    victim = tmp_path / "victim" / path.name
    before = _plant(path, victim)
    args, _ = PROJECT_CASES[writer]
    r = cli(*args)
    _kept(r, path, victim, before, final=path.suffix != "")


@pytest.fixture
def art_project(tmp_path: Path) -> Path:
    for folder in ("maps", "counters", "scenarios"):
        shutil.copytree(ROOT / folder / "bfm-art", tmp_path / "project" / folder / "bfm-art")
    return tmp_path / "project"


@pytest.mark.parametrize("position", ["maps", "maps/bfm-art", "maps/bfm-art/main.yaml"])
def test_calibrate_write_never_writes_through_a_link(art_project: Path, cli, tmp_path: Path, position: str):
    path = art_project / position
    victim = tmp_path / "victim" / path.name
    before = _plant(path, victim)
    r = cli("calibrate", str(art_project / "maps/bfm-art/main.yaml"), "--point", "0101=160,200", "--write")
    _kept(r, path, victim, before)


def test_confine_follows_links_inside_and_refuses_links_out(tmp_path: Path):
    from authoring.safepath import UnsafePath, confine

    root = tmp_path / "root"
    (root / "real").mkdir(parents=True)
    (root / "inner").symlink_to(root / "real", target_is_directory=True)
    (tmp_path / "out").mkdir()
    (root / "away").symlink_to(tmp_path / "out", target_is_directory=True)
    assert confine(root, root / "inner" / "f.yaml") == root / "inner" / "f.yaml"
    with pytest.raises(UnsafePath, match="outside"):
        confine(root, root / "away" / "f.yaml")
    with pytest.raises(UnsafePath, match="inside"):
        confine(root, root / "inner" / "f.yaml", links="none")
    (root / "real" / "data.yaml").write_text("x")
    (root / "link.yaml").symlink_to(root / "real" / "data.yaml")
    assert confine(root, root / "link.yaml", final="follow") == Path(os.path.realpath(root / "real" / "data.yaml"))
    assert confine(root, root / "link.yaml") == root / "link.yaml"  # an output's link is replaced, not followed
