"""The armies of the lab's Farside games: a roster pool, each seat drawing its army per game.

``tablelight lab farside`` draws both seats' armies from a pool of rosters (the format of
``docs/farside-roster.md``), each seat on its own, with the game's setup seed:

* by default the pool is the rosters in ``games/farside/armies/`` (the demo force, a troll band that
  regenerates, rangers with long guns, beast riders, militia), each a *force* of 200-310 points that
  is repeated as many whole times as fit into the variant's points level (at least once), as the
  tracker does with the demo force;
* ``--roster FILE`` (repeat it) replaces the pool with your rosters, played as written: with one
  file every game is a mirror match, with two or more each seat draws one at random. A roster
  costing more than a variant's points level is refused before any game (unless
  ``--points-check record``).

So the same plan always plays the same armies, on any number of workers, and the armies vary
from game to game as tables do.
"""

from __future__ import annotations

import argparse
from importlib import resources
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.rng import Rng
from tablelight.games.farside.army import cost_army
from tablelight.games.farside.roster import Roster, parse_roster, read_roster, roster_from_json
from tablelight.games.farside.forces import army_from_report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--roster", action="append", metavar="FILE",
        help="a roster file (.toml/.json, docs/farside-roster.md); repeat for a pool each seat draws from "
        "(default: the built-in pool of five forces, repeated to fit the points level)",
    )


def pool() -> list[Roster]:
    """The built-in rosters, in name order."""
    folder = resources.files("tablelight.games.farside.armies")
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=lambda f: f.name)
    return [parse_roster(f.read_text(encoding="utf-8"), "toml") for f in files]


def plan_setup(args: argparse.Namespace, variants: list[dict[str, Any]]) -> dict[str, Any]:
    """The pool every game draws from, as JSON; given rosters are checked against each variant's level."""
    paths = getattr(args, "roster", None) or []
    rosters = [read_roster(path) for path in paths] if paths else pool()
    if paths:
        for variant in variants:
            options = variant["options"]
            for path, roster in zip(paths, rosters):
                cost = cost_army(roster).total
                if options["points_check"] == "cap" and cost > options["points_level"]:
                    raise SetupError(
                        f"--roster {path} ({roster.name}) costs {cost} points, over the {options['points_level']}-point "
                        f"level of variant {variant['label']} (--points-check record accepts it)"
                    )
    return {"rosters": [roster.to_json() for roster in rosters], "scaled": not paths}


def game_setup(plan: dict[str, Any], players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """Both seats' armies for one game, drawn with ``seed``."""
    rng = Rng(seed)
    armies = []
    for _seat in range(players):
        roster = roster_from_json(rng.choice(plan["rosters"]))
        if plan["scaled"]:
            copies = max(1, options["points_level"] // cost_army(roster).total)
            for entry in roster.models:
                entry.count *= copies
        armies.append(army_from_report(cost_army(roster)))
    return {"armies": armies}
