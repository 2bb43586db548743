"""The terminal alone: a person plays by typing, resume needs no flags, games are exported and deleted,
and a game that cannot start leaves nothing in the store. The real ``tablelight`` command runs in a
child process, on the simulated board (the real firmware over a pty)."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import IO

import pytest

from tablelight.core.record import replay
from tablelight.table.store import GameStore

from .helpers import bots_interrupted, wait_for
from .pty_screen import PtyScreen

HUMAN_PROMPT = "red: press a territory"
MENU_LINE = re.compile(r"^\s*(\d+)\. (.*)$")


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "tablelight", *args]


def _lines_of(stream: IO[str]) -> queue.Queue[str]:
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put("<end>")

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _next(lines: queue.Queue[str], wanted: re.Pattern[str] | str, seen: list[str], timeout: float = 30.0) -> str:
    """The next line holding ``wanted`` (every line read is kept in ``seen``)."""
    deadline = time.monotonic() + timeout
    while True:
        line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        seen.append(line)
        if line == "<end>" or (wanted.search(line) if isinstance(wanted, re.Pattern) else wanted in line):
            return line


def test_a_person_plays_a_whole_farlander_game_by_typing(tmp_path):
    """Place names, menu numbers and key names typed on stdin play seat 0 to the end of the game."""
    db = str(tmp_path / "g.sqlite")
    play = subprocess.Popen(
        _cli("play", "farlander", "--seats", "human,random", "--board", "sim", "--view", "none", "--db", db),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
    )
    assert play.stdin is not None and play.stdout is not None
    lines = _lines_of(play.stdout)
    seen: list[str] = []

    def type_line(text: str) -> None:
        assert play.stdin is not None
        play.stdin.write(text + "\n")
        play.stdin.flush()

    typed = {"name": 0, "number": 0, "keys": 0}
    try:
        assert re.match(r"type a place \(a1\.\.g\d\), a key name \(confirm, cancel, key N\)", _next(lines, "type a place", seen))
        # Something that names nothing: said why, nothing pressed.
        _next(lines, HUMAN_PROMPT, seen)
        type_line("zz")
        assert "'zz' names nothing here" in _next(lines, "names nothing", seen)
        turn = 0
        while True:
            type_line("?")
            first = _next(lines, MENU_LINE, seen)
            match = MENU_LINE.match(first)
            assert match and match.group(1) == "1", first
            words = match.group(2)
            place = re.fullmatch(r"places a unit in (\w\d)", words)
            conquest = re.fullmatch(r"conquers (\w\d) moving in (.*)", words)
            if place and turn % 2:
                type_line(place.group(1))  # the territory's name, as the drawing labels it
                typed["name"] += 1
            elif conquest and turn % 2:
                moves = [(tid, int(n)) for n, tid in re.findall(r"(\d+) from (\w\d)", conquest.group(2))]
                type_line(" ".join([conquest.group(1), *[tid for tid, n in moves for _ in range(n)], "confirm"]))
                typed["keys"] += 1
            else:
                type_line("1")
                typed["number"] += 1
            turn += 1
            line = _next(lines, re.compile(f"{re.escape(HUMAN_PROMPT)}|game over|<end>"), seen, timeout=60)
            if "game over" in line or line == "<end>":
                break
        assert play.wait(30) == 0, "\n".join(seen[-20:])
    finally:
        if play.poll() is None:
            play.kill()
    assert typed["name"] > 5 and typed["number"] > 5 and typed["keys"] >= 1, typed
    with GameStore(db) as store:
        (info,) = store.games()
        assert info.status == "over"
        record = store.export(info.id)
    mine = [e for e in record["log"] if e.get("seat") == 0 and "action" in e and not e.get("auto")]
    assert len(mine) == turn
    text = "\n".join(seen)
    assert str(record["seed"]) not in text and "seed" not in text  # the shared screen never shows the seed


def test_typing_at_a_real_terminal_plays_a_move(tmp_path):
    """On a terminal (a real pty: live, coloured screen) the drawing names the places and a typed name plays."""
    db = str(tmp_path / "g.sqlite")
    term = PtyScreen(["play", "farlander", "--seats", "human,random", "--board", "sim", "--db", db])
    try:
        term.wait_for(re.escape(HUMAN_PROMPT), timeout=30)
        assert "\033[" in term.raw and re.search(r"a1|b1|c1", term.raw)  # coloured, territories named
        with GameStore(db) as store:
            (info,) = store.games()
        term.type("?\n")
        menu = wait_for(lambda: time.sleep(0.05) or re.search(r"1\. places a unit in (\w\d)", term.said()), timeout=30)
        term.type(f"{menu.group(1)}\n")  # the territory's name, as the screen labels it

        def placed() -> bool:
            with GameStore(db) as store:
                log = store.record(info.id)["log"]
            return any(e.get("seat") == 0 and e.get("action", {}).get("type") == "place" for e in log)

        wait_for(lambda: time.sleep(0.05) or term.read() >= 0 and placed(), timeout=30)
        term.process.send_signal(signal.SIGINT)
        wait_for(lambda: time.sleep(0.05) or term.read() >= 0 and term.process.poll() is not None, timeout=15)
        assert f"tablelight resume {info.id}" in term.said()
    finally:
        term.close()


def test_resume_with_no_flags_export_and_delete(tmp_path, monkeypatch):
    db = str(tmp_path / "g.sqlite")
    env = {**os.environ, "TABLELIGHT_DB": db}
    bots_interrupted(db, actions=10)
    with GameStore(db) as store:
        (info,) = store.games()
        assert info.status == "playing"
        assert store.settings(info.id) == {"board": "sim", "view": "none", "web_port": 8055, "share": None, "host_link": "file", "https": False, "https_cert": None, "https_key": None, "bot_delay": 0.02, "brightness": None}
    # No flags: the same simulated board, view and bot delay.
    resume = subprocess.run(_cli("resume", str(info.id)), capture_output=True, text=True, timeout=120, env=env)
    assert resume.returncode == 0, resume.stderr
    assert "(simulated)" in resume.stderr and "seats random, random" in resume.stderr
    out = tmp_path / "game.json"
    exported = subprocess.run(_cli("games", "export", str(info.id), "--output", str(out)), capture_output=True, text=True, env=env)
    assert exported.returncode == 0, exported.stderr
    record = json.loads(out.read_text())
    assert isinstance(record["seed"], int) and replay(record).is_over()
    assert subprocess.run(_cli("replay", str(out)), capture_output=True, env=env).returncode == 0
    printed = subprocess.run(_cli("games", "export", str(info.id)), capture_output=True, text=True, env=env)
    assert json.loads(printed.stdout) == record
    missing = subprocess.run(_cli("games", "export", "99"), capture_output=True, text=True, env=env)
    assert missing.returncode == 1 and "no game 99" in missing.stderr and "Traceback" not in missing.stderr
    deleted = subprocess.run(_cli("games", "delete", str(info.id)), capture_output=True, text=True, env=env)
    assert deleted.returncode == 0 and f"game {info.id} deleted" in deleted.stdout
    with GameStore(db) as store:
        assert store.games() == []


def test_a_game_that_cannot_start_leaves_nothing(tmp_path):
    db = str(tmp_path / "g.sqlite")
    base = ["play", "farlander", "--seats", "random,random", "--db", db]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        in_use = subprocess.run(
            _cli(*base, "--board", "sim", "--view", "web", "--web-port", str(port)), capture_output=True, text=True, timeout=60
        )
    assert in_use.returncode == 1 and f":{port}" in in_use.stderr and "Traceback" not in in_use.stderr
    too_big = subprocess.run(_cli(*base, "--board", "sim", "--web-port", "99999"), capture_output=True, text=True, timeout=60)
    assert too_big.returncode == 2 and "0-65535" in too_big.stderr
    no_board = subprocess.run(_cli(*base, "--board", str(tmp_path / "no-such-port")), capture_output=True, text=True, timeout=60)
    assert no_board.returncode == 1 and "Traceback" not in no_board.stderr
    with GameStore(db) as store:
        assert store.games() == []


@pytest.fixture(autouse=True)
def _no_real_board(real_board):
    if real_board:
        pytest.skip("starts its own simulated board")


def test_the_terminal_screen_keeps_typed_text_history_and_stays_still_when_idle(tmp_path):
    """80x24, a person against a bot: the board, a history of moves and the line being typed at the bottom."""
    db = str(tmp_path / "g.sqlite")
    term = PtyScreen(["play", "farlander", "--board", "sim", "--seats", "human,bot", "--bot-delay", "2", "--db", db])
    try:
        term.wait_for(re.escape(HUMAN_PROMPT))
        assert re.search(r"turn .* distribution", term.text())  # the board's legend is on the screen
        time.sleep(0.5)
        term.read()
        # Idle: the person has not typed, the bot waits: nothing is written for 10 s (it was ~10 redraws a second).
        time.sleep(10)
        assert term.read() == 0
        term.type("?\n")
        place = term.wait_for(r"1\. places a unit in (\w\d)").group(1)
        term.type("1\n")
        term.wait_for(rf"red: places a unit in {place}")
        term.type("zz")  # typing while the bot thinks: the bot's move must not wipe it
        bot = term.wait_for(r"blue: places a unit in (\w\d)").group(1)
        screen = term.text().split("\n")
        assert screen[-1].rstrip() == "> zz", screen
        assert (term.screen.cursor.y, term.screen.cursor.x) == (23, 4)
        history = "\n".join(screen)
        assert f"places a unit in {place}" in history and f"places a unit in {bot}" in history  # both moves, not only the last
        assert re.search(rf"{place}¹", history)  # a unit count drawn as a digit on the board
        term.type("\n")
        term.wait_for("'zz' names nothing here")
        assert len(screen) == 24 and screen[0].strip()  # the board's top row is still on the screen
        # A resized terminal is drawn anew at its size: the prompt moves to the new bottom row.
        term.resize(100, 30)
        wait_for(lambda: time.sleep(0.05) or term.text().split("\n")[-1].startswith("> "), timeout=10)
        assert "'zz' names nothing here" in term.text()
    finally:
        term.close()


def test_a_finished_game_names_the_winner_by_colour(tmp_path):
    db = str(tmp_path / "g.sqlite")
    term = PtyScreen(["play", "farlander", "--board", "sim", "--seats", "random,random", "--db", db])
    try:
        found = term.wait_for(r"(red|blue|red and blue) (wins|share the win) \(red \d+, blue \d+\)", timeout=300)
        assert term.process.wait(30) == 0
    finally:
        term.close()
    with GameStore(db) as store:
        (info,) = store.games()
        game = replay(store.export(info.id))
    names = " and ".join(("red", "blue")[seat] for seat in game.winners())
    assert found.group(1) == names


def _faced_games() -> list[str]:
    from tablelight.core.registry import game_entries

    return sorted(name for name, entry in game_entries().items() if entry.face is not None)


@pytest.mark.parametrize("game", _faced_games())
def test_every_board_fits_a_24_row_terminal(tmp_path, game):
    """The real command at 80x24: the board's top, its legend, the history and the prompt all on the screen."""
    from tablelight.table.face import face_class
    from tablelight.table.layout import load_layout_data

    layout = load_layout_data(face_class(game).default_layout)
    legend = [item["label"] for item in layout["drawing"]["leds"] if "label" in item]
    term = PtyScreen(["play", game, "--board", "sim", "--seats", "bot,bot", "--bot-delay", "30", "--db", str(tmp_path / "g.sqlite")])
    try:
        header = term.wait_for(r"game 1: \w+, seats [\w-]+, [\w-]+").group(0)  # "bot": the game's own strongest bot
        time.sleep(1)
        rows = term.text().split("\n")
        assert any(line.startswith("───") for line in rows), rows
        board = rows[: next(i for i, line in enumerate(rows) if line.startswith("───"))]
        assert board and board[0].strip(), rows
        assert legend[-1].split()[0] in "\n".join(board), (legend[-1], rows)  # the legend's last group fits too
        assert header in "\n".join(rows[len(board):])  # the history, under the board
    finally:
        term.close()
