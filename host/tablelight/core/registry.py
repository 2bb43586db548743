"""The games: every package that declares an entry point in the group ``tablelight.games``.

A game is one folder (a package) whose entry point names a :class:`GameEntry`: its rules
engine, its lit-board face, where its board layouts are, its own commands, its search
tuning and the rule events the lab counts, each as an import path loaded only when used, so
the command line starts fast. Nothing below the games names a game: the search bot, the lab
and the table find what a game adds through its entry. The built-in games are
declared the same way, in ``pyproject.toml``::

    [project.entry-points."tablelight.games"]
    farlander = "tablelight.games.farlander:GAME"

An installed package adds a game by declaring its own entry (see ``docs/new-game.md``).
Run from a source tree that was never installed (no ``tablelight`` distribution), the built-in
game folders under :mod:`tablelight.games` are used instead.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.game import Game

#: The entry-point group games are registered in.
ENTRY_POINT_GROUP = "tablelight.games"
#: The folder of the built-in games (``tablelight.games``), read when tablelight is not installed.
BUILT_IN_GAMES = Path(__file__).resolve().parent.parent / "games"


@dataclass(frozen=True)
class GameEntry:
    """One game's parts, each ``"module:attribute"`` or a module's name, imported on first use.

    ``engine``: the :class:`~tablelight.core.game.Game` subclass. ``face``: its lit-board face
    (see :mod:`tablelight.table.face`), or None. ``layouts``: a folder holding board layouts
    ``<id>.json`` of its own (the built-in games keep theirs in ``hardware/layouts``).
    ``commands``: modules with ``register(subparsers)`` adding game-specific commands.
    ``search``: the module tuning the search bot for this game (see
    :mod:`tablelight.core.search_bot`), or None for the defaults. ``lab_events``: a function
    ``(finished game) -> Counter[str]`` of the rule events the lab counts beyond the log's
    chance kinds and forced skips (see :mod:`tablelight.lab.events`), or None.
    """

    engine: str
    face: str | None = None
    layouts: Path | None = None
    commands: tuple[str, ...] = ()
    search: str | None = None
    lab_events: str | None = None

    def engine_class(self) -> type[Game]:
        cls: type[Game] = load_target(self.engine)
        return cls

    def face_class(self) -> Any:
        return load_target(self.face) if self.face is not None else None


def load_target(target: str) -> Any:
    """Import ``"module:attribute"`` and return the attribute."""
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def _declared_entries() -> dict[str, importlib.metadata.EntryPoint] | None:
    """name -> entry point, or None when the tablelight distribution itself is not installed."""
    try:
        importlib.metadata.distribution("tablelight")
    except importlib.metadata.PackageNotFoundError:
        return None
    return {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _built_in_entries() -> dict[str, GameEntry]:
    """The game folders shipped with tablelight (a source tree run without installing), named as
    ``pyproject.toml``'s entry points name them: the rules contract imports no game itself."""
    found = {}
    for module in pkgutil.iter_modules([str(BUILT_IN_GAMES)]):
        if module.ispkg:
            found[module.name] = load_target(f"tablelight.games.{module.name}:GAME")
    return found


@functools.cache
def _load_entries() -> tuple[dict[str, GameEntry], dict[str, str]]:
    """(games by name, why each broken declaration could not be loaded)."""
    declared = _declared_entries()
    if declared is None:
        return _built_in_entries(), {}
    entries, broken = {}, {}
    for name, point in sorted(declared.items()):
        try:
            entry = point.load()
        except Exception as error:  # a broken plugin must not take the other games down
            broken[name] = f"the game {name!r} (entry point {point.value}) cannot be loaded: {error}"
            continue
        if isinstance(entry, GameEntry):
            entries[name] = entry
        else:
            broken[name] = f"the entry point {point.value} of the game {name!r} does not name a GameEntry"
    return entries, broken


def game_entries() -> dict[str, GameEntry]:
    """Every registered game that loads, by name (read once; :func:`forget_games` reads them again)."""
    return _load_entries()[0]


def forget_games() -> None:
    """Read the entry points again on next use (after installing a game in a running process)."""
    _load_entries.cache_clear()


def game_entry(name: str) -> GameEntry:
    entries, broken = _load_entries()
    if isinstance(name, str) and name in broken:
        raise SetupError(broken[name])
    try:
        return entries[name]
    except (KeyError, TypeError):
        raise SetupError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None


def game_names() -> list[str]:
    return sorted(game_entries())


def game_class(name: str) -> type[Game]:
    return game_entry(name).engine_class()


def new_game(
    name: str, players: int, options: dict[str, Any] | None = None, seed: int = 0
) -> Game:
    """Create a game by name: ``new_game("farlander", 3, {"garrisons": True}, seed=7)``."""
    return game_class(name)(players, options, seed)
