"""A seat's page says what the player taps or chooses there, never a board or console key.

The terminal and the board keep their keys ("end turn with the advance key", "press a territory");
a phone has none of them, so its page shows ``GameFace.page_prompt`` in its place.
"""

from __future__ import annotations

import re
from typing import Any

from tablelight.core.registry import new_game
from tablelight.core.rng import Rng
from tablelight.table.service import Table
from tablelight.web.desk import Desk

from .conftest import NoBoard

#: Words that name a key a phone does not have.
KEY_WORDS = re.compile(r"\b(press|confirm|advance|next/prev|keys?)\b")


def page_and_board_prompts(name: str, seed: int, steps: int) -> list[tuple[str, str, str]]:
    """(phase, the seat page's prompt, the board's prompt) along a random game of two human seats."""
    game = new_game(name, 2, seed=seed)
    table = Table(game, ["human", "human"], board=NoBoard())
    desk = Desk(table)
    rng = Rng(seed)
    seen = []
    for _ in range(steps):
        seat = game.current_seat()
        if seat is None:
            break
        page = desk.seat(seat)
        assert page is not None
        seen.append((str(getattr(game, "phase", "")), page["prompt"], table.face.prompt(seat)))
        table.face.reset()
        game.apply(game.random_action(rng))
        desk.changed()
    return seen


def test_no_games_seat_page_names_a_key_the_phone_does_not_have() -> None:
    for name in ("farlander", "mainland", "landover", "farside"):
        seen = page_and_board_prompts(name, 3, 250)
        assert len(seen) > 20, name
        for phase, page, _ in seen:
            assert not KEY_WORDS.search(page), (name, phase, page)
        assert any(KEY_WORDS.search(board) for _, _, board in seen), name  # the board's prompt keeps them


def test_farside_says_end_turn_on_the_page_and_the_advance_key_at_the_board() -> None:
    seen = page_and_board_prompts("farside", 1, 400)
    action = [(page, board) for phase, page, board in seen if phase == "action" and "action point" in page]
    assert action
    page, board = action[0]
    assert "end turn" in page and "advance" not in page
    assert "advance key" in board


def test_landover_and_farlander_pages_say_tap_where_the_board_says_press() -> None:
    _, page, board = page_and_board_prompts("landover", 4, 1)[0]
    assert "tap its corner on the map" in page and "press a hex" in board
    _, page, board = page_and_board_prompts("farlander", 4, 1)[0]
    assert page.startswith("tap a territory on the map") and board.startswith("press a territory")


def narrowed_words(name: str, seed: int, pick: Any) -> str:
    """What a seat's page is told when it taps part of a choice (``pick(game)``: the fields), after
    random moves until ``pick`` finds one."""
    game = new_game(name, 2, seed=seed)
    rng = Rng(seed)
    while pick(game) is None:
        game.apply(game.random_action(rng))
    table = Table(game, ["human", "human"], board=NoBoard())
    desk = Desk(table)
    seat = game.current_seat()
    answer = desk.narrow(seat, pick(game), len(game.log))
    assert answer.done, answer.words
    return answer.words


def test_what_a_page_is_told_when_it_taps_part_of_a_choice_names_no_key() -> None:
    def conquer(game: Any) -> dict[str, Any] | None:
        found = [a for a in game.legal_actions() if a["type"] == "conquer"]
        return {"type": "conquer", "target": found[0]["target"]} if found else None

    def camp(game: Any) -> dict[str, Any] | None:
        place = game.legal_actions()[0]
        return {k: place[k] for k in ("type", "card", "x", "y")}

    def village(game: Any) -> dict[str, Any] | None:
        from tablelight.table.face import make_face

        face = make_face(game)
        action = game.legal_actions()[0]
        return {"type": "build", "piece": "village", "hex_of_vertex": face.home_hex("vertex", action["vertex"])}

    said = {name: narrowed_words(name, 3, pick) for name, pick in
            (("farlander", conquer), ("mainland", camp), ("landover", village))}
    for name, words in said.items():
        assert not KEY_WORDS.search(words), (name, words)
    assert "choose below how many units move in" in said["farlander"]
    assert "it fits here; choose it below to place it" in said["mainland"]
    assert "choose one below" in said["landover"] and "(corner " in said["landover"]
