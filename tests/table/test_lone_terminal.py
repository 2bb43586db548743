"""The terminal as a lone person's own screen: ``tablelight play GAME --seats human,random --board sim``
on a real pty, for the games that hide cards (Landover, Mainland, Farside). With one person and no
phone joined, the terminal shows that seat's own words (its prompt, its hand) and lists its choices;
the person plays moves typing there against a bot. With two people it stays shared: no hand, no list."""

from __future__ import annotations

import re
import time

import pytest

from tablelight.table.store import GameStore
from tablelight.table.typed import MENU_ON_PAGE

from ..e2e.helpers import wait_for
from ..e2e.pty_screen import PtyScreen

MENU_HEAD = "type a number to choose"
SHARED_STAND_IN = "see your own screen"


def wide_pty(args: list[str]) -> PtyScreen:
    """The real pty, wide enough for a hand and its list of choices (:meth:`PtyScreen.said` keeps all it wrote)."""
    return PtyScreen(args, columns=160, rows=60)


@pytest.fixture(autouse=True)
def _no_real_board(real_board):
    if real_board:
        pytest.skip("starts its own simulated board")


def seat_moves(db: str, seat: int) -> int:
    with GameStore(db) as store:
        games = store.games()
        if not games:
            return 0
        log = store.record(games[0].id)["log"]
    return sum(1 for e in log if e.get("seat") == seat and "action" in e and not e.get("auto"))


def label_of(game: str, seat: int) -> str:
    from tablelight.core.registry import game_class
    from tablelight.table.face import make_face

    return make_face(game_class(game)(2, None, 1)).seat_word(seat)


@pytest.mark.parametrize("game", ["landover", "mainland", "farside"])
def test_a_lone_person_plays_typing_at_the_terminal_against_a_bot(tmp_path, game: str) -> None:
    db = str(tmp_path / "g.sqlite")
    label = label_of(game, 0)
    term = wide_pty(["play", game, "--seats", "human,random", "--board", "sim", "--bot-delay", "0", "--web-port", "0",
                        "--db", db])
    try:
        wait_for(lambda: "game 1: " in term.said(), timeout=60)
        for move in range(3):
            deadline = time.monotonic() + 120
            while seat_moves(db, 0) == move and time.monotonic() < deadline:
                lists = term.said().count(MENU_HEAD)
                term.type("?\n")  # the bot's turn, or a board still shaking hands, refuses it: again
                if wait_for_or_none(lambda: term.said().count(MENU_HEAD) > lists, 3) is None:
                    continue
                term.type("1\n")  # a list that went stale meanwhile ("type ? first") is listed again
                wait_for_or_none(lambda: seat_moves(db, 0) > move, 10)
            assert seat_moves(db, 0) > move, (move, term.said()[-2500:])
        text = term.said()
        assert SHARED_STAND_IN not in text, text[-3000:]  # never sent to a screen it has not got
        assert re.search(rf"{label}, [\w ]+: ", text), text[-3000:]  # its hidden things, in the face's words
        assert MENU_ON_PAGE not in text
    finally:
        term.close()


def wait_for_or_none(probe, timeout: float):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = probe()
        if found:
            return found
        time.sleep(0.05)
    return None


def test_two_people_at_one_terminal_keep_their_secrets_off_it(tmp_path) -> None:
    db = str(tmp_path / "g.sqlite")
    term = wide_pty(["play", "mainland", "--seats", "human,human", "--board", "sim", "--web-port", "0", "--db", db])
    try:
        term.wait_for(re.escape(SHARED_STAND_IN))
        deadline = time.monotonic() + 60
        while MENU_ON_PAGE not in term.said() and time.monotonic() < deadline:
            term.type("?\n")
            wait_for_or_none(lambda: MENU_ON_PAGE in term.said(), 3)
        text = term.said()
        assert MENU_ON_PAGE in text, text
        assert MENU_HEAD not in text and ", hand:" not in text, text[-3000:]
    finally:
        term.close()
