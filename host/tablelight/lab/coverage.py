"""Rule coverage: how often each rule of a game fired in a lab run, and which never did.

Each game declares its rules in a module ``coverage`` beside its engine (``games/<game>/coverage.py``
for the built-in games; found through the game's :class:`~tablelight.core.registry.GameEntry`, so
the lab names no game). The module gives:

- ``rule_catalogue(players, options)``: category -> every rule of that category
  (``{"action": ["build", ...], "card": ["inventor", ...]}``), the list a run is checked against;
- ``FIELD_RULES`` (optional): action type -> (field, category), a field of the action that names a
  rule (Landover's ``play`` names a ``card``), with ``card_family`` (optional) to shorten a card id
  to its rule;
- ``rules_fired(game)`` (optional): counts only the finished game knows (scoring categories...);
- ``key_seats(game)`` (optional): role -> seat, seats whose wins the seat balance reports
  (Farlander's first attacker, drawn apart from the first to place);
- ``unreachable(players, options)`` (optional): rule -> why it cannot fire in this variant (an
  option turns it off: Farside's round limit of 0). Such a rule is not in the catalogue; the
  report names it with its reason, so a rule left out is never silently missing.

The lab counts the rest from the log: every player action type (``action:<type>``), every chance
kind (``chance:<kind>``), forced skips (``forced:<type>``) and the events of :mod:`.events`
(``event:<name>``). A game without the module still gets its counts, with nothing flagged.
"""

from __future__ import annotations

import importlib
from collections import Counter
from functools import cache
from types import ModuleType
from typing import Any

from tablelight.core.actions import ChanceEntry
from tablelight.core.game import Game
from tablelight.core.registry import game_entry
from tablelight.lab.stats import proportion

#: Categories the lab counts from the log itself; the events of :mod:`.events` go under "event".
LOG_CATEGORIES = ("action", "chance", "forced")


@cache
def game_module(game: str, module: str) -> ModuleType | None:
    """The game's module ``module`` next to its engine (``coverage``, ``lab_setup``), or None."""
    package = game_entry(game).engine.partition(":")[0].rpartition(".")[0]
    name = f"{package}.{module}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise  # the module exists but imports something missing: a real fault
        return None


def declaration(game: str) -> ModuleType | None:
    """The game's ``coverage`` module (next to its engine), or None when it declares none."""
    return game_module(game, "coverage")


def catalogue(game: str, players: int, options: dict[str, Any]) -> dict[str, list[str]]:
    """category -> every rule the game declares for this variant ({} when it declares none)."""
    module = declaration(game)
    if module is None:
        return {}
    return {category: list(names) for category, names in module.rule_catalogue(players, options).items()}


def unreachable(game: str, players: int, options: dict[str, Any]) -> dict[str, str]:
    """rule -> the reason it cannot fire in this variant ({} when the game says nothing)."""
    module = declaration(game)
    if module is None or not hasattr(module, "unreachable"):
        return {}
    return dict(sorted(module.unreachable(players, options).items()))


def fired_in_game(game: Game) -> dict[str, int]:
    """``category:name`` -> count for the rules a game's summary does not hold already.

    The summary keeps action types and events (chance kinds, forced skips, :mod:`.events`); this
    adds the rule named by a field of an action (a card played, a piece built) and the game's own
    ``rules_fired``.
    """
    module = declaration(game.name)
    if module is None:
        return {}
    fired: Counter[str] = Counter()
    field_rules: dict[str, tuple[str, str]] = getattr(module, "FIELD_RULES", {})
    family = getattr(module, "card_family", None)
    for entry in game.log:
        if isinstance(entry, ChanceEntry) or entry.get("auto"):
            continue
        action = entry["action"]
        rule = field_rules.get(action.get("type"))
        if rule is None:
            continue
        value = action.get(rule[0])
        if isinstance(value, str):
            fired[f"{rule[1]}:{family(value) if family else value}"] += 1
    if hasattr(module, "rules_fired"):
        fired.update(module.rules_fired(game))
    return dict(sorted(fired.items()))


def key_seats(game: Game) -> dict[str, int]:
    """role -> seat, for the seats the game's balance turns on (its declaration's ``key_seats``)."""
    module = declaration(game.name)
    if module is None or not hasattr(module, "key_seats"):
        return {}
    return dict(module.key_seats(game))


def game_rules(record: dict[str, Any]) -> Counter[str]:
    """Every rule one game's summary shows fired, as ``category:name`` -> count."""
    rules: Counter[str] = Counter({f"action:{kind}": n for kind, n in record["action_types"].items()})
    for key, n in record["events"].items():
        category = key.partition(":")[0]
        rules[key if category in LOG_CATEGORIES else f"event:{key}"] += n
    rules.update(record.get("rules", {}))  # absent in results files written before coverage
    return rules


def coverage(game: str, variant: dict[str, Any], games: list[dict[str, Any]]) -> dict[str, Any]:
    """Per category, each rule's count per game and share of games; the declared rules never fired.

    A rule fired that the catalogue does not name is listed too (``undeclared``): the catalogue
    is behind the engine. Events are left out of that check: some are measures (rounds played).
    """
    per_game = [game_rules(g) for g in games]
    totals: Counter[str] = Counter()
    in_games: Counter[str] = Counter()
    for rules in per_game:
        totals.update(rules)
        in_games.update(key for key, n in rules.items() if n > 0)
    declared = catalogue(game, variant["players"], variant["options"])
    keys = {f"{category}:{name}" for category, names in declared.items() for name in names}
    # Events also hold measures that are no rules (Farside's rounds played): never called undeclared.
    checked = (set(declared) | set(LOG_CATEGORIES)) - {"event"} if declared else set()
    n = len(games)
    table: dict[str, dict[str, Any]] = {}
    for key in sorted(keys | set(totals)):
        category, _, name = key.partition(":")
        table.setdefault(category, {})[name] = {
            "per_game": round(totals[key] / max(n, 1), 3),
            "games": proportion(in_games[key], n),
        }
    never = sorted(key for key in keys if in_games[key] == 0)
    return {
        "declared": len(keys),
        "fired": len(keys) - len(never),
        "never_fired": never,
        "unreachable": unreachable(game, variant["players"], variant["options"]),
        "undeclared": sorted(k for k in totals if k not in keys and k.partition(":")[0] in checked),
        "rules": table,
    }
