"""Edits of a YAML file's text at the places its composed nodes name, so that everything else (comments, order,
quoting, line breaks, the layout of flow lists over several lines) stays byte for byte.

Why not a round-trip library: ruamel.yaml, the kept one, keeps comments but writes a flow list that spans lines
on one line and re-indents block lists, so one painted hex of Battle for Moscow's map rewrote 173 lines there
(and it costs ~100 ms to import, ~120 ms to load that map). Here each edit changes only the characters of
the values it names; every `Doc` edit also applies the same change to the data it expects, and `checked`
parses the new text and refuses it unless it reads back as exactly that data."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence

import yaml

from authoring.load.source import SourceError, compose, parse_yaml

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.+-]*\Z")
_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n"})
_BREAK = re.compile(r"\r\n|\r|\n|\x85|\u2028|\u2029")
Steps = tuple


class LayoutError(ValueError):
    """The file is laid out in a way these edits do not handle (the message says where)."""


def scalar(value, style: str | None = None) -> str:
    """`value` (text or a number) as YAML that reads back as itself: in `style`'s quotes (`"` or `'`) when
    given, else plain when safe, else double-quoted."""
    if isinstance(value, bool) or value is None:
        raise TypeError(f"no scalar for {value!r}")
    if isinstance(value, int | float):
        return str(value)
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    if style != '"' and _PLAIN.match(value) and value.lower() not in _WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def flow(value, style: str | None = None) -> str:
    """`value` in YAML's flow style: `{hex: "0301", units: [sov-29]}` (the text of a list of texts in
    `style`'s quotes, as its neighbours are written)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v, style) for v in value) + "]"
    return scalar(value, style)


def _quotes(node: yaml.Node) -> str | None:
    """The quotes of the list item `node` (a text, or a list of texts): those of its first text."""
    while isinstance(node, yaml.SequenceNode) and node.value:
        node = node.value[0]
    return node.style if isinstance(node, yaml.ScalarNode) and node.style in ('"', "'") else None


class Doc:
    """A YAML file's text, its node tree and the data the edits so far should read back as."""

    def __init__(self, text: str, display: str = "<yaml>"):
        self.bom = "\ufeff" if text.startswith("\ufeff") else ""
        self.text = text[len(self.bom) :]
        self.display = display
        self.newline = "\r\n" if "\r\n" in self.text else "\n"
        try:
            self.expected = parse_yaml(self.text, display).data
        except SourceError as exc:
            raise LayoutError(exc.diag.message) from None
        self._compose()

    def _compose(self) -> None:
        """The node tree and line starts of the text as it is now: made when next asked for (the last edit's
        are never asked for)."""
        self._root: yaml.Node | None = None

    @property
    def root(self) -> yaml.Node:
        if self._root is None:
            self._root = compose(self.text)
            self.starts = [0] + [m.end() for m in _BREAK.finditer(self.text)]
        return self._root

    # -- where things are -------------------------------------------------------------------------------
    def node(self, path: Steps) -> yaml.Node | None:
        node = self.root
        for step in path:
            if isinstance(node, yaml.MappingNode):
                node = next((v for k, v in node.value if k.value == step), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
                node = node.value[step]
            else:
                return None
            if node is None:
                return None
        return node

    def key_node(self, path: Steps) -> yaml.Node:
        parent = self.node(path[:-1])
        return next(k for k, _v in parent.value if k.value == path[-1])

    def _at(self, mark) -> int:
        return self.starts[mark.line] + mark.column

    def start(self, node: yaml.Node) -> int:
        return self._at(node.start_mark)

    def end(self, node: yaml.Node) -> int:
        """Just past the node's own characters (a block collection: past its last value's)."""
        while isinstance(node, yaml.MappingNode | yaml.SequenceNode) and not node.flow_style and node.value:
            node = node.value[-1][1] if isinstance(node, yaml.MappingNode) else node.value[-1]
        return self._at(node.end_mark)

    def _line_of(self, offset: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _line_start(self, offset: int) -> int:
        return self.starts[self._line_of(offset)]

    def _after_line(self, offset: int) -> int:
        """The start of the line after the one `offset` is on (the end of the text on the last line)."""
        line = self._line_of(offset)
        return self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)

    # -- changing it ------------------------------------------------------------------------------------
    def _splice(self, changes: Sequence[tuple[int, int, str]]) -> None:
        for a, b, new in sorted(changes, reverse=True):
            self.text = self.text[:a] + new + self.text[b:]
        self._compose()

    def _data(self, path: Steps):
        data = self.expected
        for step in path:
            data = data[step]
        return data

    def set_scalar(self, path: Steps, value) -> None:
        """The scalar at `path` becomes `value`, written in the old one's quoting where it can be."""
        node = self.node(path)
        if not isinstance(node, yaml.ScalarNode):
            raise LayoutError(f"{self.display}: {_shown(path)} is not a single value")
        text = scalar(value)
        if isinstance(value, str) and node.style == '"':
            text = json.dumps(value, ensure_ascii=False)
        elif isinstance(value, str) and node.style == "'":
            text = "'" + value.replace("'", "''") + "'"
        self._splice([(self.start(node), self.end(node), text)])
        self._data(path[:-1])[path[-1]] = value

    def remove_item(self, path: Steps, index: int) -> None:
        """Item `index` of the list at `path` goes: its line, in a block list; itself and one comma, in a flow
        list (a list left empty is written `[]`)."""
        seq = self.node(path)
        if not isinstance(seq, yaml.SequenceNode) or not 0 <= index < len(seq.value):
            raise LayoutError(f"{self.display}: {_shown(path)} has no item {index}")
        self._splice(self._flow_removal(seq, index) if seq.flow_style else self._block_removal(path, seq, index))
        del self._data(path)[index]

    def _flow_removal(self, seq: yaml.SequenceNode, i: int) -> list[tuple[int, int, str]]:
        items = seq.value
        me = items[i]
        line = self._line_of(self.start(me))
        nxt = items[i + 1] if i + 1 < len(items) else None
        prev = items[i - 1] if i > 0 else None
        if nxt is not None and (self._line_of(self.start(nxt)) == line or prev is None):
            return [(self.start(me), self.start(nxt), "")]
        if prev is not None:
            return [(self.end(prev), self.end(me), "")]
        return [(self.start(me), self.end(me), "")]

    def _block_removal(self, path: Steps, seq: yaml.SequenceNode, i: int) -> list[tuple[int, int, str]]:
        me = seq.value[i]
        first = self._line_start(self.start(me))
        if not self.text[first : self.start(me)].strip().startswith("-"):
            raise LayoutError(f"{self.display}: item {i} of {_shown(path)} does not start its own line")
        cut = (first, self._after_line(self.end(me)), "")
        if len(seq.value) > 1:
            return [cut]
        key = self.key_node(path)  # the last item: `key: []`, the key's comment kept after it
        colon = self.text.index(":", self.end(key))
        return [cut, (colon + 1, colon + 1, " []")]

    def insert_item(self, path: Steps, value, before: int | None = None) -> None:
        """`value` into the list at `path`, before item `before` (None: at the end), in the list's own style."""
        seq = self.node(path)
        if not isinstance(seq, yaml.SequenceNode):
            raise LayoutError(f"{self.display}: {_shown(path)} is not a list")
        items = seq.value
        at = len(items) if before is None else before
        text = flow(value, _quotes(items[0]) if items and not isinstance(value, dict) else None)
        if seq.flow_style or not items:
            if not items:
                change = (self.start(seq) + 1, self.start(seq) + 1, text)
            elif at < len(items):
                change = (self.start(items[at]), self.start(items[at]), text + ", ")
            else:
                change = (self.end(items[-1]), self.end(items[-1]), ", " + text)
        else:
            lead = self.text[self._line_start(self.start(items[0])) : self.start(items[0])]
            if lead.strip() != "-":
                raise LayoutError(f"{self.display}: the items of {_shown(path)} do not start their own lines")
            where = (
                self._line_start(self.start(items[at])) if at < len(items) else self._after_line(self.end(items[-1]))
            )
            line = lead + text + self.newline
            change = (
                where,
                where,
                line if where == 0 or self.text[where - 1] in "\r\n\x85\u2028\u2029" else self.newline + line,
            )
        self._splice([change])
        self._data(path).insert(at, copy.deepcopy(value))

    def add_key(self, path: Steps, key: str, value) -> None:
        """`key: value` at the end of the mapping at `path` (a list of mappings under a block mapping is written
        as a block list of flow mappings, as the bundled games write set-ups)."""
        node = self.node(path)
        if not isinstance(node, yaml.MappingNode):
            raise LayoutError(f"{self.display}: {_shown(path)} is not a mapping")
        if node.flow_style or not node.value:
            at = self.end(node.value[-1][1]) if node.value else self.start(node) + 1
            text = f"{', ' if node.value else ''}{scalar(key)}: {flow(value)}"
            self._splice([(at, at, text)])
        else:
            first_key = node.value[0][0]
            indent = " " * first_key.start_mark.column
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                body = f"{indent}{scalar(key)}:{self.newline}" + "".join(
                    f"{indent}  - {flow(v)}{self.newline}" for v in value
                )
            else:
                body = f"{indent}{scalar(key)}: {flow(value)}{self.newline}"
            where = self._after_line(self.end(node.value[-1][1]))
            if where == len(self.text) and self.text and not self.text.endswith(("\n", "\r")):
                body = self.newline + body
            self._splice([(where, where, body)])
        self._data(path)[key] = copy.deepcopy(value)

    def checked(self) -> str:
        """The new text, refused (LayoutError) unless it reads back as the data the edits meant."""
        try:
            found = parse_yaml(self.text, self.display).data
        except SourceError as exc:
            raise LayoutError(f"the edit would break the file: {exc.diag.message}") from None
        if found != self.expected:
            raise LayoutError(f"{self.display}: the edit did not read back as meant; nothing was written")
        return self.bom + self.text


def _shown(path: Steps) -> str:
    return ".".join(str(p) for p in path) or "the file"
