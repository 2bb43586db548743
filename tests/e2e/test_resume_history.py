"""A game resumed at the terminal starts its history with the moves made before, in the words the
table said them (``tablelight resume ID``: it showed an empty history)."""

from __future__ import annotations

import os
import subprocess
import sys

from tablelight.table.store import GameStore

from .helpers import bots_interrupted


def test_a_resumed_game_tells_its_moves_so_far(tmp_path):
    db = str(tmp_path / "g.sqlite")
    env = {**os.environ, "TABLELIGHT_DB": db}
    first_run = bots_interrupted(db, actions=5)
    with GameStore(db) as store:
        (info,) = store.games()
    said_before = [line for line in first_run.splitlines() if line.startswith(("red: ", "blue: "))]
    assert len(said_before) >= 5
    resume = subprocess.run([sys.executable, "-m", "tablelight", "resume", str(info.id), "--view", "terminal"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert resume.returncode == 0, resume.stderr
    told = resume.stdout.splitlines()
    start = next(i for i, line in enumerate(told) if line.startswith("the game so far ("))
    assert f"the game so far ({info.actions} moves" in told[start]
    retold = [line.strip() for line in told[start + 1:start + 1 + min(info.actions, 40)]]
    assert retold[:len(said_before)] == said_before[:len(retold)]  # as the table said them then
