"""Mutations of one data file, as hypothesis strategies: text-level (bytes, lines) and data-level (YAML values).

A mutation is a plain tuple so a falsifying example prints readably and can be replayed; `apply`
turns (original bytes, list of mutations) into the bytes written for one case.
"""

from __future__ import annotations

import copy
from typing import Any

import yaml
from hypothesis import strategies as st

from authoring.load.source import SourceError, parse_yaml

SPECIALS = [
    ":",
    "- ",
    "[",
    "]",
    "{",
    "}",
    "&a ",
    "*a",
    "!!",
    "!x ",
    "'",
    '"',
    "#",
    "|",
    ">",
    "\t",
    "? ",
    "<<: ",
    ",",
    "%YAML 1.2\n",
    "---\n",
    "...\n",
    "\\",
    "\u00a0",
    "\u202e",
    "\ufeff",
    "0x1F",
    "~",
]
VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    -1000,
    10**20,
    -(10**20),
    2**63,
    1.5,
    -0.0,
    1e308,
    10**30,
    10**400,
    -(10**4000),
    1e-300,  # past int64, past float, past int(str) limits
    "",
    " ",
    "zz-unknown",
    "0000",
    "9999",
    "0101",
    "#zzzzzz",
    "1in",
    "0in",
    "-1in",
    "500in",
    "1/0",
    "0.001mm",
    "3in",
    "1/4",
    "../../../../etc/passwd",
    "/etc/passwd",
    "é漢字🙂",
    "\u202e\u0000",
    "x" * 5000,
    "x" * 100_000,
    "W" * 99,
    "=cmd|' /C calc'!A0",
    "@SUM(1)",  # long text; formula cells
    "a\tb",
    "a\x00b",
    "a\x1b]8;;http://x\x07b",
    "\x9b31m",
    "end\\",
    "\\",
    "a\u2028b",
    "zz+1",
    "zz_1",
    "Zz",
    "con",
    "layout",  # ids whose naive file names collide
    [],
    {},
    [None],
    [1, 2],
    ["0101", "0101"],
    {"zz": 1},
    {"id": "x"},
]
KEYS = [
    "zz_unknown",
    "note",
    "id",
    "kind",
    "game",
    "name",
    "side",
    "hex",
    "units",
    "turn",
    "faces",
    "state",
    "grid",
    "terrain",
    "rule",
    "type",
    "map",
    "edge",
    "union",
    "hexes",
    "sides",
    "tables",
    "rows",
    "designation",
    "hex_size",
    "counter_size",
    "quantity",
    "pattern",
    "setup_code",
    "except",
]

_index = st.integers(0, 10**6)  # taken modulo the size of what it indexes: shrinks towards the first item

text_ops = st.one_of(
    st.tuples(st.just("delete_line"), _index),
    st.tuples(st.just("duplicate_line"), _index),
    st.tuples(st.just("swap_lines"), _index, _index),
    st.tuples(st.just("truncate"), _index),
    st.tuples(st.just("indent"), _index, st.sampled_from([" ", "  ", "    ", "\t", "-1", "-2"])),
    st.tuples(st.just("insert"), _index, st.one_of(st.sampled_from(SPECIALS), st.text(max_size=6))),
    st.tuples(st.just("bytes"), _index, st.binary(min_size=1, max_size=6)),
    st.tuples(st.just("replace_char"), _index, st.sampled_from(SPECIALS + ["0", "a", " "])),
)

data_ops = st.one_of(
    st.tuples(st.just("set"), _index, st.sampled_from(VALUES)),
    st.tuples(st.just("delete_key"), _index),
    st.tuples(st.just("add_key"), _index, st.sampled_from(KEYS), st.sampled_from(VALUES)),
    st.tuples(st.just("dangle"), _index, st.sampled_from(["x", "-", "0", "Z"])),
    st.tuples(st.just("swap"), _index, _index),
    st.tuples(st.just("dup_item"), _index),
    st.tuples(st.just("empty"), _index),
    st.tuples(st.just("negate"), _index),
)


def mutations(csv: bool) -> st.SearchStrategy[list[tuple]]:
    """1 to 3 mutations; data-level ones only for YAML files."""
    return st.lists(text_ops if csv else st.one_of(data_ops, data_ops, text_ops), min_size=1, max_size=3)


def apply(original: bytes, ops: list[tuple], name: str = "case.yaml") -> bytes:
    out = original
    for op in ops:
        out = (_text if op[0] in _TEXT else _data)(out, op, name)
    return out


# --- text level ---------------------------------------------------------------------------


def _text(raw: bytes, op: tuple, name: str) -> bytes:
    lines = raw.split(b"\n")
    n = len(lines)
    kind = op[0]
    if kind == "delete_line":
        del lines[op[1] % n]
    elif kind == "duplicate_line":
        i = op[1] % n
        lines.insert(i, lines[i])
    elif kind == "swap_lines":
        i, j = op[1] % n, op[2] % n
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "indent":
        i = op[1] % n
        lines[i] = lines[i][int(op[2][1:]) :] if op[2].startswith("-") else op[2].encode() + lines[i]
    else:
        return _at(raw, op)
    return b"\n".join(lines)


def _at(raw: bytes, op: tuple) -> bytes:
    pos = op[1] % (len(raw) + 1)
    if op[0] == "truncate":
        return raw[:pos]
    if op[0] == "bytes":
        return raw[:pos] + op[2] + raw[pos:]
    text = op[2].encode("utf-8", "surrogatepass")
    if op[0] == "insert":
        return raw[:pos] + text + raw[pos:]
    return raw[:pos] + text + raw[pos + 1 :]  # replace_char


_TEXT = {"delete_line", "duplicate_line", "swap_lines", "truncate", "indent", "insert", "bytes", "replace_char"}


# --- data level ---------------------------------------------------------------------------


def _paths(node, path=()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, path + (i,))
    return out


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _data(raw: bytes, op: tuple, name: str) -> bytes:
    """Re-dump the mutated document; a file that no longer parses gets a text mutation instead."""
    try:
        doc = parse_yaml(raw.decode("utf-8"), name).data
    except (SourceError, UnicodeDecodeError):
        return _at(raw, ("insert", op[1], ":"))
    paths = _paths(doc)
    doc = _mutate(doc, paths, op)
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=200).encode("utf-8", "surrogatepass")


def _mutate(doc, paths: list[tuple], op: tuple):
    kind, path = op[0], paths[op[1] % len(paths)]
    value = _get(doc, path)
    if kind == "set":
        return _put(doc, path, _copy(op[2]))
    if kind == "delete_key":
        keyed = [p for p in paths if p and isinstance(_get(doc, p[:-1]), dict)]
        if keyed:
            p = keyed[op[1] % len(keyed)]
            del _get(doc, p[:-1])[p[-1]]
        return doc
    if kind == "add_key":
        dicts = [p for p in paths if isinstance(_get(doc, p), dict)]
        if dicts:
            _get(doc, dicts[op[1] % len(dicts)])[op[2]] = _copy(op[3])
        return doc
    if kind == "dangle":
        strings = [p for p in paths if isinstance(_get(doc, p), str)]
        if strings:
            p = strings[op[1] % len(strings)]
            doc = _put(doc, p, _get(doc, p) + op[2])
        return doc
    if kind == "swap":
        other = paths[op[2] % len(paths)]
        if path[: len(other)] == other or other[: len(path)] == path:
            return doc  # one contains the other
        a, b = value, _get(doc, other)
        doc = _put(doc, path, b)
        return _put(doc, other, a)
    if kind == "dup_item":
        lists = [p for p in paths if isinstance(_get(doc, p), list) and _get(doc, p)]
        if lists:
            items = _get(doc, lists[op[1] % len(lists)])
            items.append(_copy(items[op[1] % len(items)]))
        return doc
    if kind == "empty":
        return _put(doc, path, type(value)() if isinstance(value, (list, dict, str)) else None)
    if isinstance(value, (int, float)) and not isinstance(value, bool):  # negate
        return _put(doc, path, -value - 1)
    return doc


def _put(doc, path: tuple, value):
    if not path:
        return value
    _get(doc, path[:-1])[path[-1]] = value
    return doc


def _copy(value):
    return copy.deepcopy(value)
