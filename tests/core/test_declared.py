"""What a game adds is declared, never found by its name or by which methods it overrides:
whether it hides something (:attr:`Game.has_secrets`), its search tuning and its lab events
(its :class:`~tablelight.core.registry.GameEntry`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from tablelight.core.game import Action, Game, has_secrets
from tablelight.core.registry import game_class, game_entry, game_names, new_game
from tablelight.core.search_bot import Tuning, value
from tablelight.lab.events import game_events


@pytest.mark.parametrize("name", game_names())
def test_an_engine_hides_something_exactly_when_it_declares_so(name: str) -> None:
    cls = game_class(name)
    hides = cls.view is not Game.view or cls.view_log is not Game.view_log
    assert cls.has_secrets is hides, f"{name} overrides view/view_log: it must set has_secrets = {hides}"
    game = new_game(name, cls.min_players, seed=1)
    assert has_secrets(game) is has_secrets(cls) is hides


def test_the_games_with_hands_or_hidden_choices_declare_secrets() -> None:
    assert {name for name in game_names() if has_secrets(game_class(name))} == {"farside", "landover", "mainland"}


class Open(Game):
    """A game made outside the registry: nothing hidden, no entry."""

    name = "open-test"
    min_players = max_players = 2

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        self.left = 2

    def current_seat(self) -> int | None:
        return len(self.log) % 2 if self.left else None

    def legal_actions(self) -> list[Action]:
        return [Action({"type": "step"})] if self.left else []

    def _check(self, action: Action) -> Action:
        return Action({"type": "step"})

    def _perform(self, action: Action) -> None:
        self.left -= 1

    def scores(self) -> list[int]:
        return [0, 0]

    def state(self) -> dict[str, Any]:
        return {"left": self.left}


def test_a_game_without_an_entry_has_no_secrets_default_search_and_no_own_events() -> None:
    game = Open(2)
    assert not has_secrets(game)
    tuning = Tuning(game.name)
    assert tuning.determinize is None and tuning.decide is None and tuning.evaluate is value
    assert game_events(game) == {}


def test_the_search_tuning_is_the_module_the_entry_names() -> None:
    from tablelight.games.landover import search

    assert game_entry("landover").search == search.__name__
    assert Tuning("landover").decide is search.decide
    assert Tuning("landover").determinize is search.determinize


def test_the_lab_events_are_the_function_the_entry_names() -> None:
    """Landover's event die, counted by the function its entry names (the lab imports no game)."""
    from tablelight.games.landover.rules import EVENT_FACES

    game = new_game("landover", 2, seed=4)
    while not any(entry.get("chance") == "event_die" for entry in game.log):
        game.apply(game.legal_actions()[0])
    face = next(EVENT_FACES[e["value"] - 1] for e in game.log if e.get("chance") == "event_die")
    assert game_entry("landover").lab_events == "tablelight.games.landover.lab_events:lab_events"
    assert game_events(game) == {f"event_die:{face}": 1}
    assert game_events(new_game("farside", 2, seed=4)) == {"rounds": 0}
