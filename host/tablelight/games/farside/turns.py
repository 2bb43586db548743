"""Carrying out a checked action: each action type's effect, then the wipe-out check and the host's
rolls that follow."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.farside.activation import activate, resolve_failure
from tablelight.games.farside.combat import dead_zone, regenerate
from tablelight.games.farside.dice import advance, host_roll, resolve_roll
from tablelight.games.farside.manoeuvres import manoeuvre
from tablelight.games.farside.missions import check_wipeout, count_breakthrough, leave, loot, secure
from tablelight.games.farside.rounds import choose_command, end_action_phase, melee_done, perform_evade, start_round
from tablelight.games.farside.state import Chance, FarsideState, current_seat, fire


def perform(p: FarsideState, chance: Chance, action: Action) -> None:
    kind = action["type"]
    seat = current_seat(p)
    assert seat is not None
    if kind != "manoeuvre":
        p.chosen_open = False  # the round has begun: The Chosen can no longer be named
    if p.evade_offer is not None:
        perform_evade(p, action)
        check_wipeout(p)
        advance(p, chance)
        return
    if kind == "roll":
        pending = p.pending
        assert pending is not None
        if p.options["dice"] == "press":
            host_roll(p, chance, pending)
        elif pending["count_fails"]:
            resolve_roll(p, pending, fails=action["fails"])
        else:
            resolve_roll(p, pending, values=action["dice"])
    elif kind == "secret":
        p.secrets[seat] = {k: action[k] for k in ("primary", "stratagem", "team_size")}
        fire(p, f"primary:{action['primary']}")
        fire(p, f"stratagem:{action['stratagem']}")
        if seat == 1:
            start_round(p)
    elif kind == "command":
        choose_command(p, seat, action["die"], action.get("chosen"))
    elif kind in ("activate", "pile_in"):
        activate(p, seat, action)
    elif kind == "failed":
        resolve_failure(p, action["choice"])
    elif kind == "impact":
        p.models[action["model"]]["impact"] += action["tokens"]
    elif kind == "secure":
        secure(p, seat, action["zone"])
    elif kind == "break_through":
        leave(p, action["model"])
        count_breakthrough(p, seat)
    elif kind == "loot":
        loot(p, seat, action["model"])
    elif kind == "manoeuvre":
        manoeuvre(p, action)
    elif kind == "regenerate":
        regenerate(p, action["model"])
    elif kind == "dead_zone":
        dead_zone(p, action["model"])
    elif kind == "announce_end":
        p.end_announced = seat  # the current round is completed, then the game ends
    elif kind == "end_turn":
        end_action_phase(p, seat)
    elif kind == "done":
        melee_done(p)
    check_wipeout(p)
    advance(p, chance)
