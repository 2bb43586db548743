"""Seeded Landover games whose every output is fingerprinted: the record's text, every legal listing,
and every few steps the state, each seat's view and view log (what ``rules serve`` sends). The
fingerprints in ``seeded-digests.json`` were taken from the engine before it became a position
plus rule functions (2026-11-28, the class chain); ``test_landover_same_records.py`` plays the same
games now and compares. ``python -m tests.landover.seeded`` prints them afresh (to compare by eye or
to write the file again after a deliberate change of the rules, with the reason in the commit)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.landover.engine import Landover

DIGESTS = Path(__file__).parent / "seeded-digests.json"
#: Every this many steps the state, views and view logs are fingerprinted too.
VIEW_EVERY = 37

#: name -> (players, seed, options, record format, bots: "random", "greedy" or a search bot name).
CASES: dict[str, tuple[int, int, dict[str, Any], int, str]] = {
    "2p-random": (2, 1, {"turn_cap": 300}, 3, "random"),
    "3p-random": (3, 2, {"turn_cap": 250}, 3, "random"),
    "4p-random": (4, 3, {"turn_cap": 250}, 3, "random"),
    "4p-random-b": (4, 4, {"turn_cap": 400}, 3, "random"),
    "2p-random-map": (2, 5, {"map_name": "random", "turn_cap": 250}, 3, "random"),
    "3p-limits": (3, 6, {"settlement_limits": True, "route_limits": False, "turn_cap": 250}, 3, "random"),
    "4p-readings": (4, 7, {
        "map_numbers": "fixed", "barbarian_losers": "reducible", "barbarians_at_zero": "no_attack",
        "city_resources": "every_city", "explorer_each_island": False, "barbarian_delay": 3, "turn_cap": 250,
    }, 3, "random"),
    "3p-format1": (3, 8, {"turn_cap": 200}, 1, "random"),
    "4p-format2": (4, 9, {"turn_cap": 200}, 2, "random"),
    "2p-greedy": (2, 10, {"target": 12}, 3, "greedy"),
    "4p-greedy": (4, 11, {"turn_cap": 200}, 3, "greedy"),
    "3p-greedy-random-map": (3, 12, {"map_name": "random", "turn_cap": 200}, 3, "greedy"),
    "2p-mcts": (2, 13, {"turn_cap": 6}, 3, "mcts:8"),
}


def play(name: str) -> dict[str, str]:
    """The fingerprints of case ``name``: its record text, its listings, its views."""
    players, seed, options, record_format, bots = CASES[name]
    game = Landover(players, options, seed, record_format=record_format)
    rng = Rng(seed)
    chooser = None if bots == "random" else [Landover.make_bot(bots, seed * 10 + s) for s in range(players)]
    listings = hashlib.sha256()
    views = hashlib.sha256()
    step = 0
    while not game.is_over():
        listings.update(json.dumps(game.legal_actions(), separators=(",", ":")).encode())
        if step % VIEW_EVERY == 0:
            views.update(json.dumps(game.state(), sort_keys=True).encode())
            for seat in range(players):
                views.update(json.dumps(game.view(seat), sort_keys=True).encode())
                views.update(json.dumps(game.view_log(seat), separators=(",", ":")).encode())
            views.update(game.describe().encode())
        action = game.random_action(rng) if chooser is None else chooser[game.current_seat()].choose(game)
        game.apply(action)
        step += 1
    views.update(json.dumps(game.state(), sort_keys=True).encode() + game.describe_result().encode())
    return {
        "record": hashlib.sha256(game.save().encode()).hexdigest(),
        "listings": listings.hexdigest(),
        "views": views.hexdigest(),
        "steps": str(step),
    }


def main() -> int:
    out = {name: play(name) for name in CASES}
    text = json.dumps(out, indent=1, sort_keys=True)
    if sys.argv[1:] == ["--write"]:
        DIGESTS.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
