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
    names = [face.seat_word(seat) for seat in range(game.players)]
    headline = score_line(names, result.get("winners", game.winners()), None)
    return {"headline": headline, "winners": winners, "seats": seats, "words": game.describe_result()}


def result_line(game: Any, face: GameFace) -> str:
    """``red wins (red 17, blue 11)``: the headline with every seat's score when the scores are numbers."""
    result = game.result()
    names = [face.seat_word(seat) for seat in range(game.players)]
    return score_line(names, result.get("winners", game.winners()), result.get("scores", game.scores()))


def score_line(names: list[str], winners: Any, scores: Any) -> str:
    """``red wins (red 17, blue 11)`` from the seats' colour words, the winners and the scores as a
    record keeps them (``tablelight games`` reads them from the store without replaying the game)."""
    won = [names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat}" for seat in winners or []]
    headline = ("the game ended with no winner" if not won else f"{won[0]} wins" if len(won) == 1
                else f"{' and '.join(won)} share the win")
    if isinstance(scores, list) and len(scores) == len(names) and all(
            isinstance(score, (int, float)) and not isinstance(score, bool) for score in scores):
        return f"{headline} ({', '.join(f'{name} {score}' for name, score in zip(names, scores))})"
    return headline


def result_text(game: Any, face: GameFace, *, headline: bool = True) -> str:
    """The end at a terminal: ``game over: red wins`` (unless ``headline`` is False: the table said
    it already), then each seat's score and its parts."""
    result = result_block(game, face)
    lines = [f"game over: {result['headline']}"] if headline else []
    for seat in result["seats"]:
        parts = ", ".join(f"{name} {points}" for name, points in seat["breakdown"] if points)
        lines.append(f"  {seat['name']}: {seat['score']}" + (f" ({parts})" if parts else ""))
    return "\n".join(lines)
