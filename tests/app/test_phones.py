"""Phones join a table that runs in a browser, over WebRTC data channels with no server, in headless
Chromium: a table page (the built app) and phone pages (seat.html, no Pyodide) on this machine.

Two phones join and play a whole Mainland game with hidden hands; no phone ever receives (on its
data channel, not only on its screen) a card of the other's hand or the other seat's secret; a
second phone with a held seat's code is refused, and so are a replayed answer code, a forged
secret, and the old code of a seat the table gave a new one; a phone that drops rejoins by the
same join code and sees its own hand again; a phone that cannot reach the table makes the table
say so in one sentence and offer pass and play. Every received message is recorded by a script
added to the phone's page before its own (``HEARD``)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import keep_screenshot

from .conftest import Served
from .test_browser import BROWSER_ARGS, CHROMIUM, Visit, browser, sync_api  # noqa: F401 (the browser fixture)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
#: Every message a page receives on any data channel, kept in window.__heard (text).
HEARD = """
(() => {
  window.__heard = [];
  const open = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = open.apply(this, args);
    channel.addEventListener("message", (event) => window.__heard.push(String(event.data)));
    return channel;
  };
})();
"""
#: The phone's kept side of its links (its certificate and ICE credentials) forgotten.
FORGET_KEPT_SIDE = """() => new Promise((resolve, reject) => {
  const deleting = indexedDB.deleteDatabase("tablelight-phone");
  deleting.onsuccess = () => resolve(true);
  deleting.onerror = () => reject(deleting.error);
  deleting.onblocked = () => reject(new Error("the phone's kept side is still open"));
})"""
#: The phones' pages a test opened (closed at its end).
OPEN_PHONES: list[Phone] = []


def close_phones() -> None:
    while OPEN_PHONES:
        OPEN_PHONES.pop().close()


class Table:
    """The table's page (one per module: Pyodide loads once) with a new Mainland game for two people."""

    def __init__(self, visit: Visit, seats: str = "human,human") -> None:
        self.visit = visit
        self.page = visit.page
        assert visit.state() == "ready", self.page.inner_text("#status")
        old = {seat: self.page.locator(f"#phone-list li[data-seat='{seat}'] code.join-url").all_text_contents()
               for seat in (0, 1)}
        self.page.evaluate("window.tablelight.phoneTimeoutMs = 0")
        self.visit.start("mainland", seats, seed=5, delay=0)
        for seat in (0, 1):  # the new game's codes, not the last one's
            self.page.wait_for_function("([seat, old]) => { const code = document.querySelector("
                                        "`#phone-list li[data-seat='${seat}'] code.join-url`);"
                                        " return code && !old.includes(code.textContent); }", arg=[seat, old[seat]],
                                        timeout=20_000)

    def join_url(self, seat: int) -> str:
        self.page.wait_for_selector(f"#phone-list li[data-seat='{seat}'] code.join-url", state="attached")
        return str(self.page.locator(f"#phone-list li[data-seat='{seat}'] code.join-url").text_content())

    def take(self, answer: str) -> str:
        """Paste a phone's answer code; what the phones panel says then."""
        self.page.fill("#answer-code", answer)
        self.page.evaluate("document.getElementById('phones-status').textContent = ''")
        self.page.click("#take-answer")
        self.page.wait_for_function("() => document.getElementById('phones-status').textContent !== ''")
        return self.said()

    def said(self) -> str:
        return str(self.page.inner_text("#phones-status"))

    def seat_state(self, seat: int) -> str:
        return str(self.page.get_attribute(f"#phone-list li[data-seat='{seat}']", "data-state"))

    def snapshot(self) -> dict[str, Any]:
        return dict(self.page.evaluate("window.tablelight.call('snapshot')"))

    def hand(self, seat: int) -> list[str]:
        return hand_in(self.snapshot(), seat)

    def close(self) -> None:
        """The phones' pages close (the table's page stays for the next test's game)."""
        close_phones()


@pytest.fixture(scope="module")
def table_page(browser: Any, served_app: Served) -> Iterator[Visit]:  # noqa: F811
    visit = Visit(browser, served_app.url)
    yield visit
    visit.context.close()


def hand_in(snapshot: dict[str, Any], seat: int) -> list[str]:
    view = snapshot["seats"][str(seat)]
    return [str(item).split(":")[0] for s in view["secrets"] if s["title"] == "hand" for item in s["items"]]


class Phone:
    """A phone's browser: it opens a seat's join link and shows its answer code."""

    def __init__(self, browser: Any, url: str) -> None:  # noqa: F811
        self.context = browser.new_context(**PHONE)
        OPEN_PHONES.append(self)
        self.context.add_init_script(HEARD)
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.requests: list[str] = []
        self.page.on("console", lambda message: self.console.append(message.text))
        self.page.on("pageerror", lambda error: self.console.append(f"error: {error}"))
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.page.goto(url)
        self.answer = self.wait_answer()

    def wait_answer(self) -> str:
        self.page.wait_for_selector("body[data-state=answer]", timeout=20_000)
        return str(self.page.inner_text("#answer-text"))

    def joined(self) -> None:
        try:
            self.page.wait_for_selector("body[data-state=joined] .secret", timeout=20_000)
        except sync_api.TimeoutError:
            raise AssertionError(f"the phone did not join: {self.page.get_attribute('body', 'data-state')}: "
                                 f"{self.page.inner_text('body')[:300]}") from None

    def heard(self) -> str:
        return "\n".join(self.page.evaluate("window.__heard"))

    def hand(self) -> list[str]:
        text = self.page.locator(".secret", has_text="hand").inner_text()
        return re.findall(r"(\w+\d+):", text)

    def close(self) -> None:
        if self in OPEN_PHONES:
            OPEN_PHONES.remove(self)
        self.context.close()


def join(table: Table, seat: int, browser: Any) -> Phone:  # noqa: F811
    phone = Phone(browser, table.join_url(seat))
    said = table.take(phone.answer)
    assert "connecting" in said or "joined" in said, said
    phone.joined()
    return phone


def found_in(text: str, cards: list[str]) -> list[str]:
    return [card for card in cards if re.search(rf"\b{re.escape(card)}\b", text)]


def secret_of(url: str) -> str:
    return url.split("#")[1].split(".")[2]


class Secrecy:
    """What each phone has received, against what only the other seat may know.

    Both clans' decks hold cards of the same names, so a card of the other seat's hand is checked
    only if this seat cannot know one of that name itself: never in its own secrets (checked after
    every move: a card drawn and put back in one move is seen) nor in the public log. Every state
    a phone received is its own seat's."""

    def __init__(self, table: Table, phones: dict[int, Phone], urls: dict[int, str]) -> None:
        self.table, self.phones, self.urls = table, phones, urls
        self.known: dict[int, set[str]] = {seat: set() for seat in phones}

    def observe(self, snapshot: dict[str, Any]) -> None:
        """Called after every move: the card names each seat may know of its own."""
        for seat in self.phones:
            self.known[seat] |= set(re.findall(r"\b[a-z]+\d+\b", json.dumps(snapshot["seats"][str(seat)]["secrets"])))

    def check(self) -> None:
        snapshot = self.table.snapshot()
        self.observe(snapshot)
        public = " ".join(snapshot["public"]["log"])
        hands = {seat: hand_in(snapshot, seat) for seat in self.phones}
        for seat, phone in self.phones.items():
            heard = phone.page.evaluate("window.__heard")
            text = "\n".join(heard) + phone.page.content()
            for message in map(json.loads, heard):
                assert set(message) in ({"welcome", "label", "listening"}, {"state"}, {"id", "answer"}), message
                assert message.get("welcome", seat) == seat and message.get("state", {"seat": seat})["seat"] == seat
            for other in self.phones:
                if other == seat:
                    continue
                theirs = [card for card in hands[other] if card not in self.known[seat] and card not in public]
                leaked = found_in(text, theirs)
                assert not leaked, [text[max(0, m.start() - 200):m.end() + 80] for m in re.finditer(leaked[0], text)]
                assert secret_of(self.urls[other]) not in text + phone.page.url


def test_two_phones_play_a_whole_mainland_game_and_keep_their_hands(browser: Any, table_page: Visit,  # noqa: F811
                                                                    tmp_path: Path) -> None:
    table = Table(table_page)
    try:
        urls = {seat: table.join_url(seat) for seat in (0, 1)}
        shot = tmp_path / "app-phones.png"
        assert table.page.is_visible("#phones-local")  # served on 127.0.0.1 here: the panel says phones cannot open it
        table.page.evaluate("document.getElementById('phones-local').hidden = true")  # the picture: a table phones reach
        table.page.locator("#phones").screenshot(path=str(shot))
        table.page.evaluate("document.getElementById('phones-local').hidden = false")
        keep_screenshot(shot, "app-phones.png")  # docs/img only with TABLELIGHT_UPDATE_SCREENSHOTS=1
        phones = {seat: join(table, seat, browser) for seat in (0, 1)}
        shot = tmp_path / "app-phone-seat.png"
        phones[0].page.screenshot(path=str(shot))
        keep_screenshot(shot, "app-phone-seat.png")
        assert table.seat_state(0) == table.seat_state(1) == "connected"
        assert "names this device only" in table.page.inner_text("#phones")
        assert table.page.get_attribute("body", "data-phones") in ("0,1", "1,0")
        for seat, phone in phones.items():
            assert sorted(phone.hand()) == sorted(table.hand(seat)) and phone.hand()
        assert set(phones[0].hand()).isdisjoint(phones[1].hand())  # seed 5: no card name in both hands
        secrecy = Secrecy(table, phones, urls)
        secrecy.check()
        # the table's screen no longer shows a hand: both seats are on their phones
        assert not found_in(table.page.inner_text("#table"), table.hand(0) + table.hand(1))

        moves = 0
        while not (snapshot := table.snapshot())["public"]["over"]:
            secrecy.observe(snapshot)
            if moves % 6 == 0:
                secrecy.check()
            page = phones[snapshot["public"]["turn"]].page
            page.wait_for_selector("#turn-badge:not([hidden])", timeout=10_000)
            for phone in phones.values():  # each player looks down at the log between moves
                phone.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            version = page.get_attribute("body", "data-version")
            before = page.inner_text("#choices")
            page.locator("#choices .choice").first.click()  # a whole choice, or a step towards one
            page.wait_for_function("([v, b]) => document.body.dataset.version !== v"
                                   " || document.getElementById('choices').innerText !== b", arg=[version, before],
                                   timeout=10_000)
            moves += 1
            assert moves < 200
        for phone in phones.values():
            phone.page.wait_for_selector("body[data-over=true] #gameover", timeout=10_000)
            # who won comes into view, wherever the phone was scrolled
            phone.page.wait_for_function("() => { const r = document.querySelector('#gameover .headline')"
                                         ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
                                         timeout=10_000)
        for phone in phones.values():  # the seat screen ran under the app's policy, with nothing from elsewhere
            assert not [line for line in phone.console if "Content Security Policy" in line or "error" in line], phone.console
            assert all(url.startswith(table.page.url.split("#")[0].rsplit("/", 1)[0]) for url in phone.requests)
            assert not any("pyodide" in url or url.endswith(".whl") for url in phone.requests)  # a phone loads no Pyodide
        table.page.wait_for_selector("body[data-over=true]", timeout=10_000)
        assert "game over" in table.page.inner_text("#turn")
        # the phones panel: both phones still joined (they show the result), no code or new code for a finished game
        table.page.locator("#phones-status", has_text="The game is over").wait_for(timeout=10_000)
        assert table.seat_state(0) == table.seat_state(1) == "connected"
        assert table.page.locator("#phone-list img.qr, #phone-list .new-code").count() == 0
        assert table.page.is_hidden("#phone-answer")
        record = table.page.evaluate("window.tablelight.call('record')")
        people = {entry["seat"] for entry in record["log"] if "action" in entry}
        assert people == {0, 1} and moves >= 20
        secrecy.check()
    finally:
        table.close()


def test_a_second_phone_and_a_replayed_answer_are_refused(browser: Any, table_page: Visit) -> None:  # noqa: F811
    table = Table(table_page)
    try:
        url = table.join_url(0)
        first = join(table, 0, browser)
        second = Phone(browser, url)
        said = table.take(second.answer)
        assert "refused" in said and "already has a phone connected" in said, said
        assert table.seat_state(0) == "connected"
        assert first.page.get_attribute("body", "data-state") == "joined"
        assert second.page.get_attribute("body", "data-state") == "answer"  # never joined

        # what a joined phone sends that is not a request, or a stale one, is answered and changes nothing
        actions = table.snapshot()["actions"]
        answers = first.page.evaluate("""async () => {
          const link = window.tablelightSeat.link;
          link.channel.send("null");
          link.channel.send(JSON.stringify({ id: 99, what: "jump", body: {} }));
          const stale = await link.send("act", { action: window.tablelightSeat.view.choices[0].action, at: 0 });
          const odd = await link.send("narrow", { chosen: "camp", at: 0 });
          await new Promise((resolve) => setTimeout(resolve, 100));
          return [stale, odd, window.__heard.filter((text) => text.includes('"id":99'))];
        }""")
        assert answers[0]["applied"] is False and "moved on" in answers[0]["message"], answers
        # a request of the wrong shape is refused as such (one parser, table/requests.py), never narrowed
        assert "error" in answers[1] and "narrowed" not in answers[1], answers
        assert answers[2] and "error" in answers[2][0]
        assert table.snapshot()["actions"] == actions and table.seat_state(0) == "connected"

        # the first phone goes; its old answer code, replayed, is refused
        answer = first.answer
        first.close()
        table.page.wait_for_selector("#phone-list li[data-seat='0'][data-state=waiting]", timeout=20_000)
        assert "comes back by itself, or shows a new code" in table.page.inner_text("#phone-list li[data-seat='0']")
        said = table.take(answer)
        assert "refused" in said and "used already" in said, said
        # the seat is free: the second phone, from the same join code, now joins
        assert "refused" not in table.take(second.answer)
        second.joined()
        assert sorted(second.hand()) == sorted(table.hand(0))
        assert "\n" not in said and "Traceback" not in said
    finally:
        table.close()


def test_a_phone_that_drops_rejoins_by_the_same_code_and_sees_its_own_hand_only(browser: Any,  # noqa: F811
                                                                                table_page: Visit) -> None:
    table = Table(table_page)
    try:
        urls = {seat: table.join_url(seat) for seat in (0, 1)}
        phone = join(table, 1, browser)
        hand = phone.hand()
        # the connection breaks (a network drop) and the phone has lost its kept side of the link (no
        # IndexedDB, say), so it cannot knock its way back (test_phone_rejoin.py): it shows a new answer
        # for the same join code, the fallback
        phone.page.evaluate(FORGET_KEPT_SIDE)
        phone.page.evaluate("window.tablelightSeat.link.side = null; window.tablelightSeat.link.pc.close()")
        answer = phone.wait_answer()
        assert answer != phone.answer and "lost" in phone.page.inner_text("#join-status")
        table.page.wait_for_selector("#phone-list li[data-seat='1'][data-state=waiting]", timeout=20_000)
        assert "refused" not in table.take(answer)
        phone.joined()
        assert phone.hand() == hand
        # the page is reloaded (its address keeps the join code): it rejoins again
        phone.page.evaluate(FORGET_KEPT_SIDE)
        phone.page.reload()
        answer = phone.wait_answer()
        table.page.wait_for_selector("#phone-list li[data-seat='1'][data-state=waiting]", timeout=20_000)
        assert "refused" not in table.take(answer)
        phone.joined()
        assert phone.hand() == hand
        heard = phone.heard() + phone.page.content()
        assert not found_in(heard, table.hand(0)) and secret_of(urls[0]) not in heard
        assert json.loads(phone.page.evaluate("window.__heard")[-1])["state"]["seat"] == 1
        # the table starts another game: the phone is told its code is spent (no new answer code)
        Table(table.visit)
        phone.page.wait_for_selector("body[data-state=ended]", timeout=10_000)
        assert "another game" in phone.page.inner_text("#join-status") and phone.page.is_hidden("#answer")
    finally:
        table.close()


def forged(url: str, secret: str = "", seat: str = "") -> str:
    head, code = url.split("#")
    fields = code.split(".")
    fields[1] = seat or fields[1]
    fields[2] = secret or fields[2]
    return f"{head}#{'.'.join(fields)}"


def test_a_forged_or_old_code_is_refused(browser: Any, table_page: Visit) -> None:  # noqa: F811
    table = Table(table_page)
    try:
        url0, url1 = table.join_url(0), table.join_url(1)
        # seat 0's connection with seat 1's secret, and with seat 1's number: the table refuses both
        for url in (forged(url0, secret=secret_of(url1)), forged(url0, seat="1", secret=secret_of(url1))):
            phone = Phone(browser, url)
            table.take(phone.answer)
            phone.page.wait_for_selector("body[data-state=refused]", timeout=20_000)
            assert "refused this phone" in phone.page.inner_text("#join-status")
            assert not phone.heard().count('"state"') and not phone.page.locator(".secret").count()
            table.page.wait_for_selector("#phone-list li[data-seat='0'][data-state=waiting]", timeout=20_000)
            assert "refused" in table.page.inner_text("#phone-list li[data-seat='0']")
            phone.close()
        # the table gives seat 0 a new code: a phone with the old one (a stolen copy) is refused
        holder = join(table, 0, browser)
        table.page.click("#phone-list li[data-seat='0'] .new-code")
        table.page.wait_for_function("u => { const c = document.querySelector(\"#phone-list li[data-seat='0'] code\");"
                                     " return c && c.textContent !== u; }", arg=url0)
        holder.page.wait_for_selector("body[data-state=answer]", timeout=20_000)
        said = table.take(holder.wait_answer())
        assert "refused" in said and "another table or an earlier game" in said, said
        fresh = join(table, 0, browser)
        assert table.seat_state(0) == "connected" and fresh.hand() == table.hand(0)
    finally:
        table.close()


def test_a_phone_that_cannot_reach_the_table_is_told_and_pass_and_play_is_offered(browser: Any,  # noqa: F811
                                                                                   table_page: Visit) -> None:
    table = Table(table_page)
    try:
        table.page.evaluate("window.tablelight.phoneTimeoutMs = 3000")
        fields = table.join_url(1).split("#")[1].split(".")
        # an answer whose only address nobody listens on (127.0.0.1 port 9): as behind client isolation
        unreachable = f"A1.{fields[3]}.abcd.{'p' * 24}.{fields[5]}.h4fwAAAQ9"
        assert "refused" not in table.take(unreachable)
        table.page.wait_for_selector("#phones-failed:not([hidden])", timeout=20_000)
        sentence = table.page.inner_text("#phones-failed-words")
        assert sentence.count(".") == 1 and "pass and play" in sentence and "network" in sentence
        table.page.click("#pass-and-play")
        assert "pass and play" in table.said() and not table.page.locator("#phone-list li").count()
        table.page.wait_for_selector("#cover:not([hidden])")  # the screen goes round, hands covered
    finally:
        table.close()


#: The phone's answer QR code drawn on a white square, as gray levels (a camera's picture of it).
ANSWER_PICTURE = """async () => {
  const img = document.getElementById("answer-qr");
  await img.decode();
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 480;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, 480, 480);
  context.imageSmoothingEnabled = false;
  context.drawImage(img, 40, 40, 400, 400);
  const rgba = context.getImageData(0, 0, 480, 480).data;
  return Array.from({ length: 480 * 480 }, (_, i) => rgba[4 * i]);
}"""


def test_the_tables_camera_reads_a_phones_answer_code(browser: Any, served_app: Served,  # noqa: F811
                                                      tmp_path: Path) -> None:
    """Chromium's fake camera plays a video file (read when the camera opens): the phone's QR code."""
    video = tmp_path / "answer.y4m"
    args = [*BROWSER_ARGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]
    camera_browser = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
    try:
        visit = Visit(camera_browser, served_app.url)
        visit.context.grant_permissions(["camera"])
        table = Table(visit)
        phone = Phone(camera_browser, table.join_url(1))
        gray = bytes(phone.page.evaluate(ANSWER_PICTURE))
        frame = b"FRAME\n" + gray + bytes([128]) * (len(gray) // 2)  # 4:2:0, no colour
        video.write_bytes(b"YUV4MPEG2 W480 H480 F10:1 Ip A1:1 C420jpeg\n" + frame * 3)
        table.page.click("#phone-scan")
        phone.joined()
        table.page.locator("#phones-status", has_text="joined").wait_for(timeout=10_000)  # said after the phone's first screen
        assert table.seat_state(1) == "connected"
        reader = table.page.evaluate("'BarcodeDetector' in window ? 'BarcodeDetector' : 'jsQR'")
        assert reader == "BarcodeDetector" or any(url.endswith("vendor/jsQR.js") for url in visit.requests)
        assert not visit.page.is_visible("#phone-camera")  # the camera is put away
    finally:
        close_phones()
        camera_browser.close()


@pytest.mark.parametrize("code, why", [("J1.0.x", "not a seat's join code"), ("hello", "not a seat's join code")])
def test_a_damaged_join_link_says_so(browser: Any, served_app: Served, code: str, why: str) -> None:  # noqa: F811
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{served_app.url}seat.html#{code}")
        page.wait_for_selector("body[data-state=error]", timeout=10_000)
        assert why in page.inner_text("#join-status") and "\n" not in page.inner_text("#join-status")
    finally:
        context.close()
