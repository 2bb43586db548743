"""Every rule of Landover the lab's coverage report counts (``tablelight lab landover --coverage``).

The lab reads this module beside the engine (:mod:`tablelight.lab.coverage`): the catalogue
names each rule a game can reach, and the lab flags the ones that never fired in a run. Action
types, cards played, pieces built and chance kinds are counted by the lab from the log;
:func:`rules_fired` adds what only the finished game knows (scoring categories, barbarian
attacks and their outcome).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.core.actions import ChanceEntry
from tablelight.games.landover.cards import CULTURES, card_table, vp_cards
from tablelight.games.landover.rules import ACTION_TYPES, BARBARIAN_TRACK, EVENT_FACES

#: action type -> (its field that names a rule, the category of that rule)
FIELD_RULES = {"play": ("card", "card"), "build": ("piece", "build"), "improve": ("culture", "improve")}
PIECES = ("road", "bridge", "village", "city", "wall")
#: Every chance kind the engine draws (a private hand steal or discard included).
CHANCE_KINDS = ("seat_order", "white_die", "red_die", "event_die", "gold", "steal", "discard", "dev_card",
                "aqueduct", "barbarian_city", "defender_deck", "mystery", "anarchy", "famine")
#: The victory point categories of the result's ``vp_breakdown``.
SCORING = ("villages", "cities", "metros", "longest_route", "port_authority", "island_explored", "merchant",
           "vp_cards", "defender")
BARBARIAN_OUTCOMES = ("attack", "cities_reduced", "no_city_lost")


def rule_catalogue(players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    """category -> every rule of that category (a card held for its points is never played, so not listed)."""
    played = [card["name"] for c in CULTURES for card in card_table()["decks"][c] if card["name"] not in vp_cards()]
    return {
        "action": sorted(ACTION_TYPES),
        "card": sorted(played),
        "build": list(PIECES),
        "improve": list(CULTURES),
        "chance": list(CHANCE_KINDS),
        "scoring": list(SCORING),
        "barbarians": list(BARBARIAN_OUTCOMES),
        "event": [f"event_die:{face}" for face in dict.fromkeys(EVENT_FACES)]
        + [f"metro_built:{c}" for c in CULTURES] + ["longest_route_held", "port_authority_held"],
    }


def rules_fired(game: Any) -> Counter[str]:
    """Scoring categories (once per seat that scores in it) and each barbarian attack with its outcome."""
    fired: Counter[str] = Counter()
    for breakdown in game.result().get("vp_breakdown", []):
        fired.update(f"scoring:{name}" for name, points in breakdown.items() if points)
    delay = int(game.options.get("barbarian_delay") or 0)
    track = 0
    attack_open = False
    for entry in game.log:
        if not isinstance(entry, ChanceEntry):
            attack_open = False
            continue
        if entry.kind == "event_die":
            attack_open = False
            if EVENT_FACES[int(entry["value"]) - 1] != "barbarian":
                continue
            if delay:
                delay -= 1
                continue
            track += 1
            if track >= BARBARIAN_TRACK:
                track = 0
                attack_open = True
                fired["barbarians:attack"] += 1
                fired["barbarians:no_city_lost"] += 1
        elif entry.kind == "barbarian_city" and attack_open:
            # The attack reduced a city after all: move it from "no city lost" once.
            fired["barbarians:no_city_lost"] -= 1
            fired["barbarians:cities_reduced"] += 1
            attack_open = False
    return +fired  # drop the zero counts
