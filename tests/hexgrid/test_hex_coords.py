"""Axial Hex, directions, lines, rings and hexsides."""

from __future__ import annotations

import pytest
from hexgrid_strategies import directions, hexes
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.hexgrid import (
    DIRECTIONS,
    Hex,
    Hexside,
    direction_index,
    direction_name,
    hex_line,
    hex_ring,
    hex_spiral,
    opposite,
)

FAST = settings(max_examples=60, deadline=None)


def test_directions_are_six_distinct_unit_vectors():
    origin = Hex(0, 0)
    assert len(set(DIRECTIONS)) == 6
    assert all(origin.distance(d) == 1 for d in DIRECTIONS)
    assert all(DIRECTIONS[d] + DIRECTIONS[opposite(d)] == origin for d in range(6))


def test_hex_arithmetic_and_s():
    a, b = Hex(2, -5), Hex(-1, 3)
    assert a.s == 3
    assert a + b == Hex(1, -2)
    assert a - b == Hex(3, -8)
    assert a.scale(3) == Hex(6, -15)
    assert Hex(1, 2) < Hex(1, 3) < Hex(2, -9)


def test_hex_rejects_non_integers():
    with pytest.raises(TypeError):
        Hex(1.0, 2)
    with pytest.raises(TypeError):
        Hex(1, "2")


@FAST
@given(hexes, directions)
def test_neighbour_symmetry(h, d):
    n = h.neighbour(d)
    assert n.neighbour(opposite(d)) == h
    assert h in n.neighbours()
    assert h.distance(n) == 1
    assert h.direction_to(n) == d
    assert n.direction_to(h) == opposite(d)


@FAST
@given(hexes)
def test_neighbours_in_direction_order(h):
    assert h.neighbours() == tuple(h.neighbour(d) for d in range(6))
    assert len(set(h.neighbours())) == 6


def test_direction_to_rejects_non_neighbours():
    with pytest.raises(ValueError, match="not adjacent"):
        Hex(0, 0).direction_to(Hex(2, 0))


@FAST
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    assert a.distance(a) == 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(b) == b.distance(a)
    assert a.distance(c) <= a.distance(b) + b.distance(c)
    assert a.distance(b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


@FAST
@given(hexes, hexes)
def test_hex_line_length_and_steps(a, b):
    line = hex_line(a, b)
    assert len(line) == a.distance(b) + 1
    assert line[0] == a and line[-1] == b
    assert all(p.distance(n) == 1 for p, n in zip(line, line[1:]))


def test_hex_line_examples():
    assert hex_line(Hex(0, 0), Hex(0, 0)) == [Hex(0, 0)]
    assert hex_line(Hex(0, 0), Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    # Along a hexside the epsilon nudge picks a side consistently instead of rounding ties.
    assert hex_line(Hex(0, 0), Hex(2, -1)) in ([Hex(0, 0), Hex(1, 0), Hex(2, -1)], [Hex(0, 0), Hex(1, -1), Hex(2, -1)])


@FAST
@given(hexes, st.integers(0, 8))
def test_ring_sizes_and_shape(center, radius):
    ring = hex_ring(center, radius)
    assert len(ring) == (6 * radius if radius else 1)
    assert len(set(ring)) == len(ring)
    assert all(center.distance(h) == radius for h in ring)
    if radius:
        assert all(p.distance(n) == 1 for p, n in zip(ring, ring[1:] + ring[:1]))


def test_ring_rejects_negative_radius():
    with pytest.raises(ValueError):
        hex_ring(Hex(0, 0), -1)


@FAST
@given(hexes, st.integers(0, 5))
def test_spiral_is_every_hex_within_radius(center, radius):
    spiral = hex_spiral(center, radius)
    assert spiral[0] == center
    assert len(spiral) == 1 + 3 * radius * (radius + 1)
    brute = {
        center + Hex(q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if Hex(0, 0).distance(Hex(q, r)) <= radius
    }
    assert set(spiral) == brute


@FAST
@given(hexes, directions)
def test_hexside_between_is_symmetric_and_canonical(h, d):
    n = h.neighbour(d)
    side = Hexside.between(h, n)
    assert side == Hexside.between(n, h)
    assert hash(side) == hash(Hexside.between(n, h))
    assert side.a < side.b
    assert set(side.hexes()) == {h, n}
    assert side.other(h) == n and side.other(n) == h


def test_hexside_rejects_bad_pairs():
    with pytest.raises(ValueError, match="not neighbours"):
        Hexside.between(Hex(0, 0), Hex(0, 0))
    with pytest.raises(ValueError, match="not neighbours"):
        Hexside.between(Hex(0, 0), Hex(0, 2))
    with pytest.raises(ValueError, match="a < b"):
        Hexside(Hex(1, 0), Hex(0, 0))
    with pytest.raises(ValueError, match="is not on"):
        Hexside.between(Hex(0, 0), Hex(1, 0)).other(Hex(5, 5))


def test_direction_names_per_orientation():
    assert [direction_name("flat", d) for d in range(6)] == ["N", "NE", "SE", "S", "SW", "NW"]
    assert [direction_name("pointy", d) for d in range(6)] == ["NW", "NE", "E", "SE", "SW", "W"]
    assert direction_index("flat", "ne") == 1
    assert direction_index("flat", "North-West") == 5
    assert direction_index("pointy", "east") == 2
    assert direction_index("pointy", " sw ") == 4


def test_direction_index_rejects_wrong_names():
    with pytest.raises(
        ValueError,
        match=r"Expected one of: \['N', 'NE', 'SE', 'S', 'SW', 'NW'\] "
        r"but received: 'E'",
    ):
        direction_index("flat", "E")
    with pytest.raises(ValueError, match="but received: 'N'"):
        direction_index("pointy", "N")
    with pytest.raises(ValueError, match="but received: 'hex'"):
        direction_name("hex", 0)


def test_hex_is_a_tuple_that_adds_as_a_vector():
    """A hex hashes as its (q, r) pair (so set and dict orders are those of the pairs), while + and - are
    vector sums and * is refused rather than repeating the tuple."""
    h = Hex(2, -5)
    assert h == (2, -5) and hash(h) == hash((2, -5)) and repr(h) == "Hex(q=2, r=-5)"
    assert type(h + Hex(1, 1)) is Hex and h + Hex(1, 1) == Hex(3, -4)
    assert type(h - Hex(1, 1)) is Hex and h - Hex(1, 1) == Hex(1, -6)
    with pytest.raises(TypeError):
        h * 2
    with pytest.raises(TypeError):
        2 * h
