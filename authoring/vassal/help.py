"""The module's Help menu: a rules summary generated from the game's data, scenario notes, and the
designer's own HTML page when the game names one (`rules_summary`).

The generated page is written from data only (phases, stacking, tables, each scenario's turn
record, set-up, reinforcements and victory), in the project's words, citing the rulebook's
section references; it never quotes rulebook text.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType

from authoring.errors import BuildError
from authoring.model import Game, Option, Provenance, Scenario
from authoring.readfile import MAX_ART_BYTES, read_limited
from authoring.safepath import UnsafePath, resolve_inside
from authoring.vassal.turns import turn_label

RULES_SUMMARY = "Rules summary"
SCENARIOS = "Scenarios"
DESIGNER_NOTES = "Designer's notes"

e = html.escape

_STACKING = MappingProxyType(
    {
        "count": "At most {limit} unit(s) in a hex.",
        "points": "At most {limit} stacking points in a hex.",
    }
)


def help_source(game: Game) -> Path | None:
    """The designer's HTML page (relative to the game manifest), if the game names one.

    The loader already refused paths that leave the project; this is the second guard, at the
    one place that reads the file into a module that will be shared."""
    if not game.rules_summary:
        return None
    root = Path(game.root)
    base = root / "scenarios" / game.id
    try:
        path = resolve_inside(root, game.rules_summary, "rules summary", base=base)
    except UnsafePath as exc:
        raise BuildError(str(exc)) from None
    if not path.is_file():
        raise BuildError(f"rules summary {game.rules_summary!r} of game {game.id!r} not found next to its manifest")
    return path


def help_files(game: Game) -> tuple[dict[str, bytes], dict[str, str]]:
    """(archive file -> bytes, Help menu title -> archive file): generated summary, scenarios, designer's page."""
    files = {
        "rules_summary.html": rules_summary_html(game).encode("utf-8"),
        "scenarios.html": scenario_html(game).encode("utf-8"),
    }
    titles = {RULES_SUMMARY: "rules_summary.html", SCENARIOS: "scenarios.html"}
    source = help_source(game)
    if source is not None:
        name = "designer_notes" + source.suffix.lower()
        files[name] = read_limited(source, MAX_ART_BYTES)
        titles[DESIGNER_NOTES] = name
    return files, titles


def _page(title: str, body: Iterable[str]) -> str:
    return (
        "\n".join(
            [f"<html><head><title>{e(title)}</title></head><body>", f"<h1>{e(title)}</h1>", *body, "</body></html>"]
        )
        + "\n"
    )


def _items(texts: Iterable[str], ordered: bool = False) -> str:
    tag = "ol" if ordered else "ul"
    return f"<{tag}>" + "".join(f"<li>{t}</li>" for t in texts) + f"</{tag}>"


def _cite(game: Game, rule: str) -> str:
    return f" <i>({e(game.cite(rule))})</i>" if rule else ""


def setup_title(game: Game, scenario: Scenario) -> str:
    """A scenario's name in menus: its name, with its length when the name is just the game's."""
    if scenario.name.strip().casefold() == game.name.strip().casefold() and scenario.turns:
        return f"{scenario.name} ({len(scenario.turns)}-turn game)"
    return scenario.name


def _names(game: Game) -> dict[str, str]:
    """Ids a rule's parameters may name -> the names players read."""
    out = {c.id: c.display_name for c in game.counters.values()}
    for group in (game.terrain, game.hex_features, game.strength_states, game.unit_types, game.sides):
        out.update({t.id: t.name for t in group})
    return out


def _scenarios(game: Game) -> list[Scenario]:
    return [game.scenarios[k] for k in sorted(game.scenarios)]


def _unit(game: Game, cid: str) -> str:
    c = game.counters.get(cid)
    return e(c.display_name if c else cid)


def rules_summary_html(game: Game) -> str:
    """Sequence of play, stacking, tables, turn records, set-up, reinforcements and victory."""
    body = [
        f"<p>A reminder of how {e(game.name)} is organised, generated from the game's data; the "
        f"rulebook ({e(game.rules_ref or game.name)}) is the authority. Tables, turn records and set-up "
        "cards are in the <b>Charts</b> window; units waiting to enter are in the <b>Reinforcements</b> "
        "window; the <b>Turn</b> button steps through the loaded scenario's turns and phases.</p>"
    ]
    body += _representative(game)
    if game.phases:
        body += ["<h2>Sequence of play</h2>", _items((e(p) for p in game.phases), ordered=True)]
    body += _stacking(game)
    if game.tables:
        body += [
            "<h2>Tables</h2><p>In the Charts window, Tables tab:</p>",
            _items(f"{e(t.name)}{_cite(game, t.rule)}{_label(t.source)}" for t in game.tables),
        ]
    body += ["<h2>Turn record</h2>", _items(_turn_record_line(game, s) for s in _scenarios(game))]
    body += ["<h2>Set-up</h2>", _items(_setup_line(game, s) for s in _scenarios(game))]
    if game.setup_rules:
        body += [
            "<p>Set-up checks that apply to every scenario:</p>",
            _items(
                f"{e(_words(r.type))}{_params(r.params, _names(game))}{_cite(game, r.rule)}" for r in game.setup_rules
            ),
        ]
    body += _reinforcements(game)
    body += ["<h2>Victory</h2>", *_victory(game)]
    for s in _scenarios(game):
        body.append(f"<h3>{e(setup_title(game, s))}</h3>")
        body.append(_items(e(v.text) for v in s.victory) if s.victory else "<p>See the scenario notes.</p>")
    body.append("<p>Scenario notes are under Help, Scenarios.</p>")
    return _page(f"{game.name}: rules summary", body)


def _victory(game: Game) -> list[str]:
    """The game's victory conditions (game.yaml `victory`), each with its rule, and what the Victory window
    counts (empty when the data gives none)."""
    v = game.victory
    if not v:
        return []
    sides = {s.id: s.name for s in game.sides}

    def whose(side: str) -> str:
        return f"{e(sides[side])}: " if side in sides else ""

    out = []
    if v.conditions:
        out.append(_items(f"{whose(c.side)}{e(c.text)}{_cite(game, c.rule)}" for c in v.conditions))
    counted = [f"{e(t.name)}{_cite(game, t.rule)}" for t in v.points]
    for x in v.losses:
        how = "every elimination made, restored units included" if x.ever else "the units in the loss boxes now"
        marks = "; ".join(f"{n} or more: {e(what)}" for n, what in x.thresholds)
        counted.append(f"{e(x.name)} ({how}{'; ' + marks if marks else ''}){_cite(game, x.rule)}")
    if counted:
        out += ["<p>The <b>Victory</b> window keeps count of:</p>", _items(counted)]
    return out


def _label(source: Provenance) -> str:
    """The label of representative data after an item's name ('' for published and designer's data)."""
    return f" <b class='representative'>{e(source.label)}</b>" if source.representative else ""


def _representative(game: Game) -> list[str]:
    """A section naming the maps, tables and turn records whose data is representative, each with its label (none when no
    data is)."""
    named = [(m.name, m.source) for _, m in sorted(game.maps.items())] + [(t.name, t.source) for t in game.tables]
    named += [(f"Turn record: {setup_title(game, s)}", s.source) for s in _scenarios(game) if s.turns]
    found = [f"{e(name)}:{_label(source)}" for name, source in named if source.representative]
    if not found:
        return []
    return [
        "<h2>Representative data</h2><p>What each item below names (all of it, or the part it says) stands in for the "
        "published game's, which is not available; the charts and maps say so too.</p>",
        _items(found),
    ]


def _stacking(game: Game) -> list[str]:
    if game.stacking is None:
        return []
    params = dict(game.stacking.params)
    model = str(params.pop("model", game.stacking.type))
    params.pop("rule", None)
    text = (
        _STACKING.get(model, "").format(**params)
        if model in _STACKING
        else f"Stacking by {e(_words(model))}{_params(params, _names(game))}."
    )
    return ["<h2>Stacking</h2>", f"<p>{text}{_cite(game, game.stacking.rule)}</p>"]


def _words(ident: str) -> str:
    return ident.replace("-", " ").replace("_", " ")


def _params(params: Mapping[str, object], names: Mapping[str, str]) -> str:
    shown = [f"{_words(k)}: {_value(v, names)}" for k, v in params.items() if k not in ("rule", "note")]
    return f" ({e('; '.join(shown))})" if shown else ""


def _value(value: object, names: Mapping[str, str]) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{names.get(str(k), _words(str(k)))} {_value(v, names)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " / ".join(_value(v, names) for v in value)
    return names.get(str(value), str(value))


def _turn_record_line(game: Game, s: Scenario) -> str:
    if not s.turns:
        return f"{e(setup_title(game, s))}: no turn record."
    first, last = s.turns[0], s.turns[-1]
    weather = sorted({t.weather for t in s.turns if t.weather})
    text = f"<b>{e(setup_title(game, s))}</b>: {len(s.turns)} turns, {e(turn_label(first))} to {e(turn_label(last))}"
    if weather:
        text += f"; weather {e(', '.join(weather))}"
    return text + "." + _label(s.source)


def _setup_line(game: Game, s: Scenario) -> str:
    counts = []
    for side in game.sides:
        on_map = sum(len(p.units) for p in s.setup if p.side == side.id)
        off = sum(len(o.units) for o in s.off_map if o.side == side.id)
        pools = sum(len(p.units) for p in s.pools if p.side == side.id)
        parts = (
            [f"{on_map} on the map"]
            + ([f"{off} in off-map boxes"] if off else [])
            + ([f"{pools} in pools"] if pools else [])
        )
        counts.append(f"{e(side.name)} {', '.join(parts)}")
    maps = ", ".join(game.maps[m].name or m for m in s.maps if m in game.maps)
    return (
        f"<b>{e(setup_title(game, s))}</b> (maps: {e(maps)}): {'; '.join(counts)}. "
        "Load it from File, New Game; each side's set-up card is in the Charts window."
    )


def _reinforcements(game: Game) -> list[str]:
    out = ["<h2>Reinforcements and withdrawals</h2>"]
    for s in _scenarios(game):
        rows = [
            (
                r.turn,
                f"{e(game.side(r.side).name)}: {', '.join(_unit(game, u) for u in r.units)}"
                + (f" at {e(_words(r.at))}" if r.at else ""),
            )
            for r in s.reinforcements
        ]
        rows += [
            (w.turn, f"{e(game.side(w.side).name)} withdraws {', '.join(_unit(game, u) for u in w.units)}")
            for w in s.withdrawals
        ]
        out.append(f"<h3>{e(setup_title(game, s))}</h3>")
        if not rows:
            out.append("<p>None.</p>")
            continue
        out.append(
            "<table border='1' cellpadding='2'><tr><th>Turn</th><th>Arrives or leaves</th></tr>"
            + "".join(f"<tr><td>{t}</td><td>{text}</td></tr>" for t, text in sorted(rows, key=lambda r: r[0]))
            + "</table>"
        )
    return out


def scenario_html(game: Game) -> str:
    """Each scenario: description, turns, turn notes, options and victory."""
    parts = []
    for s in _scenarios(game):
        parts.append(f"<h2>{e(setup_title(game, s))}</h2><p>{e(s.description)}</p>")
        if s.turns:
            parts.append(
                f"<p>Turns {s.turns[0].turn}-{s.turns[-1].turn}: "
                f"{e(turn_label(s.turns[0]))} to {e(turn_label(s.turns[-1]))}.</p>"
            )
        notes = [f"Turn {t.turn}: {e(n)}" for t in s.turns for n in t.notes]
        if notes:
            parts += ["<h3>Turn notes</h3>", _items(notes)]
        if s.options:
            parts += ["<h3>Options</h3>", _items(_option(game, s, o) for o in s.options)]
        if s.victory:
            parts += ["<h3>Victory</h3>", _items(e(v.text) for v in s.victory)]
    return _page(f"{game.name}: scenarios", parts)


def _option(game: Game, s: Scenario, o: Option) -> str:
    """An option: its description, then what its effects change, as `hexwright check --option` applies them
    (set-up checks, turn values, options it brings) and what it leaves to the players."""
    fx, names = o.effects, _names(game)
    titles = {x.id: x.name for x in s.options}
    changes = [f"{e(_words(r.type))}{_params(r.params, names)}{_cite(game, r.rule)}" for r in fx.setup_rules]
    changes += [
        f"turns {e(', '.join(str(t) for t in c.turns) or 'all')}: {e(_value(dict(c.values), names))}"
        for c in fx.turn_values
    ]
    changes += [f"also on: {e(titles.get(w, w))}" for w in fx.with_options]
    changes += [f"played, not checked: {e(what)}" for what in fx.not_checked]
    return f"<b>{e(o.name)}</b>: {e(o.description)}" + (_items(changes) if changes else "")
