"""Play again from the host: at game over ``POST /api/host/again`` (the host's token only) starts a
new game of the same game, seats, options and bots in a real ``tablelight play``; every phone keeps
its seat and token and its page moves to the new game; the finished game stays in the store."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tablelight.games.farlander.engine import Farlander
from tablelight.table.store import GameStore

from ..e2e.helpers import keep_screenshot


@dataclass
class Host:
    base: str
    token: str
    db: Path
    process: subprocess.Popen[str]

    def post(self, path: str, token: str | None = None, **headers: str) -> httpx.Response:
        sent = {"Origin": self.base, **headers}
        if token is not None:
            sent["X-Host-Token"] = token
        return httpx.post(f"{self.base}{path}", json={}, headers=sent, timeout=15)

    def join(self, seat: int) -> str:
        """Join ``seat`` with the code the host page shows: the device's token."""
        seats = httpx.get(f"{self.base}/api/host", headers={"X-Host-Token": self.token}, timeout=15).json()["seats"]
        code = next(s["code"] for s in seats if s["seat"] == seat)
        answer = httpx.post(f"{self.base}/api/join", json={"code": code}, headers={"Origin": self.base}, timeout=15)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["device"])

    def seat(self, seat: int, device: str) -> httpx.Response:
        return httpx.get(f"{self.base}/api/seat/{seat}", headers={"X-Seat-Token": device}, timeout=15)


def waited(check: Any, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("waited in vain")


@contextmanager
def hosting(tmp_path: Path, command: list[str] | None = None, db: Path | None = None, game_id: int = 1) -> Iterator[Host]:
    """``tablelight COMMAND --view web`` (default: ``play farlander`` for a person, seat 0 on its page,
    against a random bot, no board), found through the host page file it writes."""
    db = db or tmp_path / "g.sqlite"
    command = command or ["play", "farlander", "--seats", "human,random", "--board", "none", "--seed", "7"]
    process = subprocess.Popen(
        [sys.executable, "-m", "tablelight", *command, "--view", "web", "--web-port", "0", "--db", str(db)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    host_file = tmp_path / f"host-page-{game_id}.html"
    try:
        # the file is created before its address is written in it: wait for the address
        waited(lambda: (host_file.exists() and "url=" in host_file.read_text()) or process.poll() is not None)
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        address = re.search(r'url=([^"]+)"', host_file.read_text()).group(1).replace("&amp;", "&")  # type: ignore[union-attr]
        base, token = address.split("/?token=")
        yield Host(base, token, db, process)
    finally:
        process.terminate()
        process.wait(15)


def play_to_the_end(host: Host, device: str) -> dict[str, Any]:
    """Seat 0's page chooses at random until its snapshot says the game is over; the last snapshot."""
    pick = random.Random(3)
    for _ in range(2000):
        state = host.seat(0, device).json()
        if state["over"]:
            return dict(state)
        if not state["your_turn"] or not state["choices"]:
            time.sleep(0.01)
            continue
        choice = pick.choice(state["choices"])
        httpx.post(f"{host.base}/api/seat/0/act", json={"action": choice["action"], "at": state["at"]},
                   headers={"X-Seat-Token": device, "Origin": host.base}, timeout=15)
    raise AssertionError("the game did not end")


def test_the_host_plays_again_with_the_same_seats_and_devices(tmp_path: Path) -> None:
    with hosting(tmp_path) as host:
        device = host.join(0)
        # while the game runs: refused with one sentence, and nothing changes
        early = host.post("/api/host/again", host.token)
        assert early.status_code == 409 and early.json()["error"].startswith("the game is not over yet")
        last = play_to_the_end(host, device)
        assert last["result"]["headline"].endswith(("wins", "share the win"))
        # only the host may start the next game: a stranger, or a seat's own token, is refused
        assert host.post("/api/host/again").status_code == 403
        assert host.post("/api/host/again", device).status_code == 403
        assert host.post("/api/host/again", "x" * 32).status_code == 403
        assert host.seat(0, device).json()["over"]  # nothing started
        again = host.post("/api/host/again", host.token)
        assert again.status_code == 200, again.text
        assert again.json() == {"game": 2, "title": "game 2: farlander"}
        # the same device token, no new code: its page moves to the new game, whose log starts over
        fresh = waited(lambda: (state := host.seat(0, device).json()) and not state["over"] and state)
        assert "result" not in fresh and fresh["at"] < last["at"] and fresh["label"] == "red"
        assert all("game over" not in line for line in fresh["log"])
        assert httpx.get(f"{host.base}/api/host", headers={"X-Host-Token": host.token}, timeout=15).json()["seats"][0]["joined"]
        # a second "again" while the new game runs is refused: one new game per game over
        assert host.post("/api/host/again", host.token).status_code == 409
        # the new game is played: the seat's choice is taken with the token it joined with before
        state = waited(lambda: (s := host.seat(0, device).json())["your_turn"] and s)
        took = httpx.post(f"{host.base}/api/seat/0/act", json={"action": state["choices"][0]["action"], "at": state["at"]},
                          headers={"X-Seat-Token": device, "Origin": host.base}, timeout=15)
        assert took.status_code == 200, took.text
    with GameStore(host.db) as store:
        first, second = store.games()
        assert (first.id, first.status) == (1, "over") and (second.id, second.status) == (2, "playing")
        assert store.seats(2) == store.seats(1) == ["human", "random"]
        old, new = store.load(1), store.load(2)
        assert old.is_over() and not new.is_over()
        # --seed 7 chose the first game's seed: the second is 8, so each can be replayed on its own
        assert (old.seed, new.seed) == (7, 8)
        assert new.options == old.options and new.setup_record()["map"] == old.setup_record()["map"]
        assert store.settings(2) == store.settings(1)


def test_a_new_game_without_a_chosen_seed_gets_a_new_secret_one_on_the_same_map() -> None:
    from tablelight.cli.table_run import next_game

    first = Farlander(2, {"garrisons": False}, seed=11)
    second, third = next_game(first, None, 2), next_game(first, None, 3)
    assert len({first.seed, second.seed, third.seed}) == 3  # new secret seeds, not derived from the first
    assert second.options == first.options and second.setup_record()["map"] == first.setup_record()["map"]
    assert second.log == [] or not any("action" in entry for entry in second.log)
    assert next_game(first, 11, 2).seed == 12 and next_game(first, 2**63 - 1, 2).seed == 0


def one_move_from_the_end(db: Path) -> int:
    """Store a Farlander game of two people whose next action (seat 1's only choice) ends it; its id."""
    game, pick, actions = Farlander(2, seed=0), random.Random(0), []
    while not game.is_over():
        actions.append(pick.choice(game.legal_actions()))
        game.apply(actions[-1])
    almost = Farlander(2, seed=0)
    for action in actions[:-1]:
        almost.apply(action)
    assert almost.current_seat() == 1 and len(almost.legal_actions()) == 1
    with GameStore(db) as store:
        return store.create(almost, ["human", "human"])


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
CHROMIUM = "/usr/bin/chromium"


def test_the_pages_move_to_the_new_game_live_and_the_host_finds_play_again(tmp_path: Path) -> None:
    """On phones (Chromium, 390x844): the last move ends the game; the host's page, at phone size, shows
    "Play again" in its game-over panel; a tap starts the new game and the seat pages and the host
    page move to it without a reload (the panel goes, the log starts over, the heading names game 2)."""
    import os

    import pytest

    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)")
    db = tmp_path / "games.sqlite"
    game_id = one_move_from_the_end(db)
    with hosting(tmp_path, ["resume", str(game_id), "--board", "none"], db, game_id) as hosted:
        base, token = hosted.base, hosted.token
        links = [s["link"] for s in httpx.get(f"{base}/api/host", headers={"X-Host-Token": token}, timeout=15).json()["seats"]]
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            try:
                phones = [browser.new_context(**PHONE).new_page() for _ in range(2)]
                for page, link in zip(phones, links):
                    page.goto(link)
                    page.locator("#log li").first.wait_for()
                host = browser.new_context(**PHONE).new_page()
                host.goto(f"{base}/?token={token}")  # the host page file's address
                host.locator("#host:not([hidden])").wait_for()
                assert host.locator("#again").count() == 0  # no new game while this one runs
                for page in (*phones, host):
                    page.evaluate("window.notReloaded = true")
                phones[1].locator("#choices .choice").first.click()  # the last conquest
                for page in phones:
                    page.locator("#gameover").wait_for(timeout=15000)
                again = host.locator("#again")
                again.wait_for(timeout=15000)
                assert "game over" in host.locator("#gameover").inner_text().lower()
                # a player finds it: in the game-over panel, a full-width button at least 40 px high
                again.scroll_into_view_if_needed()
                box = again.bounding_box()
                assert box is not None and box["height"] >= 40 and box["width"] >= 300
                assert phones[0].locator("#again").count() == 0  # the seats' pages offer no new game
                shot = tmp_path / "play-again.png"
                host.screenshot(path=str(shot))
                keep_screenshot(shot, "play-again.png")
                old_log = phones[0].locator("#log li").count()
                again.click()
                host.locator("#title", has_text=f"game {game_id + 1}: farlander").wait_for(timeout=15000)
                for page in (*phones, host):
                    page.locator("#gameover").wait_for(state="detached", timeout=15000)
                    assert page.evaluate("window.notReloaded === true")  # moved live, not reloaded
                for page in phones:  # the new game's log starts over; the seats keep their devices
                    waited(lambda: page.locator("#log li").count() < old_log, timeout=15)
                    assert "join" not in page.url
                assert host.locator("#again").count() == 0
            finally:
                browser.close()
    with GameStore(db) as store:
        assert [(info.id, info.status) for info in store.games()] == [(game_id, "over"), (game_id + 1, "playing")]
        assert store.load(game_id + 1).seed != store.load(game_id).seed  # a new secret seed


def test_again_typed_at_the_terminal_starts_the_next_game(tmp_path: Path) -> None:
    """A person at the terminal (a real pty, live screen) types ``again``: refused with a word while the
    game runs; once the last move is typed, it starts the next game of the same seats."""
    from ..e2e.test_terminal_play import PtyScreen

    db = tmp_path / "games.sqlite"
    game_id = one_move_from_the_end(db)
    term = PtyScreen(["resume", str(game_id), "--board", "none", "--view", "both", "--web-port", "0", "--db", str(db)],
                     columns=120, rows=40)
    try:
        term.wait_for(r"blue: press")
        term.type("again\n")
        term.wait_for(r"the game is not over yet")
        term.type("?\n")
        term.wait_for(r"1\. ")
        term.type("1\n")
        term.wait_for(r"game over: \w+ wins")
        term.wait_for(r"for a new game with the\s+same seats, tap Play again on the host page or type again")
        term.type("again\n")
        term.wait_for(rf"game {game_id + 1}: a new game of farlander, the same seats \(human, human\)")
        term.wait_for(r"(red|blue): press a territory to place a unit")  # the new game's first prompt: its opening
        with GameStore(db) as store:
            assert [(info.id, info.status) for info in store.games()] == [(game_id, "over"), (game_id + 1, "playing")]
    finally:
        term.close()


def test_the_simulated_boards_keys_press_for_the_new_game(tmp_path: Path) -> None:
    """With the simulated board (the real firmware over a pty): after play again its keys play the new
    game (the old table's port is detached, a new one joined to the same board session)."""
    db = tmp_path / "games.sqlite"
    game_id = one_move_from_the_end(db)
    with hosting(tmp_path, ["resume", str(game_id), "--board", "sim"], db, game_id) as host:
        base, token = host.base, host.token
        devices = [host.join(0), host.join(1)]
        state = waited(lambda: (s := host.seat(1, devices[1]).json())["your_turn"] and s)
        httpx.post(f"{base}/api/seat/1/act", json={"action": state["choices"][0]["action"], "at": state["at"]},
                   headers={"X-Seat-Token": devices[1], "Origin": base}, timeout=15)
        waited(lambda: host.seat(0, devices[0]).json()["over"])
        assert host.post("/api/host/again", token).status_code == 200
        fresh = waited(lambda: (s := host.seat(0, devices[0]).json()) and not s["over"] and s)
        assert host.post("/api/press/0", token).status_code == 204  # key 0: a territory, empty in a new game
        placed = waited(lambda: [line for line in host.seat(0, devices[0]).json()["log"] if "places a unit in" in line])
        assert len(placed) == 1 and fresh["at"] < 10
    with GameStore(db) as store:
        new = store.load(game_id + 1)
        assert [entry["action"]["type"] for entry in new.log if "action" in entry] == ["place"]
