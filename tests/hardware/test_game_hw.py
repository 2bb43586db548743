"""End to end on the board under test: a person plays Farlander by pressing the board's keys
(injected with TEST_KEY), the table service checks and stores each move and the board shows it."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tablelight.board.session import BoardSession
from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import InputMachine, load_layout, render
from tablelight.table.service import Table

from .conftest import PATIENCE, press

pytestmark = [pytest.mark.hardware, pytest.mark.usefixtures("test_input")]


@pytest.fixture
def farlander_board(hello: dict[str, Any]) -> None:
    if hello["layout"] != "farlander":
        pytest.skip(f"a Farlander board is needed; this one is {hello['layout']}")


def keys_for(game: Farlander, machine: InputMachine, action: dict[str, Any]) -> list[int]:
    if action["type"] == "place":
        return [machine.keys_for(game.index[action["territory"]])[0]]
    keys = [machine.keys_for(game.index[action["target"]])[-1]]
    for territory, count in action["moves"].items():
        keys += [machine.keys_for(game.index[territory])[0]] * count
    return keys + [load_layout().confirm_key]


def step_until(table: Table, done: Any, timeout: float = PATIENCE) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the table did not take the presses in time"
        table.step()


@pytest.mark.usefixtures("farlander_board")
def test_a_person_plays_farlander_with_the_board_keys(port: str) -> None:
    with BoardSession.open(port, timeout=PATIENCE) as session:
        game = Farlander(2, seed=12)
        table = Table(game, ["human", "random"], board=session, flash_seconds=0.1)
        machine = InputMachine(game, load_layout())
        rng = Rng(3)
        played = 0
        while played < 12 and not game.is_over():
            if game.current_seat() != 0:
                table.step()
                continue
            action = game.random_action(rng)
            count = len(game.log)
            for key in keys_for(game, machine, action):
                press(session, key)
            step_until(table, lambda: len(game.log) > count)
            assert game.log[count]["action"]["type"] == action["type"]
            played += 1
        assert played == 12
        status = session.status(timeout=PATIENCE)
        assert status["has_scene"] == 1 and status["dropped_keys"] == 0
        assert len(render(game, load_layout())) == session.hello["leds"]


@pytest.mark.usefixtures("farlander_board")
def test_an_illegal_press_changes_nothing(port: str) -> None:
    with BoardSession.open(port, timeout=PATIENCE) as session:
        game = Farlander(2, seed=5)
        table = Table(game, ["human", "random"], board=session, flash_seconds=0.1)
        machine = InputMachine(game, load_layout())
        rng = Rng(1)
        while game.phase != "action" or game.current_seat() != 0:  # play up to seat 0's first attack
            if game.current_seat() == 0:
                action = game.random_action(rng)
                count = len(game.log)
                for key in keys_for(game, machine, action):
                    press(session, key)
                step_until(table, lambda: len(game.log) > count)
            else:
                table.step()
        own = next(t for t in range(len(game.ids)) if game.owner[t] == 0)
        before = game.to_record()
        press(session, machine.keys_for(own)[0])  # your own territory is not a target
        step_until(table, lambda: bool(table.messages) and "already yours" in table.messages[-1])
        assert game.to_record() == before
