"""`hexwright import-vmod`: exit codes, messages, and damaged modules imported with warnings, never a crash."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import corpus
from click.testing import CliRunner

from authoring.cli import main


def _invoke(*args: str):
    return CliRunner().invoke(main, ["import-vmod", *args])


def test_imports_and_says_what_next(tmp_path):
    module = corpus.write(corpus.CORPUS["flat-offset"], tmp_path)
    r = _invoke(str(module), "--out", str(tmp_path / "p"))
    assert r.exit_code == 0, r.output
    assert (
        "imported flat-offset.vmod into " in r.output
        and "1 maps, 9 counters from 8 piece slots, 1 scenarios (game id 'flat-offset')" in r.output
    )
    assert "warning[HW-VMOD-002]: TODO: the module has no turn record" in r.output
    assert "The project validates." in r.output


def test_usage_errors_exit_2(tmp_path):
    assert _invoke(str(tmp_path / "none.vmod")).exit_code == 2
    text = tmp_path / "text.vmod"
    text.write_text("hello")
    r = _invoke(str(text), "--out", str(tmp_path / "p"))
    assert r.exit_code == 2 and "not a zip archive" in r.output
    module = corpus.write(corpus.CORPUS["flat-offset"], tmp_path)
    assert _invoke(str(module), "--out", str(tmp_path / "q")).exit_code == 0
    r = _invoke(str(module), "--out", str(tmp_path / "q"))
    assert r.exit_code == 2 and "never overwrites" in r.output


def _damaged(tmp_path: Path) -> Path:
    """The flat-offset module with a garbage piece slot, a set-up whose file is missing and one that is no zip."""
    good = corpus.write(corpus.CORPUS["flat-offset"], tmp_path)
    out = io.BytesIO()
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "buildFile.xml":
                data = data.replace(
                    b"</VASSAL.build.widget.ListWidget>",
                    b'<VASSAL.build.widget.PieceSlot entryName="Junk" gpid="77">+/null/junk'
                    b"</VASSAL.build.widget.PieceSlot></VASSAL.build.widget.ListWidget>",
                    1,
                )
                data = data.replace(
                    b"</VASSAL.build.GameModule>",
                    b'<VASSAL.build.module.PredefinedSetup name="Lost" file="lost.vsav" useFile="true"/>'
                    b'<VASSAL.build.module.PredefinedSetup name="Bad" file="bad.vsav" useFile="true"/>'
                    b"</VASSAL.build.GameModule>",
                )
            dst.writestr(info, data)
        dst.writestr("bad.vsav", b"not a zip")
    path = tmp_path / "damaged.vmod"
    path.write_bytes(out.getvalue())
    return path


def test_damaged_module_imports_with_located_warnings(tmp_path):
    r = _invoke(str(_damaged(tmp_path)), "--out", str(tmp_path / "p"))
    assert r.exit_code == 0, r.output
    assert "set-up file 'lost.vsav' is not in the module" in r.output
    assert "bad.vsav: not a zip archive" in r.output
    assert "piece slot 'Junk' cannot be decoded" in r.output or "piece slot 'Junk' has no image" in r.output
    assert "damaged.vmod:/VASSAL.build.GameModule/VASSAL.build.module.PredefinedSetup" in r.output
