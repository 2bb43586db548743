"""A Farlander game at a board through the real link: the simulated board (real firmware on a pty),
or the real board given with --board=PORT."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import InputMachine
from tablelight.games.farlander.face import load_layout
from tablelight.games.farlander.face import render
from tablelight.table.service import Table
from tablelight.table.store import GameStore

from .helpers import reference_game, shows_scene, wait_for

BoardSession = pytest.importorskip("tablelight.board.session").BoardSession

SEATS = ["random", "strong"]


def test_a_bot_game_runs_unattended_through_the_board(board_port, tmp_path):
    session = BoardSession.open(board_port)
    try:
        game = Farlander(2, seed=31)
        with GameStore(tmp_path / "g.sqlite") as store:
            table = Table(game, SEATS, board=session, store=store)
            table.run()
            assert store.load(table.game_id).to_record() == game.to_record()
    finally:
        session.close()
    assert game.is_over()
    assert game.to_record() == reference_game(2, 31, SEATS).to_record()


def test_the_simulated_leds_show_the_game(sim_board):
    session = BoardSession.open(sim_board.port)
    try:
        game = Farlander(3, seed=8)
        table = Table(game, ["random"] * 3, board=session)
        table.run(max_actions=30)
        wanted = render(game, load_layout())
        assert sum(1 for p in wanted[:49] if max(p[:3])) > 10
        wait_for(lambda: shows_scene(sim_board.pixels(), wanted))
    finally:
        session.close()


def _human_keys(game: Farlander, machine: InputMachine, action: dict) -> list[int]:
    if action["type"] == "place":
        return [machine.keys_for(game.index[action["territory"]])[0]]
    keys = [machine.keys_for(game.index[action["target"]])[-1]]
    for tid, count in action["moves"].items():
        keys += [machine.keys_for(game.index[tid])[0]] * count
    return keys + [load_layout().confirm_key]


def test_a_person_plays_with_the_board_keys(sim_board):
    """Seat 0 is played by pressing the simulated board's keys: places, then conquests
    (target, units, confirm). One illegal press flashes its territory and changes nothing."""
    session = BoardSession.open(sim_board.port)
    layout = load_layout()
    try:
        game = Farlander(2, seed=12)
        table = Table(game, ["human", "random"], board=session, flash_seconds=0.6)
        machine = InputMachine(game, layout)
        rng = Rng(3)
        chosen = []
        refused_once = False
        while not game.is_over():
            if game.current_seat() != 0:
                table.step()
                continue
            if game.phase == "action" and not refused_once:
                # A territory of our own is not a target: flash, message, nothing changes.
                own = next(t for t in range(len(game.ids)) if game.owner[t] == 0)
                before = game.to_record()
                sim_board.press(machine.keys_for(own)[0])
                wait_for(lambda: (table.step() or "already yours" in (table.messages[-1] if table.messages else "")))
                assert game.to_record() == before
                leds = layout.leds_of(game.map.territories[own].tile, game.map.territories[own].edges)
                wait_for(lambda: all(min(sim_board.pixels()[led]) > 0 for led in leds), timeout=2.0, interval=0.005)
                refused_once = True
            action = game.random_action(rng)
            chosen.append(action)
            count = len(game.log)
            for key in _human_keys(game, machine, action):
                sim_board.press(key)
            wait_for(lambda: (table.step() or len(game.log) > count))
        played = [e["action"] for e in game.log if e.get("seat") == 0 and "action" in e and not e.get("auto")]
        assert played == [game_normal(a) for a in chosen]
        assert refused_once and len(chosen) > 20
        assert any(a["type"] == "conquer" for a in chosen)
    finally:
        session.close()


def game_normal(action: dict) -> dict:
    if action["type"] == "conquer":
        return {**action, "moves": dict(sorted(action["moves"].items()))}
    return action


def test_a_board_reboot_mid_game_loses_nothing(sim_board):
    session = BoardSession.open(sim_board.port)
    try:
        game = Farlander(2, seed=44)
        table = Table(game, SEATS, board=session)
        table.run(max_actions=25)
        old_boot = session.hello.get("boot_id")
        sim_board.reboot()
        table.run(max_actions=10)
        # The session noticed the new boot and the table's look is back on the LEDs.
        wait_for(lambda: (table.step() or session.hello.get("boot_id") != old_boot))
        wait_for(lambda: (table.step() or shows_scene(sim_board.pixels(), render(game, load_layout()))))
        table.run()
        wait_for(lambda: shows_scene(sim_board.pixels(), render(game, load_layout())))
    finally:
        session.close()
    assert game.to_record() == reference_game(2, 44, SEATS).to_record()


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "tablelight", *args]


def test_the_host_killed_mid_game_resumes_with_no_move_lost(board_port, tmp_path):
    db = str(tmp_path / "g.sqlite")
    common = ["--board", board_port, "--view", "none", "--db", db]
    play = subprocess.Popen(
        _cli("play", "farlander", "--seats", ",".join(SEATS), "--seed", "57", "--bot-delay", "0.02", *common),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        def mid_game() -> bool:
            if play.poll() is not None:
                raise AssertionError(f"play ended early: {play.stderr.read() if play.stderr else ''}")
            if not os.path.exists(db):
                return False
            with GameStore(db) as store:
                games = store.games()
                return bool(games) and games[0].actions >= 30
        wait_for(mid_game, timeout=30)
        play.send_signal(signal.SIGKILL)
        play.wait(5)
    finally:
        if play.poll() is None:
            play.kill()
    with GameStore(db) as store:
        info = store.games()[0]
        assert info.status == "playing"
    resume = subprocess.run(_cli("resume", str(info.id), *common), capture_output=True, text=True, timeout=60)
    assert resume.returncode == 0, resume.stderr
    with GameStore(db) as store:
        finished = store.load(info.id)
        assert store.games()[0].status == "over"
    assert finished.to_record() == reference_game(2, 57, SEATS).to_record()


class Cable:
    """A USB cable between the host and the simulated board that the test can pull out:
    while unplugged the open link fails on every call and the port cannot be opened."""

    def __init__(self) -> None:
        self.plugged = True

    def open(self, port: str):
        from tablelight.links.base import LinkClosed
        from tablelight.links.serial_link import open_link

        if not self.plugged:
            raise LinkClosed(f"cannot open {port}: no such device")
        return _CabledLink(open_link(port), self)


class _CabledLink:
    def __init__(self, link, cable: Cable) -> None:
        self.link, self.cable = link, cable

    def _check(self) -> None:
        from tablelight.links.base import LinkClosed

        if not self.cable.plugged:
            raise LinkClosed("device disconnected")

    def read(self, timeout: float) -> bytes:
        self._check()
        return self.link.read(timeout)

    def write(self, data: bytes) -> None:
        self._check()
        self.link.write(data)

    def reset_input(self) -> None:
        self._check()
        self.link.reset_input()

    def close(self) -> None:
        self.link.close()


def test_an_unplugged_board_pauses_the_game_and_replugged_it_goes_on(sim_board):
    cable = Cable()
    session = BoardSession.open(sim_board.port, link_factory=cable.open)
    try:
        game = Farlander(2, seed=61)
        table = Table(game, SEATS, board=session, poll_interval=0.02)
        table.run(max_actions=20)
        cable.plugged = False
        wait_for(lambda: not session.connected)
        before = len(game.log)
        for _ in range(10):
            table.step()
        assert len(game.log) == before  # nobody moves while the board is away
        assert "waiting for it to come back" in table.messages[-1]
        cable.plugged = True
        table.run()
        assert "the board is back" in table.messages
        wait_for(lambda: shows_scene(sim_board.pixels(), render(game, load_layout())))
    finally:
        session.close()
    assert game.to_record() == reference_game(2, 61, SEATS).to_record()
