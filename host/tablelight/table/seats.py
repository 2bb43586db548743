"""Who sits at a table: people or bots, how a bot seat is named and seeded, whether a game hides things
(declared by the game: :func:`tablelight.core.game.has_secrets`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from tablelight.core.errors import SetupError
from tablelight.core.game import Game, has_secrets
from tablelight.core.search_bot import parse_search_name

__all__ = ["DEFAULT_BOT", "HUMAN", "bot_seed", "default_bot", "has_secrets", "resolve_seats"]

HUMAN = "human"
DEFAULT_BOT = "bot"


def default_bot(cls: type[Game]) -> str:
    """The bot a ``bot`` seat gets: the game's strongest bot that can be made, else ``random``."""
    for name in reversed(cls.bot_names()):
        try:
            cls.make_bot(name, 0)
        except (ImportError, AttributeError, SetupError):
            continue
        return name
    return "random"


def resolve_seats(cls: type[Game], spec: str | Sequence[str], players: int | None) -> list[str]:
    """Seat kinds from ``"human,bot,random"``: ``human``, ``bot`` (the default bot) or a bot name;
    a search bot may carry its budget (``mcts:64`` iterations, ``mcts-deep:800ms`` to think 800 ms a move).

    One name is used for every seat. Raises :class:`SetupError` with the reason.
    """
    names = [n.strip().lower() for n in spec.split(",")] if isinstance(spec, str) else [n.lower() for n in spec]
    if not names or any(not n for n in names):
        raise SetupError(f"--seats lists one kind per seat (human, bot or a bot name), got {spec!r}")
    if players is None:
        players = len(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise SetupError(f"--seats names {len(names)} seats for {players} players")
    known = cls.bot_names()
    resolved = []
    for name in names:
        if name == DEFAULT_BOT:
            name = default_bot(cls)
        elif name != HUMAN and name not in known and parse_search_name(name) is None:
            raise SetupError(f"unknown seat kind {name!r}: use human, bot or one of {', '.join(known)} "
                             "(a search bot with its budget: mcts:64 iterations, mcts-deep:800ms a move)")
        resolved.append(name)
    return resolved


def bot_seed(game: Game, seat: int) -> int:
    """The seed of a bot's next move: fixed by the game so far, so a resumed game plays on identically.

    A one-way hash of the game's seed: a bot's public moves must not let anyone work the
    game's seed (and with it every hidden card) back out.
    """
    data = f"{game.seed}:{len(game.log)}:{seat}".encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=b"tablelight-bot").digest(), "big") >> 33
