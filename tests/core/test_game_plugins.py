"""A game from another package: the example of docs/new-game.md (examples/lastlight), installed as pip
installs it (the package and its .dist-info with the entry point, on the path), reaches every part of
tablelight through the entry-point group ``tablelight.games``: the registry, the command line,
``rules serve``, its layout, its face at a table, and the simulated board."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tablelight.core.errors import SetupError
from tablelight.core.registry import ENTRY_POINT_GROUP, forget_games, game_class, game_entry, game_names, new_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "lastlight"


def install(site: Path, project: Path) -> None:
    """What ``pip install`` leaves in site-packages: the package and a dist-info naming its entry points."""
    meta = tomllib.loads((project / "pyproject.toml").read_text())["project"]
    shutil.copytree(project / "lastlight", site / "lastlight")
    info = site / f"{meta['name'].replace('-', '_')}-{meta['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {meta['name']}\nVersion: {meta['version']}\n")
    lines = []
    for group, entries in meta["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in entries.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    site = tmp_path / "site"
    site.mkdir()
    install(site, EXAMPLE)
    monkeypatch.syspath_prepend(str(site))
    forget_games()
    yield site
    for name in [m for m in sys.modules if m == "lastlight" or m.startswith("lastlight.")]:
        del sys.modules[name]
    forget_games()


def env_with(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def test_the_built_in_games_are_declared_as_entry_points_like_any_other():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][ENTRY_POINT_GROUP]
    folders = sorted(p.name for p in (ROOT / "host" / "tablelight" / "games").iterdir() if (p / "__init__.py").exists())
    assert sorted(declared) == folders == game_names()
    for name, target in declared.items():
        assert target == f"tablelight.games.{name}:GAME"
        assert game_class(name).name == name


def test_an_installed_game_is_registered_with_its_engine_face_and_layout(site):
    assert "lastlight" in game_names() and "farlander" in game_names()
    game = new_game("lastlight", 2, {"lights": 5}, seed=3)
    assert game.legal_actions() == [{"type": "take", "count": n} for n in (1, 2, 3)]
    from tablelight.table.face import make_face
    from tablelight.table.layout import layout_names, layout_path

    assert "lastlight" in layout_names() and layout_path("lastlight") == site / "lastlight" / "lastlight.json"
    face = make_face(game)
    assert type(face).__name__ == "LastLightFace"
    assert len(face.pixels()) == 9


def test_a_broken_game_is_refused_by_name_and_the_others_still_load(site):
    entry_points = next(site.glob("*.dist-info")) / "entry_points.txt"
    entry_points.write_text(entry_points.read_text() + "broken = nosuchmodule:GAME\n")
    forget_games()
    assert "broken" not in game_names() and "lastlight" in game_names()
    with pytest.raises(SetupError, match=r"the game 'broken' \(entry point nosuchmodule:GAME\) cannot be loaded"):
        game_entry("broken")


def test_the_lab_counts_the_events_an_installed_game_declares(site):
    """The lab names no game: what it counts beyond the log comes from the game's entry."""
    from tablelight.lab.plan import Job
    from tablelight.lab.play import summarise

    game = new_game("lastlight", 2, {"lights": 5}, seed=3)
    for count in (3, 2):  # the last take is two lights
        game.apply({"type": "take", "count": count})
    events = summarise(game, Job(0, 0), ["random", "random"], 3)["events"]
    assert events == {"chance:first": 1, "last_take:2": 1}


def test_the_command_line_plays_and_serves_an_installed_game(site, tmp_path):
    record = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "tablelight.cli.main", "selfplay", "lastlight", "--seed", "4", "--record", str(record)],
        capture_output=True, text=True, env=env_with(site), timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "game over" in done.stdout and json.loads(record.read_text())["game"] == "lastlight"
    requests = [
        {"cmd": "hello"},
        {"cmd": "new", "game": "lastlight", "seed": 1, "options": {"lights": 4}},
        {"cmd": "apply", "action": {"type": "take", "count": 4}},
        {"cmd": "apply", "action": {"type": "take", "count": 3}},
        {"cmd": "quit"},
    ]
    served = subprocess.run(
        [sys.executable, "-m", "tablelight.cli.main", "rules", "serve"],
        input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True, text=True,
        env=env_with(site), timeout=60,
    )
    answers = [json.loads(line) for line in served.stdout.splitlines()]
    assert "lastlight" in answers[0]["games"]
    assert answers[1]["ok"] and answers[1]["state"]["left"] == 4
    assert not answers[2]["ok"] and answers[2]["error"]["rule"] == "lastlight.take.limit"
    assert answers[3]["ok"] and answers[3]["state"]["left"] == 1


def test_a_person_plays_an_installed_game_on_the_simulated_board(site, real_board):
    if real_board:
        pytest.skip("the simulated board only")
    from tablelight.board.session import BoardSession
    from tablelight.sim.board import SimBoard
    from tablelight.table.service import Table

    game = new_game("lastlight", 2, seed=2)
    human = game.current_seat()
    seats = ["human", "random"] if human == 0 else ["random", "human"]
    with SimBoard.start("lastlight") as sim:
        assert sim.settings["TL_LEDS"] == "9" and sim.settings["TL_KEYS"] == "7"
        session = BoardSession.open(sim.port)
        try:
            table = Table(game, seats, board=session)
            table.refresh()
            table.press(0)  # the first light: all seven, more than three
            assert game.left == 7 and "take 1-3 lights" in table.messages[-1]
            table.press(5)  # the sixth light and the seventh
            assert game.left == 5 and game.log[-1] == {"seat": human, "action": {"type": "take", "count": 2}}
            table.run(max_actions=1)  # the bot's move
            assert game.left < 5 and game.current_seat() == human
        finally:
            session.close()


def test_a_source_tree_never_installed_finds_the_built_in_game_folders(monkeypatch):
    import importlib.metadata

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", not_installed)
    forget_games()
    try:
        assert game_names() == ["farlander", "farside", "landover", "mainland"]
        assert game_class("mainland").name == "mainland"
    finally:
        monkeypatch.undo()
        forget_games()
