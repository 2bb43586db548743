"""Turn the per-game summaries of a lab run into its statistics.

Games are sorted by (variant, index) first, so the figures never depend on the
order in which workers finished. A shared win counts as a win for every winner.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tablelight.lab.coverage import coverage
from tablelight.lab.stats import distribution, proportion, two_proportions


def aggregate(plan: dict[str, Any], records: list[dict[str, Any]]) -> dict[str, Any]:
    """Statistics per variant and the comparison of every variant with the first."""
    ordered = sorted(records, key=lambda r: (r["variant"], r["index"]))
    variants = []
    for number, variant in enumerate(plan["variants"]):
        games = [r for r in ordered if r["variant"] == number]
        variants.append({"label": variant["label"], "players": variant["players"], "options": variant["options"],
                         **variant_stats(variant["players"], games),
                         "coverage": coverage(plan["game"], variant, games)})
    return {
        "game": plan["game"],
        "bots": plan["bots"],
        "seed": plan["seed"],
        "games_per_variant": plan["games"],
        "variants": variants,
        "comparisons": [compare(variants[base], variants[v]) for v, base in baselines(plan)],
    }


def baselines(plan: dict[str, Any]) -> list[tuple[int, int]]:
    """(variant, its baseline) pairs: the last ``--vary`` is the one compared, the others hold still.

    With ``--vary players=2,3 --vary garrisons=off,on`` garrisons on is compared with garrisons off
    at each number of players; with one ``--vary`` every value is compared with the first.
    """
    step = len(plan["vary"][-1][1]) if plan["vary"] else 1
    return [(v, v - v % step) for v in range(len(plan["variants"])) if v % step]


def variant_stats(players: int, games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(games)
    decided = [g for g in games if not g["capped"]]
    seat_wins = [sum(1 for g in decided if seat in g["winners"]) for seat in range(players)]
    bot_seats: Counter[str] = Counter()
    bot_wins: Counter[str] = Counter()
    for g in games:
        for seat, name in enumerate(g["seats"]):
            bot_seats[name] += 1
            bot_wins[name] += seat in g["winners"]
    first = [g for g in games if g["first_seat"] is not None]
    first_wins = sum(1 for g in first if g["first_seat"] in g["winners"])
    first_rate = proportion(first_wins, len(first))
    first_rate["fair_share"] = round(1 / players, 4)
    first_rate["advantage"] = None if first_rate["rate"] is None else round(first_rate["rate"] - 1 / players, 4)
    action_totals: Counter[str] = Counter()
    event_totals: Counter[str] = Counter()
    event_games: Counter[str] = Counter()
    for g in games:
        action_totals.update(g["action_types"])
        event_totals.update(g["events"])
        event_games.update(g["events"].keys())
    all_actions = sum(action_totals.values()) or 1
    winning_scores = [max(g["scores"]) for g in decided if g["scores"]]
    margins = [_margin(g["scores"]) for g in decided if len(g["scores"]) > 1]
    return {
        "games": n,
        "capped": proportion(sum(1 for g in games if g["capped"]), n),
        "shared_wins": proportion(sum(1 for g in decided if len(g["winners"]) > 1), len(decided)),
        "win_rate_by_seat": [proportion(k, n) for k in seat_wins],
        "win_rate_by_bot": {name: proportion(bot_wins[name], bot_seats[name]) for name in sorted(bot_seats)},
        "first_player": first_rate,
        "seat_balance": seat_balance(players, decided),
        "turns": distribution([g["turns"] for g in games]),
        "actions": distribution([g["actions"] for g in games]),
        "scores": {
            "by_seat": [distribution([g["scores"][s] for g in games], bins=10) for s in range(players)],
            "winner": distribution(winning_scores, bins=10),
            "margin": distribution(margins, bins=10),
        },
        "action_types": {
            kind: {"per_game": round(count / max(n, 1), 3), "share": round(count / all_actions, 4)}
            for kind, count in sorted(action_totals.items())
        },
        "events": {
            kind: {"per_game": round(event_totals[kind] / max(n, 1), 3), "games": proportion(event_games[kind], n)}
            for kind in sorted(event_totals)
        },
    }


def seat_balance(players: int, decided: list[dict[str, Any]]) -> dict[str, Any]:
    """Win rates over the games won by one seat: the first player's, each seat's and each role's.

    A shared win is left out here, so the rates of the seats add up to 1 and the fair share is
    exactly 1/P. Roles are the seats a game names in its rule declaration (Farlander: the seat
    drawn to attack first). ``unfair`` names what a 95% interval puts away from the fair share;
    ``largest_edge`` is what lies furthest from it, in points.
    """
    fair = 1 / players
    won = [g for g in decided if len(g["winners"]) == 1]
    first = [g for g in won if g["first_seat"] is not None]
    first_rate = proportion(sum(1 for g in first if g["first_seat"] in g["winners"]), len(first))
    by_seat = [proportion(sum(1 for g in won if seat in g["winners"]), len(won)) for seat in range(players)]
    roles = sorted({role for g in won for role in g.get("key_seats", {})})
    by_role = {}
    for role in roles:
        held = [g for g in won if role in g.get("key_seats", {})]
        by_role[role] = proportion(sum(1 for g in held if g["key_seats"][role] in g["winners"]), len(held))
    named = [("first player", first_rate), *by_role.items()] + [(f"seat {s}", p) for s, p in enumerate(by_seat)]
    rated = [(name, p) for name, p in named if p["rate"] is not None]
    edge = max(rated, key=lambda item: abs(item[1]["rate"] - fair), default=None)
    return {
        "won_outright": len(won),
        "fair_share": round(fair, 4),
        "first_player": first_rate,
        "by_role": by_role,
        "by_seat": by_seat,
        "unfair": [name for name, p in rated if not p["ci95"][0] <= fair <= p["ci95"][1]],
        "largest_edge": None if edge is None else {"who": edge[0], "points": round(100 * (edge[1]["rate"] - fair), 1)},
    }


def compare(base: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """How ``other`` differs from ``base``: each proportion's difference and its two-proportion test."""

    def test(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
        return two_proportions(a["k"], a["n"], b["k"], b["n"])

    seats = min(len(base["win_rate_by_seat"]), len(other["win_rate_by_seat"]))
    bots = sorted(set(base["win_rate_by_bot"]) & set(other["win_rate_by_bot"]))
    return {
        "base": base["label"],
        "variant": other["label"],
        "capped": test(base["capped"], other["capped"]),
        "first_player": test(base["first_player"], other["first_player"]),
        "win_rate_by_seat": [test(base["win_rate_by_seat"][s], other["win_rate_by_seat"][s]) for s in range(seats)],
        "win_rate_by_bot": {b: test(base["win_rate_by_bot"][b], other["win_rate_by_bot"][b]) for b in bots},
        "mean_turns": {"base": base["turns"].get("mean"), "variant": other["turns"].get("mean")},
    }


def _margin(scores: list[int]) -> int:
    top = sorted(scores, reverse=True)
    return top[0] - top[1]
