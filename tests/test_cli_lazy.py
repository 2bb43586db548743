"""The command line imports only the command it runs (docs/architecture.md, "Command line")."""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys

from tablelight.cli.main import COMMANDS, build_parser, game_command_modules

#: What a command run may leave in sys.modules, and what it must not.
COUNT = """
import json, sys
from tablelight.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] == "tablelight")))
"""


def tablelight_modules_after(*argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", COUNT, *argv], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


def test_version_imports_no_command_and_no_game() -> None:
    loaded = tablelight_modules_after("--version")
    assert len(loaded) < 30, loaded
    assert not [m for m in loaded if m.startswith(("tablelight.cli.", "tablelight.games"))
                and m != "tablelight.cli.main"], loaded


def test_a_command_imports_its_own_module_and_no_other_command() -> None:
    loaded = tablelight_modules_after("replay", "--help")
    commands = {m for m in loaded if m.startswith("tablelight.cli.")} - {"tablelight.cli.main", "tablelight.cli.common"}
    assert commands == {"tablelight.cli.replay"}


def test_each_module_adds_exactly_the_commands_the_table_names() -> None:
    for module in dict.fromkeys(COMMANDS.values()):
        subparsers = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(subparsers)
        assert set(subparsers.choices) == {name for name, owner in COMMANDS.items() if owner == module}, module


def test_the_full_parser_has_every_built_in_and_game_command() -> None:
    listed = {line.split()[0] for line in build_parser().format_help().splitlines() if line.startswith("    ")}
    assert set(COMMANDS) | {"farside", "mainland"} <= listed  # the games' own (GameEntry.commands)
    assert game_command_modules() == ["tablelight.games.farside.cli", "tablelight.games.mainland.cli"]


def test_a_games_command_is_found_without_the_built_in_ones() -> None:
    loaded = tablelight_modules_after("mainland", "--help")
    assert "tablelight.games.mainland.cli" in loaded
    assert not [m for m in loaded if m.startswith("tablelight.cli.") and m not in ("tablelight.cli.main", "tablelight.cli.common")]
