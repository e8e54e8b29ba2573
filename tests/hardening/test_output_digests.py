"""Speed work never changes what a player gets: `build all` of every bundled game writes exactly the bytes
recorded in `output_digests.json` (issue 18), built before the speed work.

Each file is compared by SHA-256, except a module (.vmod), whose every member is compared instead: how a zip
stores its members (deflated or stored) is the container's business, not what VASSAL reads. Stage stamps
(dot files) and the module manifest hold hexwright's own code digest and are left out.

The digests depend on the drawing libraries (Pillow, FreeType, zlib): where this machine has other versions
than those recorded, the test skips and says which. Re-record (after a deliberate change of the outputs) with
    python tests/hardening/test_output_digests.py --record BUILD_DIR
where BUILD_DIR holds `hexwright build all --out BUILD_DIR` of the project.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
import zlib
from pathlib import Path

import pytest

RECORD = Path(__file__).with_name("output_digests.json")
ROOT = Path(__file__).resolve().parents[2]


pytestmark = pytest.mark.slow  # whole builds of the bundled games


def versions() -> dict[str, str]:
    import PIL
    from PIL import features

    return {"Pillow": PIL.__version__, "freetype2": str(features.version("freetype2")), "zlib": zlib.ZLIB_VERSION}


def digests(out: Path) -> dict[str, object]:
    """path -> SHA-256 of every output under `out` (a module: member -> SHA-256)."""
    found: dict[str, object] = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out)
        if (
            not path.is_file()
            or any(part.startswith(".") for part in rel.parts)
            or path.name.endswith(".manifest.json")
        ):
            continue
        if path.suffix == ".vmod":
            with zipfile.ZipFile(path) as z:
                found[rel.as_posix()] = {n: hashlib.sha256(z.read(n)).hexdigest() for n in sorted(z.namelist())}
        else:
            found[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@pytest.fixture(scope="module")
def recorded() -> dict:
    data = json.loads(RECORD.read_text())
    if data["versions"] != versions():
        pytest.skip(f"output digests were recorded with {data['versions']}; this machine has {versions()}")
    return data


@pytest.fixture(scope="module")
def built(tmp_path_factory, recorded) -> Path:
    from click.testing import CliRunner

    from authoring.cli import main

    out = tmp_path_factory.mktemp("digests")
    result = CliRunner().invoke(main, ["build", "all", "--project", str(ROOT), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_every_bundled_output_is_the_recorded_bytes(recorded, built):
    now = digests(built)
    assert sorted(now) == sorted(recorded["files"]), "the set of outputs changed"
    changed = [name for name in sorted(now) if now[name] != recorded["files"][name]]
    members = {
        name: sorted(k for k in now[name] if now[name].get(k) != recorded["files"][name].get(k))
        for name in changed
        if isinstance(now[name], dict)
    }
    assert not changed, f"outputs differ from the recorded bytes: {changed}; module members: {members}"


def test_a_changed_byte_is_caught(tmp_path):
    """The comparison can fail: one byte of one file, or one member of a module, changes its digest."""
    (tmp_path / "a.png").write_bytes(b"x")
    with zipfile.ZipFile(tmp_path / "g.vmod", "w") as z:
        z.writestr("buildFile.xml", "<a/>")
    before = digests(tmp_path)
    (tmp_path / "a.png").write_bytes(b"y")
    with zipfile.ZipFile(tmp_path / "g.vmod", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("buildFile.xml", "<a/>")
    after = digests(tmp_path)
    assert before["a.png"] != after["a.png"] and before["g.vmod"] == after["g.vmod"]


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "--record":
        sys.exit(__doc__)
    RECORD.write_text(
        json.dumps({"versions": versions(), "files": digests(Path(sys.argv[2]))}, indent=1, sort_keys=True) + "\n"
    )
    print(f"recorded {RECORD}")
