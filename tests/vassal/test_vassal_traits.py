"""Each trait's type/state strings pinned to VASSAL 3.6's field layout (checked canonical by the engine)."""

from __future__ import annotations

import pytest

from authoring.vassal.codec import Definition, parse_add_piece_command, unnest
from authoring.vassal.traits import (
    DEST_REGION,
    BasicPiece,
    Clone,
    Delete,
    Layer,
    Marker,
    MovementMarkable,
    Piece,
    Report,
    SendTo,
    UsePrototype,
)

FLIP = "70,130"

CASES = [
    (BasicPiece(name="Blue Inf", image="units/b.png", gpid="7"), "piece;;;units/b.png;Blue Inf", "null;0;0;7;0"),
    (
        BasicPiece(map_id="Main Map", x=5, y=6, gpid="3", properties=(("k", "v;w"),)),
        "piece;;;;",
        "Main Map;5;6;3;1;k;v\\;w",
    ),
    (
        Layer(
            images=("a.png", "b.png"),
            level_names=("", "+ (reduced)"),
            name="Step",
            up_command="Flip",
            increase_keystroke=FLIP,
            level=2,
        ),
        "emb2;;0;;Flip;0;;;0;;;;1;false;0;0;a.png,b.png;,+ (reduced);true;Step;;;false;;1;1;true;;70,130;;;1.0",
        "2",
    ),
    (Layer(images=("x,y.png",)), "emb2;;0;;;0;;;0;;;;1;false;0;0;x\\,y.png;;true;;;;false;;1;1;true;;;;;1.0", "1"),
    (Marker((("Side", "Blue"), ("Type", "inf,arm"))), "mark;Side,Type", "Blue,inf\\,arm"),
    (UsePrototype("Unit;x"), "prototype;Unit\\;x", ""),
    (
        Report(keys=("69,130", "82,130"), report_format="$oldPieceName$ moves $oldLocation$ -> $location$"),
        "report;69\\,130,82\\,130;$oldPieceName$ moves $oldLocation$ -> $location$;;;;false",
        "-1",
    ),
    (Delete(), "delete;Delete;68,130;", ""),
    (Clone(), "clone;Clone;67,130;", ""),
    (
        SendTo(
            command="Eliminate",
            key="69,130",
            map_name="Dead Pile",
            destination=DEST_REGION,
            region="$Side$ dead",
            back_command="Restore",
            back_key="82,130",
        ),
        "sendto;Eliminate;69,130;Dead Pile;;0;0;Restore;82,130;0;0;1;1;;R;;$Side$ dead;;",
        ";;",
    ),
    (
        SendTo(command="Home", key="72,130", map_name="Main Map", back_map="Main Map", back_x="10", back_y="20"),
        "sendto;Home;72,130;Main Map;;0;0;;;0;0;1;1;;L;;;;",
        "Main Map;10;20",
    ),
    (MovementMarkable(), "markmoved;/images/moved.gif;0;0;Mark Moved;77,130;", "false"),
    (MovementMarkable(moved=True), "markmoved;/images/moved.gif;0;0;Mark Moved;77,130;", "true"),
]


@pytest.mark.parametrize(("trait", "type_", "state"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_trait_strings(trait: object, type_: str, state: str) -> None:
    assert trait.type_string() == type_  # type: ignore[attr-defined]
    assert trait.state_string() == state  # type: ignore[attr-defined]


def test_layer_has_31_fields() -> None:
    body = Layer(images=("a.png",)).type_string().removeprefix("emb2;")
    assert len(body.split(";")) == 31


def blue_infantry() -> Piece:
    layer = Layer(
        images=("blue_inf.png", "blue_inf_back.png"),
        level_names=("", "+ (reduced)"),
        name="Step",
        up_command="Flip",
        increase_keystroke=FLIP,
    )
    return Piece((UsePrototype("Unit"), layer, BasicPiece(name="Blue Infantry", gpid="1")))


def test_piece_slot_text_matches_engine_written_fixture() -> None:
    """Same text as the checker's canonical fixture module (tiny-good.vmod)."""
    assert blue_infantry().slot_text() == (
        "+/null/prototype;Unit\temb2;;0;;Flip;0;;;0;;;;1;false;0;0;blue_inf.png,blue_inf_back.png;"
        ",+ (reduced);true;Step;;;false;;1;1;true;;70,130;;;1.0\\\tpiece;;;;Blue Infantry/\t1\\\tnull;0;0;1;0"
    )


def test_piece_definition_unnests_to_traits() -> None:
    piece = blue_infantry()
    definition = piece.definition()
    assert unnest(definition.type) == [t.type_string() for t in piece.traits]
    assert unnest(definition.state) == ["", "1", "null;0;0;1;0"]
    assert parse_add_piece_command(piece.slot_text("42")) == ("42", definition)


def test_piece_at_places_basic_piece_only() -> None:
    placed = blue_infantry().at("Main Map", 90, 187)
    assert placed.basic.map_id == "Main Map" and (placed.basic.x, placed.basic.y) == (90, 187)
    assert placed.definition().type == blue_infantry().definition().type
    assert placed.definition().state.endswith("Main Map;90;187;1;0")


def test_hostile_names_survive_piece_nesting() -> None:
    name = "<\"&'> a/b;c,d\\e\tf"
    piece = Piece((Marker((("Side", "x;y"),)), BasicPiece(name=name.replace("\t", " "), image="dir/img.png")))
    _, definition = parse_add_piece_command(piece.slot_text())
    assert definition == Definition(*piece.definition())
    assert unnest(definition.type)[-1] == "piece;;;dir/img.png;<\"&'> a/b\\;c,d\\e f"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Piece(()), "must end with its BasicPiece"),
        (lambda: Piece((BasicPiece(), Delete())), "must end with its BasicPiece"),
        (lambda: Piece((BasicPiece(), BasicPiece())), "exactly one BasicPiece"),
        (lambda: Layer(images=()), "at least one image"),
        (lambda: Layer(images=("a",), level_names=("x", "y")), "Expected 1 level names but received: 2"),
        (lambda: Layer(images=("a",), version=0), "version must be 1"),
        (lambda: Marker(()), "at least one property"),
    ],
)
def test_invalid_traits_are_refused(build, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        build()


def test_play_aid_traits_encode_in_engine_field_order() -> None:
    """Footprint, Restricted and Obscurable type/state strings as VASSAL 3.6 writes them (myGetType order)."""
    from authoring.vassal.traits import Footprint, Obscurable, Restricted

    assert Footprint(key="84,130").type_string() == (
        "footprint;84,130;Movement trail;true;true;10;255,255,255;0,0,0;100;60;20;30;1.0;;;;"
    )
    assert Footprint().state_string() == "false;;0"
    assert Restricted(("Axis", "Soviet,Red")).type_string() == "restrict;Axis,Soviet\\,Red;false;true;"
    masked = Obscurable("72,130", "u_air.png", ("Axis",), mask_name="Air", masked_by="Axis")
    assert masked.type_string() == "obs;72,130;u_air.png;Mask;I;Air;sides:Axis;;;true"
    assert (masked.state_string(), Obscurable("", "a.png", ("Axis",)).state_string()) == ("Axis;", "null;")
