"""How bytes become text (`authoring.textcodec`): byte-order marks, UTF-8, and the rule that tells
Windows-1252 from Mac Roman in a file that is not UTF-8."""

from __future__ import annotations

import codecs

import pytest

from authoring.load.source import SourceError, load_source
from authoring.textcodec import DecodeError, decode

WORDS = [
    "Orléans Korps",
    "Général Koniev",
    "Königsberg",
    "Müller Straße",
    "Peñarroya",
    "Äußere Front",
    "Ölberg",
    "São Paulo",
    "café crème brûlée",
    "Budënny",
    "Zürich",
    "Ñandú",
    "garçon",
    "Smolensk…",
    "à Paris",
    "naïve",
    "Brest—Litovsk",
    "‘Little Saturn’",
    "the Guards’ line – don’t move",
    "Kursk – Orel",
    "12° Armata",
    "“Guards”",
]


@pytest.mark.parametrize("codec,name", [("cp1252", "cp1252"), ("mac_roman", "mac-roman")])
@pytest.mark.parametrize("word", WORDS)
def test_a_code_page_is_told_by_its_text(word: str, codec: str, name: str):
    raw = f"id,name\nx-1,{word}\n".encode(codec)
    found = decode(raw, legacy=True)
    assert (found.encoding, found.text) == (name, f"id,name\nx-1,{word}\n")
    assert found.legacy_at == raw.index(next(ch for ch in word if ord(ch) > 127).encode(codec))


def test_a_tie_is_windows_1252():
    """Bytes that read as well in either code page (a capital at a word's start) are Windows-1252's."""
    raw = "Île de France".encode("mac_roman")
    assert decode(raw, legacy=True).encoding == "cp1252"


@pytest.mark.parametrize(
    "bom,codec,name",
    [
        (codecs.BOM_UTF8, "utf-8", "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le", "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be", "utf-16-be"),
        (codecs.BOM_UTF32_LE, "utf-32-le", "utf-32-le"),
    ],
)
def test_a_byte_order_mark_names_the_encoding(bom: bytes, codec: str, name: str):
    found = decode(bom + "hex\tunit\n0101\tgér-1\n".encode(codec))
    assert (found.encoding, found.text, found.bom, found.legacy_at) == (name, "hex\tunit\n0101\tgér-1\n", True, None)


def test_utf8_without_a_mark_is_utf8_and_no_code_page_is_guessed():
    assert decode("Général".encode(), legacy=True).encoding == "utf-8"
    with pytest.raises(DecodeError, match="invalid UTF-8 byte 0xe9"):
        decode("Général".encode("cp1252"))


def test_bytes_that_break_their_byte_order_mark_are_an_error():
    with pytest.raises(DecodeError, match="invalid UTF-16 \\(little-endian\\) bytes 00 d8"):
        decode(codecs.BOM_UTF16_LE + "ab".encode("utf-16-le") + b"\x00\xd8")


def test_a_yaml_file_in_utf16_is_refused_with_a_plain_message(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_bytes(codecs.BOM_UTF16_LE + "kind: game\n".encode("utf-16-le"))
    with pytest.raises(SourceError) as caught:
        load_source(path, "game.yaml")
    assert (caught.value.diag.code, caught.value.diag.message) == (
        "HW-IO-003",
        "file is UTF-16 (little-endian), not UTF-8",
    )
    assert caught.value.diag.help.startswith("save the file as UTF-8")


def test_a_code_page_csv_loads_with_one_note_where_it_starts(tmp_path):
    path = tmp_path / "card.csv"
    path.write_bytes("hex,unit,note\r\n0101,ger-1,\r\n0102,ger-2,Général\r\n".encode("cp1252"))
    src = load_source(path, "card.csv")
    assert src.data[1]["note"] == "Général"
    (note,) = src.notes
    assert (note.severity.value, note.code, str(note.loc)) == ("info", "HW-IO-004", "card.csv:3:13")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark_is_told_by_its_zero_bytes(codec: str):
    text = "hex\tunit\tnote\r\n0101\tger-1\tGénéral\r\n"
    found = decode(text.encode(codec), legacy=True)
    assert (found.encoding, found.text, found.legacy_at) == (codec, text, None)


def test_utf8_with_a_stray_nul_stays_utf8():
    assert decode(b"hex,unit\n0101,ger-1\x00\n").encoding == "utf-8"
