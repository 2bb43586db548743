"""What a lab run plays: the game, seats, bots, variants and how every game's seed is derived.

A plan is plain JSON (it heads the results file, so a stopped lab can check it
continues the same run). Each game is a :class:`Job` -- (variant, index) -- and
its seeds are derived from the lab seed with a hash, never from the order in
which games are played, so any number of workers gives the same games.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.registry import game_class

#: ``--vary players=2,3,4`` varies the number of seats; every other name is a game option.
PLAYERS_KEY = "players"


@dataclass(frozen=True)
class Job:
    """One game of the plan: its variant and its number within the variant."""

    variant: int
    index: int


def derive_seed(lab_seed: int, *parts: Any) -> int:
    """A 63-bit seed from the lab seed and a path of names (stable across processes and machines)."""
    text = ":".join(str(p) for p in (lab_seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def parse_vary(items: list[str]) -> list[tuple[str, list[str]]]:
    """``["target=10,15"]`` -> ``[("target", ["10", "15"])]`` with one clear error for bad input."""
    varied: list[tuple[str, list[str]]] = []
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip().replace("-", "_")
        choices = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not name or not choices:
            raise SetupError(f"--vary takes OPTION=V1,V2,..., got {item!r}")
        if any(name == seen for seen, _ in varied):
            raise SetupError(f"--vary names {name!r} twice")
        varied.append((name, choices))
    return varied


def make_plan(
    game: str,
    *,
    games: int,
    players: int | None,
    bots: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    vary: list[tuple[str, list[str]]] | None = None,
    max_actions: int | None = None,
) -> dict[str, Any]:
    """Check everything once, up front, and return the plan as JSON.

    Every variant is created once here, so an unknown option, a bad value or a
    bot the game does not have is refused before any game is played.
    """
    cls = game_class(game)
    if games < 1:
        raise SetupError(f"--games must be at least 1, got {games}")
    if max_actions is not None and max_actions < 1:
        raise SetupError(f"--max-actions must be at least 1, got {max_actions}")
    for name in bots:
        cls.make_bot(name, 0)  # refuses an unknown bot or a bad search budget ("mcts:x") with one line
    names = [name for name, _ in vary or []]
    variants = []
    for values in itertools.product(*(choices for _, choices in vary or [])):
        chosen = dict(zip(names, values))
        seats = _players(chosen.pop(PLAYERS_KEY)) if PLAYERS_KEY in chosen else (players or cls.min_players)
        merged = {**(options or {}), **chosen}
        # Refuses unknown options and bad values with the engine's own message.
        probe = cls(seats, merged, 0)
        if len(bots) not in (1, seats):
            raise SetupError(f"--bots names {len(bots)} bots for {seats} players (name one, or one per seat)")
        label = ", ".join(f"{k}={v}" for k, v in zip(names, values)) or "default"
        variants.append({"label": label, "players": seats, "options": dict(probe.options)})
    plan: dict[str, Any] = {
        "game": game,
        "games": games,
        "bots": list(bots),
        "seed": seed,
        "vary": [[name, list(choices)] for name, choices in vary or []],
        "variants": variants,
    }
    if max_actions is not None:  # only when given, so results files of earlier labs still match
        plan["max_actions"] = max_actions
    return plan


def _players(value: str) -> int:
    if not value.isdigit():
        raise SetupError(f"--vary players takes whole numbers, got {value!r}")
    return int(value)


def jobs(plan: dict[str, Any]) -> list[Job]:
    """Every game of the plan, in a fixed order."""
    return [Job(v, i) for v in range(len(plan["variants"])) for i in range(plan["games"])]


def seating(plan: dict[str, Any], job: Job) -> list[str]:
    """The bot at each seat: with several bots they rotate one seat per game, so each sits everywhere."""
    seats = plan["variants"][job.variant]["players"]
    names = plan["bots"] * seats if len(plan["bots"]) == 1 else plan["bots"]
    shift = job.index % seats
    by_seat = [""] * seats
    for b in range(seats):
        by_seat[(b + shift) % seats] = names[b]
    return by_seat
