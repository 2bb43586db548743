"""Every rule of Mainland the lab's coverage report counts (``tablelight lab mainland --coverage``).

The lab reads this module beside the engine (:mod:`tablelight.lab.coverage`) and flags the rules
that never fired in a run. Action types and chance kinds come from the log; the lab reads the
card family of each placement through :data:`FIELD_RULES` and :func:`card_family`;
:func:`rules_fired` adds what the finished board shows (items standing, scoring categories).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.games.mainland.data import ITEM_NAMES

ACTIONS = ("place", "replace", "gather", "pass")
#: action type -> (its field that names a rule, the category of that rule); a card id names its
#: family plus a number ("tower6"), and the family is the rule.
FIELD_RULES = {"place": ("card", "card"), "replace": ("card", "replace")}
CARD_FAMILIES = ("camp", "castle", "land", "rider", "tower", "village", "warrior")
#: The parts of a clan's score in the result's ``breakdown``.
SCORING = ("mainland_tiles", "mainland_items", "minor_items")


def card_family(card: str) -> str:
    """``"tower6"`` -> ``"tower"`` (the lab's name for the rule a card brings)."""
    return card.rstrip("0123456789")


def rule_catalogue(players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    return {
        "action": list(ACTIONS),
        "card": list(CARD_FAMILIES),
        "replace": [family for family in CARD_FAMILIES if family != "camp"],
        "chance": ["shuffle"],
        "item": [name for name in ITEM_NAMES if name != "empty"],
        "scoring": list(SCORING),
    }


def rules_fired(game: Any) -> Counter[str]:
    """Each item standing on the final board (once per game) and each scoring part a clan scored in."""
    result = game.result()
    fired: Counter[str] = Counter(f"item:{name}" for name in {cell["item"] for cell in result.get("board", [])})
    for clan in result.get("breakdown", []):
        fired.update(f"scoring:{name}" for name in SCORING if clan.get(name))
    return fired
