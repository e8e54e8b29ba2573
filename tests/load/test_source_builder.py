"""The YAML builder (inline plain strings, positions read off the nodes on request: speed paths) gives
exactly what building every node through one recursive function that copies each position into a
table gives: the same data, value and key positions (path by path, no more, no fewer), text paths
and errors.

The reference below is the builder as it was before either speed path, kept here as the specification.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.diagnostics.codes import HW_YAML_003, HW_YAML_005, HW_YAML_006, HW_YAML_007, HW_YAML_008, HW_YAML_009
from authoring.load import source
from authoring.load.source import MAX_DEPTH, SourceError, parse_yaml

ROOT = Path(__file__).resolve().parents[2]
DATA = sorted(p for d in ("maps", "counters", "scenarios", "tests") for p in (ROOT / d).rglob("*.yaml"))


class _Reference(source._Builder):
    """Every node through one recursive `build`, every position copied into `locs` and `key_locs`."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.locs: dict[tuple, tuple[int, int]] = {}
        self.key_locs: dict[tuple, tuple[int, int]] = {}
        self.text_paths: list[tuple] = []

    def build(self, node, path: tuple, depth: int):
        self.count += 1
        if self.count > source.MAX_NODES:
            self._fail(
                HW_YAML_005,
                f"document expands to more than {source.MAX_NODES:,} values (alias bomb?)",
                node,
                help="remove recursive or heavily repeated YAML aliases",
            )
        if depth > MAX_DEPTH:
            self._fail(HW_YAML_006, f"document is nested deeper than {MAX_DEPTH} levels", node)
        self.locs[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if node.tag not in source._STD_TAGS:
            self._fail(HW_YAML_007, f"unsupported YAML tag {node.tag!r}", node, help="remove the tag")
        if isinstance(node, yaml.ScalarNode):
            v = node.value
            if (self.long and len(v) > source.MAX_TEXT) or (self.suspect and source._BAD_TEXT.search(v)):
                self.text_paths.append(path)
            return source._scalar(node)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,), depth + 1) for i, child in enumerate(node.value)]
        return self._reference_mapping(node, path, depth)

    def _reference_mapping(self, node, path: tuple, depth: int) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self._fail(HW_YAML_008, "mapping keys must be plain scalars", key_node)
            if key_node.tag == "tag:yaml.org,2002:merge" or (key_node.value == "<<" and not key_node.style):
                self._fail(
                    HW_YAML_009,
                    "YAML merge keys (<<) are not supported",
                    key_node,
                    help="write the fields out, or use the counters CSV form for repeated values",
                )
            key = key_node.value
            if key in out:
                first = self.key_locs[path + (key,)]
                self._fail(
                    HW_YAML_003,
                    f"duplicate key {key!r} (first defined at line {first[0]})",
                    key_node,
                    help="remove or rename one of the two; hexwright never keeps the last one silently",
                )
            self.key_locs[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.build(value_node, path + (key,), depth + 1)
        return out


def _reference(text: str) -> tuple:
    """What `parse_yaml` gave with the reference builder (an empty file and the composer's syntax errors
    are `parse_yaml`'s, before any building)."""
    try:
        if len(text) > source.PRESCAN_BYTES or "&" in text:
            source._prescan(text, "t.yaml")
        node = yaml.compose(text, Loader=source._Loader)
    except yaml.YAMLError:
        return _outcome(text)
    except SourceError as exc:
        return ("error", exc.diag)
    if node is None:
        return _outcome(text)
    try:
        builder = _Reference(
            "t.yaml", suspect=source._RAW_SUSPECT.search(text) is not None, long=len(text) > source.MAX_TEXT
        )
        data = builder.build(node, (), 0)
    except SourceError as exc:
        return ("error", exc.diag)
    return (data, builder.locs, builder.key_locs, tuple(builder.text_paths))


def _outcome(text: str) -> tuple:
    try:
        src = parse_yaml(text, "t.yaml")
    except SourceError as exc:
        return ("error", exc.diag)
    return (src.data, dict(src.locs), dict(src.key_locs), src.text_paths)


def _same(text: str) -> None:
    got, want = _outcome(text), _reference(text)
    assert repr(got) == repr(want)  # repr: 1 and 1.0 and True differ; the positions in document order
    if got[0] != "error":
        src, locs = parse_yaml(text, "t.yaml"), want[1]
        for path in list(locs)[:200]:  # one lookup at a time, as loading asks, and paths that lead nowhere
            assert src.locs.get(path) == locs[path] and src.loc(path)[:3] == ("t.yaml", *locs[path])  # and its end
            assert src.locs.get(path + ("no such key",)) is None and src.locs.get(path + (10**6,)) is None
            assert src.key_locs.get(path) == want[2].get(path)
            items = [p for p in locs if p[:-1] == path and p and type(p[-1]) is int]
            assert [(x.line, x.col) for x in src.item_locs(path, len(items))] == [locs[p] for p in items]


@pytest.mark.slow
def test_bundled_files():
    assert DATA
    for path in DATA:
        _same(path.read_text(encoding="utf-8"))


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False),
    st.sampled_from(
        [
            "0201",
            "yes",
            "no",
            "~",
            "null",
            "True",
            "1.5",
            "-3",
            "+7",
            ".5",
            "1e3",
            "",
            "M0101",
            "a\\",
            "tab\there",
            "x" * (source.MAX_TEXT + 1),
            "nul\x00",
            "\u202e",
            "<<",
            "f",
            "n",
        ]
    ),
    st.text(max_size=12),
)
DOCS = st.recursive(
    SCALARS,
    lambda kids: st.one_of(st.lists(kids, max_size=5), st.dictionaries(st.text(max_size=6), kids, max_size=5)),
    max_leaves=40,
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(DOCS, st.booleans(), st.sampled_from(["'", '"', None]))
def test_generated_documents(doc, flow, style):
    _same(
        yaml.safe_dump(
            {"kind": "map", "data": doc}, default_flow_style=flow, default_style=style, allow_unicode=True, width=60
        )
    )


def test_errors_and_limits():
    deep = "a: " + "[" * (MAX_DEPTH + 2) + "x" + "]" * (MAX_DEPTH + 2) + "\n"
    for text in (
        "a: 1\na: 2\n",
        "a: !!python/name:os.system x\n",
        "<<: {a: 1}\n",
        "? [a]\n: 1\n",
        deep,
        "a: &x [b, c]\nd: *x\ne: [*x, *x]\n",
        "a: [!custom x]\n",
        "a: {b: !custom y}\n",
        "a: ['0101', \"0102\", 0103, yes, ~]\n",
    ):
        _same(text)
