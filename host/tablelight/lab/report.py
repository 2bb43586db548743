"""An HTML report of a lab run, with plots drawn as inline SVG (no plotting library needed).

Plots: win rate per seat and per bot with 95% error bars for every variant, the
distribution of game length (turns) per variant, and each variant's difference
from the first with its interval. The page is one self-contained file.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.lab.text import describe

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
WIDTH, HEIGHT, MARGIN = 640, 260, 44


def write_report(path: str, stats: dict[str, Any]) -> None:
    try:
        Path(path).write_text(render(stats), encoding="utf-8")
    except OSError as error:
        raise SetupError(f"cannot write the report {path}: {error.strerror}") from None


def render(stats: dict[str, Any]) -> str:
    variants = stats["variants"]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>tablelight lab: {html.escape(stats['game'])}</title>",
        "<style>body{font-family:sans-serif;max-width:900px;margin:2em auto}svg{display:block;margin:1em 0}"
        "pre{background:#f6f6f6;padding:1em;overflow-x:auto}text{font-size:11px}</style></head><body>",
        f"<h1>tablelight lab: {html.escape(stats['game'])}</h1>",
        f"<p>{stats['games_per_variant']} games per variant; bots {html.escape(', '.join(stats['bots']))}; "
        f"seed {stats['seed']}. Error bars are 95% Wilson intervals.</p>",
        "<h2>Win rate by seat</h2>",
        bars([(v["label"], [(f"seat {s}", p) for s, p in enumerate(v["win_rate_by_seat"])]) for v in variants]),
    ]
    if any(len(v["win_rate_by_bot"]) > 1 for v in variants):
        parts += ["<h2>Win rate by bot</h2>",
                  bars([(v["label"], list(v["win_rate_by_bot"].items())) for v in variants])]
    parts += [
        "<h2>Capped games and first-player wins</h2>",
        bars([(v["label"], [("capped", v["capped"]), ("first player wins", v["first_player"])]) for v in variants]),
    ]
    if all("seat_balance" in v for v in variants):  # statistics from before seat balance lack it
        parts += ["<h2>Seat balance (games won by one seat)</h2>",
                  bars([(v["label"], [("first player", v["seat_balance"]["first_player"]),
                                      *v["seat_balance"]["by_role"].items()]
                         + [(f"seat {s}", p) for s, p in enumerate(v["seat_balance"]["by_seat"])]) for v in variants])]
    parts.append("<h2>Game length (turns)</h2>")
    parts += [f"<h3>{html.escape(v['label'])}</h3>" + histogram(v["turns"]) for v in variants]
    if stats["comparisons"]:
        parts.append("<h2>Variants against their baseline</h2>")
        parts.append(differences(stats["comparisons"]))
    if all("coverage" in v for v in variants):
        parts.append("<h2>Rule coverage</h2>")
        parts += [f"<h3>{html.escape(v['label'])}</h3>" + coverage_table(v["coverage"]) for v in variants]
    parts += ["<h2>Figures</h2>", f"<pre>{html.escape(describe(stats, coverage=True))}</pre>",
              "<details><summary>All statistics (JSON)</summary>",
              f"<pre>{html.escape(json.dumps(stats, indent=1, sort_keys=True))}</pre></details>",
              "</body></html>"]
    return "\n".join(parts)


def bars(groups: list[tuple[str, list[tuple[str, dict[str, Any]]]]]) -> str:
    """Grouped bars (one group per variant) of proportions, with error bars."""
    names = sorted({name for _, items in groups for name, _ in items}, key=lambda n: [i for _, items in groups for i, (m, _) in enumerate(items) if m == n][0])
    slots = sum(len(items) + 1 for _, items in groups)
    step = (WIDTH - 2 * MARGIN) / max(slots, 1)
    plot = HEIGHT - 2 * MARGIN
    out = [_frame(), _axis_labels()]
    x = float(MARGIN)
    for label, items in groups:
        start = x
        for name, p in items:
            if p["rate"] is not None:
                colour = COLOURS[names.index(name) % len(COLOURS)]
                top = MARGIN + plot * (1 - p["rate"])
                out.append(f"<rect x='{x:.1f}' y='{top:.1f}' width='{step * 0.9:.1f}' height='{plot * p['rate']:.1f}' "
                           f"fill='{colour}'><title>{html.escape(name)}: {100 * p['rate']:.1f}%</title></rect>")
                low, high = (MARGIN + plot * (1 - v) for v in p["ci95"])
                mid = x + step * 0.45
                out.append(f"<path d='M{mid:.1f} {low:.1f}V{high:.1f}M{mid - 3:.1f} {low:.1f}h6M{mid - 3:.1f} {high:.1f}h6' stroke='black'/>")
            x += step
        # One line per varied option, so long labels of several --vary do not run into each other.
        lines = "".join(
            f"<tspan x='{(start + x) / 2:.1f}' dy='{0 if i == 0 else 12}'>{html.escape(part)}</tspan>"
            for i, part in enumerate(label.split(", "))
        )
        out.append(f"<text y='{HEIGHT - MARGIN + 14}' text-anchor='middle'>{lines}</text>")
        x += step
    legend = "".join(
        f"<rect x='{MARGIN + 110 * i}' y='6' width='10' height='10' fill='{COLOURS[i % len(COLOURS)]}'/>"
        f"<text x='{MARGIN + 110 * i + 14}' y='15'>{html.escape(name)}</text>"
        for i, name in enumerate(names)
    )
    return _svg("".join(out) + legend)


def coverage_table(cover: dict[str, Any]) -> str:
    """Every rule with its count per game and share of games; the never-fired in red."""
    head = (f"<p>{cover['fired']} of {cover['declared']} declared rules fired; never fired: "
            f"<b style='color:#d62728'>{html.escape(', '.join(cover['never_fired']) or 'none')}</b></p>")
    if cover.get("unreachable"):
        head += "<p>cannot fire here: " + html.escape("; ".join(f"{r} ({why})" for r, why in cover["unreachable"].items())) + "</p>"
    rows = []
    for category, rules in cover["rules"].items():
        for name, r in rules.items():
            style = " style='color:#d62728'" if r["games"]["k"] == 0 else ""
            share = "" if r["games"]["rate"] is None else f"{100 * r['games']['rate']:.0f}%"
            rows.append(f"<tr{style}><td>{html.escape(category)}</td><td>{html.escape(name)}</td>"
                        f"<td>{r['per_game']:g}</td><td>{share}</td></tr>")
    return (head + "<details><summary>every rule</summary><table><tr><th>category</th><th>rule</th>"
            "<th>per game</th><th>games</th></tr>" + "".join(rows) + "</table></details>")


def histogram(d: dict[str, Any]) -> str:
    if not d.get("n"):
        return "<p>no games</p>"
    counts = d["histogram"]["count"]
    starts = d["histogram"]["start"]
    tallest = max(counts) or 1
    step = (WIDTH - 2 * MARGIN) / len(counts)
    plot = HEIGHT - 2 * MARGIN
    out = [_frame()]
    for i, count in enumerate(counts):
        h = plot * count / tallest
        out.append(f"<rect x='{MARGIN + i * step:.1f}' y='{MARGIN + plot - h:.1f}' width='{step * 0.95:.1f}' "
                   f"height='{h:.1f}' fill='{COLOURS[0]}'><title>{starts[i]}+: {count} games</title></rect>")
    for i in range(0, len(counts), max(1, len(counts) // 5)):
        out.append(f"<text x='{MARGIN + i * step:.1f}' y='{HEIGHT - MARGIN + 14}'>{starts[i]:g}</text>")
    out.append(f"<text x='4' y='{MARGIN}'>{tallest}</text>")
    return _svg("".join(out))


def differences(comparisons: list[dict[str, Any]]) -> str:
    """Each variant's difference from the first: capped, first-player and per-seat win rates, with intervals."""
    rows: list[tuple[str, dict[str, Any]]] = []
    for c in comparisons:
        rows.append((f"{c['variant']}: capped", c["capped"]))
        rows.append((f"{c['variant']}: first player", c["first_player"]))
        rows += [(f"{c['variant']}: seat {s}", t) for s, t in enumerate(c["win_rate_by_seat"])]
    rows = [(name, t) for name, t in rows if t["diff"] is not None]
    height = 22 * len(rows) + 2 * MARGIN
    span = max([0.05] + [max(abs(t["ci95"][0]), abs(t["ci95"][1])) for _, t in rows])
    left, right = 260, WIDTH - 20
    centre = (left + right) / 2

    def at(value: float) -> float:
        return centre + (right - centre) * value / span

    out = [f"<line x1='{centre}' y1='{MARGIN - 10}' x2='{centre}' y2='{height - MARGIN}' stroke='#999'/>",
           f"<text x='{left}' y='{MARGIN - 14}'>-{100 * span:.0f} points</text>",
           f"<text x='{right}' y='{MARGIN - 14}' text-anchor='end'>+{100 * span:.0f} points</text>"]
    for i, (name, t) in enumerate(rows):
        y = MARGIN + 22 * i
        colour = "#d62728" if t["significant"] else "#555"
        out.append(f"<text x='4' y='{y + 4}'>{html.escape(name)}</text>")
        out.append(f"<path d='M{at(t['ci95'][0]):.1f} {y}H{at(t['ci95'][1]):.1f}' stroke='{colour}' stroke-width='2'/>")
        out.append(f"<circle cx='{at(t['diff']):.1f}' cy='{y}' r='4' fill='{colour}'><title>{100 * t['diff']:+.1f} points, p={t['p']:.3g}</title></circle>")
    return _svg("".join(out), height) + "<p>Red: significant at the 5% level (two-proportion z-test).</p>"


def _frame() -> str:
    return (f"<path d='M{MARGIN} {MARGIN}V{HEIGHT - MARGIN}H{WIDTH - MARGIN}' stroke='black' fill='none'/>")


def _axis_labels() -> str:
    plot = HEIGHT - 2 * MARGIN
    return "".join(
        f"<text x='{MARGIN - 4}' y='{MARGIN + plot * (1 - v) + 4:.1f}' text-anchor='end'>{int(100 * v)}%</text>"
        f"<path d='M{MARGIN} {MARGIN + plot * (1 - v):.1f}h{WIDTH - 2 * MARGIN}' stroke='#eee'/>"
        for v in (0, 0.25, 0.5, 0.75, 1)
    )


def _svg(body: str, height: int = HEIGHT) -> str:
    return f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{height}' viewBox='0 0 {WIDTH} {height}'>{body}</svg>"
