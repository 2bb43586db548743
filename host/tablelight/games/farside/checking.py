"""The checks of each action type: one table (``CHECKS``) says which check and in which phases; a
check returns the action's normal form or raises the rule it breaks, and never changes the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tablelight.core.actions import FrozenList
from tablelight.core.errors import MalformedActionError, RuleViolationError
from tablelight.core.fields import is_whole, is_whole_in
from tablelight.core.game import Action
from tablelight.games.farside.missions import total_objectives
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
from tablelight.games.farside.tables import MISSIONS, find_manoeuvre, tables


def model_of(p: FarsideState, action: Action, owner: int | None = None) -> str:
    """The id of the model ``action`` names: one on the table (of ``owner``, when given)."""
    mid = action.get("model")
    if not isinstance(mid, str) or mid not in p.models:
        raise MalformedActionError("farside.model.unknown", f"unknown model {mid!r}; models are {', '.join(p.models)}")
    model = p.models[mid]
    if model["status"] != ON_TABLE:
        raise RuleViolationError("farside.model.gone", f"model {mid} ({model['name']}) is no longer on the table")
    if owner is not None and model["owner"] != owner:
        raise RuleViolationError("farside.model.not_yours", f"model {mid} ({model['name']}) belongs to seat {model['owner']}")
    return mid


def whole(value: Any, name: str, low: int, high: int) -> int:
    if not is_whole_in(value, low, high):
        raise MalformedActionError(f"farside.{name}.range", f"{name} must be a whole number {low}..{high}, got {value!r}")
    return value


def check(p: FarsideState, action: Action) -> Action:
    kind = action.get("type")
    seat = current_seat(p)
    assert seat is not None
    if p.evade_offer is not None:
        return check_evade(p, action, seat)
    if kind == "roll" and p.options["dice"] == "host":
        raise RuleViolationError("farside.roll.host", "the host rolls the dice in this game (option dice = host)")
    if p.pending is not None:
        if kind != "roll":
            raise RuleViolationError("farside.roll.pending", f"seat {seat} must first enter the {p.pending['roll']} roll")
        return check_roll(p, action)
    if kind == "roll":
        raise RuleViolationError("farside.roll.none", "no roll is expected now")
    entry = CHECKS.get(kind) if isinstance(kind, str) else None
    if entry is None or not isinstance(kind, str):
        raise MalformedActionError("farside.action.type", f"unknown action type {kind!r}")
    checking, phases = entry
    if p.phase not in phases:
        raise RuleViolationError("farside.phase", f"{kind!r} is not possible in the {p.phase} phase")
    if p.failed is not None and kind not in ("failed", "manoeuvre"):
        raise RuleViolationError("farside.activation.failed_pending",
                                 f"model {p.failed['model']} failed its activation: choose pass or act first")
    checked: Action = checking(p, action, seat)
    return checked

def check_roll(p: FarsideState, action: Action) -> Action:
    pending = p.pending
    assert pending is not None
    if p.options["dice"] == "press":
        if set(action) != {"type"}:
            raise MalformedActionError("farside.roll.press", "the host rolls in this game (dice = press): send {\"type\": \"roll\"} without values")
        return Action({"type": "roll"})
    if pending["count_fails"]:
        fails = whole(action.get("fails"), "fails", 0, pending["dice"])
        return Action({"type": "roll", "fails": fails})
    dice = action.get("dice")
    if not isinstance(dice, list) or len(dice) != pending["dice"]:
        raise MalformedActionError("farside.roll.shape", f"enter {pending['dice']} dice as a list, e.g. {{\"dice\": [3, 5]}}")
    values = [whole(v, "die", 1, pending["sides"]) for v in dice]
    return Action({"type": "roll", "dice": FrozenList(sorted(values))})

def check_secret(p: FarsideState, action: Action, seat: int) -> Action:
    primary, stratagem = action.get("primary"), action.get("stratagem")
    for label, value in (("primary", primary), ("stratagem", stratagem)):
        if value not in MISSIONS:
            raise MalformedActionError("farside.secret.mission", f"{label} must be one of {', '.join(MISSIONS)}, got {value!r}")
    team = whole(action.get("team_size"), "team_size", 1, len(on_table(p, seat)))
    return Action({"type": "secret", "primary": primary, "stratagem": stratagem, "team_size": team})

def check_command(p: FarsideState, action: Action, seat: int) -> Action:
    die = action.get("die")
    if not is_whole(die) or die not in p.command_dice[seat]:
        raise RuleViolationError("farside.command.die", f"choose one of your dice {p.command_dice[seat]}, got {die!r}")
    if "chosen" not in action:
        return Action({"type": "command", "die": die})
    # The Chosen named with the command die: the beginning of the round, the manoeuvre die known.
    if p.record_format < 4:
        raise RuleViolationError("farside.command.chosen", "records of format 1-3 name The Chosen as a manoeuvre only")
    other = manoeuvre_die_after(p, seat, die)
    if other < 6:
        raise RuleViolationError("farside.manoeuvre.die", f"The Chosen needs a manoeuvre die of 6+; taking {die} leaves {other}")
    mid = model_of(p, Action({"model": action["chosen"]}), seat)
    return Action({"type": "command", "die": die, "chosen": mid})

def manoeuvre_die_after(p: FarsideState, seat: int, die: int) -> int:
    """The manoeuvre die ``seat`` keeps when it takes ``die`` as its command die."""
    dice = list(p.command_dice[seat])
    dice.remove(die)
    return int(dice[0])

def check_activate(p: FarsideState, action: Action, seat: int) -> Action:
    mid = model_of(p, action, seat)
    if p.models[mid]["activated"]:
        raise RuleViolationError("farside.activate.twice", f"model {mid} was already activated this turn")
    if action["type"] == "pile_in":
        if seat != p.active:
            raise RuleViolationError("farside.pile_in.active", "only the active player's units pile in")
        return Action({"type": "pile_in", "model": mid})
    kind = action.get("action")
    if kind not in ("simple", "complex"):
        raise MalformedActionError("farside.activate.kind", f"action must be simple or complex, got {kind!r}")
    group = action.get("group", False)
    if not isinstance(group, bool):
        raise MalformedActionError("farside.activate.group", "group must be true or false")
    if group:
        if p.group is None or p.group.get("pile_in"):
            raise RuleViolationError("farside.activate.no_group", "no group activation is open: activate a first model with an action point")
    elif p.action_points[seat] < 1:
        raise RuleViolationError("farside.activate.no_points", "no action points left this turn")
    if group:
        return Action({"type": "activate", "model": mid, "action": kind, "group": True})
    return Action({"type": "activate", "model": mid, "action": kind})

def check_failed(p: FarsideState, action: Action, seat: int) -> Action:
    if p.failed is None:
        raise RuleViolationError("farside.failed.none", "no activation has failed")
    if action.get("model") != p.failed["model"]:
        raise RuleViolationError("farside.failed.model", f"the failed activation is model {p.failed['model']}'s")
    choice = action.get("choice")
    if choice not in ("pass", "act", "simple"):
        raise MalformedActionError("farside.failed.choice", f"choice must be pass, act or simple, got {choice!r}")
    if choice == "simple":
        model = p.models[p.failed["model"]]
        if p.record_format < 2 or model.get("action") != "complex" or p.failed["roll"] < model["damage"]:
            raise RuleViolationError(
                "farside.failed.simple",
                f"a simple action instead needs a complex action declared and a roll of at least the damage tokens ({model['damage']})",
            )
    return Action({"type": "failed", "model": p.failed["model"], "choice": choice})

def check_impact(p: FarsideState, action: Action, seat: int) -> Action:
    mid = model_of(p, action)
    tokens = whole(action.get("tokens"), "tokens", 1, MAX_IMPACT_PER_ACTION)
    return Action({"type": "impact", "model": mid, "tokens": tokens})

def check_secure(p: FarsideState, action: Action, seat: int) -> Action:
    zone = whole(action.get("zone"), "zone", 1, max(1, p.secure_zones))
    if zone > p.secure_zones:
        raise RuleViolationError("farside.secure.zone", f"there are {p.secure_zones} terrain zones to secure")
    if p.secured.get(zone) == seat:
        raise RuleViolationError("farside.secure.held", f"zone {zone} is already secured by you")
    if p.action_points[seat] < 1:
        raise RuleViolationError("farside.secure.no_points", "securing costs one action point; none are left")
    return Action({"type": "secure", "zone": zone})

def check_leave(p: FarsideState, action: Action, seat: int) -> Action:
    mid = model_of(p, action, seat)
    if action["type"] == "loot" and p.loot_left < 1:
        raise RuleViolationError("farside.loot.none", "no loot tokens are left on the table")
    return Action({"type": action["type"], "model": mid})

def check_manoeuvre(p: FarsideState, action: Action, seat: int) -> Action:
    player = whole(action.get("player"), "player", 0, 1)
    name = action.get("name")
    row = find_manoeuvre(name) if isinstance(name, str) else None
    if row is None:
        names = ", ".join(r["name"] for r in tables()["manoeuvres"])
        raise MalformedActionError("farside.manoeuvre.unknown", f"unknown manoeuvre {name!r}; known: {names}")
    if p.manoeuvre_used[player] is not None:
        raise RuleViolationError("farside.manoeuvre.used", f"seat {player} already used the manoeuvre die this round")
    die = p.manoeuvre_die[player] or 0
    if die < row["die"]:
        raise RuleViolationError("farside.manoeuvre.die", f"{row['name']} needs a manoeuvre die of {row['die']}+, seat {player} has {die}")
    checked = Action({"type": "manoeuvre", "player": player, "name": row["name"]})
    if row["name"] == "Inspired":
        if p.failed is None or p.models[p.failed["model"]]["owner"] != player:
            raise RuleViolationError("farside.manoeuvre.inspired", "Inspired rerolls a failed activation roll of your own")
        return checked
    if p.failed is not None:
        raise RuleViolationError("farside.activation.failed_pending", f"model {p.failed['model']} failed its activation: choose pass or act first")
    if row["name"] == "Evade" and p.record_format >= 2:
        raise RuleViolationError("farside.manoeuvre.evade", "Evade rerolls a defence roll: the tracker offers it in the impact phase")
    if row["name"] == "The Chosen" and p.record_format >= 4 and not p.chosen_open:
        raise RuleViolationError(
            "farside.manoeuvre.chosen",
            "The Chosen is named at the beginning of the round: after the command dice, before the first action",
        )
    target = MANOEUVRE_TARGETS.get(row["name"])
    if target is not None:
        mid = model_of(p, action, player)
        if target == "damaged" and p.models[mid]["damage"] < 1:
            raise RuleViolationError("farside.manoeuvre.cure", f"model {mid} has no damage token to remove")
        checked = checked.replace(model=mid)
        if row["name"] == "Disappear" and "loot" in action:
            return check_disappear_loot(p, checked, action["loot"])
        return checked
    if "model" in action:
        return checked.replace(model=model_of(p, action))  # recorded for the players' reference
    return checked

def check_disappear_loot(p: FarsideState, checked: Action, loot: object) -> Action:
    """Disappear with ``"loot": true``: the model carries a loot token off the table (it scores loot)."""
    if not isinstance(loot, bool):
        raise MalformedActionError("farside.manoeuvre.loot", "loot must be true (the model carries a loot token) or false")
    if not loot:
        return checked
    if p.loot_left < 1:
        raise RuleViolationError("farside.loot.none", "no loot tokens are left on the table")
    return checked.replace(loot=True)

def check_regenerate(p: FarsideState, action: Action, seat: int) -> Action:
    """Regeneration: "Simple action: remove one damage token on a roll of 3+" (a special rule)."""
    mid = model_of(p, action, seat)
    model = p.models[mid]
    if "Regeneration" not in model.get("rules", ()):
        raise RuleViolationError("farside.regenerate.rule", f"model {mid} ({model['name']}) has no Regeneration in its army's rules")
    if not model["activated"] or model.get("action") != "simple":
        raise RuleViolationError(
            "farside.regenerate.simple",
            f"Regeneration is a simple action: activate model {mid} with a simple action first (once a turn)",
        )
    if model["damage"] < 1:
        raise RuleViolationError("farside.regenerate.damage", f"model {mid} has no damage token to remove")
    return Action({"type": "regenerate", "model": mid})

def check_dead_zone(p: FarsideState, action: Action, seat: int) -> Action:
    """A model on or across a dead zone rolls once every turn (its owner rolls)."""
    mid = model_of(p, action)
    if mid in p.dead_zone_rolled:
        raise RuleViolationError("farside.dead_zone.once", f"model {mid} already rolled for a dead zone this turn")
    return Action({"type": "dead_zone", "model": mid})

def check_evade(p: FarsideState, action: Action, seat: int) -> Action:
    """After a defence roll that Evade could reroll: keep it or Evade."""
    assert p.evade_offer is not None
    mid = p.evade_offer["model"]
    kind = action.get("type")
    if kind == "accept" or (kind == "manoeuvre" and action.get("name") == "Evade"):
        if action.get("model") != mid:
            raise RuleViolationError("farside.evade.model", f"the defence roll to keep or Evade is model {mid}'s")
        if kind == "accept":
            return Action({"type": "accept", "model": mid})
        if action.get("player") != seat:
            raise RuleViolationError("farside.evade.player", f"Evade uses the manoeuvre die of the model's owner, seat {seat}")
        return Action({"type": "manoeuvre", "player": seat, "name": "Evade", "model": mid})
    raise RuleViolationError(
        "farside.evade.pending",
        f"model {mid} failed {p.evade_offer['fails']} defence dice: keep the roll (accept) or reroll them all (manoeuvre Evade)",
    )

def check_announce(p: FarsideState, action: Action, seat: int) -> Action:
    """"The game is continued until one player announces the end" (option game_end = announced),
    once the objective limit is reached; the current round is then completed."""
    if p.options["game_end"] != "announced":
        raise RuleViolationError("farside.announce.option", "the game ends by itself at the objective limit (option game_end = at_limit)")
    if total_objectives(p) < p.options["objective_limit"]:
        raise RuleViolationError(
            "farside.announce.early",
            f"the end can be announced once {p.options['objective_limit']} objectives are accomplished "
            f"({total_objectives(p)} so far)",
        )
    if p.end_announced is not None:
        raise RuleViolationError("farside.announce.twice", f"seat {p.end_announced} already announced the end")
    return Action({"type": "announce_end"})

def check_end(p: FarsideState, action: Action, seat: int) -> Action:
    return Action({"type": action["type"]})


#: action type -> (its check, the phases in which it is allowed)
CHECKS: dict[str, tuple[Callable[[FarsideState, Action, int], Action], tuple[str, ...]]] = {
    "secret": (check_secret, (SECRETS,)),
    "command": (check_command, (COMMAND,)),
    "activate": (check_activate, (ACTION,)),
    "pile_in": (check_activate, (MELEE,)),
    "failed": (check_failed, (ACTION, MELEE)),
    "impact": (check_impact, (ACTION, MELEE)),
    "secure": (check_secure, (ACTION,)),
    "break_through": (check_leave, (ACTION,)),
    "loot": (check_leave, (ACTION,)),
    "manoeuvre": (check_manoeuvre, (ACTION, MELEE)),
    "regenerate": (check_regenerate, (ACTION,)),
    "dead_zone": (check_dead_zone, (ACTION, MELEE)),
    "announce_end": (check_announce, (ACTION, MELEE)),
    "end_turn": (check_end, (ACTION,)),
    "done": (check_end, (MELEE,)),
}
