"""Issue 49, "Done when": after any one edit, an incremental rebuild leaves the same bytes as a clean build.

For each kind of edit a designer makes (a counter's value, a hex's terrain, a hexside feature, a unit moved in
a scenario, a rule table's cell, a counter's art), a copy of a bundled game is built, edited, rebuilt into the
same build folder (whole `hexwright build all` processes, as a designer runs them), and the edited data is
built clean in a fresh project: every output file must have the same bytes in both. Modules (zips) are
compared member by member, so that a failure names the members that differ. The edit must change at least
one output (an edit that changes nothing would prove nothing). Battle for Moscow (small) for every kind;
Typhoon (three maps sharing a column) for the kinds that cross its maps, marked slow.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PARTS = ("counters", "maps", "scenarios")


@dataclass(frozen=True)
class Edit:
    """Replace `old` (found exactly once) with `new` in the game's file `path` (relative to the project), and
    the same for each of `more` (path, old, new): a hex two maps share is edited in both."""

    game: str
    path: str
    old: str
    new: str
    more: tuple[tuple[str, str, str], ...] = ()

    def apply(self, project: Path) -> None:
        for path, old, new in ((self.path, self.old, self.new), *self.more):
            file = project / path
            text = file.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"{path}: the test's edit matches {text.count(old)} places"
            file.write_text(text.replace(old, new), encoding="utf-8")


EDITS = {
    "counter": Edit(
        "bfm",
        "counters/bfm/counters.yaml",
        '{id: sov-3, side: soviet, type: infantry, size: army, designation: "3",\n'
        "     faces: [{state: full, values: {attack: 8, movement: 4}}, {state: half, values: {attack: 4,",
        '{id: sov-3, side: soviet, type: infantry, size: army, designation: "3",\n'
        "     faces: [{state: full, values: {attack: 8, movement: 4}}, {state: half, values: {attack: 5,",
    ),
    "hex terrain": Edit("bfm", "maps/bfm/main.yaml", 'forest: [\n    "0201",', 'forest: [\n    "0101", "0201",'),
    "hexside": Edit("bfm", "maps/bfm/main.yaml", '    - ["0603", "0604"]\n', ""),
    "unit move": Edit(
        "bfm",
        "scenarios/bfm/seven-turn.yaml",
        '{hex: "0509", units: [sov-3], state: half}\n    - {hex: "0510", units: [sov-13], state: half}',
        '{hex: "0509", units: [sov-13], state: half}\n    - {hex: "0510", units: [sov-3], state: half}',
    ),
    "table": Edit("bfm", "scenarios/bfm/tables.yaml", "[6, AL, NE, DRL, DE, DE, DE]", "[6, AL, NE, DR, DE, DE, DE]"),
    "art": Edit("bfm-art", "counters/bfm-art/art/red-star.svg", 'fill="#c1272d"', 'fill="#2d27c1"'),
}
TYPHOON_EDITS = {  # the multi-map case bfm has not (each edit kind is bfm's above): one, as it costs minutes
    "hex terrain on the column M and N share": Edit(
        "typhoon",
        "maps/typhoon/M.yaml",
        '    "M0110", "M0111",',
        '    "M0111",',
        (("maps/typhoon/N.yaml", '"N3824", "N3910", "N3911"', '"N3824", "N3911"'),),
    ),
}


def _hexwright(project: Path, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "authoring.cli", *args, "--project", str(project)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]


def _build(project: Path, game: str) -> Path:
    _hexwright(project, "build", "all", game, "--jobs", "1", "--dpi", "72")
    return project / "build" / game


def _copy(game: str, dest: Path, source: Path = ROOT) -> Path:
    for part in PARTS:
        shutil.copytree(source / part / game, dest / part / game)
    return dest


def outputs(folder: Path) -> dict[str, bytes]:
    """Every output file's bytes by relative path. Left out: hidden files (the stamps and caches) and the
    module's manifest, a stamp too (sealed with the module's real path, so never the same in two folders)."""
    out = {}
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in names:
            if not name.startswith(".") and not name.endswith(".manifest.json"):
                path = Path(top, name)
                out[path.relative_to(folder).as_posix()] = path.read_bytes()
    return out


def differences(incremental: dict[str, bytes], clean: dict[str, bytes]) -> list[str]:
    """What differs between two build folders' files, one line each (zips member by member); [] when none."""
    lines = [f"{k}: only in the incremental build" for k in sorted(incremental.keys() - clean.keys())]
    lines += [f"{k}: only in the clean build" for k in sorted(clean.keys() - incremental.keys())]
    for name in sorted(incremental.keys() & clean.keys()):
        a, b = incremental[name], clean[name]
        if a == b:
            continue
        if name.endswith((".vmod", ".zip")):
            lines += [f"{name}: {line}" for line in zip_differences(a, b)] or [f"{name}: zip headers differ"]
        else:
            lines.append(f"{name}: {len(a)} bytes incremental, {len(b)} clean")
    return lines


def zip_differences(a: bytes, b: bytes) -> list[str]:
    """Members only in one zip, members whose bytes or header fields differ, and a different member order."""
    import io

    with zipfile.ZipFile(io.BytesIO(a)) as za, zipfile.ZipFile(io.BytesIO(b)) as zb:
        ia, ib = {i.filename: i for i in za.infolist()}, {i.filename: i for i in zb.infolist()}
        lines = [f"member {k} only incremental" for k in sorted(ia.keys() - ib.keys())]
        lines += [f"member {k} only clean" for k in sorted(ib.keys() - ia.keys())]
        for k in sorted(ia.keys() & ib.keys()):
            if za.read(k) != zb.read(k):
                lines.append(f"member {k}: bytes differ")
            elif _header(ia[k]) != _header(ib[k]):
                lines.append(f"member {k}: header differs {_header(ia[k])} vs {_header(ib[k])}")
        if not lines and list(ia) != list(ib):
            lines.append("members in another order")
    return lines


def _header(info: zipfile.ZipInfo) -> tuple:
    return (info.date_time, info.compress_type, info.external_attr, info.extra, info.comment, info.compress_size)


def _check(edit: Edit, tmp: Path) -> None:
    project = _copy(edit.game, tmp / "incremental")
    first = outputs(_build(project, edit.game))
    edit.apply(project)
    incremental = outputs(_build(project, edit.game))
    clean = outputs(_build(_copy(edit.game, tmp / "clean", project), edit.game))
    assert incremental != first, "the edit changed no output: it tests nothing"
    differ = differences(incremental, clean)
    assert not differ, "\n".join(differ)


@pytest.mark.slow  # two whole builds each
@pytest.mark.parametrize("kind", EDITS)
def test_an_incremental_rebuild_after_one_edit_equals_a_clean_build(kind: str, tmp_path: Path) -> None:
    _check(EDITS[kind], tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("kind", TYPHOON_EDITS)
def test_typhoon_incremental_rebuild_after_one_edit_equals_a_clean_build(kind: str, tmp_path: Path) -> None:
    _check(TYPHOON_EDITS[kind], tmp_path)


def test_zips_are_compared_member_by_member(tmp_path: Path) -> None:
    """The comparison names the member that differs, not just the archive."""

    def made(members: dict[str, bytes]) -> bytes:
        path = tmp_path / "z.zip"
        with zipfile.ZipFile(path, "w") as z:
            for name, data in members.items():
                z.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data)
        return path.read_bytes()

    a = made({"buildFile.xml": b"<a/>", "images/x.png": b"x"})
    b = made({"buildFile.xml": b"<b/>", "images/x.png": b"x", "images/y.png": b"y"})
    assert differences({"g.vmod": a, "same.png": b"p"}, {"g.vmod": b, "same.png": b"p"}) == [
        "g.vmod: member images/y.png only clean",
        "g.vmod: member buildFile.xml: bytes differ",
    ]
