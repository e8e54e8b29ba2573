"""hexwright installs like a Python tool (issue 32): `python -m build` makes an sdist and a wheel; the
wheel, installed into a fresh virtual environment outside the repository, creates, validates, checks and
builds a new game in its own folder, and a copy of a bundled game, from its own package data.

Offline: the build runs without isolation (the backend is in the test extras) and the fresh environment
gets hexwright's dependencies through a `.pth` file naming a folder of links to this environment's
installed packages (hexwright's own editable install left out), so nothing is fetched.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import site
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image
from pypdf import PdfReader

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
TREES = ("authoring", "schemas", "maps", "counters", "scenarios")
OWN = ("hexwright", "authoring", "__editable__")  # this checkout's install, kept out of the fresh environment


pytestmark = pytest.mark.slow  # builds and installs the wheel


def _run(argv: list, cwd: Path, env: dict | None = None, code: int = 0) -> str:
    r = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == code, f"{argv} exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    return r.stdout + r.stderr


def _source_copy(dest: Path) -> Path:
    """The files a release is built from, outside the checkout (the build writes its egg-info beside them)."""
    dest.mkdir()
    for name in SOURCES:
        shutil.copy2(ROOT / name, dest / name)
    for name in TREES:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))
    return dest


def _dependencies(dest: Path) -> Path:
    """A folder of links to every package installed here but hexwright itself."""
    dest.mkdir()
    for folder in dict.fromkeys(site.getsitepackages()):
        for entry in sorted(Path(folder).iterdir()):
            if not entry.name.startswith(OWN) and not entry.name.endswith(".pth") and not (dest / entry.name).exists():
                (dest / entry.name).symlink_to(entry)
    return dest


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> dict[str, Path]:
    """`python -m build` of a copy of the sources: the sdist, then the wheel built from that sdist."""
    tmp = tmp_path_factory.mktemp("release")
    src = _source_copy(tmp / "src")
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", tmp / "dist", src], tmp)
    wheels, sdists = sorted((tmp / "dist").glob("hexwright-*.whl")), sorted((tmp / "dist").glob("hexwright-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted((tmp / "dist").iterdir())
    return {"wheel": wheels[0], "sdist": sdists[0]}


@pytest.fixture(scope="module")
def installed(release, tmp_path_factory) -> dict:
    """A fresh virtual environment outside the repository with the wheel installed (--no-deps --no-index)."""
    tmp = tmp_path_factory.mktemp("fresh")
    assert not tmp.is_relative_to(ROOT)
    venv = tmp / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp)
    python = venv / "bin" / "python"
    purelib = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp).strip())
    (purelib / "deps.pth").write_text(f"{_dependencies(tmp / 'deps')}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_"))}
    env.update(
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_INDEX="1",
        PIP_CONFIG_FILE=os.devnull,
    )
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", release["wheel"]], tmp, env)
    work = tmp / "work"
    work.mkdir()
    return {"venv": venv, "python": python, "env": env, "work": work}


def test_wheel_and_sdist_carry_the_schemas_fonts_and_bundled_games(release):
    schemas = sorted(p.name for p in (ROOT / "schemas").glob("*.schema.json"))
    bfm = sorted(
        p.relative_to(ROOT).as_posix()
        for d in ("scenarios", "maps", "counters")
        for p in (ROOT / d / "bfm").rglob("*")
        if p.is_file()
    )
    with zipfile.ZipFile(release["wheel"]) as z:
        names = set(z.namelist())
        assert json.loads(z.read("authoring/_bundled/schemas/game.schema.json"))["$id"].endswith("game.schema.json")
    assert {f"authoring/_bundled/schemas/{s}" for s in schemas} <= names
    assert {f"authoring/_bundled/{p}" for p in bfm} <= names
    assert "authoring/render/shared/fonts/DejaVuSans.ttf" in names
    assert "authoring/serve/export.schema.json" in names  # the preview's request schema, beside its routes
    assert not any("__pycache__" in n or n.startswith(("schemas/", "tests/")) for n in names)
    with tarfile.open(release["sdist"]) as t:
        members = {m.split("/", 1)[1] for m in t.getnames() if "/" in m}
    assert {f"schemas/{s}" for s in schemas} <= members and set(bfm) <= members and "setup.py" in members
    assert "authoring/serve/export.schema.json" in members


def test_the_fresh_environment_runs_the_installed_wheel(installed):
    out = _run(
        [
            installed["python"],
            "-c",
            "import authoring, authoring.bundled as b; print(authoring.__file__); print(b.schema_dir())",
        ],
        installed["work"],
        installed["env"],
    )
    module, schemas = map(Path, out.split())
    assert module.is_relative_to(installed["venv"]) and schemas.is_relative_to(installed["venv"])
    assert schemas == module.parent / "_bundled" / "schemas"
    hexwright = shutil.which("hexwright", path=installed["env"]["PATH"])
    assert hexwright is not None and Path(hexwright).is_relative_to(installed["venv"])


def _build_all(project: Path, game: str, env: dict) -> Path:
    out = _run(["hexwright", "build", "all"], project, env)
    assert f"wrote build/{game}/{game}.vmod" in out
    return project / "build" / game


def _assert_module(out: Path, game: str, scenarios: set[str]) -> None:
    with zipfile.ZipFile(out / f"{game}.vmod") as z:
        names = set(z.namelist())
        root = etree.fromstring(z.read("buildFile.xml"))
    assert root.tag == "VASSAL.build.GameModule" and "moduledata" in names
    assert {f"setup_{s}.vsav" for s in scenarios} <= names


def test_a_new_game_in_its_own_folder(installed):
    work, env = installed["work"], installed["env"]
    out = _run(["hexwright", "init", "mygame"], work, env)
    assert "passes every check" in out
    project = work / "mygame"
    assert (project / "schemas" / "scenario.schema.json").read_bytes() == (
        ROOT / "schemas" / "scenario.schema.json"
    ).read_bytes()
    assert _run(["hexwright", "validate"], project, env).strip() == "All checks passed."
    assert _run(["hexwright", "check", "mygame/first-clash"], project, env).strip() == "All checks passed."
    built = _build_all(project, "mygame", env)
    _assert_module(built, "mygame", {"first-clash"})
    assert len(PdfReader(built / "counters.mygame.letter.pdf").pages) >= 1
    with Image.open(built / "maps" / "map-board.png") as im:
        assert im.width > 100 and im.height > 100
    # a data error is found by the installed schemas, located, exit 1
    game = project / "scenarios" / "mygame" / "game.yaml"
    game.write_text(game.read_text().replace("kind: game\n", "kind: game\nsurprise: 1\n"))
    bad = _run(["hexwright", "validate"], project, env, code=1)
    assert "HW-SCHEMA-002" in bad and "scenarios/mygame/game.yaml:" in bad


def _recorded_digests():
    """`tests/hardening/test_output_digests.py`: the bundled games' outputs as recorded, and its digest function."""
    spec = importlib.util.spec_from_file_location("output_digests", ROOT / "tests/hardening/test_output_digests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data = json.loads(module.RECORD.read_text())
    return (data if data["versions"] == module.versions() else None), module.digests


def test_a_copy_of_a_bundled_game_builds_the_recorded_bytes(installed):
    work, env = installed["work"], installed["env"]
    _run(["hexwright", "init", "campaign", "--from", "bfm"], work, env)
    project = work / "campaign"
    assert (project / "maps" / "bfm" / "main.yaml").read_bytes() == (ROOT / "maps" / "bfm" / "main.yaml").read_bytes()
    assert _run(["hexwright", "validate", "bfm"], project, env).strip() == "All checks passed."
    assert _run(["hexwright", "check", "bfm/seven-turn"], project, env).strip() == "All checks passed."
    built = _build_all(project, "bfm", env)
    _assert_module(built, "bfm", {"campaign", "seven-turn"})
    recorded, digests = _recorded_digests()
    now = {f"bfm/{k}": v for k, v in digests(built).items()}
    if recorded is None:  # other drawing libraries than recorded: the files are there, bytes not compared
        assert "bfm/bfm.vmod" in now
        return
    expected = {k: v for k, v in recorded["files"].items() if k.startswith("bfm/")}
    assert now == expected, sorted(k for k in expected if now.get(k) != expected[k])
