"""Helpers shared by the subcommands: per-game option flags, bots, files."""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.game import Game
from tablelight.core.inputs import read_json_file
from tablelight.core.registry import game_class, game_names


def add_game_subparsers(
    parser: argparse.ArgumentParser, help_text: str, add_common: Any
) -> None:
    """One sub-parser per registered game, with that game's options as ``--name value`` flags."""
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in game_names():
        cls = game_class(name)
        sub = games.add_parser(name, help=f"{help_text} {name}")
        sub.set_defaults(game_class=cls)
        add_common(sub, cls)
        group = sub.add_argument_group(f"{name} options")
        group.add_argument(
            "--option", action="append", default=[], metavar="NAME=VALUE", dest="option_pairs",
            help="set any game option by name (also those whose flag below is taken by a common flag)",
        )
        for spec in cls.option_specs:
            flag = f"--{spec.name.replace('_', '-')}"
            metavar = "on|off" if spec.kind is bool else spec.kind.__name__.upper()
            try:
                group.add_argument(flag, dest=f"option_{spec.name}", metavar=metavar, help=spec.help)
            except argparse.ArgumentError:  # taken by a common flag (an option called "map"): use --option map=...
                continue


def options_from_args(args: argparse.Namespace, cls: type[Game]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in getattr(args, "option_pairs", None) or []:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SetupError(f"--option takes NAME=VALUE, got {pair!r}")
        options[name.strip().replace("-", "_")] = value.strip()
    for spec in cls.option_specs:
        value = getattr(args, f"option_{spec.name}", None)
        if value is not None:
            options[spec.name] = value
    return options


def make_bots(cls: type[Game], names: str | None, players: int, seed: int) -> list[Any]:
    """Bots for every seat from ``"random,strong"``; one name is used for all seats."""
    chosen = [n.strip() for n in names.split(",")] if names else ["random"]
    if len(chosen) == 1:
        chosen = chosen * players
    if len(chosen) != players:
        raise SetupError(f"--bots names {len(chosen)} bots for {players} players")
    # Each bot gets its own generator, apart from the game's.
    return [cls.make_bot(name, seed * 1000 + seat + 1) for seat, name in enumerate(chosen)]


def write_json_atomic(path: str | Path, data: Any) -> None:
    """Write JSON so that a crash never leaves a half-written file behind."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, suffix=".tmp", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
        handle.write("\n")
        temporary = handle.name
    os.replace(temporary, path)


def read_json(path: str | Path) -> Any:
    """A JSON file from outside, through the input boundary (:mod:`tablelight.core.inputs`)."""
    return read_json_file(path)


def new_game(cls: type[Game], players: int, options: dict[str, Any], seed: int, map_file: str | None) -> Game:
    """A new game, on the map read from ``map_file`` when given; a game that has no map refuses the file
    (it would otherwise be ignored without a word)."""
    game = cls(players, options, seed, setup={"map": read_json(map_file)} if map_file else None)
    if map_file and "map" not in game.setup_record():
        raise SetupError(f"{cls.name} is not played on a map: leave out --map {map_file}")
    return game
