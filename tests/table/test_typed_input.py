"""Typed input for the seat to act, the terminal's place labels, and private words in games with secrets."""

from __future__ import annotations

from tablelight.games.farlander.engine import Farlander
from tablelight.games.mainland.engine import Mainland
from tablelight.table.layout import load_layout_data
from tablelight.table.service import Table
from tablelight.table.typed import TypedInput
from tablelight.view.terminal import draw


def _human_first(cls, seed: int = 6):
    for s in range(seed, seed + 50):
        game = cls(2, seed=s)
        if game.current_seat() == 0:
            return game
    raise AssertionError("no seed where seat 0 starts")


def test_typed_names_numbers_and_keys_act_like_presses(fake_board):
    game = _human_first(Farlander)
    table = Table(game, ["human", "random"], board=fake_board)
    typed = TypedInput(table, load_layout_data("farlander"))
    before = game.to_record()
    typed.handle("zz")
    assert "'zz' names nothing here" in table.messages[-1] and "confirm, cancel" in table.messages[-1]
    typed.handle("key 999")
    assert "no key 999" in table.messages[-1]
    typed.handle("3")
    assert "type ? first" in table.messages[-1]
    assert game.to_record() == before  # nothing was pressed or applied
    target = game.ids[game.placements(0)[0]]
    typed.handle(target.upper())  # names are not case sensitive
    assert [e["action"] for e in game.log if "action" in e] == [{"type": "place", "territory": target}]
    table.step()  # the bot
    last = game.ids[game.placements(0)[-1]]
    typed.handle(f"? {last}")
    menu = table.messages[-1].splitlines()
    assert menu[0] == "type a number to choose:" and menu[1].strip() == f"1. places a unit in {last}"
    typed.handle("2")
    assert "no choice 2: type 1-1" in table.messages[-1]
    typed.handle("1")
    mine = [e["action"]["territory"] for e in game.log if e.get("seat") == 0 and "action" in e]
    assert mine == [target, last]
    typed.handle("1")  # the list is gone once used (and it is the bot's turn)
    assert "plays by itself" in table.messages[-1]


def test_the_terminal_drawing_names_the_places():
    game = Farlander(2, seed=3)
    table = Table(game, ["random", "random"])
    layout = load_layout_data("farlander")
    labels = table.face.led_labels()  # type: ignore[attr-defined]
    assert sorted(labels.values()) == sorted(game.ids)
    plain = draw(layout, table.pixels(), color=False, labels=labels)
    assert all(tid in plain for tid in game.ids)  # every territory is dark at the start: named
    coloured = draw(layout, table.pixels(), color=True, labels=labels)
    assert all(tid in coloured for tid in game.ids)


def test_a_menu_in_a_game_with_secrets_goes_to_the_seats_own_screen(fake_board):
    game = _human_first(Mainland)
    private: list[tuple[int, str]] = []
    table = Table(game, ["human", "random"], board=fake_board, on_private=lambda seat, text: private.append((seat, text)))
    typed = TypedInput(table, load_layout_data("mainland"))
    typed.handle("?")
    assert table.messages[-1].endswith("see your own screen")
    assert private[-1][0] == 0 and private[-1][1].startswith("type a number to choose:")
    assert table.private_messages[0][-1] == private[-1][1]


def test_a_private_menu_names_the_seats_own_cards(fake_board):
    game = _human_first(Mainland)
    for _ in range(2):  # both camps
        game.apply(game.legal_actions()[0])
    private: list[tuple[int, str]] = []
    table = Table(game, ["human", "random"], board=fake_board, on_private=lambda seat, text: private.append((seat, text)))
    TypedInput(table, load_layout_data("mainland")).handle("? replace")
    listed = private[-1][1].splitlines()[1:]
    assert len(listed) == len(game.hands[0]) == len(set(listed))
    assert all(any(card in line for line in listed) for card in game.hands[0])
