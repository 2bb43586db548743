"""A finger can tap every choice on the games' drawings (issue 21), in a real browser on emulated phones.

Pixel 7 and iPhone 13 (Playwright's descriptors, on Debian chromium): a seat to act joins with its code
at a position of each game where choices are on the drawing, and for every ``data-pick`` thing the
test measures its *tappable box*: the largest square whose every point, tapped, lands on that thing
(``document.elementFromPoint``, so a neighbour drawn over it or under the finger counts against it).
It must be 40 CSS px or more, either on the whole drawing or, when the thing is smaller there, in the
zoomed view that a real tap on it opens (``drawing.js``): that tap must zoom, not choose a neighbour.
No text of the drawing is under 12 CSS px, Landover's hex words stay inside their hexes, and every word
without a halo stands out from what is painted behind it (WCAG contrast 4.5 or more).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tablelight.core.game import Game
from tablelight.games.farlander.engine import Farlander
from tablelight.games.landover.engine import Landover
from tablelight.games.mainland.engine import Mainland

from ..e2e.test_drawings_e2e import BROWSER_ARGS, CHROMIUM, SMALLEST_TEXT, farside_game, landover_game, played, serving

sync_api = pytest.importorskip("playwright.sync_api")

FINGER = 40
PHONES = ("Pixel 7", "iPhone 13")

#: The tappable box of the index-th data-pick thing of the drawing, in CSS px, and its middle: the
#: largest square (searched around points of the thing) whose sampled points all hit the thing.
TAPPABLE_BOX = """index => {
  const node = document.querySelectorAll('#drawing [data-pick]')[index];
  const hits = (x, y) => {
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    const found = document.elementFromPoint(x, y);
    return !!found && found.closest('[data-pick]') === node;
  };
  const fits = (x, y, side) => {
    for (let i = 0; i <= 6; i++) for (let j = 0; j <= 6; j++)
      if (!hits(x - side / 2 + side * i / 6, y - side / 2 + side * j / 6)) return false;
    return true;
  };
  const box = node.getBoundingClientRect();
  let best = 0, at = null;
  for (let i = 0; i <= 6; i++) for (let j = 0; j <= 6; j++) {
    const x = box.left + box.width * (i + 0.5) / 7, y = box.top + box.height * (j + 0.5) / 7;
    if (!hits(x, y) || !fits(x, y, best + 1)) continue;
    let low = best + 1, high = Math.max(box.width, box.height) + 2;
    while (high - low > 0.5) { const mid = (low + high) / 2; if (fits(x, y, mid)) low = mid; else high = mid; }
    best = low; at = [x, y];
  }
  return {name: node.dataset.name, side: best, at};
}"""

#: Landover: each hex word (a resource, or "?") with whether its box lies inside its hex's outline
#: and whether a hex is painted after it (over it: it would cut the word).
HEX_WORDS = """() => {
  const hexes = [...document.querySelectorAll('#drawing [data-name^="hex "] > polygon')];
  return [...document.querySelectorAll('#drawing text')].filter(t => /^([a-z]+|[?])$/.test(t.textContent)).flatMap(word => {
    const box = word.getBBox();
    const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height], [box.x + box.width, box.y + box.height]]
      .map(([x, y]) => new DOMPoint(x, y));
    const middle = new DOMPoint(box.x + box.width / 2, box.y + box.height / 2);
    const hex = hexes.find(p => p.isPointInFill(middle));
    if (!hex || hex.getAttribute('fill') === '#a9d3ee') return [];  // a harbor's words, on the sea
    return [{word: word.textContent, inside: corners.every(c => hex.isPointInFill(c)),
             covered: hexes.some(p => word.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_FOLLOWING)}];
  });
}"""


@pytest.fixture
def browser() -> Iterator[Any]:
    import os

    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        try:
            yield launched, playwright.devices
        finally:
            launched.close()


def phone_page(browser: Any, phone: str, web: Any, seat: int) -> Any:
    """A phone (Playwright's descriptor, in chromium) that joined ``seat``, its choices drawn."""
    launched, devices = browser
    device = {k: v for k, v in devices[phone].items() if k != "default_browser_type"}
    page = launched.new_context(**device).new_page()
    page.goto(web.view.join_url)
    page.fill("#code", web.access.pass_of(seat).code)
    page.click("#join")
    page.locator("#drawing svg").wait_for()
    page.locator("#drawing [data-pick]").first.wait_for()
    return page


def whole_drawing(page: Any) -> None:
    if page.evaluate("TLDrawing.zoom || 1") > 1:
        page.locator(".drawing-whole").click()
        assert page.evaluate("TLDrawing.zoom || 1") == 1


def tappable_boxes(page: Any) -> dict[str, float]:
    """Every data-pick thing's tappable box (CSS px) where a finger reaches it: on the whole drawing,
    else in the view a tap on it zooms to (the tap must zoom, not choose)."""
    found: dict[str, float] = {}
    count = page.locator("#drawing [data-pick]").count()
    for index in range(count):
        whole_drawing(page)
        page.locator("#drawing [data-pick]").nth(index).scroll_into_view_if_needed()
        box = page.evaluate(TAPPABLE_BOX, index)
        assert box["at"] is not None, f"{box['name']}: no tap reaches it"
        if box["side"] < FINGER:  # too small here: a real tap on it zooms in
            before = page.locator("#choices").inner_text()
            page.touchscreen.tap(*box["at"])
            assert page.evaluate("TLDrawing.zoom || 1") > 1, f"{box['name']} ({box['side']:.0f} px): the tap did not zoom"
            assert page.locator("#choices").inner_text() == before  # nothing was chosen
            box = page.evaluate(TAPPABLE_BOX, index)
        found[box["name"]] = box["side"]
    whole_drawing(page)
    return found


def check_phone(page: Any) -> dict[str, float]:
    assert page.evaluate(SMALLEST_TEXT) >= 12
    boxes = tappable_boxes(page)
    small = {name: round(side) for name, side in boxes.items() if side < FINGER}
    assert boxes and not small, f"tap targets under {FINGER} px: {small}"
    return boxes


def landover_setup() -> Game:
    return Landover(2, seed=4)  # the first village: every free corner and its hex are choices


def farlander_game() -> Game:
    return played(Farlander(3, seed=7), 80)


POSITIONS: dict[str, Callable[[], Game]] = {
    "farlander": farlander_game,
    "landover-setup": landover_setup,
    "landover": landover_game,
    "farside": farside_game,
}


@pytest.mark.parametrize("phone", PHONES)
@pytest.mark.parametrize("name", list(POSITIONS))
def test_every_choice_on_the_drawing_is_a_finger_wide(browser: Any, phone: str, name: str) -> None:
    game = POSITIONS[name]()
    with serving(game) as (web, table):
        page = phone_page(browser, phone, web, game.current_seat())
        boxes = check_phone(page)
        if name == "landover-setup":
            assert any(n.startswith("corner ") for n in boxes)
        if name == "landover":
            assert any(n.startswith("side ") for n in boxes) and any(n.startswith("hex ") for n in boxes)
        if name.startswith("landover"):
            words = page.evaluate(HEX_WORDS)
            assert len(words) >= 20
            for word in words:  # every hex word inside its hex, no hex painted over it
                assert word["inside"] and not word["covered"], word


@pytest.mark.parametrize("phone", PHONES)
def test_mainland_cards_turns_and_spots_are_a_finger_wide(browser: Any, phone: str) -> None:
    game = played(Mainland(2, seed=5), 6, only="place")
    seat = game.current_seat()
    card = next(a["card"] for a in game.legal_actions() if a["type"] == "place")
    with serving(game) as (web, table):
        page = phone_page(browser, phone, web, seat)
        assert any(n.startswith("hand ") for n in check_phone(page))
        page.locator(f'#drawing [data-name="hand {card}"]').click()  # the card: its turns and spots are drawn
        page.locator("#drawing .spot").first.wait_for()
        boxes = check_phone(page)
        assert any(n.startswith("spot ") for n in boxes) and any(" turned " in n for n in boxes)


#: Each word of the drawing (no halo) with its ink and the colour drawn behind its middle, found by
#: painting the drawing without its words on a canvas.
INK_AND_GROUND = """async () => {
  const svg = document.querySelector('#drawing svg');
  const frame = svg.getBoundingClientRect();
  const rgb = colour => colour.match(/\\d+/g).slice(0, 3).map(Number);
  const words = [...svg.querySelectorAll('text')].filter(t => getComputedStyle(t).stroke === 'none').map(t => {
    const r = t.getBoundingClientRect();
    return {word: t.textContent, x: r.left + r.width / 2 - frame.left, y: r.top + r.height / 2 - frame.top,
            ink: rgb(getComputedStyle(t).fill)};
  });
  const bare = svg.cloneNode(true);
  bare.querySelectorAll('text').forEach(t => t.remove());
  bare.removeAttribute('style');
  bare.setAttribute('width', frame.width);
  bare.setAttribute('height', frame.height);
  const picture = new Image();
  picture.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(bare));
  await picture.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(frame.width);
  canvas.height = Math.ceil(frame.height);
  const paint = canvas.getContext('2d');
  paint.drawImage(picture, 0, 0, frame.width, frame.height);
  return words.map(w => ({...w, ground: [...paint.getImageData(Math.floor(w.x), Math.floor(w.y), 1, 1).data].slice(0, 3)}));
}"""


def contrast(a: list[int], b: list[int]) -> float:
    """The WCAG contrast ratio of two sRGB colours."""

    def luminance(colour: list[int]) -> float:
        linear = [(c / 255) / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("name", ["landover", "farside"])
def test_every_word_of_the_drawing_stands_out_from_what_is_behind_it(browser: Any, name: str) -> None:
    """Words without a halo are dark on the map and the cards, light on the drawing's dark ground."""
    game = POSITIONS[name]()
    with serving(game) as (web, table):
        page = phone_page(browser, "iPhone 13", web, game.current_seat())
        words = page.evaluate(INK_AND_GROUND)
        assert len(words) > 20
        faint = [(w["word"], round(contrast(w["ink"], w["ground"]), 1)) for w in words if contrast(w["ink"], w["ground"]) < 4.5]
        assert not faint, faint
