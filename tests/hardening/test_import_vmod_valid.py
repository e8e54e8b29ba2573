"""Issue 47, class 5: `import-vmod` always writes a project that validates, or nothing (exit 1, a finding).

Names are bounded and made safe, images are told by their content and made PNG when they are no PNG or JPEG,
and a damaged or encrypted member is a clear finding (HW-VMOD-003). Every module is made here.
"""

from __future__ import annotations

import io
import struct
import sys
import zipfile
from pathlib import Path

import pytest
import yaml
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vmod"))
import handmade as hm  # noqa: E402  (the small hand-made VASSAL modules of the import tests)

from authoring.vassal import archive as va  # noqa: E402


def _module(folder: Path, name: str, images: dict[str, bytes] | None = None, side: str = "Red") -> Path:
    """A module called `name` (in its buildFile and moduledata) with a board and one piece, as m.vmod."""
    slots = [hm.slot("Red Inf", hm.unit("Red Inf", "inf.png"), 1)]
    body = (
        hm.roster(side, "Blue")
        + hm.map_window("Main Map", hm.board("Main", "board.png", hm.hex_grid()))
        + hm.palette(("Units", slots))
    )
    quoted = name.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    build = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="no"?><{hm.B}GameModule name="{quoted}" version="1.0" '
        f'VassalVersion="3.6.7"><{hm.B}module.BasicCommandEncoder/>{body}</{hm.B}GameModule>'
    )
    content = {
        "buildFile.xml": build.encode(),
        "moduledata": va.module_data(name, "1.0", "", 0, vassal_version="3.6.7"),
    }
    images = {"inf.png": hm.png((48, 48)), "board.png": hm.png((540, 420), "#e8e4c9"), **(images or {})}
    content.update({f"images/{k}": v for k, v in images.items()})
    path = folder / "m.vmod"
    path.write_bytes(va.zip_bytes(content))
    return path


def _import(cli, module: Path, dest: Path):
    r = cli("import-vmod", str(module), "--out", str(dest))
    assert "Traceback" not in r.output and "internal error" not in r.output, r.output[-3000:]
    return r


def _valid(cli, module: Path, dest: Path) -> None:
    r = _import(cli, module, dest)
    assert r.exit_code == 0, r.output[-3000:]
    assert "The project validates" in r.output
    v = cli("validate", str(dest))
    assert v.exit_code == 0, v.output[-3000:]


# --- names ---------------------------------------------------------------------------------------------------


def test_a_module_name_of_5000_characters_is_cut_to_a_name(tmp_path: Path, cli):
    module = _module(tmp_path, "Very long module name " * 228)
    _valid(cli, module, tmp_path / "p")
    (game,) = (tmp_path / "p").glob("scenarios/*/game.yaml")
    name = yaml.safe_load(game.read_text())["name"]
    assert 100 < len(name) <= 200 and name.endswith("\u2026")


@pytest.mark.parametrize("bad", ["\u202e", "\u2066", "\u2028", "\u0085"])
def test_a_module_name_with_a_bidi_override_or_control_character_is_made_safe(tmp_path: Path, cli, bad: str):
    module = _module(tmp_path, f"Arab{bad}gnp.exe Revolt", side=f"Red{bad}Army")
    _valid(cli, module, tmp_path / "p")
    text = "".join(p.read_text() for p in (tmp_path / "p").rglob("*.yaml"))
    assert bad not in text and "Arabgnp.exe Revolt" in text


def test_a_name_ending_in_a_backslash_loses_it(tmp_path: Path, cli):
    _valid(cli, _module(tmp_path, "Revolt\\\\"), tmp_path / "p")


# --- images told by content --------------------------------------------------------------------------------------


def _image(fmt: str, size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, "#c0504d").save(out, fmt)
    return out.getvalue()


IMAGE_CASES = [
    (fmt, role) for fmt in ("GIF", "TIFF", "BMP", "WEBP") for role in ("piece .png", "piece .jpg", "board .png")
]


@pytest.mark.parametrize("fmt, role", IMAGE_CASES)
def test_an_image_under_another_kinds_name_is_made_png(tmp_path: Path, cli, fmt: str, role: str):
    """The issue's 12 cases: a GIF, TIFF, BMP or WebP saved under a `.png` (or `.jpg`) name."""
    if role == "board .png":
        images = {"board.png": _image(fmt, (540, 420))}
    else:
        name = "inf" + role.split()[1]
        images = {name: _image(fmt, (48, 48))}
        if name != "inf.png":
            images["inf.png"] = images.pop(name)  # the piece names inf.png; a .jpg name below is its own case
    module = _module(tmp_path, "Formats", images)
    if role == "piece .jpg":  # the piece's image named .jpg in the module
        with zipfile.ZipFile(module) as zf:
            content = {i.filename: zf.read(i) for i in zf.infolist()}
        content["buildFile.xml"] = content["buildFile.xml"].replace(b"inf.png", b"inf.jpg")
        content["images/inf.jpg"] = content.pop("images/inf.png")
        module.write_bytes(va.zip_bytes(content))
    _valid(cli, module, tmp_path / "p")
    for art in (tmp_path / "p").rglob("art/*"):
        with Image.open(art) as im:
            assert im.format == {".png": "PNG", ".jpg": "JPEG"}[art.suffix], art


def test_a_png_under_a_jpg_name_is_named_png(tmp_path: Path, cli):
    module = _module(tmp_path, "Names", {"board.png": _image("JPEG", (540, 420))})
    _valid(cli, module, tmp_path / "p")
    assert [p.name for p in (tmp_path / "p").rglob("art/board.*")] == ["board.jpg"]


# --- damaged archives --------------------------------------------------------------------------------------------


def _member(data: bytes, name: str) -> zipfile.ZipInfo:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return zf.getinfo(name)


def _damaged(module: Path, name: str) -> None:
    """Flip a byte in the middle of member `name`'s stored data: its CRC no longer matches."""
    data = bytearray(module.read_bytes())
    info = _member(bytes(data), name)
    name_len, extra_len = struct.unpack("<HH", data[info.header_offset + 26 : info.header_offset + 30])
    start = info.header_offset + 30 + name_len + extra_len
    data[start + info.compress_size // 2] ^= 0xFF
    module.write_bytes(bytes(data))


def _encrypted(module: Path, name: str) -> None:
    """Mark member `name` encrypted (bit 0 of its flags, in its local and central headers)."""
    data = bytearray(module.read_bytes())
    info = _member(bytes(data), name)
    data[info.header_offset + 6] |= 1
    central = data.find(b"PK\x01\x02")
    while central != -1:
        name_len = struct.unpack("<H", data[central + 28 : central + 30])[0]
        if data[central + 46 : central + 46 + name_len] == name.encode():
            data[central + 8] |= 1
        central = data.find(b"PK\x01\x02", central + 4)
    module.write_bytes(bytes(data))


@pytest.mark.parametrize("spoil", [_damaged, _encrypted])
@pytest.mark.parametrize("member", ["images/inf.png", "images/board.png", "buildFile.xml"])
def test_a_damaged_or_encrypted_member_is_a_finding_and_nothing_is_written(tmp_path: Path, cli, spoil, member: str):
    module = _module(tmp_path, "Damaged")
    spoil(module, member)
    r = _import(cli, module, tmp_path / "p")
    assert r.exit_code == 1, r.output[-3000:]
    assert "error[HW-VMOD-003]" in r.output and member in r.output and "nothing was written" in r.output
    assert not (tmp_path / "p").exists()


def test_a_project_that_would_not_validate_is_never_written(tmp_path: Path, cli, monkeypatch):
    """The net under the rules above: were a text left unsafe (as here, with the cleaning switched off), the
    project is validated in a hidden folder first, and nothing reaches --out."""
    from authoring.author import vmod_common

    monkeypatch.setattr(vmod_common, "safe_texts", lambda kind, doc: doc)
    module = _module(tmp_path, "Arab\u202egnp.exe Revolt")
    r = _import(cli, module, tmp_path / "p")
    assert r.exit_code == 1, r.output[-3000:]
    assert "would not validate" in r.output and "nothing was written" in r.output and ".tmp" not in r.output
    assert "scenarios/arab-gnp-exe-revolt/game.yaml" in r.output  # located as in --out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.vmod"]


def test_an_import_into_an_existing_empty_folder_moves_its_files_in(tmp_path: Path, cli):
    (tmp_path / "p").mkdir()
    _valid(cli, _module(tmp_path, "Into"), tmp_path / "p")
    assert (tmp_path / "p" / "scenarios" / "into" / "game.yaml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.vmod", "p"]
