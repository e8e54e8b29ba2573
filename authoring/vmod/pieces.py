"""Piece definitions decoded with VASSAL's own encodings (`authoring.vassal.codec`): the basic piece's
name and image, the face images of layers (`emb2`, and the older `emb`), prototypes flattened in."""
from __future__ import annotations

from dataclasses import dataclass, field

from authoring.vassal.codec import decode, parse_add_piece_command, unnest

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

    @property
    def faces(self) -> list[str]:
        """Face images: the first layer with two or more levels, else the basic piece's image."""
        for _, images, _ in self.layers:
            if len([i for i in images if i]) >= 2:
                return images
        for _, images, _ in self.layers:
            if any(images):
                return [next(i for i in images if i)]
        return [self.image] if self.image else []

    def face_layer(self) -> int | None:
        """Index in `layers` of the layer whose levels are the faces."""
        for index, (_, images, _) in enumerate(self.layers):
            if len([i for i in images if i]) >= 2:
                return index
        return None


def decode_piece(type_: str, state: str, prototypes: dict[str, str]) -> tuple[Piece, list[str]]:
    """(Piece, per-trait states outermost first). Raises ValueError on text that is no piece at all."""
    piece = Piece("", "")
    types = unnest(type_)
    states = unnest(state) if state else []
    states += [""] * (len(types) - len(states))
    _walk(piece, types, prototypes, 0)
    return piece, states[:len(types)]


def _walk(piece: Piece, types: list[str], prototypes: dict[str, str], depth: int) -> None:
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
        elif head == "mark":
            keys = decode(rest, ",") if rest else []
            for key in keys:
                piece.properties.setdefault(key, "")


def _prototype(piece: Piece, rest: str, prototypes: dict[str, str], depth: int) -> None:
    name = decode(rest, ";")[0]
    piece.prototypes.append(name)
    text = prototypes.get(name)
    if text is None or depth >= MAX_PROTOTYPE_DEPTH:
        piece.unknown_prototypes.append(name)
        return
    try:
        _, definition = parse_add_piece_command(text)
    except ValueError:
        piece.unknown_prototypes.append(name)
        return
    inner = unnest(definition.type)
    _walk(piece, inner[:-1] if inner and inner[-1].startswith("piece;") else inner, prototypes, depth + 1)


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


def face_level(piece: Piece, types: list[str], states: list[str]) -> int:
    """0-based face shown by a placed piece: the level state of its face layer (own traits only)."""
    index = piece.face_layer()
    if index is None:
        return 0
    layer_name = piece.layers[index][0]
    seen = 0
    for trait, state in zip(types, states):
        if trait.startswith("emb2;"):
            fields = decode(trait[5:], ";")
            name = fields[19] if len(fields) > 19 else ""
            if name == layer_name or seen == index:
                return _level(state)
            seen += 1
    return 0


def _level(state: str) -> int:
    try:
        value = int(state.split(";")[0])
    except ValueError:
        return 0
    return max(abs(value) - 1, 0)


def basic_state(states: list[str]) -> tuple[str, int, int]:
    """(map, x, y) from the innermost (basic piece) state `MAP;X;Y;GPID;...`."""
    fields = decode(states[-1], ";") if states else []
    fields += ["null", "0", "0"]
    try:
        return fields[0], int(float(fields[1])), int(float(fields[2]))
    except ValueError:
        return fields[0], 0, 0
