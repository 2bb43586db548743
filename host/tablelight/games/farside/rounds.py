"""The round's sequence: command dice (the command die is the action points, fewer points go first),
the players' turns, the melee and the impact phase with its defence rolls and Evade, and the end of
the round (the objective limit, an announced end, the round limit)."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.farside.combat import defend
from tablelight.games.farside.manoeuvres import name_chosen
from tablelight.games.farside.missions import check_wipeout, finish, total_objectives
from tablelight.games.farside.state import (
    ACTION,
    COMMAND,
    IMPACT,
    MELEE,
    ON_TABLE,
    OVER,
    FarsideState,
    fire,
    on_table,
    request_roll,
)


def start_round(p: FarsideState) -> None:
    p.round += 1
    p.phase = COMMAND
    p.command_dice = [[], []]
    p.command_die = [None, None]
    p.manoeuvre_die = [None, None]
    p.manoeuvre_used = [None, None]
    p.chosen = [None, None]
    request_roll(p, "command", 0, 2, 6, round=p.round)


def command_dice_rolled(p: FarsideState, seat: int, values: list[int]) -> None:
    """``seat``'s two command dice: seat 1 rolls after seat 0, both again on equal sums, and the lower
    sum chooses its command die first."""
    p.command_dice[seat] = list(values)
    if seat == 0:
        request_roll(p, "command", 1, 2, 6, round=p.round)
    elif sum(p.command_dice[0]) == sum(p.command_dice[1]):
        p.command_dice = [[], []]
        request_roll(p, "command", 0, 2, 6, round=p.round)
    else:
        p.chooser = 0 if sum(p.command_dice[0]) < sum(p.command_dice[1]) else 1


def choose_command(p: FarsideState, seat: int, die: int, chosen: str | None = None) -> None:
    dice = list(p.command_dice[seat])
    dice.remove(die)
    p.command_die[seat] = die
    p.manoeuvre_die[seat] = dice[0]
    if chosen is not None:  # The Chosen named with the command die (a manoeuvre die of 6)
        name_chosen(p, seat, chosen)
    other = 1 - seat
    if p.command_die[other] is None:
        p.chooser = other
        return
    ap = [p.command_die[0] or 0, p.command_die[1] or 0]
    sums = [sum(p.command_dice[0]), sum(p.command_dice[1])]
    if ap[0] != ap[1]:
        p.first = 0 if ap[0] < ap[1] else 1
    else:
        p.first = 0 if sums[0] < sums[1] else 1
    p.chosen_open = True  # the beginning of the round: The Chosen is named now, before any action
    start_turn(p, p.first)


def start_turn(p: FarsideState, seat: int) -> None:
    p.phase = ACTION
    p.active = seat
    p.action_points[seat] = p.command_die[seat] or 0
    p.group = None
    p.dead_zone_rolled = []
    for model in p.models.values():
        model["activated"] = False


def end_action_phase(p: FarsideState, seat: int) -> None:
    """The active seat ends its action phase (points left are lost): the melee phase, its impacts first."""
    p.group = None
    p.action_points[seat] = 0
    p.phase = MELEE
    p.melee_seat = p.active


def melee_done(p: FarsideState) -> None:
    """One seat recorded its melee impacts: the other seat next, then the impact phase."""
    p.group = None
    if p.melee_seat == p.active:
        p.melee_seat = 1 - p.active
    else:
        start_impact(p)


def start_impact(p: FarsideState) -> None:
    p.phase = IMPACT
    p.group = None
    order = [p.active, 1 - p.active]
    p.impact_queue = [mid for seat in order for mid in on_table(p, seat) if p.models[mid]["impact"] > 0]
    next_defense(p)


def next_defense(p: FarsideState) -> None:
    """The next model with impact tokens rolls defence; once none is left, the turn ends."""
    if p.phase == OVER:
        return
    while p.impact_queue:
        mid = p.impact_queue.pop(0)
        model = p.models[mid]
        if model["status"] == ON_TABLE and model["impact"] > 0:
            request_roll(p, "defense", model["owner"], model["impact"], 6, count_fails=True, model=mid)
            return
    check_wipeout(p, impacts_done=True)
    end_turn(p)


def perform_evade(p: FarsideState, action: Action) -> None:
    """The owner keeps the defence roll it may Evade (accept), or rerolls it all with its manoeuvre die."""
    assert p.evade_offer is not None
    mid, fails = p.evade_offer["model"], p.evade_offer["fails"]
    p.evade_offer = None
    if action["type"] == "accept":
        fire(p, "evade:roll_kept")
        defend(p, mid, fails)
        next_defense(p)
        return
    model = p.models[mid]
    p.manoeuvre_used[model["owner"]] = "Evade"
    fire(p, "manoeuvre:Evade")
    # The new result has to be accepted: the reroll is not offered again.
    request_roll(p, "defense", model["owner"], model["impact"], 6, count_fails=True, model=mid, evaded=True)


def end_turn(p: FarsideState) -> None:
    if p.phase == OVER:
        return
    assert p.first is not None
    if p.active == p.first:
        start_turn(p, 1 - p.first)
        return
    limit = p.options["round_limit"]
    if p.end_announced is not None:
        finish(p, f"seat {p.end_announced} announced the end; round {p.round} was completed", "announced")
    elif total_objectives(p) >= p.options["objective_limit"] and p.options["game_end"] == "at_limit":
        finish(p, f"{total_objectives(p)} mission objectives accomplished by the end of round {p.round}", "objectives")
    elif limit and p.round >= limit:
        finish(p, f"the round limit ({limit}) was reached", "round_limit")
    else:
        start_round(p)
