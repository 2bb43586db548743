"""How a game ended, in the players' words: who won by colour, each seat's score and its parts.

One place for every screen: the table's own last words (:class:`~tablelight.table.events.Said`),
the pages' game-over panel (the desk's ``result``) and the terminal.
"""

from __future__ import annotations

from typing import Any

from tablelight.table.face import GameFace


def result_block(game: Any, face: GameFace) -> dict[str, Any]:
    """The end of a game for every screen: ``headline`` ("red wins"), ``winners`` by colour, and per
    seat its colour, score and the engine's breakdown of it (``breakdown`` or ``vp_breakdown`` in
    :meth:`Game.result`: [part, points] pairs)."""
    result = game.result()
    scores = result.get("scores", game.scores())
    winners = [face.seat_word(s) for s in result.get("winners", game.winners())]
    parts = result.get("breakdown") or result.get("vp_breakdown") or []
    seats = []
    for seat in range(game.players):
        own = parts[seat] if seat < len(parts) and isinstance(parts[seat], dict) else {}
        breakdown = [[name.replace("_", " "), points] for name, points in own.items()
                     if name != "total" and isinstance(points, int) and not isinstance(points, bool)]
        seats.append({"seat": seat, "name": face.seat_word(seat), "score": scores[seat] if seat < len(scores) else None,
                      "breakdown": breakdown})
    if not winners:
        headline = "the game ended with no winner"
    elif len(winners) == 1:
        headline = f"{winners[0]} wins"
    else:
        headline = f"{' and '.join(winners)} share the win"
    return {"headline": headline, "winners": winners, "seats": seats, "words": game.describe_result()}


def result_line(game: Any, face: GameFace) -> str:
    """``red wins (red 17, blue 11)``: the headline with every seat's score when the scores are numbers."""
    result = result_block(game, face)
    scores = [seat["score"] for seat in result["seats"]]
    if all(isinstance(score, (int, float)) and not isinstance(score, bool) for score in scores):
        points = ", ".join(f"{seat['name']} {seat['score']}" for seat in result["seats"])
        return f"{result['headline']} ({points})"
    return str(result["headline"])


def result_text(game: Any, face: GameFace) -> str:
    """The end at a terminal: ``game over: red wins``, then each seat's score and its parts."""
    result = result_block(game, face)
    lines = [f"game over: {result['headline']}"]
    for seat in result["seats"]:
        parts = ", ".join(f"{name} {points}" for name, points in seat["breakdown"] if points)
        lines.append(f"  {seat['name']}: {seat['score']}" + (f" ({parts})" if parts else ""))
    return "\n".join(lines)
