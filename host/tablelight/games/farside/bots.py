"""A Farside Encounter bot that plays whole games: it fights the table's battle as well as keeping the books.

The engine tracks rounds and missions; the fight itself happens with miniatures
on the table, and players *record* its outcome (impact tokens). A random bot
therefore records absurd amounts of impact (97% of its actions) and every game
ends in the first round. :class:`TacticianBot` plays as a player would:

* it notes a primary objective that fits the table (loot when there are loot
  tokens, else securing zones) and destruction as its stratagem;
* it takes the larger command die as action points;
* each action point activates one model: the model shoots or fights the enemy
  model it can best finish off, and the bot records the impact tokens its own
  attack dice give (``2 + size`` dice hitting on 4+, rolled with the bot's own
  generator -- standing in for the table's shooting roll), or, for its primary
  objective, it loots, secures a zone or breaks through (within :func:`table_allows`);
* it cures a damaged model when its manoeuvre die allows, goes on with a failed
  activation only when the model survives it, and ends its turn and melee.

With ``dice = table`` or ``press`` it also makes its seat's rolls.

The tracker trusts what players record, so the tactician and the search bot
(``games/farside/search.py``) play the same stand-in table, :func:`table_allows`:
impact tokens only from the stand-in attack dice, no group activations, only
one's own manoeuvres, and a model leaves the table (loot, break through) only
after it was activated this turn (it had to get there), never as the last
model on the table, and breaks through only from round ``LATE_ROUND`` (crossing
the table takes turns).
"""

from __future__ import annotations

from typing import Any

from tablelight.core.actions import FrozenList
from tablelight.core.fields import is_action_entry
from tablelight.core.game import Action
from tablelight.core.rng import Rng

#: Attack dice hit on this face or higher.
HIT_ON = 4
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
        if game.evade_offer is not None:  # a defence roll that Evade could reroll: keep it (saves the die)
            return Action({"type": "accept", "model": game.evade_offer["model"]})
        if game.phase == "secrets":
            return self._secret(game, seat)
        if game.phase == "command":
            return Action({"type": "command", "die": max(game.command_dice[seat])})
        if game.failed is not None:
            model = game.models[game.failed["model"]]
            return Action({"type": "failed", "model": game.failed["model"], "choice": "act" if model["damage"] < 2 else "pass"})
        if game.phase == "melee":
            return Action({"type": "done"})
        return self._action_phase(game, seat)

    def _roll(self, game: Any) -> Action:
        pending = game.pending
        if game.options["dice"] == "press":
            return Action({"type": "roll"})
        faces = [self.rng.between(1, pending["sides"]) for _ in range(pending["dice"])]
        if pending["count_fails"]:
            defense = game.models[pending["model"]]["defense"]
            return Action({"type": "roll", "fails": sum(1 for face in faces if face < defense)})
        return Action({"type": "roll", "dice": FrozenList(sorted(faces))})

    def _secret(self, game: Any, seat: int) -> Action:
        primary = "loot" if game.loot_left >= 3 else "secure"
        team = max(1, min(2, len(game.on_table(seat))))
        return Action({"type": "secret", "primary": primary, "stratagem": "destruction", "team_size": team})

    def _action_phase(self, game: Any, seat: int) -> Action:
        # Finish what the last activation started: its attack is recorded right after it.
        last = next((entry for entry in reversed(game.log) if is_action_entry(entry)), None)
        if game.phase == "action" and game.action_points[seat] < 1:
            return Action({"type": "end_turn"})
        if last and last.get("seat") == seat and last["action"].get("type") == "activate":
            attacker = game.models[last["action"]["model"]]
            target = self._target(game, 1 - seat)
            if target is not None and attacker["status"] == "table":
                hits = sum(1 for _ in range(2 + attacker["size"]) if self.rng.between(1, 6) >= HIT_ON)
                if hits:
                    return Action({"type": "impact", "model": target, "tokens": hits})
        ready = [mid for mid in game.on_table(seat) if not game.models[mid]["activated"]]
        cure = self._cure(game, seat)
        if cure is not None:
            return cure
        secret = game.secrets[seat] or {}
        mission = self._mission(game, seat, secret.get("primary"), ready)
        if mission is not None:
            return mission
        if ready:
            # The healthiest model fights; a damaged one risks failing its activation.
            mid = min(ready, key=lambda m: (game.models[m]["damage"], m))
            return Action({"type": "activate", "model": mid, "action": "complex"})
        return Action({"type": "end_turn"})

    def _mission(self, game: Any, seat: int, primary: str | None, ready: list[str]) -> Action | None:
        if primary == "secure" and game.action_points[seat] >= 1:
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

    def _cure(self, game: Any, seat: int) -> Action | None:
        if game.manoeuvre_used[seat] is not None:
            return None
        damaged = [mid for mid in game.on_table(seat) if game.models[mid]["damage"] >= 2]
        for mid in damaged:
            action = Action({"type": "manoeuvre", "player": seat, "name": "Cure", "model": mid})
            if game.is_legal(action):
                return action
        return None


def table_allows(game: Any, action: Action, seat: int) -> bool:
    """Whether a player could make ``action`` at the stand-in table (see the module docstring)."""
    kind = action["type"]
    if kind == "impact" or action.get("group") or (kind == "manoeuvre" and action["player"] != seat):
        return False
    if kind in ("loot", "break_through"):
        if not game.models[action["model"]]["activated"] or len(game.on_table(seat)) <= 1:
            return False
        return kind == "loot" or game.round >= LATE_ROUND
    return True
