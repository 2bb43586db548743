"""Farside is a position plus rule functions (issue 31): every field of a game is a field of its
position (``FarsideState``, listed once with a comment each), the engine sets nothing but the
contract's own fields and ``pos``, and what the read API gives a reader cannot change the game."""

from __future__ import annotations

import ast
import inspect
import io
import tokenize
from collections.abc import Mapping
from typing import Any

import pytest

from tablelight.core.game import Action, Game
from tablelight.core.rng import Rng
from tablelight.games.farside import state
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.games.farside.state import FarsideState


class Bare(Game):
    """The smallest engine: what ``Game`` itself sets on a game."""

    name = "bare"
    min_players = max_players = 2

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        pass

    def current_seat(self) -> int | None:
        return None

    def legal_actions(self) -> list[Action]:
        return []

    def _check(self, action: Action) -> Action:
        return action

    def _perform(self, action: Action) -> None:
        pass

    def scores(self) -> list[int]:
        return [0, 0]

    def state(self) -> dict[str, Any]:
        return {}


def played(seed: int, steps: int) -> FarsideEncounter:
    game = FarsideEncounter(2, {"round_limit": 3}, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(game.random_action(rng))
    return game


def test_the_engine_sets_only_the_contracts_fields_and_its_position() -> None:
    game = played(3, 150)
    game.undo()
    assert set(vars(game)) == set(vars(Bare(2))) | {"pos"}
    assert type(game).__mro__[:3] == (FarsideEncounter, type(game).__mro__[1], Game)


def test_the_position_refuses_a_field_it_does_not_list() -> None:
    game = played(4, 40)
    assert not hasattr(game.pos, "__dict__")
    with pytest.raises(AttributeError):
        game.pos.morale = 3  # type: ignore[attr-defined]
    missing = [name for name in FarsideState.__slots__ if not hasattr(game.pos, name)]
    assert missing == [], f"fields a new position leaves unset: {missing}"


def test_every_field_is_listed_once_with_a_comment() -> None:
    """``FarsideState.__slots__`` is the one place a field is named: each entry has its comment."""
    source = inspect.getsource(state)
    slots = next(node for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__slots__")
    assert isinstance(slots.value, ast.Tuple)
    names = [(element.value, element.lineno) for element in slots.value.elts if isinstance(element, ast.Constant)]
    assert [name for name, _ in names] == list(FarsideState.__slots__)
    assert len(set(FarsideState.__slots__)) == len(FarsideState.__slots__)
    commented = {token.start[0] for token in tokenize.generate_tokens(io.StringIO(source).readline)
                 if token.type == tokenize.COMMENT}
    bare = [name for name, line in names if line not in commented]
    assert bare == [], f"fields without a comment on their line: {bare}"


def test_what_a_reader_is_given_cannot_change_the_game() -> None:
    game = played(5, 120)
    before = game.save(), game.state()
    model = game.model("a1")
    with pytest.raises(TypeError):
        model["damage"] = 3  # type: ignore[index]
    game.objectives[0]["loot"] += 5
    game.command_dice[0].append(6)
    secret = game.secrets[0]
    assert secret is not None
    secret["primary"] = "martyr"
    game.on_table(0).clear()
    game.secured[9] = 1
    game.fired["made up"] += 1
    pending = game.pending
    if pending is not None:
        pending["dice"] = 99
    assert (game.save(), game.state()) == before


#: The modules that read a game from outside the rules: the face and its parts, the drawing, the bots,
#: the search and the lab's hooks. They read the read API (reads.py), never the position.
READERS = ("face", "face_steps", "look", "words", "menu", "drawing", "bots", "search", "coverage", "lab_events")


@pytest.mark.parametrize("name", READERS)
def test_readers_read_the_read_api_not_the_position(name: str) -> None:
    import importlib

    module = importlib.import_module(f"tablelight.games.farside.{name}")
    tree = ast.parse(inspect.getsource(module))
    reads = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr == "pos"]
    assert reads == [], f"{name}.py reads the position (game.pos) on lines {reads}: read it through reads.py"
