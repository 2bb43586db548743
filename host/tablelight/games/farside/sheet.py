"""A printable roster in the layout of the rulebook's force roster sheet, as text and as HTML.

The sheet has the book's three parts: the models (# Name, size, height, move,
attack, defence, special rules/weapons, points), the shooting weapons used (10,
20, 30, infinite range, impact, focused shot, special rules) and the melee
weapons used (attack dice and impact per size). Below them come the rules text
of every special rule and upgrade used, and the builder's warnings.
"""

from __future__ import annotations

import html

from tablelight.games.farside.army import ArmyReport
from tablelight.games.farside.tables import find_melee, find_rule, find_shooting


def _items(report: ArmyReport, index: int) -> str:
    model = report.roster.models[index]
    parts = list(model.special_rules)
    for kind, weapons in (("melee", model.melee), ("shooting", model.shooting)):
        for weapon in weapons:
            name = weapon.name
            if weapon.upgrades:
                name += " (" + ", ".join(weapon.upgrades) + ")"
            parts.append(name)
    return "; ".join(parts)


def _dice(value: int | None) -> str:
    return "--" if value is None else str(value)


def _tables(report: ArmyReport) -> tuple[list[list[str]], list[list[str]], list[tuple[str, str]]]:
    shooting_rows: dict[str, list[str]] = {}
    melee_rows: dict[str, list[str]] = {}
    rules_used: dict[str, str] = {}
    for model in report.roster.models:
        for rule_name in model.special_rules:
            rule = find_rule(rule_name)
            if rule:
                rules_used[rule.name] = f"({rule.price_label}{', ' + rule.category if rule.category else ''}) {rule.text}"
        for weapon in model.shooting:
            found = find_shooting(weapon.name)
            if found and found.name not in shooting_rows:
                shooting_rows[found.name] = [
                    found.name, *(_dice(found.dice[b]) for b in ("10", "20", "30", "inf")),
                    str(found.impact), found.focused_shot, found.special or "--",
                ]
            for up in weapon.upgrades:
                rule = find_rule(up)
                if rule:
                    rules_used[rule.name] = f"({rule.price_label}) {rule.text}"
        for weapon in model.melee:
            if weapon.name.lower() not in melee_rows and find_melee(weapon.name, 1):
                cells = [find_melee(weapon.name, 1).name]  # type: ignore[union-attr]
                for size in (1, 2, 3):
                    profile = find_melee(weapon.name, size)
                    assert profile is not None
                    cells += [str(profile.attack_dice), str(profile.impact)]
                ups = sorted({u for m in report.roster.models for w in m.melee if w.name.lower() == weapon.name.lower() for u in w.upgrades})
                cells.append(", ".join(ups) or "--")
                melee_rows[weapon.name.lower()] = cells
            for up in weapon.upgrades:
                rule = find_rule(up)
                if rule:
                    rules_used[rule.name] = f"({rule.price_label}) {rule.text}"
    return list(shooting_rows.values()), list(melee_rows.values()), sorted(rules_used.items())


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()
    return [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]


MODEL_HEADER = ["#", "Name", "Size", "Ht", "Move", "A", "D", "Special Rules/Weapons", "Each", "Points"]
SHOOTING_HEADER = ["Shooting Weapons", "10", "20", "30", "inf", "Imp", "FS", "Special Rules"]
MELEE_HEADER = ["Melee Weapons", "A s1", "Imp s1", "A s2", "Imp s2", "A s3", "Imp s3", "Upgrades"]


def _model_rows(report: ArmyReport) -> list[list[str]]:
    rows = []
    for i, (model, cost) in enumerate(zip(report.roster.models, report.models)):
        rows.append([
            str(model.count), model.name, str(model.size), str(model.height), f"{model.move} cm",
            f"{model.attack}+", f"{model.defense}+", _items(report, i), str(cost.each), str(cost.total),
        ])
    return rows


def roster_text(report: ArmyReport) -> str:
    roster = report.roster
    level = f" / {roster.points_level}" if roster.points_level else ""
    out = [f"Farside Encounter Force Roster: {roster.name}" + (f" ({roster.player})" if roster.player else "")]
    out.append(f"{report.model_count} models, {report.total}{level} points")
    out.append("")
    out += _grid(MODEL_HEADER, _model_rows(report))
    shooting, melee, rules_used = _tables(report)
    if shooting:
        out += ["", *_grid(SHOOTING_HEADER, shooting)]
    if melee:
        out += ["", *_grid(MELEE_HEADER, melee)]
    if rules_used:
        out += ["", "Special rules and upgrades"]
        out += [f"  {name} {text}" for name, text in rules_used]
    if report.warnings:
        out += ["", "Warnings"]
        out += [f"  ! {w.message}" for w in report.warnings]
    return "\n".join(out) + "\n"


def _html_table(header: list[str], rows: list[list[str]], cls: str) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


_STYLE = """
body { font-family: sans-serif; margin: 1.5cm; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
table { border-collapse: collapse; width: 100%; margin: 0.8em 0; }
th, td { border: 1px solid #444; padding: 0.25em 0.4em; text-align: left; vertical-align: top; }
th { background: #ddd; }
dl dt { font-weight: bold; } dl dd { margin: 0 0 0.4em 1em; }
.warnings li { color: #a40; }
@media print { body { margin: 0; } }
"""


def roster_html(report: ArmyReport) -> str:
    roster = report.roster
    level = f" / {roster.points_level}" if roster.points_level else ""
    title = f"Farside Encounter Force Roster: {roster.name}"
    shooting, melee, rules_used = _tables(report)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>',
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(roster.player + ': ' if roster.player else '')}{report.model_count} models, "
        f"<strong>{report.total}{level} points</strong></p>",
        _html_table(MODEL_HEADER, _model_rows(report), "models"),
    ]
    if shooting:
        parts.append(_html_table(SHOOTING_HEADER, shooting, "shooting"))
    if melee:
        parts.append(_html_table(MELEE_HEADER, melee, "melee"))
    if rules_used:
        parts.append("<h2>Special rules and upgrades</h2><dl>")
        parts += [f"<dt>{html.escape(n)}</dt><dd>{html.escape(t)}</dd>" for n, t in rules_used]
        parts.append("</dl>")
    if report.warnings:
        parts.append('<h2>Warnings</h2><ul class="warnings">')
        parts += [f"<li>{html.escape(w.message)}</li>" for w in report.warnings]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
