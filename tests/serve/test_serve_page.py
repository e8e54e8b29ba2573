"""`hexwright serve` in a real headless Chromium: the page draws every hex and set-up counter of the data,
hovering a hex shows its panel, and saving a data file updates the page by itself (a new finding on its
hex; a broken file as a located error over the last good view). Screenshots go to `SCREENS`."""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_support import SCREENS, Served, chrome, copy_game, wait_for

GAMES = [("bfm", "seven-turn"), ("1941", "campaign"), ("typhoon", "campaign")]


pytestmark = pytest.mark.slow  # the browser


@pytest.fixture(scope="module")
def driver():
    d = chrome()
    yield d
    d.quit()


def _model(root: Path, gid: str, sid: str):
    from authoring.load import discover, load_game

    files = next(g for g in discover(root) if g.id == gid)
    game = load_game(files).game
    return game, game.scenarios[sid]


def expected(game, scen) -> tuple[int, int]:
    """Hexes of the scenario's maps and set-up units on them (less those withdrawn by the first turn)."""
    from authoring.render.maps.scene import cells_of
    from authoring.serve.frame import scenario_maps

    cells = cells_of(scenario_maps(game, scen.maps))
    labels = {label for c in cells.values() for label in c.labels}
    first = scen.turns[0].turn if scen.turns else None
    gone = {u for w in scen.withdrawals if first is not None and w.turn <= first for u in w.units}
    units = sum(1 for p in scen.setup if p.label in labels for u in p.units if u not in gone)
    return len(cells), units


def _open(driver, served: Served, gid: str, sid: str) -> int:
    driver.get(served.url(f"/?game={gid}&scenario={sid}"))
    wait_for(driver, "document.body.dataset.gen && document.body.dataset.mapkey", 120)
    return int(driver.execute_script("return document.body.dataset.gen"))


def _count(driver, selector: str) -> int:
    return driver.execute_script(f"return document.querySelectorAll({selector!r}).length")


def _hover_hex(driver, label: str) -> str:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    poly = driver.find_element(By.CSS_SELECTOR, f'#hexes polygon[data-id="{label}"]')
    driver.execute_script(
        "arguments[0].scrollIntoView({block: 'center', inline: 'center'});"
        "document.getElementById('panel').textContent = '';",
        poly,
    )
    # the top of the hex, where its id is printed: a counter on the hex covers its centre
    ActionChains(driver).move_to_element_with_offset(poly, 0, -int(poly.rect["height"] * 0.38)).perform()
    return wait_for(
        driver,
        f"document.getElementById('panel').textContent.includes('Hex {label}') && "
        "document.getElementById('panel').textContent",
        10,
    )


def _coded_unit(game, scen):
    """A unit alone in its set-up hex whose counter's code names the most hexes, and the ids of those hexes."""
    from authoring.rules.board import build_board
    from authoring.rules.codes import code_target, parse

    board = build_board(game, scen)
    best = None
    for p in scen.setup:
        c = game.counters.get(p.units[0]) if len(p.units) == 1 else None
        m = parse(game, c.setup_code, c.side or p.side, c) if c is not None and c.setup_code else None
        target = code_target(board, m) if m is not None else None
        if target and (best is None or len(target) > len(best[1])):
            best = (c.id, {board.label(h) for h in target})
    return best


def _hover_counter(driver, unit: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    node = driver.find_element(By.CSS_SELECTOR, f'#counters .counter[data-unit="{unit}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", node)
    ActionChains(driver).move_to_element(node).perform()
    wait_for(driver, f"document.getElementById('panel').textContent.includes('Counter {unit}')", 10)


def _stack_spread(driver, label: str, click: bool = False) -> float:
    """How far apart the counters of a hex are drawn, in counter widths (after a click on the top one)."""
    from selenium.webdriver.common.by import By

    sel = f'#counters .counter[data-hex="{label}"]'
    if click:
        top = driver.find_elements(By.CSS_SELECTOR, sel)[-1]
        driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'});", top)
        top.click()
    boxes = [e.rect for e in driver.find_elements(By.CSS_SELECTOR, sel)]
    return (max(b["x"] for b in boxes) - min(b["x"] for b in boxes)) / (len(boxes) - 1) / boxes[0]["width"]


def _with_sets(game, scen):
    """A hex of the scenario with a feature and in a named hex set (the panel shows both)."""
    from authoring.rules.hexsets import HexSets
    from authoring.serve.frame import scenario_maps

    maps = scenario_maps(game, scen.maps)
    sets = HexSets(game.hex_sets, tuple(maps))
    for m in maps:
        for h in m.grid.hexes:
            info = m.hexes[h]
            names = [n for n in sets.names() if h in (sets.resolve(n) or ())]
            if info.features and names:
                return info, names
    raise AssertionError("no hex with a feature in a hex set")


@pytest.mark.parametrize("gid,sid", GAMES)
def test_page_draws_the_data_and_follows_saves(driver, tmp_path, gid, sid):
    root = copy_game(gid, tmp_path / "project")
    game, scen = _model(root, gid, sid)
    hexes, units = expected(game, scen)
    SCREENS.mkdir(exist_ok=True)
    with Served(root, gid) as served:
        try:
            _check_page(driver, served, root, game, scen, gid, hexes, units)
        finally:
            driver.get("about:blank")  # closes the event stream before the server stops


def _check_page(driver, served, root, game, scen, gid, hexes, units):
    gen = _open(driver, served, gid, scen.id)
    assert _count(driver, "#hexes .hex") == hexes
    assert _count(driver, "#counters .counter.setup") == units
    tiles = driver.execute_script(
        "return [...document.querySelectorAll('#maptiles image')].map(i => i.getAttribute('href'))"
    )
    w, h = driver.execute_script(
        "return [+document.getElementById('map').viewBox.baseVal.width, +document.getElementById('map').viewBox.baseVal.height]"
    )
    assert len(tiles) == -(-w // 256) * -(-h // 256) and all(t.startswith(f"/img/tile/{gid}/") for t in tiles)
    assert "passes every check" in driver.find_element("id", "findings").text  # the bundled set-ups are clean
    info, names = _with_sets(game, scen)
    panel = _hover_hex(driver, info.label)
    assert info.terrain[0] in panel and info.features[0].type in panel and names[0] in panel
    coded = _coded_unit(game, scen)
    if coded is not None:  # bfm's counters have no set-up codes
        unit, allowed = coded
        _hover_counter(driver, unit)
        assert _count(driver, "#hexes .allowed") == len(allowed)
        shown = set(
            driver.execute_script("return [...document.querySelectorAll('#hexes .allowed')].map(p => p.dataset.id)")
        )
        assert shown == allowed
    stack = next((p for p in scen.setup if len(p.units) > 1), None)
    if stack is not None:  # a click spreads a stack side by side
        assert _stack_spread(driver, stack.label) < 0.2 < _stack_spread(driver, stack.label, click=True)
    driver.save_screenshot(str(SCREENS / f"{gid}-map.png"))

    # Save: the first placement moved onto an enemy-held hex gives a finding on that hex.
    a = scen.setup[0]
    b = next(p for p in scen.setup if p.side != a.side)
    path = root / "scenarios" / gid / Path(a.loc.file).name
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    good = "".join(lines)
    lines[a.loc.line - 1] = lines[a.loc.line - 1].replace(f'"{a.label}"', f'"{b.label}"', 1)
    path.write_text("".join(lines), encoding="utf-8")
    wait_for(driver, f"+document.body.dataset.gen > {gen}", 60)
    found = driver.execute_script("return [...document.querySelectorAll('#findings li')].map(li => li.dataset.hex)")
    assert b.label in found
    assert _count(driver, "#badges .badge") >= 1
    driver.save_screenshot(str(SCREENS / f"{gid}-finding.png"))
    if gid == "typhoon":  # lean: the error path is the same code for every game
        _switch_scenarios(driver, game)
        return

    # A broken file: a located error on the page, the last good view kept under it.
    gen = int(driver.execute_script("return document.body.dataset.gen"))
    path.write_text(good.replace("setup:", "setup: [", 1), encoding="utf-8")
    wait_for(driver, f"+document.body.dataset.gen > {gen}", 60)
    errors = driver.find_element("id", "errors")
    assert errors.is_displayed() and f"scenarios/{gid}/{path.name}:" in errors.text
    assert _count(driver, "#hexes .hex") == hexes and _count(driver, "#counters .counter.setup") == units
    driver.save_screenshot(str(SCREENS / f"{gid}-error.png"))

    # Fixed again: the error goes, the view is the data's.
    gen = int(driver.execute_script("return document.body.dataset.gen"))
    path.write_text(good, encoding="utf-8")
    wait_for(driver, f"+document.body.dataset.gen > {gen}", 60)
    assert not driver.find_element("id", "errors").is_displayed()
    assert "passes every check" in driver.find_element("id", "findings").text


def test_drag_export_and_the_other_pages(driver, tmp_path):
    """bfm: a counter dragged onto an enemy hex exports a card whose findings say so (the data unchanged);
    the counters, charts and cards pages show every counter, chart and set-up card of the data."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    root = copy_game("bfm", tmp_path / "project")
    game, scen = _model(root, "bfm", "seven-turn")
    before = (root / "scenarios" / "bfm" / "seven-turn.yaml").read_bytes()
    with Served(root, "bfm") as served:
        try:
            _open(driver, served, "bfm", "seven-turn")
            driver.find_element(By.CSS_SELECTOR, "#sidepick option[value='soviet']").click()
            unit = driver.find_element(By.CSS_SELECTOR, '#counters .counter[data-unit="sov-29"]')
            target = driver.find_element(By.CSS_SELECTOR, '#hexes polygon[data-id="0103"]')
            ActionChains(driver).click_and_hold(unit).move_by_offset(5, 5).move_to_element(target).release().perform()
            wait_for(
                driver, "document.querySelector('#counters .counter[data-unit=\"sov-29\"]').dataset.hex === '0103'", 10
            )
            driver.find_element(By.ID, "exportbtn").click()
            wait_for(driver, "document.getElementById('exported').dataset.findings", 30)
            exported = driver.find_element(By.ID, "exported")
            assert "0103,sov-29,half" in driver.execute_script(
                "return document.querySelector('#exported textarea').value"
            )
            assert "HW-PLACE-003" in exported.text and int(exported.get_attribute("data-findings")) >= 1
            driver.execute_script("document.getElementById('exported').scrollIntoView()")
            driver.save_screenshot(str(SCREENS / "bfm-export.png"))
            assert (root / "scenarios" / "bfm" / "seven-turn.yaml").read_bytes() == before

            driver.get(served.url("/counters?game=bfm"))
            wait_for(driver, f"document.querySelectorAll('.card[data-unit]').length === {len(game.counters)}", 60)
            wait_for(driver, "[...document.images].every(i => i.complete && i.naturalWidth > 0)", 60)
            driver.save_screenshot(str(SCREENS / "bfm-counters.png"))
            driver.get(served.url("/charts?game=bfm"))
            charts = len(game.tables) + sum(1 for s in game.scenarios.values() if s.turns)
            wait_for(driver, f"document.querySelectorAll('.pages img').length === {charts}", 60)
            wait_for(driver, "[...document.images].every(i => i.complete && i.naturalWidth > 0)", 120)
            driver.save_screenshot(str(SCREENS / "bfm-charts.png"))
            driver.get(served.url("/cards?game=bfm"))
            cards = len(game.scenarios) * len(game.sides)
            wait_for(driver, f"document.querySelectorAll('.pages h3').length === {cards}", 120)
            wait_for(
                driver,
                f"document.querySelectorAll('.pages img').length >= {cards} && "
                "[...document.images].every(i => i.complete && i.naturalWidth > 1000)",
                120,
            )
            driver.save_screenshot(str(SCREENS / "bfm-cards.png"))
        finally:
            driver.get("about:blank")


def _pixel_left_of_centre(driver, label: str) -> tuple[int, int, int]:
    """The page's colour inside a hex, left of its centre (clear of its symbols, id and counters), from a
    screenshot of the page."""
    import io

    from PIL import Image

    box = driver.execute_script(
        'const p = document.querySelector(`#hexes polygon[data-id="${arguments[0]}"]`);'
        "p.scrollIntoView({block: 'center', inline: 'center'});"
        "const r = p.getBoundingClientRect(); return [r.x, r.y, r.width, r.height, window.devicePixelRatio];",
        label,
    )
    x, y, w, h, ratio = box
    shot = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    return shot.getpixel((round((x + 0.2 * w) * ratio), round((y + h / 2) * ratio)))


def test_a_map_save_redraws_that_hex_on_the_page(driver, tmp_path):
    """bfm: taking a hex out of its forest list turns it clear on the page (the screenshot's pixels), by
    swapping only the picture tiles that show it."""
    from PIL import ImageColor
    from serve_support import without_first_terrain

    from authoring.render.maps.style import map_style

    root = copy_game("bfm", tmp_path / "project")
    game, scen = _model(root, "bfm", "seven-turn")
    path = root / "maps" / "bfm" / "main.yaml"
    changed, label = without_first_terrain(path.read_text(encoding="utf-8"))
    style = map_style(game)
    was, now = (ImageColor.getrgb(style.terrain_look(t).color) for t in (_terrain_of(game, label), "clear"))
    with Served(root, "bfm") as served:
        try:
            gen = _open(driver, served, "bfm", scen.id)
            tiles = "return Object.fromEntries([...document.querySelectorAll('#maptiles image')].map(i => [i.dataset.at, i.dataset.tile]))"
            before, key = driver.execute_script(tiles), driver.execute_script("return document.body.dataset.mapkey")
            assert _near(_pixel_left_of_centre(driver, label), was)
            path.write_text(changed, encoding="utf-8")
            wait_for(driver, f"document.body.dataset.mapkey !== {key!r} && +document.body.dataset.gen > {gen}", 60)
            after = driver.execute_script(tiles)
            swapped = [at for at in after if after[at] != before.get(at)]
            assert 0 < len(swapped) < len(after) / 2 and after.keys() == before.keys()
            assert _near(_pixel_left_of_centre(driver, label), now)
            panel = _hover_hex(driver, label)  # the hex's panel changed in place with it
            assert "terrainclearfeatures" in panel and was != now
            driver.save_screenshot(str(SCREENS / "bfm-map-saved.png"))
        finally:
            driver.get("about:blank")


def _switch_scenarios(driver, game) -> None:
    """Choosing a scenario on other maps redraws every hex outline; choosing one back, those again (the page
    sends the key of the hexes it has, and gets changes only when they are the same hexes)."""
    from selenium.webdriver.support.ui import Select

    for scen in [*list(game.scenarios.values())[1:], next(iter(game.scenarios.values()))]:
        before = driver.execute_script("return document.body.dataset.updated")
        Select(driver.find_element("id", "scenario")).select_by_value(scen.id)
        wait_for(
            driver,
            f"document.body.dataset.updated !== {before!r} && document.body.dataset.scenario === {scen.id!r}",
            120,
        )
        hexes = {h for m in scen.maps for h in game.maps[m].grid.hexes}
        assert _count(driver, "#hexes .hex") == len(hexes), scen.id


def _terrain_of(game, label: str) -> str:
    return next(m.hexes[h].terrain[0] for m in game.maps.values() for h in m.grid.hexes if m.hexes[h].label == label)


def _near(got, want, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(got, want))
