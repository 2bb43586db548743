"""The legal actions of the seat to act: the rolls it may enter, its secrets, its command dice, and in
its turn every action the checks accept, tried in a fixed order."""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

from tablelight.core.actions import FrozenList
from tablelight.core.errors import IllegalActionError
from tablelight.core.game import Action
from tablelight.games.farside.checking import CHECKS, manoeuvre_die_after
from tablelight.games.farside.state import (
    ACTION,
    COMMAND,
    MANOEUVRE_TARGETS,
    MAX_IMPACT_PER_ACTION,
    MELEE,
    ON_TABLE,
    SECRETS,
    FarsideState,
    current_seat,
    on_table,
)
from tablelight.games.farside.tables import MISSIONS, tables


@lru_cache(maxsize=256)
def impact_actions(models: tuple[str, ...]) -> tuple[Action, ...]:
    """Every impact action on ``models``: 1 to MAX_IMPACT_PER_ACTION tokens each (immutable values,
    kept for the next listing with the same models on the table)."""
    return tuple(Action({"type": "impact", "model": mid, "tokens": n})
                 for mid in models for n in range(1, MAX_IMPACT_PER_ACTION + 1))


def legal_actions(p: FarsideState) -> list[Action]:
    """Every legal action of the seat to act, in a fixed order (each the normal form its check gives)."""
    seat = current_seat(p)
    if seat is None:
        return []
    candidates: list[Action] = []
    if p.evade_offer is not None:
        mid = p.evade_offer["model"]
        return [Action({"type": "accept", "model": mid}), Action({"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid})]
    if p.pending is not None:
        pending = p.pending
        if p.options["dice"] == "press":
            return [Action({"type": "roll"})]
        if pending["count_fails"]:
            candidates = [Action({"type": "roll", "fails": k}) for k in range(pending["dice"] + 1)]
        else:
            faces = range(1, pending["sides"] + 1)
            candidates = [Action({"type": "roll", "dice": FrozenList(c)}) for c in itertools.combinations_with_replacement(faces, pending["dice"])]
        return candidates
    if p.phase == SECRETS:
        team = len(on_table(p, seat))
        return [
            Action({"type": "secret", "primary": primary, "stratagem": stratagem, "team_size": size})
            for primary in MISSIONS for stratagem in MISSIONS for size in range(1, team + 1)
        ]
    if p.phase == COMMAND:
        commands = []
        for die in sorted(set(p.command_dice[seat])):
            commands.append(Action({"type": "command", "die": die}))
            if p.record_format >= 4 and manoeuvre_die_after(p, seat, die) == 6:
                commands += [Action({"type": "command", "die": die, "chosen": mid}) for mid in on_table(p, seat)]
        return commands
    if p.failed is not None:
        failed: list[dict[str, Any]] = [{"type": "failed", "model": p.failed["model"], "choice": c} for c in ("pass", "act", "simple")]
        failed += [{"type": "manoeuvre", "player": seat, "name": "Inspired"}]
        return passing(p, failed)
    own = on_table(p, seat)
    tried: list[dict[str, Any]] = []
    everyone = [mid for mid, m in p.models.items() if m["status"] == ON_TABLE]
    # Impact tokens on any model on the table pass their check in the action and melee phases (the
    # only ones that come this far without a roll waiting): listed as the check writes them.
    impacts = list(impact_actions(tuple(everyone))) if p.phase in (ACTION, MELEE) else []
    # Below, what a check would refuse at once is not tried (the rest is checked): a model activated
    # this turn, an activation without an action point or a group to join, loot with none left,
    # Regeneration for a model without the rule, a zone already held or no point to secure it.
    if p.phase == ACTION:
        points = p.action_points[seat] >= 1
        joinable = p.group is not None and not p.group.get("pile_in")
        for mid in own:
            model = p.models[mid]
            if not model["activated"]:
                for kind in ("simple", "complex"):
                    if points:
                        tried.append({"type": "activate", "model": mid, "action": kind})
                    if joinable:
                        tried.append({"type": "activate", "model": mid, "action": kind, "group": True})
            tried.append({"type": "break_through", "model": mid})
            if p.loot_left >= 1:
                tried.append({"type": "loot", "model": mid})
            if "Regeneration" in model.get("rules", ()):
                tried.append({"type": "regenerate", "model": mid})
        if points:
            tried += [{"type": "secure", "zone": z} for z in range(1, p.secure_zones + 1) if p.secured.get(z) != seat]
        tried.append({"type": "announce_end"})
        tried.append({"type": "end_turn"})
    if p.phase == MELEE:
        if seat == p.active:  # only the active player's models pile in, each once a turn
            tried += [{"type": "pile_in", "model": mid} for mid in own if not p.models[mid]["activated"]]
        tried.append({"type": "done"})
    if p.phase in (ACTION, MELEE):
        tried += [{"type": "dead_zone", "model": mid} for mid in everyone if mid not in p.dead_zone_rolled]
        for player in (0, 1):
            if p.manoeuvre_used[player] is not None:
                continue  # the die is used this round: its check refuses every manoeuvre
            die = p.manoeuvre_die[player] or 0
            for row in tables()["manoeuvres"]:
                if die < row["die"]:
                    continue  # its check refuses it: the die is too low
                target = MANOEUVRE_TARGETS.get(row["name"])
                if target is None:
                    tried.append({"type": "manoeuvre", "player": player, "name": row["name"]})
                else:
                    tried += [
                        {"type": "manoeuvre", "player": player, "name": row["name"], "model": mid}
                        for mid in on_table(p, player)
                    ]
                    if row["name"] == "Disappear":  # carrying a loot token off the table
                        tried += [
                            {"type": "manoeuvre", "player": player, "name": row["name"], "model": mid, "loot": True}
                            for mid in on_table(p, player)
                        ]
    return impacts + passing(p, tried)


def passing(p: FarsideState, tried: list[dict[str, Any]]) -> list[Action]:
    """The normal forms of the actions ``tried`` that the checks accept, in order (each equal to
    the one tried, key order too): one check and one immutable value per listed action. Listing
    comes here only when no roll or Evade waits and either no failed activation waits or only its
    choices are tried, so each action goes straight to its type's check once its phase allows it."""
    seat = current_seat(p)
    assert seat is not None
    phase = p.phase
    found = []
    for action in tried:
        checking, phases = CHECKS[action["type"]]
        if phase not in phases:
            continue
        try:
            found.append(checking(p, action, seat))  # type: ignore[arg-type]
        except IllegalActionError:
            continue
    return found
