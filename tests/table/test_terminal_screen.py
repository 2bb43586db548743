"""The terminal screen ``tablelight play`` keeps, read back through a real terminal emulator (pyte):
every game's board fits 80x24, the history keeps what happened, names read in black or white by
luminance, Farlander's units are digits, and a line of several moves says what it did not press."""

from __future__ import annotations

import io
import random

import pyte
import pytest

from tablelight.core.registry import game_entries
from tablelight.games.farlander.engine import Farlander
from tablelight.table.face import make_face
from tablelight.table.layout import load_layout_data
from tablelight.table import events as ev
from tablelight.table.service import Table
from tablelight.table.typed import TypedInput
from tablelight.view.colors import display_color, text_on
from tablelight.table.result import result_line
from tablelight.view.terminal import TerminalView, draw

GAMES = sorted(name for name, entry in game_entries().items() if entry.face is not None)


class TtyText(io.StringIO):
    """What a terminal would be sent (the view draws live screens only to a terminal)."""

    def isatty(self) -> bool:
        return True


def _played(name: str, moves: int = 40):
    game = game_entries()[name].engine_class()(2, seed=3)
    rng = random.Random(5)
    for _ in range(moves):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def _screen_of(view: TerminalView, stream: TtyText) -> pyte.Screen:
    columns, rows = view.size or (80, 24)
    screen = pyte.Screen(columns, rows)
    pyte.Stream(screen).feed(stream.getvalue())
    return screen


@pytest.mark.parametrize("name", GAMES)
def test_every_board_fits_80_by_24_with_its_legend_the_history_and_the_prompt(name):
    game = _played(name)
    face = make_face(game)
    layout = load_layout_data(type(face).default_layout)
    stream = TtyText()
    view = TerminalView(layout, stream, labels=face.led_labels(), size=(80, 24), prompt="> ")
    view.footer = "host page: open /tmp/host-page-1.html\nred: join http://127.0.0.1:8055/join?token=x or type code 1234"
    view.show(face.pixels(), face.led_counts())
    for number in range(30):
        view.note(f"event {number}")
    screen = _screen_of(view, stream)
    text = "\n".join(screen.display)
    full = draw(layout, face.pixels(), color=False, labels=face.led_labels()).split("\n")
    legend_start = full[-1].strip().split()[0]  # the last legend line's first word ("turn", "merchant", ...)
    assert legend_start in text, text
    assert "type code 1234" in text
    assert "event 29" in text and "event 28" in text  # the newest history lines, under the board
    rows = screen.display
    assert rows[-1].startswith("> ") and screen.cursor.y == 23 and screen.cursor.x == 2  # the cursor waits at the prompt
    assert all(len(line.rstrip()) <= 80 for line in text.split("\n"))


def test_the_screen_is_written_only_when_it_changes_and_typed_text_stays():
    game = Farlander(2, seed=3)
    face = make_face(game)
    stream = TtyText()
    view = TerminalView(load_layout_data("farlander"), stream, labels=face.led_labels(), size=(80, 24), prompt="> ")
    view.show(face.pixels(), face.led_counts())
    assert view.redraws == 1
    for _ in range(50):
        view.show(face.pixels(), face.led_counts())
    assert view.redraws == 1  # the same picture: nothing written
    stream.write("c2 b")  # a person typing (the terminal echoes it at the cursor)
    game.apply(game.legal_actions()[0])
    view.show(face.pixels(), face.led_counts())
    view.note("blue: places a unit in f3")
    screen = _screen_of(view, stream)
    assert screen.display[-1].rstrip() == "> c2 b" and (screen.cursor.y, screen.cursor.x) == (23, 6)
    assert any("places a unit in f3" in line for line in screen.display)


def terminal_answers(table: Table) -> list[str]:
    """What the terminal answers typed lines (Told events of kind ``terminal``), as they come."""
    answers: list[str] = []
    table.listen(lambda event: answers.append(event.text) if isinstance(event, ev.Told) and event.kind == ev.TERMINAL else None)
    return answers


def test_a_long_numbered_list_is_cut_to_the_rows_the_screen_has(fake_board):
    game = Farlander(2, seed=3)
    table = Table(game, ["human", "human"], board=fake_board)
    answers = terminal_answers(table)
    typed = TypedInput(table, load_layout_data("farlander"))
    typed.menu_size = 5
    typed.handle("?")
    menu = answers[-1].splitlines()
    assert len(menu) == 1 + 5 + 1 and "more: type ? and a word" in menu[-1]


def test_names_read_in_black_or_white_by_luminance():
    dim_red = display_color((77, 0, 0))  # one Farlander unit: 30 % red
    assert text_on(dim_red) == (255, 255, 255)  # was black on dark red
    assert text_on(display_color((255, 170, 0))) == (0, 0, 0)  # yellow
    cell = draw({"id": "t", "leds": 1, "keys": 0, "drawing": {"leds": [], "grid": {"cells": {"0": [0, 0]}}}},
                [(77, 0, 0, 0)], labels={0: "c2"})
    assert "\033[38;2;255;255;255m" in cell


def test_farlander_units_are_digits_on_the_drawing():
    game = Farlander(2, seed=3)
    face = make_face(game)
    placed = game.legal_actions()[0]
    game.apply(placed)
    counts = face.led_counts()
    assert sorted(counts.values()) == [1]
    plain = draw(load_layout_data("farlander"), face.pixels(), color=False, labels=face.led_labels(), counts=counts)
    assert "¹" in plain
    assert list(face.led_counts().values()) == [1]


def test_the_winner_is_named_by_colour():
    game = Farlander(2, seed=3)
    table = Table(game, ["random", "random"])
    table.run()
    names = [table.face.seat_word(seat) for seat in game.winners()]
    scores = ", ".join(f"{table.face.seat_word(seat)} {score}" for seat, score in enumerate(game.scores()))
    verb = "share the win" if len(names) > 1 else "wins"
    assert result_line(game, table.face) == f"{' and '.join(names)} {verb} ({scores})"
    assert table.messages[-1] == f"game over: {result_line(game, table.face)}"  # the table's own last words too


def test_several_moves_on_one_line_say_what_was_not_pressed(fake_board):
    for seed in range(6, 60):
        game = Farlander(2, seed=seed)
        if game.current_seat() == 0:
            break
    table = Table(game, ["human", "random"], board=fake_board)
    answers = terminal_answers(table)
    typed = TypedInput(table, load_layout_data("farlander"))
    first, second = (game.ids[t] for t in game.placements(0)[:2])
    typed.handle(f"{first} {second}")
    assert [e["action"] for e in game.log if "action" in e] == [{"type": "place", "territory": first}]
    assert f"not pressed: {second}" in answers[-1] and "blue's turn" in answers[-1]
