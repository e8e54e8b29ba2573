"""Battle for Moscow's real numbering: flat-top, 14 x 10, CCRR, even columns half a hex lower."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from authoring.hexgrid import GridSpec, MapGrid, PixelLayout

BFM = MapGrid(GridSpec("flat", 14, 10, shifted="even"))
FACTS = Path(__file__).resolve().parents[3] / "shared" / "docs" / "bfm-map-facts.yaml"

# (dcol, drow) per compass direction, from the map facts (odd and even printed columns).
ODD = {"N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 0), "NW": (-1, -1)}
EVEN = {"N": (0, -1), "NE": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0)}


def hx(label: str):
    h = BFM.label_to_hex(label)
    assert h is not None, label
    return h


def adjacent(a: str, b: str) -> bool:
    return hx(a).distance(hx(b)) == 1


def test_size_and_corners():
    assert len(BFM) == 140
    assert BFM.hex_to_label(BFM.hexes[0]) == "0101"
    assert BFM.hex_to_label(BFM.hexes[-1]) == "1410"


def test_neighbour_table_for_every_hex_and_direction():
    for h in BFM.hexes:
        col, row = BFM.hex_to_offset(h)
        table = ODD if col % 2 else EVEN
        for name, (dc, dr) in table.items():
            n = h.neighbour(BFM.direction_index(name))
            on_map = 1 <= col + dc <= 14 and 1 <= row + dr <= 10
            assert (n in BFM) == on_map
            if on_map:
                assert BFM.hex_to_offset(n) == (col + dc, row + dr)


def test_explicit_neighbour_facts():
    assert {BFM.hex_to_label(n) for n in hx("0105").neighbours() if n in BFM} == {"0104", "0106", "0204", "0205"}
    assert adjacent("0105", "0106") and adjacent("0105", "0205") and adjacent("0105", "0204")
    assert adjacent("0404", "0505") and adjacent("0403", "0504")
    assert not adjacent("0404", "0503") and not adjacent("0403", "0502")
    assert hx("0404").neighbour(BFM.direction_index("SE")) == hx("0505")
    assert hx("0403").neighbour(BFM.direction_index("SE")) == hx("0504")
    assert hx("0105").neighbour(BFM.direction_index("NE")) == hx("0204")


def test_even_columns_start_half_a_hex_lower():
    layout = PixelLayout.for_grid(BFM, 30.0)
    y0101 = layout.hex_to_pixel(hx("0101"))[1]
    y0201 = layout.hex_to_pixel(hx("0201"))[1]
    assert y0201 - y0101 == pytest.approx(layout.dy / 2)
    assert min(y for _, y in layout.corners(hx("0101"))) == pytest.approx(0.0)


@pytest.mark.skipif(not FACTS.exists(), reason="shared/docs/bfm-map-facts.yaml not available")
def test_every_river_hexside_and_rail_link_in_the_map_facts_is_adjacent():
    facts = yaml.safe_load(FACTS.read_text())
    sides = facts["rivers"]["hexsides"]
    assert len(sides) > 50
    for a, b in sides:
        assert adjacent(a, b), (a, b)
    for line in facts["railroads"]["lines"]:
        for a, b in zip(line["hexes"], line["hexes"][1:]):
            assert adjacent(a, b), (line["line"], a, b)
    for label, side in facts["rivers"]["map_edge_hexsides"]:
        assert BFM.direction_index(side) in BFM.exit_directions(hx(label))
