"""A Farside Encounter bot that plays whole games: it fights the table's battle as well as keeping the books.

The engine tracks rounds and missions; the fight itself happens with miniatures
on the table, and players *record* its outcome (impact tokens). A random bot
therefore records absurd amounts of impact (97% of its actions) and every game
ends in the first round. :class:`TacticianBot` plays as a player would:

* it notes a primary objective that fits the table (loot when there are loot
  tokens, else securing zones) and destruction as its stratagem;
* it takes the larger command die as action points, unless a damaged model makes
  a manoeuvre die of 5 or 6 worth more than a point or two; a 6 it keeps names
  The Chosen (with the command die) when no model needs a Cure;
* each action point activates one model: the model shoots or fights the enemy
  model it can best finish off, and the bot records the impact tokens its own
  attack roll gives (the model's profile and weapons at a range band drawn at
  random, :mod:`tablelight.games.farside.standin`, a chosen model's ones counting
  as sixes; rolled with the bot's own generator -- standing in for the table), a
  model with Regeneration and damage regenerates instead, or, for its primary
  objective, it loots, secures a zone or breaks through (within :func:`table_allows`);
* a model with two damage tokens plans a simple action (it fails less often);
  a failed complex action becomes the simple one the roll allows; a failed model
  with two damage tokens acts as a martyr while the martyr point is still to be
  had (and it is not the last model), else Inspired rerolls it (a manoeuvre die
  of 4, or 5+ for a model at two damage tokens), else it passes;
* it Evades a defence roll that does more damage than a fresh roll does on
  average; with a manoeuvre die of 5+ a model at two damage tokens Disappears
  (carrying loot or breaking through, for those primaries) or is cured; an
  unused die of 3 or 4 fires a Sniper shot before the enemy's turn.

With ``dice = table`` or ``press`` it also makes its seat's rolls.

The tracker trusts what players record, so the tactician and the search bot
(``games/farside/search.py``) play the same stand-in table, :func:`table_allows`:
impact tokens only from the stand-in attack dice, no group activations, only
one's own manoeuvres, no dead zones, and a model leaves the table (loot, break
through, Disappear) never as the last model on the table, carries loot or
breaks through only after it was activated this turn (it had to get there),
and breaks through only from round ``LATE_ROUND`` (crossing the table takes turns).
"""

from __future__ import annotations

import math
from typing import Any

from tablelight.core.actions import FrozenList
from tablelight.core.fields import is_action_entry
from tablelight.core.game import Action
from tablelight.core.rng import Rng
from tablelight.games.farside.standin import can_snipe, roll_attack

#: Round from which a model breaks through when it cannot do better (the enemy is worn down).
LATE_ROUND = 3


class TacticianBot:
    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Any) -> Action:
        seat = game.current_seat()
        assert seat is not None
        if game.pending is not None:
            return self._roll(game)
        if game.evade_offer is not None:
            return self._evade(game, seat)
        if game.phase == "secrets":
            return self._secret(game, seat)
        if game.phase == "command":
            return self._command(game, seat)
        if game.failed is not None:
            return self._failed(game, seat)
        if game.phase == "melee":
            return Action({"type": "done"})
        return self._action_phase(game, seat)

    def _roll(self, game: Any) -> Action:
        pending = game.pending
        if game.options["dice"] == "press":
            return Action({"type": "roll"})
        faces = [self.rng.between(1, pending["sides"]) for _ in range(pending["dice"])]
        if pending["count_fails"]:
            return Action({"type": "roll", "fails": game.defense_fails(pending["model"], faces)})
        return Action({"type": "roll", "dice": FrozenList(sorted(faces))})

    def _secret(self, game: Any, seat: int) -> Action:
        primary = "loot" if game.loot_left >= 3 else "secure"
        team = max(1, min(2, len(game.on_table(seat))))
        return Action({"type": "secret", "primary": primary, "stratagem": "destruction", "team_size": team})

    def _command(self, game: Any, seat: int) -> Action:
        low, high = sorted(game.command_dice[seat])
        take, keep = high, low
        damaged = [game.models[mid]["damage"] for mid in game.on_table(seat) if game.models[mid]["damage"]]
        if high >= 5 and low >= 3 and damaged:  # a Cure, Evade or The Chosen is worth a point or two
            take, keep = low, high
        action = Action({"type": "command", "die": take})
        if keep == 6 and max(damaged, default=0) < 2 and game.record_format >= 4:
            chosen = max(game.on_table(seat), key=lambda m: (game.models[m]["damage"], game.models[m]["points"], m))
            action = action.replace(chosen=chosen)
        return action

    def _evade(self, game: Any, seat: int) -> Action:
        """Evade when the roll does more damage than a fresh roll does on average."""
        offer = game.evade_offer
        mid = offer["model"]
        model = game.models[mid]
        damage = max(0, offer["fails"] - (model["size"] - 1))
        if damage > fresh_damage(game, mid):
            return Action({"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid})
        return Action({"type": "accept", "model": mid})

    def _failed(self, game: Any, seat: int) -> Action:
        mid = game.failed["model"]
        model = game.models[mid]
        simple = Action({"type": "failed", "model": mid, "choice": "simple"})
        if game.is_legal(simple):
            return simple  # the roll allows a simple action: no damage token
        act = Action({"type": "failed", "model": mid, "choice": "act"})
        if model["damage"] < 2:
            return act
        if not game.martyr_given and len(game.on_table(seat)) > 1 and game.on_table(1 - seat):
            return act  # a martyr: it still fights, and the first martyr scores
        die = game.manoeuvre_die[seat] or 0
        inspired = Action({"type": "manoeuvre", "player": seat, "name": "Inspired"})
        if die >= 4 and game.is_legal(inspired):
            return inspired
        return Action({"type": "failed", "model": mid, "choice": "pass"})

    def _action_phase(self, game: Any, seat: int) -> Action:
        follow = self._follow_up(game, seat)
        if follow is not None:
            return follow
        ready = [mid for mid in game.on_table(seat) if not game.models[mid]["activated"]]
        manoeuvre = self._manoeuvre(game, seat)  # no action point needed
        if manoeuvre is not None:
            return manoeuvre
        if game.action_points[seat] >= 1:
            secret = game.secrets[seat] or {}
            mission = self._mission(game, seat, secret.get("primary"))
            if mission is not None:
                return mission
            if ready:
                # The healthiest model fights; a damaged one risks failing its activation, so a model at
                # two damage tokens (or one that regenerates) plans a simple action.
                mid = min(ready, key=lambda m: (game.models[m]["damage"], m))
                model = game.models[mid]
                simple = model["damage"] >= 2 or (model["damage"] and "Regeneration" in model.get("rules", ()))
                return Action({"type": "activate", "model": mid, "action": "simple" if simple else "complex"})
        return self._sniper(game, seat) or Action({"type": "end_turn"})

    def _follow_up(self, game: Any, seat: int) -> Action | None:
        """What the last action of this seat started: its model's attack (or regeneration)."""
        # Rolls entered at the table (dice = table or press) come between an activation and its attack.
        last = next((entry for entry in reversed(game.log)
                     if is_action_entry(entry) and entry["action"]["type"] != "roll"), None)
        if not last or last.get("seat") != seat:
            return None
        action = last["action"]
        if action["type"] == "activate" or (action["type"] == "failed" and action["choice"] != "pass"):
            mid = action["model"]
            model = game.models[mid]
            if model["status"] == "table" and model.get("action") == "simple" and model["damage"]:
                regenerate = Action({"type": "regenerate", "model": mid})
                if game.is_legal(regenerate):
                    return regenerate
            if model["status"] == "table" or action["type"] == "failed":  # a martyr fights before it falls
                return self._attack(game, seat, mid, model.get("action", "complex"))
        if action["type"] == "manoeuvre" and action["name"] == "Sniper":
            snipers = [m for m in game.on_table(seat) if can_snipe(game.models[m])]
            if snipers:
                sniper = max(snipers, key=lambda m: (game.models[m]["size"], -game.models[m]["damage"], m))
                return self._attack(game, seat, sniper, "complex", sniper=True)
        return None

    def _attack(self, game: Any, seat: int, mid: str, kind: str, sniper: bool = False) -> Action | None:
        """The stand-in attack of model ``mid`` (:mod:`.standin`): impact tokens on the enemy model it
        can best finish off."""
        target = self._target(game, 1 - seat)
        if target is None or kind not in ("simple", "complex"):
            return None

        def counts(face: int) -> int:
            return int(game.counts_as(mid, face))

        if sniper:  # a focused shot over 30 cm
            hits = roll_attack(game.models[mid], kind, self.rng, counts, band="inf", melee=False)
        else:
            hits = roll_attack(game.models[mid], kind, self.rng, counts)
        return Action({"type": "impact", "model": target, "tokens": hits}) if hits else None

    def _manoeuvre(self, game: Any, seat: int) -> Action | None:
        """A manoeuvre die of 5+ saves a model at two damage tokens: for a loot or breakthrough primary
        it Disappears once it has moved this turn (carrying loot off the table), else it is cured."""
        if game.manoeuvre_used[seat] is not None or (game.manoeuvre_die[seat] or 0) < 5:
            return None
        primary = (game.secrets[seat] or {}).get("primary")
        leaves = primary == "breakthrough" or (primary == "loot" and game.loot_left > 0)
        for mid in [mid for mid in game.on_table(seat) if game.models[mid]["damage"] >= 2]:
            if leaves and len(game.on_table(seat)) > 1:
                if not game.models[mid]["activated"]:
                    continue  # it moves first (to the loot token), then Disappears
                disappear = Action({"type": "manoeuvre", "player": seat, "name": "Disappear", "model": mid})
                if primary == "loot":
                    disappear = disappear.replace(loot=True)
                if game.is_legal(disappear) and table_allows(game, disappear, seat):
                    return disappear
            cure = Action({"type": "manoeuvre", "player": seat, "name": "Cure", "model": mid})
            if game.is_legal(cure):
                return cure
        return None

    def _sniper(self, game: Any, seat: int) -> Action | None:
        """An unused manoeuvre die of 3 or 4 at the end of the first turn: a Sniper shot before the enemy acts."""
        sniper = Action({"type": "manoeuvre", "player": seat, "name": "Sniper"})
        if game.phase != "action" or game.first != seat or (game.manoeuvre_die[seat] or 0) >= 5:
            return None
        snipers = [m for m in game.on_table(seat) if can_snipe(game.models[m])]
        if snipers and game.on_table(1 - seat) and game.is_legal(sniper):
            return sniper
        return None

    def _mission(self, game: Any, seat: int, primary: str | None) -> Action | None:
        if primary == "secure":
            for zone in range(1, game.secure_zones + 1):
                if game.secured.get(zone) != seat:
                    return Action({"type": "secure", "zone": zone})
        moved = [mid for mid in game.on_table(seat) if game.models[mid]["activated"]]
        if not moved:
            return None
        weakest = max(moved, key=lambda m: (game.models[m]["damage"], m))
        if primary == "loot" and game.loot_left > 0 and self.rng.random() < 0.5:
            action = Action({"type": "loot", "model": weakest})
        elif primary == "breakthrough" or game.models[weakest]["damage"] >= 2:
            action = Action({"type": "break_through", "model": weakest})
        else:
            return None
        return action if table_allows(game, action, seat) else None

    def _target(self, game: Any, enemy: int) -> str | None:
        """The enemy model closest to being removed, the most expensive among equals."""
        models = game.on_table(enemy)
        if not models:
            return None
        best: str = max(models, key=lambda m: (game.models[m]["damage"], game.models[m]["points"], m))
        return best


def fresh_damage(game: Any, mid: str) -> float:
    """The mean damage of a fresh defence roll of model ``mid``'s impact tokens (size ignores fails;
    a chosen model's ones count as sixes)."""
    model = game.models[mid]
    dice, ignored = model["impact"], model["size"] - 1
    fail = sum(1 for face in range(1, 7) if game.counts_as(mid, face) < model["defense"]) / 6
    return sum(
        math.comb(dice, k) * fail**k * (1 - fail) ** (dice - k) * max(0, k - ignored) for k in range(dice + 1)
    )


def table_allows(game: Any, action: Action, seat: int) -> bool:
    """Whether a player could make ``action`` at the stand-in table (see the module docstring)."""
    kind = action["type"]
    if kind in ("impact", "dead_zone") or action.get("group") or (kind == "manoeuvre" and action["player"] != seat):
        return False
    if kind == "manoeuvre" and action["name"] == "Disappear":
        if len(game.on_table(seat)) <= 1:
            return False
        return not action.get("loot") or game.models[action["model"]]["activated"]
    if kind in ("loot", "break_through"):
        if not game.models[action["model"]]["activated"] or len(game.on_table(seat)) <= 1:
            return False
        return kind == "loot" or game.round >= LATE_ROUND
    return True
