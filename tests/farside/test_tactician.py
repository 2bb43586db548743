"""The tactician bot plays every manoeuvre and mission the stand-in table has, when it pays (issue 25:
it never Evaded, never took the simple action a failed roll allows, never made a martyr)."""

from __future__ import annotations

from collections import Counter

import pytest

from tablelight.core.fields import is_action_entry
from tablelight.core.registry import game_class
from tablelight.games.farside.bots import fresh_damage

from .test_rules_as_written import DUEL, act, started


def bot_games(count: int) -> tuple[Counter[str], Counter[str]]:
    """What the tactician did over ``count`` games against itself: its choices and the missions scored."""
    cls = game_class("farside")
    choices: Counter[str] = Counter()
    missions: Counter[str] = Counter()
    for seed in range(count):
        game = cls(2, None, seed)
        bots = [cls.make_bot("tactician", seed), cls.make_bot("tactician", seed + 1000)]
        while not game.is_over():
            game.apply(bots[game.current_seat()].choose(game))
        for entry in filter(is_action_entry, game.log):
            action = entry["action"]
            if action["type"] == "manoeuvre":
                choices[action["name"] + " with loot" * bool(action.get("loot"))] += 1
            elif action["type"] == "command" and "chosen" in action:
                choices["The Chosen"] += 1
            elif action["type"] == "failed":
                choices[f"failed {action['choice']}"] += 1
        for objectives in game.objectives:
            missions.update({mission: n for mission, n in objectives.items() if n})
    return choices, missions


def test_the_tactician_plays_every_manoeuvre_with_an_effect_and_every_mission() -> None:
    choices, missions = bot_games(300)
    for name in ("Evade", "The Chosen", "Cure", "Inspired", "Disappear with loot", "Sniper",
                 "failed simple", "failed act", "failed pass"):
        assert choices[name] > 0, (name, choices)
    assert set(missions) == {"loot", "breakthrough", "secure", "destruction", "heavy loss", "grand slam",
                             "martyr", "obliteration"}, missions


@pytest.mark.parametrize("fails, choice", [(3, "manoeuvre"), (2, "manoeuvre"), (1, "accept")])
def test_the_tactician_evades_a_roll_worse_than_a_fresh_one(fails: int, choice: str) -> None:
    game = started(DUEL, manoeuvre=(2, 6))  # seat 1 keeps a 6: Evade is offered
    act(game, 0, type="impact", model="b1", tokens=3)
    act(game, 0, type="end_turn")
    act(game, 0, type="done")
    act(game, 1, type="done")
    act(game, 1, type="roll", fails=fails)
    assert game.evade_offer == {"model": "b1", "fails": fails}
    assert fresh_damage(game, "b1") == 1.5  # three dice failing on 1-3
    bot = game_class("farside").make_bot("tactician", 0)
    assert bot.choose(game)["type"] == choice
