"""The lab's statistics as text for a terminal."""

from __future__ import annotations

from typing import Any


def pct(p: dict[str, Any]) -> str:
    if p["rate"] is None:
        return "n/a"
    low, high = p["ci95"]
    return f"{100 * p['rate']:5.1f}% [{100 * low:.1f}-{100 * high:.1f}]"


def describe(stats: dict[str, Any], coverage: bool = False) -> str:
    """The statistics as lines of text; ``coverage`` adds every rule's count (``--coverage``)."""
    lines = [f"{stats['game']}: {stats['games_per_variant']} games per variant, bots {','.join(stats['bots'])}, "
             f"seed {stats['seed']} (95% Wilson intervals in brackets)"]
    for v in stats["variants"]:
        lines.append("")
        lines.append(f"== {v['label']} ({v['players']} players, {v['games']} games)")
        lines.append(f"  capped (no winner): {pct(v['capped'])}   shared wins: {pct(v['shared_wins'])}")
        lines.append("  win rate by seat:   " + "  ".join(f"{s}: {pct(p)}" for s, p in enumerate(v["win_rate_by_seat"])))
        if len(v["win_rate_by_bot"]) > 1:
            lines.append("  win rate by bot:    " + "  ".join(f"{b}: {pct(p)}" for b, p in v["win_rate_by_bot"].items()))
        first = v["first_player"]
        if first["rate"] is not None:
            lines.append(f"  first player wins:  {pct(first)} (fair share {100 * first['fair_share']:.1f}%, "
                         f"advantage {100 * first['advantage']:+.1f} points)")
        lines += seat_balance_lines(v)
        for key in ("turns", "actions"):
            d = v[key]
            if d["n"]:
                lines.append(f"  {key + ':':19} mean {d['mean']:.1f}, sd {d['sd']:.1f}, min {d['min']}, "
                             f"median {d['median']:g}, p90 {d['p90']:g}, max {d['max']}")
        winner = v["scores"]["winner"]
        if winner["n"]:
            margin = v["scores"]["margin"].get("mean")
            lines.append(f"  winning score:      mean {winner['mean']:.1f}, median {winner['median']:g}, "
                         f"range {winner['min']}-{winner['max']}; margin mean {margin if margin is None else round(margin, 1)}")
        top = sorted(v["action_types"].items(), key=lambda kv: -kv[1]["share"])[:8]
        lines.append("  actions:            " + ", ".join(f"{k} {100 * a['share']:.1f}%" for k, a in top))
        events = sorted(v["events"].items(), key=lambda kv: -kv[1]["per_game"])[:10]
        if events:
            lines.append("  events per game:    " + ", ".join(f"{k} {e['per_game']}" for k, e in events))
        if "coverage" in v:  # absent in statistics from before rule coverage
            lines += coverage_lines(v["coverage"], every_rule=coverage)
    for c in stats["comparisons"]:
        lines.append("")
        lines.append(f"-- {c['variant']} vs {c['base']} (difference, 95% interval, two-proportion p)")
        rows = [("capped", c["capped"]), ("first player wins", c["first_player"])]
        rows += [(f"seat {s} wins", t) for s, t in enumerate(c["win_rate_by_seat"])]
        rows += [(f"bot {b} wins", t) for b, t in c["win_rate_by_bot"].items()]
        for name, t in rows:
            if t["diff"] is None:
                continue
            mark = " *" if t["significant"] else ""
            p = "p<1e-6" if t["p"] < 1e-6 else f"p={t['p']:.3g}"
            lines.append(f"  {name:19} {100 * t['diff']:+.1f} points [{100 * t['ci95'][0]:+.1f}, "
                         f"{100 * t['ci95'][1]:+.1f}], {p}{mark}")
        turns = c["mean_turns"]
        if turns["base"] is not None and turns["variant"] is not None:
            lines.append(f"  mean turns          {turns['base']:.1f} -> {turns['variant']:.1f}")
    if "run" in stats:
        r = stats["run"]
        lines.append("")
        lines.append(f"run: {r['games_played']} games played ({r['games_resumed']} resumed) in {r['seconds']} s, "
                     f"{r['games_per_s']} games/s, backend {r['backend']}, workers {r['workers']}")
    return "\n".join(lines)


def seat_balance_lines(variant: dict[str, Any]) -> list[str]:
    balance = variant.get("seat_balance")
    if not balance or not balance["won_outright"]:
        return []
    seats = "  ".join(f"{s}: {pct(p)}" for s, p in enumerate(balance["by_seat"]))
    roles = "".join(f", {role} {pct(p)}" for role, p in balance["by_role"].items())
    lines = [f"  seat balance:       of {balance['won_outright']} games won by one seat (fair share "
             f"{100 * balance['fair_share']:.1f}%): first player {pct(balance['first_player'])}{roles}",
             f"  {'':20}by seat {seats}"]
    edge = balance["largest_edge"]
    verdict = ("95% interval away from the fair share: " + ", ".join(balance["unfair"])) if balance["unfair"] else (
        "every interval holds the fair share")
    lines.append(f"  largest edge:       {edge['who']} {edge['points']:+.1f} points; {verdict}")
    return lines


def coverage_lines(cover: dict[str, Any], every_rule: bool) -> list[str]:
    """The rules never fired (always); with ``every_rule`` each rule's count per game and share of games."""
    lines = []
    if cover["declared"]:
        never = ", ".join(cover["never_fired"]) or "none"
        lines.append(f"  rules fired:        {cover['fired']} of {cover['declared']} declared; never fired: {never}")
    if cover.get("unreachable"):  # absent in statistics from before the reasons
        lines.append("  cannot fire here:   " + "; ".join(f"{rule} ({why})" for rule, why in cover["unreachable"].items()))
    if cover["undeclared"]:
        lines.append("  not in the game's rule catalogue: " + ", ".join(cover["undeclared"]))
    if every_rule:
        lines.append("  rule coverage (per game, share of games; ! never fired):")
        for category, rules in cover["rules"].items():
            cells = [f"{'!' if r['games']['k'] == 0 else ''}{name} {r['per_game']:g} ({100 * r['games']['rate']:.0f}%)"
                     for name, r in rules.items() if r["games"]["rate"] is not None]
            lines.append(f"    {category + ':':12} " + ", ".join(cells))
    return lines
