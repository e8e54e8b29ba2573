"""Text edits of YAML at its nodes' places (`serve.yamltext`): only the named values' characters change, in
block and flow layouts, with comments, quoting, line ends and a byte-order mark kept; an edit that would not
read back as meant is refused."""

from __future__ import annotations

import pytest

from authoring.serve import edits
from authoring.serve.yamltext import Doc, LayoutError

BLOCK = """\
# a scenario written in block style
setup:
  axis:   # the first side
    - hex: "0101"
      units:
        - a
        - b   # b's own comment
      state: full
    - hex: '0102'
      units: [c]
  allies: []
reinforcements:
  - turn: 3
    side: axis
    units: [d]
# the end
"""


def _lines(before: str, after: str) -> tuple[list[str], list[str]]:
    old, new = before.splitlines(), after.splitlines()
    return [x for x in old if x not in new], [x for x in new if x not in old]


def test_block_lists_lose_and_gain_lines():
    doc = Doc(BLOCK)
    edits.move_unit(doc, "a", {"hex": "0103"})
    text = doc.checked()
    assert _lines(BLOCK, text) == (["        - a"], ['    - {hex: "0103", units: [a], state: full}'])
    assert "- b   # b's own comment" in text and text.endswith("# the end\n")


def test_a_single_quoted_value_stays_single_quoted_and_an_empty_side_fills():
    doc = Doc(BLOCK)
    edits.move_unit(doc, "c", {"hex": "0104"})
    edits.move_unit(doc, "d", {"hex": "0105"})
    text = doc.checked()
    assert "    - hex: '0104'\n" in text
    assert "  allies: []" in text  # d is axis: it goes to the axis list
    assert '    - {hex: "0105", units: [d]}\n' in text
    assert "reinforcements: []" in text and "  - turn: 3" not in text


def test_a_unit_to_a_turn_with_no_reinforcements_makes_the_list():
    text = 'kind: scenario\nsetup:\n  axis:\n    - {hex: "0101", units: [a, b]}\n'
    doc = Doc(text)
    edits.move_unit(doc, "b", {"turn": 2})
    assert doc.checked() == (
        'kind: scenario\nsetup:\n  axis:\n    - {hex: "0101", units: [a]}\n'
        "reinforcements:\n  - {turn: 2, side: axis, units: [b]}\n"
    )


def test_crlf_and_a_byte_order_mark_are_kept():
    text = '\ufeffterrain:\r\n  forest: ["0101", "0103"]   # trees\r\nhexsides: {}\r\n'
    doc = Doc(text)
    doc.insert_item(("terrain", "forest"), "0102", 1)
    doc.add_key(("hexsides",), "river", [["0101", "0102"]])
    assert doc.checked() == (
        '\ufeffterrain:\r\n  forest: ["0101", "0102", "0103"]   # trees\r\nhexsides: {river: [["0101", "0102"]]}\r\n'
    )


def test_removing_from_a_flow_list_over_several_lines():
    text = 'f: [\n  "01", "02",\n  "03"\n]\n'
    for index, want in (
        (0, 'f: [\n  "02",\n  "03"\n]\n'),
        (1, 'f: [\n  "01",\n  "03"\n]\n'),
        (2, 'f: [\n  "01", "02"\n]\n'),
    ):
        doc = Doc(text)
        doc.remove_item(("f",), index)
        assert doc.checked() == want


def test_an_edit_that_does_not_read_back_is_refused():
    doc = Doc('a: ["x"]\n')
    doc.text = doc.text.replace('"x"', '"y"')  # a change the edits did not mean
    with pytest.raises(LayoutError, match="did not read back"):
        doc.checked()
