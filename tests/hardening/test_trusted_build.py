"""Issue 33 point 1 and issue 34 point 2: nothing in `build/` is trusted that this machine did not write,
every cache keys on one fingerprint, each stage on exactly the data it reads, and a file saved during a
build is rebuilt by the next one."""

from __future__ import annotations

import hashlib
import json
import os
import threading
import zipfile
from pathlib import Path

import pytest

from authoring import trust

GAME = "mini"
BUILD = ("build", "all", GAME, "--jobs", "1", "--dpi", "72")


pytestmark = pytest.mark.slow  # whole builds


def _build(cli, project: Path, *extra: str):
    r = cli(*BUILD, "--project", str(project), *extra)
    assert r.exit_code == 0, r.output
    assert "internal error" not in r.output and "Traceback" not in r.output
    return r


def _outputs(project: Path) -> dict[str, tuple[int, str]]:
    """Every artifact of the game (stamps and manifests left out): (mtime_ns, sha256) by relative path."""
    folder = project / "build" / GAME
    return {
        str(p.relative_to(folder)): (p.stat().st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".") and not p.name.endswith(".manifest.json")
    }


def _rewritten(before: dict, after: dict) -> set[str]:
    return {k for k in after if before.get(k) != after[k]}


@pytest.fixture
def other_machine(monkeypatch, tmp_path: Path):
    """Switch to another machine's key for the block (`with other_machine():`)."""
    from contextlib import contextmanager

    @contextmanager
    def use():
        own = os.environ[trust.KEY_ENV]
        monkeypatch.setenv(trust.KEY_ENV, str(tmp_path / "stranger"))
        try:
            yield
        finally:
            monkeypatch.setenv(trust.KEY_ENV, own)

    return use


# --- one fingerprint ---------------------------------------------------------------------------


def _caches(project: Path) -> dict[str, bool]:
    """Whether each cache of a built project hits under the current fingerprint: every stage's stamp, the
    module's manifest and every cached counter face."""
    from authoring import pipeline
    from authoring.load import discover, load_game
    from authoring.pipeline.module import input_hash
    from authoring.products.catalogue import ModuleKeys
    from authoring.products.images import ImageCache
    from authoring.products.stamps import module_up_to_date
    from authoring.products.store import cache_dir
    from authoring.vassal import compile as compiled
    from authoring.vassal.images import face_jobs

    files = next(f for f in discover(project) if f.id == GAME)
    out = project / "build" / GAME
    hits = {st: pipeline.fresh(files, (st,), out, pipeline.SheetSettings(dpi=72)) for st in pipeline.STAGES}
    game = load_game(files).valid_game
    options = compiled.Options(
        float(compiled.DEFAULT_PX_PER_HEX), compiled.default_counter_px(game, compiled.DEFAULT_PX_PER_HEX)
    )
    module = out / f"{GAME}.vmod"
    hits["manifest"] = module_up_to_date(module, input_hash(game, options, pipeline.stage_digest(files, "module")))
    cache = ImageCache(cache_dir(out, "vassal"))
    hits["images"] = any(cache.has(key) for key, _ in face_jobs(game, options.counter_px, ModuleKeys()).jobs)
    return hits | _output_caches(game, out)


def _output_caches(game, out: Path) -> dict[str, bool]:
    """Whether the per-output caches hit: each set-up card's and map's stamp, and the sheets' cached faces."""
    from authoring import pipeline
    from authoring.budget import MAP_PX_PER_HEX, TILE_DPI
    from authoring.pipeline import incremental
    from authoring.products import catalogue, stamps
    from authoring.products.store import Entries
    from authoring.render.print.card_sides import card_sides
    from authoring.render.print.cards import DPI

    key_of = catalogue.card_keys(game)
    cards = [
        stamps.kept(incremental.card_group(out / "cards", sid, side), catalogue.card_files_key(key_of(sid, side), DPI))
        for sid in game.scenarios
        for side in card_sides(game, game.scenarios[sid])
    ]
    maps = incremental.map_groups(game, out / "maps", MAP_PX_PER_HEX, ("letter", "a4"), TILE_DPI)
    face_key = incremental.sheet_face_keys(game, pipeline.sheet_options(game, pipeline.SheetSettings(dpi=72)))
    faces = Entries(incremental.sheet_cache_dir(out))
    return {
        "cards": bool(cards) and all(cards),
        "maps": all(stamps.kept(group, key) for group, key in maps.values()),
        "sheet faces": any(faces.has(face_key(c, f.state)) for c in game.counters.values() for f in c.faces),
    }


def _change(monkeypatch, ingredient: str, tmp_path: Path) -> None:
    import shutil
    import sys
    import zlib

    from authoring.products import fingerprint

    if ingredient in ("code", "model", "font", "schemas"):
        source = fingerprint.schema_root() if ingredient == "schemas" else fingerprint.code_root()
        copy = tmp_path / ingredient
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__", "_bundled"))
        edited = {
            "code": copy / "vassal" / "compile.py",
            "model": copy / "model" / "game.py",
            "font": copy / "render" / "shared" / "fonts" / "DejaVuSans.ttf",
            "schemas": copy / "game.schema.json",
        }[ingredient]
        edited.write_bytes(edited.read_bytes() + b"\n")
        monkeypatch.setattr(fingerprint, "schema_root" if ingredient == "schemas" else "code_root", lambda: copy)
    elif ingredient == "python":
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    elif ingredient == "zlib":
        monkeypatch.setattr(zlib, "ZLIB_RUNTIME_VERSION", "0.0.1")
    elif ingredient == "freetype":
        from PIL import _imagingft

        monkeypatch.setattr(_imagingft, "freetype2_version", "1.0.0", raising=False)
    else:  # a library's version, as its installed metadata says
        installed = fingerprint._installed()
        monkeypatch.setattr(fingerprint, "_installed", lambda: {**installed, fingerprint._normal(ingredient): "0.0.1"})


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    from click.testing import CliRunner
    from hw_support import MINI, copy_game

    from authoring.cli import main

    project = copy_game(MINI, tmp_path_factory.mktemp("fingerprint") / "project")
    r = CliRunner().invoke(main, [*BUILD, "--project", str(project)])
    assert r.exit_code == 0, r.output
    return project


@pytest.mark.parametrize(
    "ingredient", ["code", "model", "font", "schemas", "python", "zlib", "freetype", "pillow", "resvg-py", "img2pdf"]
)
def test_a_change_of_any_ingredient_misses_every_cache(built: Path, ingredient: str, monkeypatch, tmp_path) -> None:
    from authoring.products.fingerprint import forget

    forget()
    assert all(_caches(built).values()), _caches(built)  # unchanged: every cache hits
    _change(monkeypatch, ingredient, tmp_path)
    forget()
    try:
        assert not any(_caches(built).values()), _caches(built)
    finally:
        monkeypatch.undo()
        forget()


# --- trust -------------------------------------------------------------------------------------


def test_a_build_folder_from_another_machine_is_rebuilt_whole(cli, mini_project: Path, other_machine) -> None:
    with other_machine():
        _build(cli, mini_project)
    again = _build(cli, mini_project)
    assert "up to date: " not in again.stdout  # every stage drew again: none of the stranger's stamps holds
    assert "1 game: 0 files written, " in again.stderr  # the same data drawn to the same bytes: left as they are
    assert "up to date" in _build(cli, mini_project).stderr.splitlines()[0]  # this machine's own: reused


def test_a_planted_module_with_a_matching_manifest_is_rebuilt(
    cli, mini_project: Path, tmp_path: Path, other_machine
) -> None:
    """The stranger's module holds other bytes; its manifest records their digest and size, its inputs are
    this data's, its seal is the stranger's key's."""
    reference = tmp_path / "reference"
    _build(cli, mini_project, "--out", str(reference))
    with other_machine():
        _build(cli, mini_project)
        module = mini_project / "build" / GAME / f"{GAME}.vmod"
        planted = _planted_module(module)
        manifest = module.with_name(module.name + ".manifest.json")
        record = json.loads(manifest.read_text())
        record.update(sha256=hashlib.sha256(planted).hexdigest(), size=len(planted))
        module.write_bytes(planted)
        manifest.write_text(json.dumps(record))
    r = _build(cli, mini_project)
    assert f"wrote build/{GAME}/{GAME}.vmod" in r.stdout.replace(str(mini_project) + "/", "") or "mini.vmod" in r.stdout
    assert module.read_bytes() == (reference / GAME / f"{GAME}.vmod").read_bytes()


def _planted_module(module: Path) -> bytes:
    import io

    out = io.BytesIO()
    with zipfile.ZipFile(module) as original, zipfile.ZipFile(out, "w") as z:
        for info in original.infolist():
            z.writestr(info, original.read(info) if info.filename == "buildFile.xml" else b"planted")
    return out.getvalue()


def test_a_planted_image_cache_is_not_used(cli, mini_project: Path, tmp_path: Path, other_machine) -> None:
    """Every entry replaced by another image, sealed by the stranger's key: no face of theirs reaches the module."""
    from PIL import Image

    from authoring.products.store import Entries
    from authoring.vassal.art import png_bytes

    reference = tmp_path / "reference"
    _build(cli, mini_project, "--out", str(reference))
    cache = mini_project / "build" / ".cache" / "vassal"
    with other_machine():
        _build(cli, mini_project)
        blue = png_bytes(Image.new("RGB", (4, 4), "blue"))
        keys = [p.name for p in cache.iterdir()]
        Entries(cache).put([(key, _one_page(blue)) for key in keys])
    (mini_project / "build" / GAME / f"{GAME}.vmod").unlink()
    _build(cli, mini_project)
    module = mini_project / "build" / GAME / f"{GAME}.vmod"
    with zipfile.ZipFile(module) as z:
        assert blue not in {z.read(n) for n in z.namelist()}
    assert module.read_bytes() == (reference / GAME / f"{GAME}.vmod").read_bytes()


def _one_page(png: bytes) -> bytes:
    import struct

    return struct.pack(">I2I", 2, len(png), 0) + png


@pytest.mark.parametrize("stamp", ["random", "dev-zero", "fifo", "link"])
def test_a_damaged_or_special_stamp_is_a_miss(cli, mini_project: Path, stamp: str) -> None:
    _build(cli, mini_project)
    target = mini_project / "build" / GAME / "maps" / ".index.txt.digest"
    good = target.read_bytes()
    target.unlink()
    if stamp == "random":
        target.write_bytes(os.urandom(200) + b"\xff\xfe")
    elif stamp == "dev-zero":
        target.symlink_to("/dev/zero")
    elif stamp == "fifo":
        os.mkfifo(target)
    else:  # a link to this machine's own good stamp elsewhere: not read through
        (mini_project / "elsewhere").write_bytes(good)
        target.symlink_to(mini_project / "elsewhere")
    done = threading.Event()
    result = {}

    def run():
        result["r"] = cli(*BUILD, "--project", str(mini_project))
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(120), "the build hung on the stamp"
    r = result["r"]
    if stamp == "fifo":  # a FIFO is never replaced (atomic.NotRegularFile): refused, exit 2, no hang
        assert r.exit_code == 2 and "internal error" not in r.output
        return
    assert r.exit_code == 0 and "internal error" not in r.output, r.output
    # the maps stage ran again (its files kept by their own sealed stamps), the others were reused
    assert "up to date: " in r.stdout and not any(line.endswith("mini/maps") for line in r.stdout.splitlines())
    assert target.is_file() and not target.is_symlink() and target.read_bytes() == good


@pytest.mark.parametrize("link", ["build", "build/mini", "build/.cache", "build/mini/maps"])
def test_a_symbolic_link_in_the_build_folder_is_refused(cli, mini_project: Path, tmp_path: Path, link: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    at = mini_project / link
    at.parent.mkdir(parents=True, exist_ok=True)
    at.symlink_to(outside)
    r = cli(*BUILD, "--project", str(mini_project))
    assert r.exit_code == 2, r.output
    assert "is a symbolic link leading outside the project" in r.stderr and "internal error" not in r.output
    assert not list(outside.rglob("*"))


def test_a_stage_folder_linked_into_the_data_is_refused(cli, mini_project: Path) -> None:
    before = sorted((mini_project / "maps" / GAME).iterdir())
    (mini_project / "build" / GAME).mkdir(parents=True)
    (mini_project / "build" / GAME / "maps").symlink_to(Path("..") / ".." / "maps" / GAME)
    r = cli(*BUILD, "--project", str(mini_project))
    assert r.exit_code == 2 and "into the project's data folder maps/" in r.stderr, r.output
    assert sorted((mini_project / "maps" / GAME).iterdir()) == before


# --- exact inputs --------------------------------------------------------------------------------


def test_a_counter_edit_rewrites_no_map_and_a_map_edit_no_counter_sheet(cli, mini_project: Path) -> None:
    _build(cli, mini_project)
    first = _outputs(mini_project)
    csv = mini_project / "counters" / GAME / "more.csv"
    csv.write_text(
        csv.read_text().replace("red-2,red,infantry,division,2,1,5,4", "red-2,red,infantry,division,2,1,6,4")
    )
    _build(cli, mini_project)
    second = _outputs(mini_project)
    changed = _rewritten(first, second)
    assert not {k for k in changed if k.startswith(("maps/", "charts/"))}, changed
    assert {"counters.mini.letter.pdf", f"{GAME}.vmod"} <= changed and any(k.startswith("cards/") for k in changed)
    board = mini_project / "maps" / GAME / "board.yaml"
    board.write_text(board.read_text().replace('forest: ["0202", "0303"]', 'forest: ["0202", "0303", "0505"]'))
    _build(cli, mini_project)
    third = _rewritten(second, _outputs(mini_project))
    assert any(k.startswith("maps/") for k in third) and "counters.mini.letter.pdf" not in third, third
    assert not any(k.startswith("charts/") for k in third)


def test_a_file_saved_during_the_build_is_rebuilt_by_the_next(
    cli, mini_project: Path, tmp_path: Path, monkeypatch
) -> None:
    """The save lands after the game was loaded: the outputs hold the older bytes, so the next build is not
    'up to date' but makes them again, equal to a clean build of the new data."""
    import importlib

    checked = importlib.import_module("authoring.pipeline.run")  # where the build looks load_checked up

    _build(cli, mini_project)
    csv = mini_project / "counters" / GAME / "more.csv"
    real = checked.load_checked

    def load_then_save(files):
        loaded = real(files)
        csv.write_text(csv.read_text().replace(",6,4,2,4", ",7,4,2,4"))
        return loaded

    csv.write_text(csv.read_text().replace(",5,4,2,4", ",6,4,2,4"))
    monkeypatch.setattr(checked, "load_checked", load_then_save)
    during = _build(cli, mini_project)
    monkeypatch.setattr(checked, "load_checked", real)
    assert ",7,4,2,4" in csv.read_text() and "changed during the build" in during.stderr
    again = _build(cli, mini_project)
    sheets = "counters.mini.letter.pdf"
    assert sheets in again.stdout and f"{GAME}.vmod" in again.stdout, again.output
    clean = tmp_path / "clean"
    _build(cli, mini_project, "--out", str(clean))
    for name in (sheets, f"{GAME}.vmod"):
        assert (mini_project / "build" / GAME / name).read_bytes() == (clean / GAME / name).read_bytes()


# --- the key -------------------------------------------------------------------------------------


def test_the_key_is_made_once_private_and_outside_the_project(tmp_path: Path, monkeypatch) -> None:
    import stat

    monkeypatch.setenv(trust.KEY_ENV, str(tmp_path / "keys"))
    first = trust.key()
    path = tmp_path / "keys" / trust.KEY_NAME
    assert len(first) == trust.KEY_BYTES and path.read_bytes() == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not [p for p in path.parent.iterdir() if p != path]  # no temporary file left
    trust._key_at.cache_clear()
    assert trust.key() == first  # read back, not made again


def test_the_default_key_lives_in_the_users_cache_folder(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv(trust.KEY_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert trust.key_path() == tmp_path / "xdg" / "hexwright" / "key"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert trust.key_path() == tmp_path / "home" / ".cache" / "hexwright" / "key"


@pytest.mark.parametrize("bad", ["short", "link"])
def test_a_damaged_or_linked_key_is_never_used(tmp_path: Path, monkeypatch, bad: str) -> None:
    folder = tmp_path / "keys"
    folder.mkdir()
    path = folder / trust.KEY_NAME
    if bad == "short":
        path.write_bytes(b"0123")
    else:
        (tmp_path / "planted").write_bytes(b"k" * trust.KEY_BYTES)
        path.symlink_to(tmp_path / "planted")
    monkeypatch.setenv(trust.KEY_ENV, str(folder))
    made = trust.key()
    assert made not in (b"0123", b"k" * trust.KEY_BYTES) and len(made) == trust.KEY_BYTES
    if bad == "short":  # replaced by a new key, kept for the next process
        assert path.read_bytes() == made and (folder / "key.damaged").read_bytes() == b"0123"
    else:  # the link is left alone; this process's key is its own
        assert path.is_symlink() and (tmp_path / "planted").read_bytes() == b"k" * trust.KEY_BYTES
