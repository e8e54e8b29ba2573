"""VASSAL SequenceEncoder escaping, trait nesting, commands and obfuscation."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from authoring.vassal.codec import (
    Definition,
    Nesting,
    add_piece_command,
    decode,
    deobfuscate,
    encode,
    java_double,
    join_commands,
    key_stroke,
    nest,
    obfuscate,
    parse_add_piece_command,
    split_commands,
    unnest,
)

NASTY = ["a/b", "x;y", "1,2", "back\\slash", "\\lead", "tab\there", "'quoted'", "'", "''", "<\"&'>", "", "é€"]
DELIMITERS = [";", ",", "/", "\t", "\x1b", "$", "="]

# Fields VASSAL can represent: anything not ending in a backslash unless it starts with one.
field = st.text(alphabet=st.sampled_from(list("ab;,/\\'\"\t<>&= é")), max_size=12).filter(
    lambda s: not s.endswith("\\") or s.startswith("\\")
)


@given(st.lists(field, min_size=1, max_size=6), st.sampled_from(DELIMITERS))
def test_encode_decode_round_trip(fields: list[str], delimiter: str) -> None:
    assert decode(encode(fields, delimiter), delimiter) == fields


@given(st.lists(field, min_size=1, max_size=4), st.lists(field, min_size=1, max_size=4))
def test_nested_sequences_round_trip(inner: list[str], outer_rest: list[str]) -> None:
    """An inner ';' sequence embedded as one field of an outer '/' sequence survives both levels."""
    text = encode([encode(inner, ";"), *outer_rest], "/")
    first, *rest = decode(text, "/")
    assert decode(first, ";") == inner
    assert rest == outer_rest


@pytest.mark.parametrize("delimiter", DELIMITERS)
def test_nasty_fields_round_trip(delimiter: str) -> None:
    assert decode(encode(NASTY, delimiter), delimiter) == NASTY


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (["a/b", "c"], "a\\/b/c"),  # delimiter escaped with a backslash
        (["\\x", "y"], "'\\x'/y"),  # leading backslash: quoted
        (["'q'", "z"], "''q''/z"),  # starts and ends with a quote: quoted
        (["'q", "z"], "'q/z"),  # only starts with a quote: left alone
        (["", "", ""], "//"),  # empty fields add nothing but the delimiter
        ([""], ""),
        (["a\\b"], "a\\b"),  # inner backslash not before a delimiter: kept
    ],
)
def test_encode_matches_sequence_encoder(fields: list[str], expected: str) -> None:
    assert encode(fields, "/") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a;", ["a", ""]),
        ("", [""]),
        ("\\;x;y", [";x", "y"]),
        ("'a;b'", ["'a", "b'"]),  # quotes do not protect delimiters, only escapes do
        ("'\\';z", ["\\", "z"]),
    ],
)
def test_decode_matches_sequence_decoder(text: str, expected: list[str]) -> None:
    assert decode(text, ";") == expected


def test_encode_refuses_field_ending_in_backslash() -> None:
    with pytest.raises(ValueError, match=r"ending in a backslash: 'dir\\\\'"):
        encode(["dir\\", "x"], ";")


def test_encode_refuses_empty_sequence_and_bad_delimiter() -> None:
    with pytest.raises(ValueError, match="empty sequence"):
        encode([], ";")
    with pytest.raises(ValueError, match="one-character delimiter"):
        encode(["a"], "\\")


def test_nest_escapes_tabs_once_per_level() -> None:
    """Decorator.getType: each wrapping level adds a backslash before the inner tabs."""
    assert nest(["outer", "middle", "inner"]) == "outer\tmiddle\\\tinner"
    assert nest(["a", "b", "c", "d"]) == "a\tb\\\tc\\\\\td"
    assert nest(["only"]) == "only"


@given(st.lists(field, min_size=0, max_size=4), field.filter(lambda s: decode(s, "\t") == [s]))
def test_nest_unnest_round_trip(outer: list[str], innermost: str) -> None:
    assert unnest(nest([*outer, innermost])) == [*outer, innermost]


def test_nest_refuses_tab_in_innermost_piece() -> None:
    with pytest.raises(ValueError, match="innermost piece is not escaped"):
        nest(["mark;x", "piece;;;;a\tb"])
    with pytest.raises(ValueError, match="innermost piece is not escaped"):
        nest(["'quoted'"])


def test_add_piece_command_round_trip_with_nasty_parts() -> None:
    type_ = nest(["mark;a/b", "piece;;;img/x.png;<\"&'>"])
    state = nest(["v;1", "null;0;0;;0"])
    command = add_piece_command(type_, state)
    assert command.startswith("+/null/mark;a\\/b\t")
    assert parse_add_piece_command(command) == ("null", Definition(type_, state))
    assert parse_add_piece_command(add_piece_command("piece;;;;", "s", id="17")) == ("17", Definition("piece;;;;", "s"))


def test_parse_add_piece_command_rejects_other_commands() -> None:
    with pytest.raises(ValueError, match="Expected a command starting with"):
        parse_add_piece_command("D/1/x")


def test_join_split_commands() -> None:
    commands = ["begin_save", "+/1/piece;;;;a/null;0;0;;0", "\\odd", "end_save"]
    text = join_commands(commands)
    assert text.startswith("begin_save\x1b+/1/")
    assert split_commands(text) == commands


@given(st.text(max_size=40), st.integers(0, 255))
def test_obfuscation_round_trip(text: str, key: int) -> None:
    obfuscated = obfuscate(text, key)
    assert obfuscated.startswith("!VCSK" + f"{key:02x}")
    assert deobfuscate(obfuscated) == text


def test_obfuscation_known_bytes() -> None:
    assert obfuscate("AB", 0x44) == "!VCSK440506"  # 0x41^0x44, 0x42^0x44
    assert deobfuscate("plain text") == "plain text"
    with pytest.raises(ValueError):
        obfuscate("x", 256)


FIXTURE = Path(__file__).resolve().parents[2] / ".." / "shared" / "tools" / "vassal-check" / "fixtures" / "out"


@pytest.mark.skipif(not (FIXTURE / "tiny-good.vmod").exists(), reason="vassal-check fixtures not available")
def test_deobfuscates_engine_written_saved_game() -> None:
    """The checker's fixture set-up (written as the engine does) decodes to the same text as its plain twin."""
    with zipfile.ZipFile(FIXTURE / "tiny-good.vmod") as module:
        inner = module.read("scenario1.vsav")
    with zipfile.ZipFile(io.BytesIO(inner)) as game:
        obfuscated = game.read("savedGame").decode()
    with zipfile.ZipFile(FIXTURE / "tiny-good-plain.vsav") as plain:
        expected = plain.read("savedGame").decode()
    assert obfuscated.startswith("!VCSK")
    assert deobfuscate(obfuscated) == expected
    assert split_commands(expected)[0] == "begin_save"


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, "70,0"),
        ({"ctrl": True}, "70,130"),
        ({"shift": True}, "70,65"),
        ({"alt": True}, "70,520"),
        ({"ctrl": True, "shift": True}, "70,195"),
    ],
)
def test_key_stroke_uses_java_modifier_masks(kwargs: dict[str, bool], expected: str) -> None:
    assert key_stroke(ord("F"), **kwargs) == expected


def test_java_double() -> None:
    assert [java_double(v) for v in (1, 1.0, 0.5, 62.35, 0)] == ["1.0", "1.0", "0.5", "62.35", "0.0"]
    with pytest.raises(ValueError):
        java_double(1e9)


@pytest.mark.parametrize("outer", [[], ["a"], ["", ""], ["'x'", "\\y", "p\tq"], ["1", "'", ""], ["\\", "'a"]])
def test_nesting_around_fixed_outer_traits_equals_nest(outer: list[str]) -> None:
    def result(make, inner: str) -> str:
        try:
            return make(inner)
        except ValueError:
            return "refused"

    around = Nesting(outer)
    for inner in ["Map;1;2;3;0", "x", "'a'", "a'", "\\a", "a\tb", "a;\\;b", "a\x00b", "ends\\"]:
        assert result(around, inner) == result(lambda i: nest([*outer, i]), inner)


def test_obfuscation_round_trip_and_known_bytes() -> None:
    assert obfuscate("A\u00e9", 0x5A) == "!VCSK5a1b99f3"
    assert deobfuscate(obfuscate("caf\u00e9\x1bend", 7)) == "caf\u00e9\x1bend"


def _reference_decode(text: str, delimiter: str) -> list[str]:
    """SequenceEncoder.Decoder character by character: a delimiter after a backslash is literal."""
    fields, current = [], []
    for index, char in enumerate(text):
        if char != delimiter:
            current.append(char)
        elif index > 0 and text[index - 1] == "\\":
            current[-1] = delimiter
        else:
            fields.append("".join(current))
            current = []
    fields.append("".join(current))
    return [f[1:-1] if len(f) > 1 and f[0] == f[-1] == "'" else f for f in fields]


def _reference_unnest(text: str) -> list[str]:
    parts = []
    while True:
        fields = _reference_decode(text, "\t")
        parts.append(fields[0])
        if len(fields) == 1:
            return parts
        text = fields[1]


def test_decode_and_unnest_match_the_engine_decoder_on_every_short_text():
    """The split-based decode and the cut-at-first-tab unnest (issue 30: linear time) give what the
    character-by-character decoder gives, on every text of up to 5 characters from the risky alphabet."""
    import itertools

    from authoring.vassal.codec import decode, unnest

    alphabet = "a\\'\t;"
    for n in range(6):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            for delimiter in "\t;":
                assert decode(text, delimiter) == _reference_decode(text, delimiter), (text, delimiter)
            assert unnest(text) == _reference_unnest(text), text


def test_unnest_takes_one_pass_over_real_nests():
    """Deep nests with tabs inside traits (as saved games of old engines hold) are split in one pass over the
    text, not level by level, and give back the traits they were nested from."""
    import random

    from authoring.vassal import codec

    rnd = random.Random(7)
    for _ in range(3000):
        parts = ["".join(rnd.choice("ab\\'\t;") for _ in range(rnd.randint(0, 6))) for _ in range(rnd.randint(1, 9))]
        parts = ["emb2;" + p for p in parts[:-1]] + ["piece;;;" + parts[-1].replace("\t", "x")]
        try:
            text = codec.nest(parts)
        except ValueError:
            continue
        assert codec.unnest(text) == _reference_unnest(text) == parts
        if not text.endswith("'"):
            assert codec._unnest_levels(text) == parts


def test_unnest_takes_one_pass_over_states_of_empty_traits():
    """A placed piece's state nests many empty trait states (each level's text then starts with the next
    level's escaping): still one pass, and the same states back."""
    from authoring.vassal import codec

    states = ["", "", "-1", "", "", "2;x", "", "null;5008;4021;64;0"]
    text = codec.nest(states)
    assert codec._unnest_levels(text) == states == _reference_unnest(text)
