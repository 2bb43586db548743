"""Issue 34: every game's coverage counts a rule where it fires. Each test plays a seeded game (or
builds one by its actions) in which a rule is known to fire, from the log or the result, and checks
the lab counts it."""

from __future__ import annotations

from typing import Any

from tablelight.core.actions import ChanceEntry
from tablelight.core.game import Game
from tablelight.core.registry import game_class
from tablelight.lab.coverage import catalogue, fired_in_game
from tests.farside.test_rules_as_written import TROLLS, act, roll, started


def played(game: str, players: int, bot: str, seed: int, options: dict[str, Any] | None = None) -> Game:
    cls = game_class(game)
    finished = cls(players, options or {}, seed)
    bots = [cls.make_bot(bot, 100 + seat) for seat in range(players)]
    while not finished.is_over():
        seat = finished.current_seat()
        finished.apply(bots[seat].choose(finished), seat=seat)
    return finished


def actions(game: Game) -> list[dict[str, Any]]:
    return [e["action"] for e in game.log if not isinstance(e, ChanceEntry) and not e.get("auto")]


def declared(game: Game) -> set[str]:
    return {f"{c}:{n}" for c, names in catalogue(game.name, game.players, dict(game.options)).items() for n in names}


def test_farside_counts_the_chosen_named_with_the_command_die() -> None:
    # The first seeded game in which the tactician keeps a 6 as its manoeuvre die and names The Chosen
    # with its command die: the moment the coverage used to miss (it counted only the manoeuvre action).
    for seed in range(20):
        game = played("farside", 2, "tactician", seed)
        named = [a for a in actions(game) if a["type"] == "command" and "chosen" in a]
        if named:
            break
    assert named and not [a for a in actions(game) if a["type"] == "manoeuvre" and a["name"] == "The Chosen"]
    assert fired_in_game(game)["manoeuvre:The Chosen"] == len(named)
    assert "manoeuvre:The Chosen" in declared(game)


def test_farside_counts_regeneration_and_its_outcome() -> None:
    game = started(TROLLS, manoeuvre=(2, 4))
    act(game, 0, type="impact", model="b1", tokens=1)  # seat 0's turn: the troll takes a damage token
    act(game, 0, type="end_turn")
    act(game, 0, type="done")
    act(game, 1, type="done")
    roll(game, 1)  # the troll's defence roll fails
    assert game.models["b1"]["damage"] == 1 and game.active == 1
    act(game, 1, type="activate", model="b1", action="simple")
    roll(game, 4)  # the activation roll
    act(game, 1, type="regenerate", model="b1")
    roll(game, 5)  # 3+: a damage token removed
    fired = fired_in_game(game)
    assert fired["regeneration:healed"] == 1 and fired["activation:roll_passed"] == 1
    assert {"regeneration:healed", "action:regenerate", "action:roll"} <= declared(game)  # dice = table


def test_farside_declares_every_mission_as_primary_and_stratagem() -> None:
    rules = catalogue("farside", 2, {})
    missions = ["loot", "breakthrough", "secure", "destruction", "heavy loss", "grand slam", "martyr", "obliteration"]
    assert rules["primary"] == rules["stratagem"] == rules["mission"] == missions
    assert {"regenerate", "dead_zone"} <= set(rules["action"])
    assert "round_limit" not in rules["end"] and "round_limit" in catalogue("farside", 2, {"round_limit": 5})["end"]


def test_farlander_counts_a_shared_win_and_garrison_conquests() -> None:
    # Seed 11, three strong bots (garrisons on by default at 3): seats 1 and 2 share the win.
    game = played("farlander", 3, "strong", 11)
    assert len(game.winners()) == 2
    fired = fired_in_game(game)
    assert fired["end:shared_win"] == 1 and "end:single_winner" not in fired
    garrison_targets = [a for a in actions(game) if a["type"] == "conquer"
                        and game.map.territories[game.index[a["target"]]].garrison]
    assert garrison_targets and fired["conquest:garrison"] == len(garrison_targets)
    # Every conquest moves units out of bordering territories, each keeping at least one.
    assert 0 < fired["conquest:source_keeps_one"] and fired["conquest:enemy"] == len(
        [a for a in actions(game) if a["type"] == "conquer"])
    assert {"end:shared_win", "conquest:garrison", "distribution:reinforce"} <= declared(game)


def test_mainland_counts_every_clans_camp() -> None:
    game = played("mainland", 3, "greedy", 4)
    camps = [a for a in actions(game) if a["type"] == "place" and str(a["card"]).startswith("camp")]
    assert len(camps) == 3 and fired_in_game(game)["card:camp"] == 3


def test_landover_counts_each_card_played() -> None:
    game = played("landover", 3, "greedy", 5)
    plays = [a["card"] for a in actions(game) if a["type"] == "play"]
    assert plays
    fired = fired_in_game(game)
    for card in set(plays):
        assert fired[f"card:{card}"] == plays.count(card)


def test_farside_names_the_seat_that_acted_first_in_round_one() -> None:
    from tablelight.lab.coverage import key_seats

    game = played("farside", 2, "tactician", 3)
    first_round = [e for e in game.log if not isinstance(e, ChanceEntry)
                   and e["action"]["type"] not in ("secret", "command", "roll")]
    assert key_seats(game) == {"first to act": first_round[0]["seat"]}
    assert key_seats(game_class("farside")(2, {}, 3)) == {}
