"""Where a YAML file's values and keys are, read off its composed nodes when asked for.

libyaml's composer already gives every node its line and column. Copying them into a table keyed by
JSON path cost a table entry, a path tuple and a position tuple for every value: a third of
`hexwright validate` on a large game, for positions of which loading reads one a unit and an error
report one. These mappings keep the composed tree and walk it on request, with the same answers the
table gave (`tests/load/test_source_builder.py` compares them path by path).
"""

from __future__ import annotations

from collections.abc import Iterator

import yaml

from authoring.load.cells import Pos, Positions

_SEQ, _MAP, _SCALAR = yaml.SequenceNode, yaml.MappingNode, yaml.ScalarNode
_SCAN = 12
"""Mappings up to this many keys (a unit's placement, a turn) are searched in order, not indexed:
indexing each of a scenario's thousands of placements cost more than the lookups it served."""


class NodeTree:
    """A composed YAML document, walked by JSON path (`("setup", "axis", 3)`)."""

    def __init__(self, root: yaml.Node):
        self.root = root
        self._keys: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}  # id(mapping node) -> key -> nodes
        self._containers: dict[tuple, yaml.Node] = {}  # path -> list or mapping node, as found

    def pair(self, mapping: yaml.MappingNode, key: object) -> tuple[yaml.Node, yaml.Node] | None:
        """The (key node, value node) of `key` (the builder refused duplicate keys: there is one)."""
        pairs = mapping.value
        if len(pairs) <= _SCAN:
            for found in pairs:
                if found[0].value == key:
                    return found
            return None
        keys = self._keys.get(id(mapping))
        if keys is None:
            keys = self._keys[id(mapping)] = {k.value: (k, v) for k, v in pairs}
        return keys.get(key) if type(key) is str else None

    def node(self, path: tuple) -> yaml.Node | None:
        """The node at `path`, or None. Each list or mapping found is remembered by its path: loading asks
        for a placement's position and then its units', so most walks start one step from the end."""
        found = self._containers.get(path)
        if found is not None:
            return found
        if not path:
            return self.root
        node = self.node(path[:-1])
        if node is None:
            return None
        step, kind = path[-1], type(node)
        if kind is _SEQ:
            if type(step) is not int or not 0 <= step < len(node.value):
                return None
            node = node.value[step]
        elif kind is _MAP:
            found = self.pair(node, step)
            if found is None:
                return None
            node = found[1]
        else:
            return None
        if type(node) is not _SCALAR:
            self._containers[path] = node
        return node

    def walk(self) -> Iterator[tuple[tuple, yaml.Node]]:
        """Every (path, node) in document order, an alias at each place it is used (as the builder
        expands it)."""
        stack: list[tuple[tuple, yaml.Node]] = [((), self.root)]
        while stack:
            path, node = stack.pop()
            yield path, node
            kind = type(node)
            if kind is _SEQ:
                stack.extend((path + (i,), child) for i, child in reversed(list(enumerate(node.value))))
            elif kind is _MAP:
                stack.extend((path + (k.value,), v) for k, v in reversed(node.value))


def _pos(node: yaml.Node) -> Pos:
    mark = node.start_mark
    return (mark.line + 1, mark.column + 1)


class ValuePositions(Positions):
    """path -> (line, col) of the value there."""

    def __init__(self, tree: NodeTree):
        self._tree = tree

    def get(self, path: tuple, default: Pos | None = None) -> Pos | None:  # type: ignore[override]
        node = self._tree.node(path)
        return default if node is None else _pos(node)

    def span(self, path: tuple) -> tuple[int, int, int, int] | None:
        """(line, col, end line, end col) of the value at `path`: where it starts, and the column just past it."""
        node = self._tree.node(path)
        if node is None:
            return None
        start, end = node.start_mark, node.end_mark
        return (start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def items_of(self, path: tuple, n: int) -> list[Pos | None]:
        """Positions of the first `n` items of the list at `path`, walking to it once."""
        node = self._tree.node(path)
        if node is None or type(node) is not _SEQ:
            return [None] * n
        found: list[Pos | None] = [_pos(child) for child in node.value[:n]]
        return found + [None] * (n - len(found))

    def __iter__(self) -> Iterator[tuple]:
        return (path for path, _node in self._tree.walk())


class KeyPositions(Positions):
    """path -> (line, col) of the mapping key that ends it."""

    def __init__(self, tree: NodeTree):
        self._tree = tree

    def get(self, path: tuple, default: Pos | None = None) -> Pos | None:  # type: ignore[override]
        if not path:
            return default
        parent = self._tree.node(path[:-1])
        found = self._tree.pair(parent, path[-1]) if type(parent) is _MAP else None
        return default if found is None else _pos(found[0])

    def __iter__(self) -> Iterator[tuple]:
        return (path for path, node in self._tree.walk() if path and type(self._tree.node(path[:-1])) is _MAP)
