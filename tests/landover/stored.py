"""A stored Landover game for the secret plays' tests: greedy bots, 4 players, record format 2 (written
before format 3), with 13 one-step master merchant and spy plays. Cut just before seat 2 plays its
master merchant on seat 1 (seat 2 also holds a spy), it gives a position through a public means: a
record, replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tablelight.core.record import replay
from tablelight.games.landover.engine import Landover

DATA = Path(__file__).parent / "data"
OLD = DATA / "format2-greedy-4p-merchant-spy.json"
#: The stored game's log index of seat 2's master merchant (target seat 1); seat 2 also holds a spy.
MERCHANT_AT = 630
TAKER = 2


def old_record() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(OLD.read_text())
    return record


def two_steps(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An old log with each one-step master merchant or spy written as format 3 writes it: the play, then the take."""
    out = []
    for entry in log:
        action = entry.get("action", {})
        if action.get("card") in ("master_merchant", "spy"):
            take = {"cards": action["take"]} if "take" in action else {"dev_card": action["card_taken"]}
            out.append({"seat": entry["seat"], "action": {"type": "play", "card": action["card"], "target": action["target"]}})
            out.append({"seat": entry["seat"], "action": {"type": "take", **take}})
        else:
            out.append(entry)
    return out


def before_the_play(record_format: int | None = None) -> Landover:
    """The stored game up to seat 2's master merchant, replayed as a game of ``record_format`` (default 3:
    its log rolls at each turn's start, which format 4 waits for)."""
    record = old_record()
    record["format"] = record_format or 3
    record["log"] = record["log"][:MERCHANT_AT]
    if record["format"] >= 3:
        record["log"] = two_steps(record["log"])
    del record["result"]
    game = replay(record)
    assert isinstance(game, Landover)
    return game
