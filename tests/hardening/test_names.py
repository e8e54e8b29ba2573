"""Class 1 of issue 17: names never collide. Property tests of the one name function (`authoring.names`)."""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from authoring import names

ID = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,20}", fullmatch=True)  # the schema's id alphabet
ANY = st.text(min_size=1, max_size=12)  # and any text at all
PORTABLE = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")


def _name(kind: str, *parts: str) -> str | None:
    """The name, or None where it would be over the length limit (that refusal is tested below)."""
    try:
        return names.file_name(kind, *parts, ext="png")
    except names.NameTooLong:
        return None


@pytest.mark.slow
@settings(max_examples=500)
@given(st.lists(st.one_of(ID, ANY), min_size=1, max_size=3), st.lists(st.one_of(ID, ANY), min_size=1, max_size=3))
def test_two_different_id_tuples_never_give_one_name(a, b):
    if a != b:
        assert _name("u", *a) != _name("u", *b) or _name("u", *a) is None


@settings(max_examples=300)
@given(st.lists(st.one_of(ID, ANY), min_size=0, max_size=3))
def test_a_name_decodes_to_its_ids_and_is_portable(parts):
    name = _name("setup", *parts)
    assume(name is not None)
    assert names.split_name(name) == ("setup", tuple(parts), "png")
    assert PORTABLE.match(name), name
    assert name.lower() == name  # case-insensitive file systems cannot merge two names
    assert name == names.file_name("setup", *parts, ext="png")  # stable


@settings(max_examples=300)
@given(ID, ID)
def test_case_variants_and_lossy_pairs_stay_apart(a, b):
    if a != b:
        assert names.encode_part(a).lower() != names.encode_part(b).lower()


def test_the_reported_instances():
    assert names.file_name("u", "zz+1", "front", ext="png") != names.file_name("u", "zz_1", "front", ext="png")
    assert names.file_name("u", "zz+1", "front", ext="png") == "u.zz_2b1.front.png"
    assert names.file_name("map", "layout", ext="png") != names.file_name("layout", ext="png")
    # a second instance: ids that differ only in case, and part boundaries that shift
    assert names.file_name("u", "Inf", ext="png") != names.file_name("u", "inf", ext="png")
    assert names.file_name("setup", "a-b", "c", ext="pdf") != names.file_name("setup", "a", "b-c", ext="pdf")
    assert names.file_name("setup", "a.b", "c", ext="pdf") != names.file_name("setup", "a", "b.c", ext="pdf")


@pytest.mark.parametrize("device", ["con", "nul", "aux", "com1", "lpt9", "prn"])
def test_windows_device_names_are_escaped(device):
    part = names.encode_part(device)
    assert part != device and names.decode_part(part) == device
    assert names.dir_name(device) == part


def test_a_name_over_the_limit_is_refused():
    with pytest.raises(names.NameTooLong, match="over the limit of 200"):
        names.file_name("setup", "A" * 64, "B" * 64, ext="png")


def test_build_output_names_come_from_the_one_function():
    from authoring.pipeline import SheetSettings, sheets_name

    assert sheets_name("bfm", SheetSettings(paper="a4")) == "counters.bfm.a4.pdf"


def test_every_id_fits_a_two_part_name():
    """The loader's per-id limit (names.MAX_PART) leaves room for a kind and two ids in any name."""
    worst = "A" * 64  # the longest id, every character escaped
    assert len(names.encode_part(worst)) > names.MAX_PART
    fits = "a" * names.MAX_PART
    assert len(names.file_name("turns-x", fits, fits, ext="jpeg")) <= names.MAX_NAME


def test_an_id_too_long_as_a_file_name_is_a_located_error(mini_project, cli):
    units = mini_project / "counters/mini/units.yaml"
    units.write_text(
        units.read_text().replace("id: red-1", "id: RED-" + "X" * 50).replace("[red-1]", "[RED-" + "X" * 50 + "]")
    )
    intro = mini_project / "scenarios/mini/intro.yaml"
    intro.write_text(intro.read_text().replace("[red-1]", "[RED-" + "X" * 50 + "]"))
    r = cli("validate", str(mini_project), "--format", "concise")
    assert r.exit_code == 1
    assert re.search(
        r"units\.yaml:\d+:\d+: error\[HW-NAME-001\]: counter id 'RED-X+' makes a file name part of "
        r"160 characters, over the limit of 90",
        r.output,
    ), r.output


def test_counters_whose_ids_differ_only_in_punctuation_get_their_own_images(mini_project, cli):
    import zipfile

    units = mini_project / "counters/mini/units.yaml"
    text = units.read_text()
    extra = text[text.index("  - id: blue-1") :].replace("id: blue-1", "id: zz+1")
    extra += extra.replace("id: zz+1", "id: zz_1").replace('designation: "1"', 'designation: "2"')
    units.write_text(text + extra)
    out = mini_project / "b"
    r = cli("build", "module", "mini", "--project", str(mini_project), "--out", str(out))
    assert r.exit_code == 0, r.output
    with zipfile.ZipFile(out / "mini" / "mini.vmod") as z:
        zz = {n for n in z.namelist() if "zz" in n}
    assert len(zz) == 2, zz  # one face each (blue-1 has one face), two counters: two images


def test_readable_map_names_keep_the_designers_spelling_and_stay_unique_without_case():
    got = names.readable_names(["M", "m", "M-2", "main", "a.b", "west M"])
    assert got["M"] == "M" and got["main"] == "main" and got["M-2"] == "M-2"
    assert got["m"] not in ("m", "M") and got["a.b"] == "a_2eb" and " " not in got["west M"]
    assert len({v.casefold() for v in got.values()}) == len(got)
    assert names.map_file_name("tiles", "M", ["M", "N"], "letter", ext="pdf") == "tiles-M.letter.pdf"
