"""`model.frozen`: every model record is still everything a frozen dataclass is, built by a faster `__init__`."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

import authoring.model as model
from authoring.diagnostics import Loc
from authoring.model.frozen import frozen

RECORDS = [getattr(model, name) for name in model.__all__ if dataclasses.is_dataclass(getattr(model, name))]


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_record_takes_the_same_arguments_as_its_dataclass(cls) -> None:
    """The same parameters, in the same order, with the same defaults, as `@dataclass` would write."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields):
        if f.default is not dataclasses.MISSING:
            assert p.default is f.default
        elif f.default_factory is not dataclasses.MISSING:
            assert p.default is not inspect.Parameter.empty  # the factory's stand-in
        else:
            assert p.default is inspect.Parameter.empty
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD


def test_a_record_is_frozen_keeps_identity_and_takes_replace() -> None:
    p = model.Placement("red", "0101", None, ("u1",), loc=Loc("s.yaml", 3, 5))
    assert (p.side, p.label, p.units, p.state, p.loc, p.unit_locs) == (
        "red",
        "0101",
        ("u1",),
        None,
        Loc("s.yaml", 3, 5),
        (),
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.side = "blue"  # type: ignore[misc]
    with pytest.raises(TypeError):
        model.Placement("red", "0101")  # type: ignore[call-arg]
    twin = model.Placement("red", "0101", None, ("u1",), loc=Loc("s.yaml", 3, 5))
    assert p != twin and p == p  # eq=False: identity, as before
    moved = dataclasses.replace(p, label="0202")
    assert (moved.label, moved.units) == ("0202", ("u1",)) and p.label == "0101"
    assert type(p).__slots__ == tuple(f.name for f in dataclasses.fields(p)) and not hasattr(p, "__dict__")
    assert repr(p).startswith("Placement(side='red', label='0101'")
    back = pickle.loads(pickle.dumps(p))  # the build's workers are sent model records
    assert (back.side, back.label, back.units, back.loc) == (p.side, p.label, p.units, p.loc)


def test_each_record_gets_its_own_default_from_a_factory() -> None:
    a, b = model.Face("full"), model.Face("half")
    assert a.values == {} and a.values is b.values  # the shared read-only EMPTY, as the factory gives
    calls = []

    @frozen
    class Made:
        x: int
        items: list = dataclasses.field(default_factory=lambda: calls.append(1) or [])

    m, n = Made(1), Made(2, [3])
    assert m.items == [] and m.items is not Made(1).items and n.items == [3] and len(calls) == 2


def test_a_field_frozen_cannot_set_is_refused_when_the_class_is_made() -> None:
    with pytest.raises(TypeError, match="positional fields"):

        @frozen
        class Bad:
            x: int = dataclasses.field(default=0, init=False)
