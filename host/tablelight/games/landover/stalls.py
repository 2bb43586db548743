"""Why random Landover games stall: the turn-capped share of random games per rules reading.

``python -m tablelight.games.landover.stalls --games 100`` plays the same seeds (0 to games-1) of
4-player games of uniformly random legal actions (``Game.random_action``, as ``tablelight bench
rules`` does) under each variant and prints, per variant, the games that reached the turn cap, the
mean number of turns, and what the barbarians did; ``--bots greedy`` has the greedy bot play every
seat instead. ``docs/rules/landover.md`` ("Why random games are long") quotes its figures.
"""

from __future__ import annotations

from tablelight.core.actions import Action

import argparse
import json
import sys
from collections import Counter
from typing import Any

from tablelight.core.errors import IllegalActionError
from tablelight.core.fields import is_chance_entry
from tablelight.core.rng import Rng
from tablelight.games.landover.cards import CULTURES
from tablelight.games.landover.engine import Landover
from tablelight.games.landover.rules import BARBARIAN_TRACK

#: name -> (record format, options); format 1 is the engine before the 2026-11-22 readings.
VARIANTS: dict[str, tuple[int, dict[str, Any]]] = {
    "format 1 (before)": (1, {}),
    "format 2 (now)": (2, {}),
    "now, barbarians_at_zero no_attack": (2, {"barbarians_at_zero": "no_attack"}),
    "now, barbarian_losers reducible": (2, {"barbarian_losers": "reducible"}),
    "now, map_numbers fixed": (2, {"map_numbers": "fixed"}),
    "now, city_resources every_city": (2, {"city_resources": "every_city"}),
    "now, no barbarians (barbarian_delay 10**6)": (2, {"barbarian_delay": 10**6}),
    "now, route_limits off": (2, {"route_limits": False}),
    "now, route_limits off, no barbarians": (2, {"route_limits": False, "barbarian_delay": 10**6}),
}


def play(seed: int, record_format: int, options: dict[str, Any], bots: str = "random", players: int = 4) -> dict[str, Any]:
    game = Landover(players, options, seed, record_format=record_format)
    rng = Rng(seed)
    greedy = [Landover.make_bot("greedy", seed * 10 + s) for s in range(players)] if bots == "greedy" else []
    blocked: set[tuple[int, str]] = set()
    attacks = bare_attacks = 0
    while not game.is_over():
        seat = game.seat
        if game.phase == "main":
            blocked |= metro_blocked(game, seat)
        track, bare = game.barbarians, not any(game.piece_count(s, "city") for s in range(players))
        game.apply(greedy[seat].choose(game) if greedy else game.random_action(rng))
        if track == BARBARIAN_TRACK - 1 and game.barbarians == 0:
            attacks += 1
            bare_attacks += bare  # no city on the board: strength 0
    chance = Counter(e["chance"] for e in game.log if is_chance_entry(e))
    cities = [game.piece_count(s, "city") for s in range(players)]
    return {
        "capped": game.capped,
        "turns": game.turns,
        "cities_reduced": chance["barbarian_city"],
        "defender_cards": chance["defender_deck"],
        "dev_cards": chance["dev_card"],
        "cities_at_end": sum(cities),
        "vp_at_end": sum(game.scores()) / players,
        "metros": sum(1 for culture in CULTURES if game.metro_holder(culture) is not None),
        "metro_blocked": len(blocked),
        "attacks": attacks,
        "attacks_on_no_city": bare_attacks,
    }


def metro_blocked(game: Landover, seat: int) -> set[tuple[int, str]]:
    """(seat, culture) pairs that could pay for level 4 and its metro but have no city without a metro."""
    out = set()
    for culture, level in game.culture(seat).items():
        if level == 3:
            try:
                game.check(Action({"type": "improve", "culture": culture}))
            except IllegalActionError as error:
                if error.rule == "landover.culture.metro_needs_city":
                    out.add((seat, culture))
    return out


def study(games: int, names: list[str], bots: str = "random") -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        record_format, options = VARIANTS[name]
        rows = [play(seed, record_format, options, bots) for seed in range(games)]
        out[name] = {
            "games": games,
            "capped": sum(r["capped"] for r in rows),
            "mean_turns": round(sum(r["turns"] for r in rows) / games, 1),
            "cities_reduced": sum(r["cities_reduced"] for r in rows),
            "defender_cards": sum(r["defender_cards"] for r in rows),
            "dev_cards": sum(r["dev_cards"] for r in rows),
            "mean_vp_at_end": round(sum(r["vp_at_end"] for r in rows) / games, 2),
            "metros": sum(r["metros"] for r in rows),
            "metro_blocked": sum(r["metro_blocked"] for r in rows),
            "attacks": sum(r["attacks"] for r in rows),
            "attacks_on_no_city": sum(r["attacks_on_no_city"] for r in rows),
        }
        print(json.dumps({name: out[name]}), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--variant", action="append", choices=list(VARIANTS), help="default: all")
    parser.add_argument("--bots", choices=("random", "greedy"), default="random", help="who plays every seat")
    args = parser.parse_args(argv)
    study(args.games, args.variant or list(VARIANTS), args.bots)
    return 0


if __name__ == "__main__":
    sys.exit(main())
