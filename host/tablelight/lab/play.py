"""Play one game of a lab plan and summarise it as one JSON line.

The summary holds only what the statistics need (who sat where, winners,
scores, length, counts of action types and rule events), never timing, so the
same job gives the same line in any process.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.core.actions import ChanceEntry
from tablelight.core.fields import is_whole
from tablelight.core.game import Game
from tablelight.core.registry import game_class
from tablelight.lab.coverage import fired_in_game, key_seats
from tablelight.lab.plan import Job, derive_seed, seating
from tablelight.lab.setups import game_setup

#: Stop a game that has not ended after this many actions (an engine without its own cap), unless
#: the plan says otherwise (``--max-actions``).
ACTION_LIMIT = 200_000


def play_job(plan: dict[str, Any], job: Job) -> dict[str, Any]:
    """Play ``job`` of ``plan`` to the end and return its summary."""
    cls = game_class(plan["game"])
    variant = plan["variants"][job.variant]
    seed = derive_seed(plan["seed"], "game", job.variant, job.index)
    game = cls(variant["players"], variant["options"], seed, setup=game_setup(plan, job))
    names = seating(plan, job)
    bots = [cls.make_bot(name, derive_seed(plan["seed"], "bot", job.variant, job.index, seat)) for seat, name in enumerate(names)]
    actions = 0
    limit = plan.get("max_actions", ACTION_LIMIT)
    while not game.is_over() and actions < limit:
        seat = game.current_seat()
        assert seat is not None
        game.apply(bots[seat].choose(game), seat=seat)
        actions += 1
    return summarise(game, job, names, seed)


def summarise(game: Game, job: Job, names: list[str], seed: int) -> dict[str, Any]:
    """The JSON line for a finished (or stopped) game."""
    result = game.result()
    over = game.is_over()
    capped = bool(result.get("turn_cap")) or not over
    action_types: Counter[str] = Counter()
    events: Counter[str] = Counter()
    first_seat: int | None = None
    runs = 0
    last_seat: int | None = None
    for entry in game.log:
        if isinstance(entry, ChanceEntry):
            events[f"chance:{entry.kind}"] += 1
            continue
        kind = str(entry["action"].get("type"))
        if entry.get("auto"):
            events[f"forced:{kind}"] += 1
            continue
        action_types[kind] += 1
        if first_seat is None:
            first_seat = entry["seat"]
        if entry["seat"] != last_seat:
            runs += 1
            last_seat = entry["seat"]
    events.update(_game_events(game))
    turns = result.get("turns")
    return {
        "variant": job.variant,
        "index": job.index,
        "seed": seed,
        "seats": names,
        "over": over,
        "capped": capped,
        "winners": [] if capped else list(game.winners()),
        "scores": list(game.scores()),
        "turns": turns if is_whole(turns) else runs,
        "actions": sum(action_types.values()),
        "first_seat": first_seat,
        "action_types": dict(sorted(action_types.items())),
        "events": dict(sorted(events.items())),
        "rules": fired_in_game(game),
        "key_seats": key_seats(game),
    }


def _game_events(game: Game) -> Counter[str]:
    """Rule events a game keeps in its result rather than its log (Landover's largest route, say)."""
    from tablelight.lab.events import game_events

    return game_events(game)
