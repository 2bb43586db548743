"""The legal listing skips what a check would refuse and lists some actions without checking them
(issue 31, for speed): at every step of seeded games it is still exactly the actions of a broad set of
candidates that the contract's own check accepts, in the same order, as their normal forms."""

from __future__ import annotations

import itertools
from typing import Any

from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.farside.engine import FarsideEncounter
from tablelight.games.farside.tables import MISSIONS, tables

from .seeded import setup_of


def candidates(game: FarsideEncounter) -> list[dict[str, Any]]:
    """Every action of the seat to act worth trying, legal or not, in the listing's order."""
    seat = game.current_seat()
    assert seat is not None
    offer, pending, failed = game.evade_offer, game.pending, game.failed
    if offer is not None:
        return [{"type": "accept", "model": offer["model"]},
                {"type": "manoeuvre", "player": seat, "name": "Evade", "model": offer["model"]}]
    if pending is not None:
        if game.options["dice"] == "press":
            return [{"type": "roll"}]
        if pending["count_fails"]:
            return [{"type": "roll", "fails": k} for k in range(pending["dice"] + 1)]
        faces = range(1, pending["sides"] + 1)
        return [{"type": "roll", "dice": list(c)} for c in itertools.combinations_with_replacement(faces, pending["dice"])]
    everyone = [mid for mid, m in game.models.items() if m["status"] == "table"]
    own = game.on_table(seat)
    if game.phase == "secrets":
        return [{"type": "secret", "primary": p, "stratagem": s, "team_size": t}
                for p in MISSIONS for s in MISSIONS for t in range(1, len(own) + 1)]
    if game.phase == "command":
        tried: list[dict[str, Any]] = []
        for die in sorted(set(game.command_dice[seat])):
            tried.append({"type": "command", "die": die})
            tried += [{"type": "command", "die": die, "chosen": mid} for mid in own]
        return tried
    if failed is not None:
        return [{"type": "failed", "model": failed["model"], "choice": c} for c in ("pass", "act", "simple")] + [
            {"type": "manoeuvre", "player": seat, "name": "Inspired"}]
    tried = [{"type": "impact", "model": mid, "tokens": n} for mid in everyone for n in range(1, 21)]
    for mid in own:
        for kind in ("simple", "complex"):
            tried += [{"type": "activate", "model": mid, "action": kind},
                      {"type": "activate", "model": mid, "action": kind, "group": True}]
        tried += [{"type": t, "model": mid} for t in ("break_through", "loot", "regenerate")]
    tried += [{"type": "secure", "zone": z} for z in range(1, game.secure_zones + 1)]
    tried += [{"type": "announce_end"}, {"type": "end_turn"}]
    tried += [{"type": "pile_in", "model": mid} for mid in own] + [{"type": "done"}]
    tried += [{"type": "dead_zone", "model": mid} for mid in everyone]
    for player in (0, 1):
        for row in tables()["manoeuvres"]:
            if row["name"] not in ("Cure", "Disappear", "The Chosen"):  # no model to name (one is optional)
                tried.append({"type": "manoeuvre", "player": player, "name": row["name"]})
                continue
            tried += [{"type": "manoeuvre", "player": player, "name": row["name"], "model": mid} for mid in game.on_table(player)]
            tried += [{"type": "manoeuvre", "player": player, "name": row["name"], "model": mid, "loot": True}
                      for mid in game.on_table(player)]
    return tried


def accepted(game: FarsideEncounter) -> list[Action]:
    """The candidates ``game.check`` accepts, as their normal forms (a Cure with loot is a Cure), each once, in order."""
    found: list[Action] = []
    for action in candidates(game):
        if game.is_legal(action):
            checked = game.check(action)
            if checked not in found:
                found.append(checked)
    return found


#: (seed, options, armies from the lab's pool or None for the demo forces, the tactician plays or random)
GAMES: list[tuple[int, dict[str, Any], tuple[int, int] | None, bool]] = [
    (21, {"round_limit": 4}, None, False),
    (22, {"dice": "table", "round_limit": 3}, (4, 1), False),  # the troll band regenerates
    (23, {"game_end": "announced", "objective_limit": 1, "round_limit": 5}, (2, 4), False),
    (24, {"dice": "press", "round_limit": 3}, (0, 3), False),
    (25, {}, (4, 4), True),
    (26, {"dice": "table"}, (4, 2), True),
    (27, {}, None, True),
    (28, {"game_end": "announced"}, (1, 4), True),
]


def test_the_listing_is_what_the_checks_accept() -> None:
    kinds: set[str] = set()
    for seed, options, armies, tactician in GAMES:
        game = FarsideEncounter(2, options, seed, setup=setup_of(armies))
        rng = Rng(seed)
        bots = [FarsideEncounter.make_bot("tactician", seed + seat) for seat in (0, 1)]
        while not game.is_over():
            listed = game.legal_actions()
            assert listed == accepted(game), (seed, len(game.log), game.phase, game.pending)
            kinds |= {a["type"] for a in listed}
            seat = game.current_seat()
            assert seat is not None
            game.apply(bots[seat].choose(game) if tactician else game.random_action(rng))
    assert kinds >= {"impact", "activate", "secure", "manoeuvre", "dead_zone", "done", "end_turn", "pile_in",
                     "regenerate", "loot", "break_through", "failed", "accept", "announce_end", "roll"}, kinds
