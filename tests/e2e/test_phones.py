"""Two phones join a Mainland game on the simulated board, in a real browser (Debian chromium).

``tablelight play mainland --seats human,human --board sim --view web`` runs as a user
would start it. Two phone-sized browser contexts open the two join links it prints: each
page shows its own hand and never the other's; seat 0 places its camp from its phone,
seat 1 from the board's keys (clicked on the host's board page, which presses the
simulated board's keys); the shared page and the terminal never show a hand. The
screenshot of a seat's page in the user guide is taken here; it goes to docs/img/seat-page.png
only with TABLELIGHT_UPDATE_SCREENSHOTS=1 (DEVELOPERS.md).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from .helpers import BROWSER_ARGS, CHROMIUM, PHONE, Hosted, keep_screenshot, wait_for

sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)", allow_module_level=True)


def two_seats(game: str, seed: str, tmp_path: Path) -> tuple[Hosted, list[str]]:
    """``tablelight play GAME`` for two people on the simulated board, once both join links are printed."""
    played = Hosted("play", game, "--seats", "human,human", "--seed", seed, "--board", "sim", "--view", "web", "--web-port", "0",
                    "--db", str(tmp_path / "games.sqlite"))
    try:
        wait_for(lambda: len(re.findall(r"join (http://\S+)", played.text())) >= 2 and "host page" in played.text(), timeout=30)
    except BaseException:
        played.stop()
        raise
    return played, re.findall(r"join (http://\S+)", played.text())


def host_page_url(played: Hosted) -> str:
    """The host page's address, from the owner's private file (the shared screen shows only its name)."""
    path = Path(re.search(r"host page .*: open (\S+) in your browser", played.text()).group(1))
    assert path.stat().st_mode & 0o777 == 0o600
    url = re.search(r'href="([^"]+)"', path.read_text()).group(1).replace("&amp;", "&")
    assert url.split("token=")[1] not in played.text()
    return url


def hand_of(page) -> list[str]:
    """The card ids in the hand section of a seat's page."""
    text = page.locator(".secret", has_text="hand").inner_text()
    return re.findall(r"(\w+\d+):", text)


def tap_until_done(page, rounds: int = 12) -> None:
    """Tap the first choice shown, step after step, until the seat's turn is over."""
    for _ in range(rounds):
        if page.locator("#turn-badge").is_hidden():
            return
        before = page.locator("#choices").inner_text()
        try:
            page.locator("#choices .choice").first.click(timeout=3000)
        except sync_api.TimeoutError:
            continue  # the list was redrawn under the tap: look again
        wait_for(lambda: page.locator("#turn-badge").is_hidden() or page.locator("#choices").inner_text() != before)
    page.locator("#turn-badge").wait_for(state="hidden")


def test_two_phones_play_mainland_and_keep_their_hands(tmp_path):
    played, links = two_seats("mainland", "5", tmp_path)
    try:
        host_url = host_page_url(played)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            try:
                phones = [browser.new_context(**PHONE).new_page() for _ in range(2)]
                for page, link in zip(phones, links):
                    page.goto(link)
                    page.locator(".secret").first.wait_for()
                hands = [hand_of(page) for page in phones]
                assert len(hands[0]) == len(hands[1]) == 5 and not set(hands[0]) & set(hands[1])
                for mine, theirs in ((0, 1), (1, 0)):
                    shown = phones[mine].content()
                    assert all(card in shown for card in hands[mine])
                    assert not any(card in shown for card in hands[theirs])

                # seat 0 places its camp from the phone: narrow the choices until one places it
                phone = phones[0]
                phone.locator("#turn-badge").wait_for()
                tap_until_done(phone)
                assert "places camp" in phone.locator("#log").inner_text()

                # seat 1 places its camp with the board's keys (the camp is chosen already; confirm)
                phones[1].locator("#turn-badge").wait_for()
                board = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
                board.goto(host_url)
                board.locator("#button-confirm.pressable").wait_for()
                board.click("#button-confirm")
                phones[1].locator("#turn-badge").wait_for(state="hidden")
                wait_for(lambda: phones[1].locator("#log").inner_text().count("places camp") == 2)
                phones[0].locator("#turn-badge").wait_for()

                # seat 0 now plays a card of its hand from the phone: both hands stay apart
                phone.locator("#choices .choice").first.wait_for()
                shot = tmp_path / "seat-page.png"
                phone.screenshot(path=str(shot))
                assert shot.read_bytes().startswith(b"\x89PNG")
                keep_screenshot(shot, "seat-page.png")
                tap_until_done(phone)
                wait_for(lambda: phones[1].locator("#turn-badge").is_visible())
                hands = [hand_of(page) for page in phones]
                for mine, theirs in ((0, 1), (1, 0)):
                    assert not any(card in phones[mine].content() for card in hands[theirs])
                shared = browser.new_context().new_page()
                shared.goto(host_url.split("?")[0])
                shared.locator("#log li").first.wait_for()
                public = shared.content() + board.content()
                terminal = played.text()
                for card in hands[0] + hands[1]:
                    assert card not in public and card not in terminal, card
            finally:
                browser.close()
    finally:
        played.stop()


def shows(text: str, hand: str) -> bool:
    """Whether ``text`` holds the words of ``hand`` ("wool 1") as such: a place named "wool 11" is not them."""
    return re.search(rf"(?<![\w]){re.escape(hand)}(?![\w])", text) is not None


def section(page, title: str) -> str:
    return page.locator(".secret", has_text=title).locator("p").inner_text()


def test_two_phones_play_landover_setup_and_keep_their_resources(tmp_path):
    played, links = two_seats("landover", "4", tmp_path)
    try:
        public_url = re.search(r"board page for everyone: (\S+)", played.text()).group(1)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            try:
                phones = [browser.new_context(**PHONE).new_page() for _ in range(2)]
                for page, link in zip(phones, links):
                    page.goto(link)
                    page.locator(".secret", has_text="resources").wait_for()
                # the opening: each seat builds a village and a road, twice, from its phone
                for _ in range(8):
                    if all(section(page, "resources") != "none" for page in phones):
                        break
                    wait_for(lambda: any(page.locator("#turn-badge").is_visible() for page in phones), timeout=10)
                    acting = next(page for page in phones if page.locator("#turn-badge").is_visible())
                    tap_until_done(acting)
                wait_for(lambda: all(section(page, "resources") != "none" for page in phones), timeout=10)
                resources = [section(page, "resources") for page in phones]
                for page in phones:
                    assert page.locator(".secret", has_text="development cards").count() == 1
                    assert page.locator(".secret").count() == 2  # its own resources and cards, nobody else's
                if resources[0] not in resources[1] and resources[1] not in resources[0]:  # "wool 1" is in "wool 1, wheat 1"
                    assert not shows(phones[0].content(), resources[1]) and not shows(phones[1].content(), resources[0])
                shared = browser.new_context().new_page()
                shared.goto(public_url)
                shared.locator("#log li").first.wait_for()
                for text in (shared.content(), played.text()):
                    assert "hand:" not in text and not shows(text, resources[0]) and not shows(text, resources[1])
            finally:
                browser.close()
    finally:
        played.stop()


def led_rgb(page, led: int) -> tuple[int, ...]:
    """The colour an LED of the page's board picture shows now."""
    fill = page.evaluate(f"document.getElementById('led-{led}').style.fill") or "rgb(0, 0, 0)"
    return tuple(int(v) for v in re.findall(r"\d+", fill)[:3])


def test_board_keys_and_a_phone_narrow_one_choice(tmp_path):
    """Rotate on the board's keys: the phone lists only the camp turned that way. Choose a column on
    the phone: the simulated board's LEDs show the card there. Then the phone places it."""
    from tablelight.table.layout import load_layout_data

    cells = load_layout_data("mainland")["matrix"]["leds"]
    played, links = two_seats("mainland", "5", tmp_path)
    try:
        host_url = host_page_url(played)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            try:
                phone = browser.new_context(**PHONE).new_page()
                phone.goto(links[0])
                phone.locator("#turn-badge").wait_for()

                def steps() -> list[str]:
                    return phone.locator("#choices .step").all_inner_texts()

                def listed() -> int:  # how many choices the steps stand for
                    return sum(int(m.group(1)) if (m := re.search(r"(\d+) choices", s)) else 1 for s in steps())

                wait_for(lambda: steps(), timeout=10)
                everything = listed()
                board = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
                board.goto(host_url)
                board.locator("#button-rotate.pressable").wait_for()
                board.click("#button-rotate")
        
                phone.locator("#crumbs", has_text="narrowed on the board").wait_for()
                wait_for(lambda: steps() and all(s.startswith("x ") for s in steps()) and listed() < everything, timeout=10)
                phone.locator("#choices .step", has=phone.locator("span", has_text=re.compile(r"^x 3$"))).click()
                feedback = phone.locator("#feedback", has_text=re.compile(r"camp at x3 y\d+, turned a quarter clockwise"))
                feedback.wait_for()
                y = int(re.search(r"camp at x3 y(\d+)", feedback.inner_text()).group(1))
                # the simulated board shows the card at the column chosen on the phone (blinking in green)
                led = cells[y][3]
                wait_for(lambda: (lambda r, g, b: g > max(r, b) + 40)(*led_rgb(phone, led)), timeout=10)
                wait_for(lambda: (lambda r, g, b: g > max(r, b) + 40)(*led_rgb(board, led)), timeout=10)
                tap_until_done(phone)
                log = phone.locator("#log").inner_text()
                assert re.search(r"places camp .*at x3 y\d+, turned a quarter clockwise", log), log
            finally:
                browser.close()
    finally:
        played.stop()
