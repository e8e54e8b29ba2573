"""docs/format.md, generated from schemas/*.schema.json so the reference can never drift from them.

Every property's `title` and `description` become one table row; `$ref`s to shared types and to
rule parameters become links to their own sections. `render()` is deterministic (schema order).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from authoring.load.schemas import KINDS, SCHEMA_DIR

WHERE = MappingProxyType(
    {
        "game": "`scenarios/<game>/game.yaml` (one per game: the manifest)",
        "map": "`maps/<game>/<map>.yaml` (one per map)",
        "counters": "`counters/<game>/*.yaml`, or `counters/<game>/*.csv` (see [Counters as CSV](#counters-csv))",
        "tables": "`scenarios/<game>/tables.yaml` (charts: CRT, TEC, schedules...)",
        "scenario": "`scenarios/<game>/<scenario>.yaml` (one per scenario)",
        "setup-card": "anywhere (YAML or CSV); used by `hexwright check --card` and `hexwright import-setup`",
    }
)
_SCALARS = frozenset({"string", "integer", "number", "boolean"})


@dataclass(frozen=True)
class Row:
    path: str
    type: str
    required: bool
    text: str


def load_schemas(folder: Path = SCHEMA_DIR) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.schema.json"))}


def _anchor(file: str, name: str) -> str:
    return f"{file.split('.')[0]}-{name}".lower()


def _ref_link(ref: str, here: str, schemas: dict) -> str:
    file, _, pointer = ref.partition("#")
    file = file or here
    name = pointer.rsplit("/", 1)[-1]
    target = schemas[file]["$defs"][name]
    return f"[{target.get('title', name).lower()}](#{_anchor(file, name)})"


def _type(node: dict, here: str, schemas: dict) -> str:
    if "$ref" in node:
        return _ref_link(node["$ref"], here, schemas)
    if "const" in node:
        return f"always `{node['const']}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{v}`" for v in node["enum"])
    alts = node.get("anyOf") or node.get("oneOf")
    if alts:
        return " or ".join(dict.fromkeys(_type(a, here, schemas) for a in alts))
    t = node.get("type", "any")
    if isinstance(t, list):
        return " or ".join(t)
    if t == "array":
        items = node.get("items", {})
        return f"list of {_type(items, here, schemas)}" if items else "list"
    if t == "object":
        return _mapping(node)
    return t


def _mapping(node: dict) -> str:
    """A mapping named by what tells it apart: its title, else the keys it requires or has."""
    if node.get("title"):
        return f"mapping ({node['title'].lower()})"
    keys = list(node.get("required", ())) or list(node.get("properties", {}))[:3]
    return f"mapping with {', '.join(f'`{k}`' for k in keys)}" if keys else "mapping"


def _extra(node: dict) -> str:
    bits = []
    for key, label in (("minimum", "min"), ("maximum", "max"), ("default", "default")):
        if key in node and not (key == "default" and "default" in node.get("description", "")):
            bits.append(f"{label} {json.dumps(node[key])}")
    if "minItems" in node:
        bits.append(f"at least {node['minItems']} item{'' if node['minItems'] == 1 else 's'}")
    if "x-form" in node:
        bits.append(f"written as {node['x-form'].partition(': ')[2]}")
    return f" ({'; '.join(bits)})" if bits else ""


def _text(node: dict) -> str:
    title, desc = node.get("title", ""), node.get("description", "")
    text = f"**{title}.** {desc}" if title and desc else title or desc
    return (text + _extra(node)).replace("|", "\\|").replace("\n", " ")


def rows(node: dict, path: str, here: str, schemas: dict) -> list[Row]:
    """Rows for the children of `node` (an object, a list or a map), depth first, in schema order."""
    out: list[Row] = []
    required = set(node.get("required", ()))
    for name, child in node.get("properties", {}).items():
        p = f"{path}.{name}" if path else name
        out.append(Row(p, _type(child, here, schemas), name in required, _text(child)))
        out += rows(child, p, here, schemas)
    if node.get("type") == "array" and isinstance(node.get("items"), dict) and "$ref" not in node["items"]:
        out += rows(node["items"], f"{path}[]", here, schemas)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and "$ref" not in extra:
        key = _key_name(node)
        p = f"{path}.<{key}>"
        out.append(
            Row(p, _type(extra, here, schemas), False, _text(extra) or f"One entry per {key.replace('-', ' ')}.")
        )
        out += rows(extra, p, here, schemas)
    for i, alt in enumerate(node.get("anyOf", ()) or node.get("oneOf", ()), start=1):
        if "$ref" not in alt and (alt.get("properties") or alt.get("items") or alt.get("additionalProperties")):
            out += [Row(r.path, r.type, r.required, f"*(form {i})* {r.text}") for r in rows(alt, path, here, schemas)]
    return out


_SMALL_WORDS = frozenset({"a", "an", "and", "of", "or", "the"})


def _key_name(node: dict) -> str:
    """The placeholder a mapping's keys are shown by (`<size-id>`): the keys' own title, else the words
    before `->` in its description (asides in brackets and small words left out), else `name`."""
    names = node.get("propertyNames", {})
    if "enum" in names:
        return "|".join(names["enum"])
    head = names.get("title", "")
    if not head and "->" in node.get("description", ""):
        head = node["description"].split("->")[0]
    words = [w for w in re.findall(r"[a-z0-9]+", re.sub(r"\([^)]*\)", " ", head.lower())) if w not in _SMALL_WORDS]
    return "-".join(words[-2:]) if words else "name"


def table(items: list[Row]) -> list[str]:
    if not items:
        return []
    lines = ["| Field | Type | Req. | Meaning |", "|---|---|---|---|"]
    lines += [f"| `{r.path}` | {r.type} | {'yes' if r.required else ''} | {r.text} |" for r in items]
    return lines + [""]


def _kind_section(kind: str, schemas: dict) -> list[str]:
    file = f"{kind}.schema.json"
    s = schemas[file]
    out = [
        f'<a id="kind-{kind}"></a>',
        f"## `kind: {kind}` — {s.get('title', kind)}",
        "",
        f"{s.get('description', '')}",
        "",
        f"Where: {WHERE.get(kind, '')}. Schema: `schemas/{file}`.",
        "",
    ]
    return out + table(rows(s, "", file, schemas))


def _defs_section(file: str, heading: str, intro: str, schemas: dict) -> list[str]:
    s = schemas[file]
    out = [f"## {heading}", "", intro, ""]
    for name, node in s.get("$defs", {}).items():
        out += [
            f'<a id="{_anchor(file, name)}"></a>',
            f"### {node.get('title', name)} (`{name}`)",
            "",
            node.get("description", ""),
            "",
        ]
        shape = _type(node, file, schemas)
        if node.get("type") not in ("object", None) or "anyOf" in node or "oneOf" in node:
            out += [f"Type: {shape}{_extra(node)}.", ""]
        variants = [c["then"]["$ref"] for c in node.get("allOf", ()) if "$ref" in c.get("then", {})]
        if variants:
            out += ["Parameters by type: " + ", ".join(_ref_link(v, file, schemas) for v in variants) + ".", ""]
        out += table(rows(node, "", file, schemas))
    return out


def _csv_section(schemas: dict) -> list[str]:
    counter = schemas["counters.schema.json"]["properties"]["counters"]["items"]
    cols = [n for n, c in counter["properties"].items() if _is_scalar(c, schemas) or n in ("flags", "marker")]
    card = schemas["setup-card.schema.json"]["properties"]["entries"]["items"]["properties"]
    return [
        '<a id="counters-csv"></a>',
        "## Counters as CSV",
        "",
        "A counter manifest may be a spreadsheet saved as CSV (`counters/<game>/*.csv`, `*.tsv`, or Excel's "
        '"Unicode Text" `*.txt`), one counter per row, as any spreadsheet program saves it: comma, semicolon or tab '
        "separated; UTF-8 with or without a "
        'byte-order mark, UTF-16 with one (Excel\'s "Unicode text"), or, in a file that is not UTF-8, '
        'Windows-1252 or Mac Roman (Excel\'s "CSV" on Windows and on a Mac: read with a note, HW-IO-004, saying '
        "which). The first row names the columns (any order, any case: `Setup code` is `setup_code`; an empty "
        "cell is absent); empty columns after the last named one, and empty rows, are ignored. "
        "Columns: "
        + ", ".join(f"`{c}`" for c in cols)
        + "; `flags` separates ids with `|`; and one column per printed value of each face, named "
        "`<state>.<value>` (e.g. `full.attack`, `half.movement`). Each column means the same as the field "
        "of [`kind: counters`](#kind-counters).",
        "",
        "A workbook (`counters/<game>/*.xlsx`, `*.ods`) is read from its first sheet, as its CSV would be, each "
        "cell as the sheet shows it: a text cell as written (`0304` keeps its zero), a number as its number "
        "format shows it (`0000` shows 304 as `0304`; General and fixed decimals too, any other format is read "
        "as the plain number), a date as `2026-12-06`. A finding names the row "
        "and column, and the cell (`Counters!M3`).",
        "",
        '<a id="setup-card-csv"></a>',
        "## Set-up cards as CSV",
        "",
        f"Columns `hex,unit,state` (optionally `note`), one unit per row; consecutive rows with the same hex and "
        f"state form one placement. `hex`: {card['hex'].get('description', '')} `state`: "
        f"{card['state'].get('description', '')} Made by `hexwright export-setup` and read by "
        '`hexwright import-setup` and `hexwright check --card` (as `.csv`, Excel\'s "Unicode text" `.txt`, or a '
        "workbook `.xlsx` or `.ods`), saved as for counters above; `export-setup --out CARD.xlsx` writes a workbook "
        "whose unit and hex cells offer drop-down lists. Format the hex column as text in your spreadsheet, or it drops leading "
        "zeros (0301 becomes 301): a column that lost them is one finding that names its rows.",
        "",
    ]


def _is_scalar(node: dict, schemas: dict) -> bool:
    if "$ref" in node:
        file, _, pointer = node["$ref"].partition("#")
        node = schemas[file or "common.schema.json"]["$defs"][pointer.rsplit("/", 1)[-1]]
    t = node.get("type")
    return set(t) <= _SCALARS if isinstance(t, list) else t in _SCALARS


def render(schemas: dict | None = None) -> str:
    """The whole reference as Markdown."""
    schemas = schemas or load_schemas()
    out = [
        "# hexwright data format",
        "",
        "<!-- Generated from schemas/*.schema.json by `hexwright docs format --write`. Do not edit by hand: "
        "change the schema's title/description and regenerate (a test compares). -->",
        "",
        "Every data file is YAML (UTF-8) with a top-level `kind:` key; unknown keys are errors and every "
        'mapping may carry `note:` (free text). Hex ids are written as printed (`0201` stays "0201"). '
        "Start a data file with `# yaml-language-server: $schema=../../schemas/<kind>.schema.json` and "
        "YAML-aware editors complete and check it as you type.",
        "",
        "| Kind | File | Section |",
        "|---|---|---|",
    ]
    out += [f"| `{k}` | {WHERE[k]} | [kind: {k}](#kind-{k}) |" for k in KINDS]
    out += [""]
    for kind in KINDS:
        out += _kind_section(kind, schemas)
    out += _csv_section(schemas)
    out += _defs_section(
        "rules.schema.json", "Rule parameters", schemas["rules.schema.json"].get("description", ""), schemas
    )
    out += _defs_section(
        "common.schema.json", "Common value types", schemas["common.schema.json"].get("description", ""), schemas
    )
    return "\n".join(out).rstrip() + "\n"


def doc_path(root: Path) -> Path:
    """The format reference of the project at `root` (never hexwright's own folder by default)."""
    return root / "docs" / "format.md"
