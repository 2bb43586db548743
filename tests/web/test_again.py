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
def hosting(tmp_path: Path) -> Iterator[Host]:
    """``tablelight play farlander`` for a person (seat 0, on its page) against a random bot, no board."""
    db = tmp_path / "g.sqlite"
    process = subprocess.Popen(
        [sys.executable, "-m", "tablelight", "play", "farlander", "--seats", "human,random", "--board", "none",
         "--view", "web", "--web-port", "0", "--seed", "7", "--db", str(db)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    host_file = tmp_path / "host-page-1.html"
    try:
        waited(lambda: host_file.exists() or process.poll() is not None)
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
