"""Missions and the end of the game: objectives awarded (the players' loot, breakthrough and secure;
the engine's destruction, heavy loss, grand slam, martyr and obliteration), models leaving or lost,
the wipe-out, and the victory points of the secret missions."""

from __future__ import annotations

from tablelight.games.farside.state import IMPACT, LEFT, LOST, OVER, SECRETS, SETUP, FarsideState, fire, on_table


def total_objectives(p: FarsideState) -> int:
    """Mission objectives accomplished by both seats (the game ends after the round reaching the limit)."""
    return sum(sum(o.values()) for o in p.objectives)


def victory_points(p: FarsideState) -> list[int]:
    """2 per own accomplished primary; 1 per enemy accomplishment of one's stratagem."""
    points = [0, 0]
    for seat in (0, 1):
        secret = p.secrets[seat]
        if secret is None:
            continue
        points[seat] += 2 * p.objectives[seat][secret["primary"]]
        points[seat] += p.objectives[1 - seat][secret["stratagem"]]
    return points


def scores(p: FarsideState) -> list[int]:
    """Victory points once the game is over; accomplished mission objectives before."""
    if p.phase == OVER:
        return victory_points(p)
    return [sum(o.values()) for o in p.objectives]


def settles_impacts(p: FarsideState) -> bool:
    """Whether a wipe-out in the impact phase waits for both sides' defence rolls (format 4 on)."""
    return p.record_format >= 4 and p.options["wipe_out"] == "after_impact"


def takeover_moves_point(p: FarsideState) -> bool:
    """Whether taking over a secured zone moves its point from the old holder (record format 5 on,
    option secure_takeover = moves), rather than adding one while the old holder keeps its own."""
    return p.record_format >= 5 and p.options["secure_takeover"] == "moves"


def finish(p: FarsideState, reason: str, kind: str) -> None:
    fire(p, f"end:{kind}")
    p.phase = OVER
    p.pending = None
    p.end_reason = reason


def award(p: FarsideState, seat: int, mission: str) -> None:
    """One objective of ``mission`` for ``seat`` (none once the game is over), and grand slam with the fourth kind."""
    if p.phase == OVER:
        return
    fire(p, f"mission:{mission}")
    p.objectives[seat][mission] += 1
    if not p.grand_slam_given:
        kinds = sum(1 for m, n in p.objectives[seat].items() if n and m != "grand slam")
        if kinds >= 4:
            p.grand_slam_given = True
            fire(p, "mission:grand slam")
            p.objectives[seat]["grand slam"] += 1


def secure(p: FarsideState, seat: int, zone: int) -> None:
    """``seat`` secures ``zone`` for an action point (a zone the enemy held is taken over)."""
    p.action_points[seat] -= 1
    holder = p.secured.get(zone)
    p.secured[zone] = seat
    if holder is not None:
        fire(p, "secure:takeover")
        if takeover_moves_point(p):
            p.objectives[holder]["secure"] -= 1  # "to receive a point instead": the zone's point moves
    award(p, seat, "secure")


def count_breakthrough(p: FarsideState, seat: int) -> None:
    """A model of ``seat`` broke through: each full team of them scores breakthrough."""
    p.broken_through[seat] += 1
    secret = p.secrets[seat]
    if secret and p.broken_through[seat] % secret["team_size"] == 0:
        award(p, seat, "breakthrough")


def leave(p: FarsideState, mid: str) -> None:
    """Model ``mid`` leaves the table (broke through, carried loot off, disappeared): not a loss."""
    p.models[mid]["status"] = LEFT
    p.models[mid]["impact"] = 0


def loot(p: FarsideState, seat: int, mid: str) -> None:
    """Model ``mid`` carries a loot token off the table."""
    leave(p, mid)
    p.loot_left -= 1
    award(p, seat, "loot")


def lose(p: FarsideState, mid: str, killed: bool) -> None:
    """Model ``mid`` is lost (``killed``: by damage in combat): destruction and heavy loss for the enemy."""
    model = p.models[mid]
    model["status"] = LOST
    model["impact"] = 0
    owner = model["owner"]
    enemy = 1 - owner
    p.losses[owner] += 1
    secret = p.secrets[owner]
    if secret and p.losses[owner] % secret["team_size"] == 0:
        award(p, enemy, "destruction")
    # "The model with the highest point value in the game": of both armies, so both players
    # can score it only when their most expensive models cost the same.
    most = max(m["points"] for m in p.models.values())
    if killed and model["points"] == most and not p.heavy_loss_given[enemy]:
        p.heavy_loss_given[enemy] = True
        award(p, enemy, "heavy loss")
    check_wipeout(p)


def check_wipeout(p: FarsideState, impacts_done: bool = False) -> None:
    """End the game when a side has no models left. In the impact phase (record format 4, option
    wipe_out = after_impact) this waits until every defence roll of the phase is made
    (``impacts_done``): the rulebook has one impact phase for both players."""
    if p.phase in (OVER, SETUP, SECRETS):
        return
    if p.phase == IMPACT and settles_impacts(p) and not impacts_done:
        return
    left = [bool(on_table(p, seat)) for seat in (0, 1)]
    if all(left):
        return
    if any(left):
        survivor = left.index(True)
        award(p, survivor, "obliteration")
        finish(p, f"seat {1 - survivor} has no models left on the table", "wipe_out")
    else:
        finish(p, "no models are left on the table", "no_models_left")
