"""Piece definitions decoded with VASSAL's own encodings (`authoring.vassal.codec`): the basic piece's
name and image, the face images of layers (`emb2`, and the older `emb`), prototypes flattened in."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from authoring.vassal.codec import decode, parse_add_piece_command, unnest
from authoring.vmod.numbers import whole

MAX_PROTOTYPE_DEPTH = 16


@dataclass
class Piece:
    """What an import keeps of one piece definition."""

    name: str
    image: str
    layers: list[tuple[str, list[str], list[str]]] = field(default_factory=list)
    """(layer name, images, level names) of each layer, outermost first."""
    properties: dict[str, str] = field(default_factory=dict)
    """Marker (`mark;`) properties, as the piece's static properties."""
    prototypes: list[str] = field(default_factory=list)
    traits: list[str] = field(default_factory=list)
    """The trait ids (`emb2`, `mark`, ...) outermost first, prototypes expanded."""
    unknown_prototypes: list[str] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    """Add-piece commands of the pieces its Place Marker and Replace traits make when written out in the
    trait (not a path to a palette slot): pieces that may be on the board though no slot defines them."""

    @property
    def faces(self) -> list[str]:
        """Face images when image sizes are unknown (`face_plan` without sizes)."""
        return face_plan(self).images


@dataclass(frozen=True)
class FacePlan:
    """A piece's faces: its own image and the non-blank levels of its flip or step layer."""

    images: list[str]
    names: list[str]
    """Level name of each face ("" for the piece's own image)."""
    layer: int | None
    """Index in `Piece.layers` of the flip or step layer, None when the piece has none."""
    by_level: dict[int, int]
    """Face index shown at each 1-based active level of that layer (a blank level shows the piece's image)."""


_FACE_WORDS = re.compile(r"step|flip|side|reduc|face|back|front|strength|rev", re.I)
"""Layer names that say the layer turns the counter over (used when image sizes cannot be compared)."""


def face_plan(piece: Piece, size_of: Callable[[str], tuple[int, int] | None] | None = None) -> FacePlan:
    """The faces of `piece`: its own image, then the images of its flip or step layer. A layer counts as one
    when its images are the size of the piece's own (a smaller one is an overlay: a number, an icon), or,
    sizes unknown, when its name says so; a piece without an image of its own shows its largest layer.
    Blank levels are no faces: the piece's own image shows through them."""

    def area(name: str) -> int:
        size = size_of(name) if size_of else None
        return size[0] * size[1] if size else 0

    layers = [(i, [im for im in images if im]) for i, (_, images, _) in enumerate(piece.layers)]
    layers = [(i, images) for i, images in layers if images]
    chosen = None
    if piece.image:
        base = size_of(piece.image) if size_of else None
        for i, images in layers:
            sizes = {size_of(im) for im in images} if size_of else {None}
            if (base is not None and sizes == {base}) or (None in sizes and _FACE_WORDS.search(piece.layers[i][0])):
                chosen = i
                break
    elif layers:
        chosen = max(layers, key=lambda item: (max(area(im) for im in item[1]), len(item[1]), -item[0]))[0]
    images = [piece.image] if piece.image else []
    names = [""] if piece.image else []
    by_level: dict[int, int] = {}
    if chosen is not None:
        _, level_images, level_names = piece.layers[chosen]
        for level, image in enumerate(level_images, 1):
            if not image:
                by_level[level] = 0
                continue
            if image not in images:
                images.append(image)
                names.append(level_names[level - 1] if level - 1 < len(level_names) else "")
            by_level[level] = images.index(image)
    return FacePlan(images, names, chosen, by_level)


class Prototypes:
    """A module's prototype texts by name, each parsed into its traits once (a module places thousands of
    pieces that use the same few prototypes)."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self._traits: dict[str, list[str] | None] = {}

    def traits(self, name: str) -> list[str] | None:
        """The prototype's traits outermost first (its basic piece left out), None when undefined or broken."""
        if name not in self._traits:
            self._traits[name] = self._parse(name)
        return self._traits[name]

    def _parse(self, name: str) -> list[str] | None:
        text = self.texts.get(name)
        if text is None:
            return None
        try:
            _, definition = parse_add_piece_command(text)
        except ValueError:
            return None
        inner = unnest(definition.type)
        return inner[:-1] if inner and inner[-1].startswith("piece;") else inner


def decode_piece(type_: str, state: str, prototypes: Mapping[str, str] | Prototypes) -> tuple[Piece, list[str]]:
    """(Piece, per-trait states outermost first). Raises ValueError on text that is no piece at all."""
    piece, _, states = decode_placed(type_, state, prototypes)
    return piece, states


def decode_placed(
    type_: str, state: str, prototypes: Mapping[str, str] | Prototypes
) -> tuple[Piece, list[str], list[str]]:
    """(Piece, own traits, their states), each string split once."""
    table = prototypes if isinstance(prototypes, Prototypes) else Prototypes(prototypes)
    piece = Piece("", "")
    types = unnest(type_)
    states = unnest(state) if state else []
    states += [""] * (len(types) - len(states))
    _walk(piece, types, table, 0)
    return piece, types, states[: len(types)]


def _walk(piece: Piece, types: list[str], prototypes: Prototypes, depth: int) -> None:
    for index, trait in enumerate(types):
        head, _, rest = trait.partition(";")
        innermost = index == len(types) - 1
        if head == "piece" and innermost:
            fields = decode(rest, ";")
            fields += [""] * (4 - len(fields))
            piece.image = piece.image or fields[2]
            piece.name = piece.name or fields[3]
            continue
        piece.traits.append(head)
        if head == "prototype":
            _prototype(piece, rest, prototypes, depth)
        elif head == "emb2":
            _layer2(piece, rest)
        elif head == "emb":
            _layer_old(piece, rest)
        elif head in _MAKERS:
            _marker(piece, rest)
        elif head == "mark":
            keys = decode(rest, ",") if rest else []
            for key in keys:
                piece.properties.setdefault(key, "")


def _prototype(piece: Piece, rest: str, prototypes: Prototypes, depth: int) -> None:
    name = decode(rest, ";")[0]
    piece.prototypes.append(name)
    traits = prototypes.traits(name) if depth < MAX_PROTOTYPE_DEPTH else None
    if traits is None:
        piece.unknown_prototypes.append(name)
        return
    _walk(piece, traits, prototypes, depth + 1)


_MAKERS = ("placemark", "replace")
"""Traits that put a new piece on the board: Place Marker, and Replace With Other (the same fields)."""


def _marker(piece: Piece, rest: str) -> None:
    """Place Marker: command name, key, then the marker, a palette slot's path or an add-piece command."""
    fields = decode(rest, ";")
    spec = fields[2] if len(fields) > 2 else ""
    if spec.startswith("+/") and spec not in piece.markers:
        piece.markers.append(spec)


def _layer2(piece: Piece, rest: str) -> None:
    """`emb2;`: images are field 15, level names 16, the layer's name 19 (see the format note)."""
    fields = decode(rest, ";")
    fields += [""] * (31 - len(fields))
    images = decode(fields[15], ",") if fields[15] else []
    names = decode(fields[16], ",") if fields[16] else []
    piece.layers.append((fields[19], images, names))


def _layer_old(piece: Piece, rest: str) -> None:
    """Pre-3.2 `emb;`: activate, key, up, down, xoff, yoff, then `image,name` pairs."""
    fields = decode(rest, ";")
    images, names = [], []
    for entry in fields[6:]:
        image, _, name = entry.partition(",")
        images.append(image)
        names.append(name)
    piece.layers.append(("", images, names))


def layer_level(piece: Piece, layer: int | None, types: list[str], states: list[str]) -> int:
    """The 1-based level of a placed piece's layer number `layer`, negative while the layer is inactive
    (VASSAL's Embellishment state; 0 when not found), from its own traits' states; a layer that comes from a prototype keeps its state in the `prototype` trait's place, so it is
    found by its name among the piece's own layers, else by its position."""
    if layer is None:
        return 0
    layer_name = piece.layers[layer][0]
    own = [(trait, state) for trait, state in zip(types, states) if trait.startswith(("emb2;", "emb;"))]
    for k, (trait, state) in enumerate(own):
        fields = decode(trait.partition(";")[2], ";")
        name = fields[19] if trait.startswith("emb2;") and len(fields) > 19 else ""
        if (layer_name and name == layer_name) or (not layer_name and k == layer):
            return _level(state)
    return 0


def _level(state: str) -> int:
    text = state.split(";")[0].strip()
    return int(text) if re.fullmatch(r"[-+]?[0-9]{1,9}", text) else 0


def basic_state(states: list[str]) -> tuple[str, int, int]:
    """(map, x, y) from the innermost (basic piece) state `MAP;X;Y;GPID;...`."""
    fields = decode(states[-1], ";") if states else []
    fields += ["null", "0", "0"]
    return fields[0], whole(fields[1], 0), whole(fields[2], 0)
