"""Typed input for the seat to act, the terminal's place labels, and private words in games with secrets."""

from __future__ import annotations

from tablelight.games.farlander.engine import Farlander
from tablelight.table import events as ev
from tablelight.games.mainland.engine import Mainland
from tablelight.table.layout import load_layout_data
from tablelight.table.service import Table
from tablelight.table.typed import MENU_ON_PAGE, TypedInput
from tablelight.web.desk import Desk
from tablelight.view.terminal import draw


def _human_first(cls, seed: int = 6):
    for s in range(seed, seed + 50):
        game = cls(2, seed=s)
        if game.current_seat() == 0:
            return game
    raise AssertionError("no seed where seat 0 starts")


def terminal_words(table: Table) -> list[str]:
    """What the terminal is told in answer to typed lines (a Told of kind terminal), as it comes."""
    said: list[str] = []
    table.listen(lambda e: said.append(e.text) if isinstance(e, ev.Told) and e.kind == ev.TERMINAL else None)
    return said


def test_typed_names_numbers_and_keys_act_like_presses(fake_board):
    game = _human_first(Farlander)
    table = Table(game, ["human", "random"], board=fake_board)
    typed = TypedInput(table, load_layout_data("farlander"))
    said = terminal_words(table)
    before = game.to_record()
    typed.handle("zz")
    assert "'zz' names nothing here" in said[-1] and "confirm, cancel" in said[-1]
    typed.handle("key 999")
    assert "no key 999" in said[-1]
    typed.handle("3")
    assert "type ? first" in said[-1]
    assert game.to_record() == before  # nothing was pressed or applied
    target = game.ids[game.placements(0)[0]]
    typed.handle(target.upper())  # names are not case sensitive
    assert [e["action"] for e in game.log if "action" in e] == [{"type": "place", "territory": target}]
    table.step()  # the bot
    last = game.ids[game.placements(0)[-1]]
    typed.handle(f"? {last}")
    menu = said[-1].splitlines()
    assert menu[0] == "type a number to choose:" and menu[1].strip() == f"1. places a unit in {last}"
    typed.handle("2")
    assert "no choice 2: type 1-1" in said[-1]
    typed.handle("1")
    mine = [e["action"]["territory"] for e in game.log if e.get("seat") == 0 and "action" in e]
    assert mine == [target, last]
    typed.handle("1")  # the list is gone once used (and it is the bot's turn)
    assert "plays by itself" in said[-1]


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


def test_the_typed_list_reaches_the_terminal_only_never_a_page(fake_board):
    game = _human_first(Farlander)
    table = Table(game, ["human", "human"], board=fake_board)
    desk = Desk(table)
    table.prompt()
    said = terminal_words(table)
    before = desk.public()["message"]
    TypedInput(table, load_layout_data("farlander")).handle("?")
    assert said[-1].startswith("type a number to choose:") and len(said[-1].splitlines()) > 10
    public, seat = desk.public(), desk.seat(0)
    assert public["message"] == before and "type a number" not in public["message"]
    assert seat is not None and seat["feedback"] == "" and "type a number" not in str(seat)
    assert all("type a number" not in m for m in table.messages)


def test_in_a_game_with_secrets_the_typed_list_names_no_card_and_points_to_the_page(fake_board):
    game = _human_first(Mainland)
    for _ in range(2):  # both camps
        game.apply(game.legal_actions()[0])
    table = Table(game, ["human", "random"], board=fake_board)
    private: list[ev.Told] = []  # words for the seat's own page (not the terminal's)
    table.listen(lambda e: private.append(e) if isinstance(e, ev.Told) and e.kind != ev.TERMINAL else None)
    desk = Desk(table)
    said = terminal_words(table)
    TypedInput(table, load_layout_data("mainland")).handle("? replace")
    assert MENU_ON_PAGE in said[-1]
    assert not any(card in said[-1] for card in game.hands[0])
    assert private == [] and desk.seat(0)["feedback"] == ""  # type: ignore[index]
