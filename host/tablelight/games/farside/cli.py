"""``tablelight farside ...``: the army builder and the odds calculator on the command line.

    tablelight farside base-cost --size 1 --attack 4 --defense 4 --move 20
    tablelight farside cost army.toml [--json]
    tablelight farside roster army.toml --format html -o army.html
    tablelight farside odds --json --dice 4 --attack 4 --impact 1 --defense 4 --size 1 --cover 4
    tablelight farside bench
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.inputs import number_in_range, parse_json, printable, read_json_file
from tablelight.games.farside.army import ArmyReport, cost_army
from tablelight.games.farside.odds import (
    AttackSpec,
    Target,
    attack_odds,
    group_odds,
    melee_rerolls,
    weapon_attack,
)
from tablelight.games.farside.roster import read_roster, roster_to_json_text, roster_to_toml
from tablelight.games.farside.sheet import roster_html, roster_text
from tablelight.games.farside.tables import base_cost, parse_move, parse_plus


def _plus(label: str) -> Any:
    def parse(text: str) -> int:
        try:
            return parse_plus(text, label)
        except SetupError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def _move(text: str) -> int:
    try:
        return parse_move(text)
    except SetupError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _impact(text: str) -> int | str:
    if text.upper() in ("D6", "W6"):
        return "D6"
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"impact must be a number or D6, got {text!r}")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("farside", help="Farside Encounter: army builder, roster sheets, exact odds")
    commands = parser.add_subparsers(dest="farside_command", metavar="ACTION", required=True)

    base = commands.add_parser("base-cost", help="the base cost of a profile from the rulebook's table")
    base.add_argument("--size", type=int, required=True, help="1, 2 or 3")
    base.add_argument("--attack", type=_plus("attack"), required=True, help="the number before the + (2..6)")
    base.add_argument("--defense", "--defence", type=_plus("defense"), required=True, help="the number before the + (2..6)")
    base.add_argument("--move", type=_move, required=True, help="10, 20 or 30 (cm)")
    base.add_argument("--json", action="store_true")
    base.set_defaults(func=run_base_cost)

    cost = commands.add_parser("cost", help="each model's and the army's points with the breakdown, and warnings")
    cost.add_argument("roster", help="roster file (.toml or .json; docs/farside-roster.md)")
    cost.add_argument("--points-level", type=int, help="check against this points level instead of the roster's")
    cost.add_argument("--json", action="store_true")
    cost.set_defaults(func=run_cost)

    roster = commands.add_parser("roster", help="print the force roster sheet (text or HTML) or export the roster")
    roster.add_argument("roster", help="roster file (.toml or .json)")
    roster.add_argument("--format", choices=("text", "html", "toml", "json"), default="text")
    roster.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    roster.set_defaults(func=run_roster)

    odds = commands.add_parser("odds", help="exact odds of an attack on a model (docs/rules/farside.md)")
    odds.add_argument("--json", action="store_true", help="print JSON (damage, removed, mean_damage, ...)")
    given = odds.add_argument_group("the attack, given directly")
    given.add_argument("--dice", type=int, help="number of attack dice")
    given.add_argument("--attack", type=_plus("attack"), required=True, help="attack value of the attacker (4 for 4+)")
    given.add_argument("--impact", type=_impact, help="impact tokens per success: a number or D6 (default 1)")
    given.add_argument("--reroll", choices=("rA", "r1", "rF"), action="append", default=[], help="reroll effect (repeatable)")
    given.add_argument("--twice", action="store_true", help="the weapon fires twice (focused shot 2x)")
    weapon = odds.add_argument_group("the attack, from the weapon table")
    weapon.add_argument("--weapon", help="shooting weapon name, e.g. 'Assault Rifle' (sets dice, impact, focused effects)")
    weapon.add_argument("--range", type=number_in_range(0, 10**5), help="distance in cm (range bands 10/20/30/beyond)")
    weapon.add_argument("--focused", action="store_true", help="a focused shot (applies the weapon's FS effect)")
    weapon.add_argument("--targets", type=int, default=1, help="rapid fire split over this many models (+1 attack value each beyond the first)")
    extra = odds.add_argument_group("rules and upgrades")
    extra.add_argument("--exploding", action="store_true", help="Exploding Ammo")
    extra.add_argument("--devastating", action="store_true", help="Devastating")
    extra.add_argument("--masterly", action="store_true", help="Masterly Crafted (melee: sixes inflict double impact)")
    extra.add_argument("--personal", action="store_true", help="Personal Weapon (melee: reroll ones)")
    extra.add_argument("--melee", action="store_true", help="a melee attack: rerolls against a damaged target apply")
    target = odds.add_argument_group("the target")
    target.add_argument("--defense", "--defence", type=_plus("defense"), required=True, help="defence value (4 for 4+)")
    target.add_argument("--size", type=int, default=1, choices=(1, 2, 3))
    target.add_argument("--cover", type=_plus("cover"), help="cover save C+ per success (limited sight); omit for free sight")
    target.add_argument("--terrain", help="cover save of a terrain type from the rulebook (e.g. Ruin = 3+, Fence = 5+)")
    target.add_argument("--damage", type=int, default=0, choices=(0, 1, 2), help="damage tokens the model already has")
    target.add_argument("--camouflage", choices=("simple", "advanced"), help="Camouflage special rule of the target")
    target.add_argument("--seek-cover", action="store_true", help="the Seek Cover manoeuvre (+2 to the cover save)")
    target.add_argument("--evade", action="store_true", help="the Evade manoeuvre (reroll all defence dice once)")
    group = odds.add_argument_group("groups")
    group.add_argument("--group", type=int, default=0, help="blast, kone or lance: number of identical models affected")
    group.add_argument("--mode", choices=("blast", "kone", "lance"), help="how the group is hit (default: the weapon's rule)")
    odds.set_defaults(func=run_odds)

    show = commands.add_parser("tables", help="list the rulebook's tables, or print one as JSON")
    show.add_argument("table", nargs="?", help="a table name, e.g. shooting_weapons")
    show.set_defaults(func=run_tables)

    campaign = commands.add_parser("campaign", help="check three forces for the small campaign (at most 100 points apart)")
    campaign.add_argument("rosters", nargs="+", help="the forces' roster files")
    campaign.set_defaults(func=run_campaign)

    game = commands.add_parser("game", help="start a tracked game with two rosters and write its record")
    game.add_argument("--roster", action="append", required=True, help="roster file of seat 0, then of seat 1")
    game.add_argument("--seed", type=int, default=0)
    game.add_argument("--dice", choices=("host", "table", "press"), default="host",
                      help="who rolls: the host, players entering dice, or the host when the seat sends a roll action")
    game.add_argument("--deployment", choices=("roll_each", "roll_shared", "10", "20", "30"), default="roll_each")
    game.add_argument("--points-level", type=int, help="default: the first roster's points level, else 500")
    game.add_argument("--points-check", choices=("cap", "record"), default="cap",
                      help="cap (default): refuse an army over the points level; record: only note the level")
    game.add_argument("--objective-limit", type=int, default=10)
    game.add_argument("record", help="the game record to write (JSON); continue it with 'farside track'")
    game.set_defaults(func=run_game)

    track = commands.add_parser("track", help="show a tracked game, list its legal actions, apply one action or undo")
    track.add_argument("record", help="game record (JSON), rewritten after a change")
    track.add_argument("action", nargs="?", help='one action as JSON, e.g. \'{"type": "end_turn"}\'')
    track.add_argument("--seat", type=int, help="check that it is this seat's turn")
    track.add_argument("--legal", action="store_true", help="list the legal actions (at most 60)")
    track.add_argument("--undo", action="store_true", help="take back the last player action")
    track.add_argument("--view", type=int, metavar="SEAT", help="print what SEAT may see as JSON (secrets hidden)")
    track.set_defaults(func=run_track)

    bench = commands.add_parser("bench", help="time per odds query against the icepool library")
    bench.add_argument("--repeats", type=int, default=20)
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(func=run_bench)


# ------------------------------------------------------------------ commands


def run_base_cost(args: argparse.Namespace) -> int:
    cost = base_cost(args.size, args.attack, args.defense, args.move)
    if args.json:
        print(json.dumps({"size": args.size, "attack": args.attack, "defense": args.defense, "move": args.move, "base_cost": cost}))
    else:
        print(cost)
    return 0


def cost_text(report: ArmyReport) -> str:
    lines = []
    for cost in report.models:
        times = f"{cost.count} x " if cost.count > 1 else ""
        lines.append(f"{times}{cost.name}: {cost.each} points each, {cost.total} in all")
        labels = ["base cost"] + [f"+ {line.item} ({line.price})" for line in cost.lines]
        width = max(len(label) for label in labels)
        for label, points in zip(labels, [cost.base] + [line.points for line in cost.lines]):
            lines.append(f"    {label:<{width}} {points:>5}")
    level = f" of {report.roster.points_level}" if report.roster.points_level else ""
    lines.append(f"Army {report.roster.name}: {report.model_count} models, {report.total}{level} points")
    for warning in report.warnings:
        lines.append(f"warning: {warning.message}")
    return printable("\n".join(lines), lines=True)  # names come from the roster file


def run_cost(args: argparse.Namespace) -> int:
    roster = read_roster(args.roster)
    if args.points_level is not None:
        if args.points_level < 1:
            raise SetupError(f"--points-level must be positive, got {args.points_level}")
        roster.points_level = args.points_level
    report = cost_army(roster)
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(cost_text(report))
    return 0


def _write(text: str, output: str | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    path = Path(output)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        with tempfile.NamedTemporaryFile("w", dir=directory, delete=False, suffix=".tmp", encoding="utf-8") as handle:
            handle.write(text)
            temporary = handle.name
        os.replace(temporary, path)
    except OSError as error:
        raise SetupError(f"cannot write {output}: {error.strerror}") from None
    print(f"written to {output}", file=sys.stderr)


def run_roster(args: argparse.Namespace) -> int:
    roster = read_roster(args.roster)
    if args.format == "toml":
        text = roster_to_toml(roster)
    elif args.format == "json":
        text = roster_to_json_text(roster)
    else:
        report = cost_army(roster)
        text = roster_html(report) if args.format == "html" else roster_text(report)
        if args.format != "html" and args.output is None:  # to the terminal: names from the file escaped
            text = printable(text, lines=True)
    _write(text, args.output)
    return 0


def odds_inputs(args: argparse.Namespace) -> tuple[AttackSpec, Target]:
    """Build the attack and target from the odds flags (SetupError on a bad combination)."""
    if args.weapon:
        if args.melee or args.personal:
            raise SetupError("--melee and --personal are for melee attacks given with --dice, not a shooting --weapon")
        if args.range is None:
            raise SetupError("--weapon needs --range (cm)")
        if args.dice is not None or args.impact is not None:
            raise SetupError("give either --weapon and --range, or --dice and --impact, not both")
        upgrades = [name for flag, name in ((args.exploding, "exploding ammo"), (args.devastating, "devastating")) if flag]
        spec = weapon_attack(args.weapon, args.range, args.attack, focused=args.focused, targets=args.targets, upgrades=upgrades)
        extra = tuple(args.reroll)
        if extra or args.twice or args.masterly:
            spec = AttackSpec(spec.dice, spec.attack, spec.impact, spec.rerolls + extra, spec.twice or args.twice,
                              spec.exploding, spec.devastating, args.masterly)
    else:
        if args.dice is None:
            raise SetupError("give --dice N (or --weapon NAME --range CM)")
        rerolls = list(args.reroll)
        if args.melee:
            rerolls += melee_rerolls(args.damage, args.personal)
        elif args.personal:
            raise SetupError("--personal (Personal Weapon) is a melee upgrade: add --melee")
        spec = AttackSpec(
            args.dice,
            args.attack + max(0, args.targets - 1),
            args.impact if args.impact is not None else 1,
            tuple(dict.fromkeys(rerolls)),
            args.twice,
            args.exploding,
            args.devastating,
            args.masterly,
        )
    bonus = {"simple": 1, "advanced": 2, None: 0}[args.camouflage] + (2 if args.seek_cover else 0)
    cover = args.cover
    if args.terrain:
        if cover is not None:
            raise SetupError("give either --cover or --terrain, not both")
        cover = terrain_cover(args.terrain)
    target = Target(defense=args.defense, size=args.size, cover=cover, damage=args.damage, cover_bonus=bonus, evade=args.evade)
    return spec, target


def terrain_cover(name: str) -> int:
    from tablelight.games.farside.tables import tables

    rows = {row["type"].lower(): int(row["cover"]) for row in tables()["terrain_types"]}
    found = rows.get(" ".join(name.lower().split()))
    if found is None:
        known = ", ".join(row["type"] for row in tables()["terrain_types"])
        raise SetupError(f"unknown terrain {name!r}; the rulebook's types are {known} (or give --cover C)")
    return found


def run_odds(args: argparse.Namespace) -> int:
    spec, target = odds_inputs(args)
    result = attack_odds(spec, target)
    data = result.to_json()
    if args.group:
        mode = args.mode
        if mode is None:
            from tablelight.games.farside.tables import find_shooting

            weapon = find_shooting(args.weapon) if args.weapon else None
            special = (weapon.special or "").lower() if weapon else ""
            if special not in ("blast", "kone"):
                raise SetupError("--group needs --mode blast|kone|lance (or a Blast or Kone weapon)")
            mode = special
        data["group"] = {"mode": mode, "models": args.group, **group_odds(spec, [target] * args.group, mode).to_json()}
    if args.json:
        print(json.dumps(data))
        return 0
    print(f"attack: {spec.dice} dice at {spec.attack}+, impact {spec.impact}"
          + (f", reroll {result.reroll_used}" if result.reroll_used else "") + (", twice" if spec.twice else ""))
    save = target.cover_save
    print(f"target: defence {target.defense}+, size {target.size}, cover {f'{save}+' if save else 'none (free sight)'}, "
          f"{target.damage} damage token(s)")
    at_least = result.at_least(result.damage)
    print("damage tokens   exactly                        at least")
    for k in sorted(result.damage):
        p = result.damage[k]
        print(f"  {k:>3}   {float(p):>9.4%}  {str(p):>20}   {float(at_least[k]):>9.4%}")
    print(f"mean damage {float(result.mean_damage):.4f} ({result.mean_damage})")
    print(f"removed (3+ damage tokens in all): {float(result.removed):.4%} ({result.removed})")
    if "group" in data:
        group = data["group"]
        print(f"{group['mode']} on {group['models']} models: mean removed {group['mean_models_removed']:.4f}")
        for k, p in group["models_removed"].items():
            print(f"  {k} removed: {p:.4%}")
    return 0


def run_bench(args: argparse.Namespace) -> int:
    from tablelight.games.farside.bench import run_benchmark

    figures = run_benchmark(args.repeats)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"time per odds query (median of {figures['repeats']}, caches cleared), icepool {figures['icepool']}:")
    for row in figures["questions"]:
        same = "same answer" if row["same_answer"] else "ANSWERS DIFFER"
        print(f"  {row['question']}: ours {row['ours_ms']} ms, icepool {row['icepool_ms']} ms "
              f"({row['speedup']}x), {same}")
    return 0 if all(row["same_answer"] for row in figures["questions"]) else 1


def main(argv: list[str] | None = None) -> int:
    """Run ``farside ...`` alone (``python -m tablelight.games.farside.cli farside cost FILE``)."""
    from tablelight.cli.main import main as tablelight_main

    return tablelight_main(argv)


def run_tables(args: argparse.Namespace) -> int:
    from tablelight.games.farside.tables import tables

    data = tables()
    if not args.table:
        for name, value in data.items():
            if isinstance(value, (list, dict)):
                size = len(value) if isinstance(value, list) else len(value.get("table", value))
                print(f"{name} ({size} rows)")
        return 0
    if args.table not in data:
        raise SetupError(f"unknown table {args.table!r}; run 'tablelight farside tables' for the list")
    print(json.dumps(data[args.table], indent=1, ensure_ascii=False))
    return 0


def run_campaign(args: argparse.Namespace) -> int:
    from tablelight.games.farside.tables import tables

    reports = [cost_army(read_roster(path)) for path in args.rosters]
    for path, report in zip(args.rosters, reports):
        print(f"{printable(report.roster.name)} ({path}): {report.total} points, {report.model_count} models")
    totals = [r.total for r in reports]
    spread = max(totals) - min(totals)
    limit = int(tables()["campaign_max_spread"])
    print(f"total {sum(totals)} points; cheapest and most expensive force differ by {spread}")
    if len(reports) != 3:
        print(f"warning: the small campaign divides an army into three forces, not {len(reports)}")
    if spread > limit:
        print(f"warning: the forces may differ by at most {limit} points")
    return 0


def run_game(args: argparse.Namespace) -> int:
    from tablelight.games.farside.engine import FarsideEncounter, army_from_report

    if len(args.roster) != 2:
        raise SetupError("give two rosters: --roster SEAT0.toml --roster SEAT1.toml")
    reports = [cost_army(read_roster(path)) for path in args.roster]
    level = args.points_level or reports[0].roster.points_level or 500
    options = {"dice": args.dice, "deployment": args.deployment, "points_level": level, "points_check": args.points_check,
               "objective_limit": args.objective_limit}
    game = FarsideEncounter(2, options, args.seed, setup={"armies": [army_from_report(r) for r in reports]})
    for seat, report in enumerate(reports):
        for warning in report.warnings:
            print(f"seat {seat} roster warning: {warning.message}", file=sys.stderr)
    _write(json.dumps(game.to_record(), indent=1) + "\n", args.record)
    print(game.describe())
    return 0


def run_track(args: argparse.Namespace) -> int:
    from tablelight.core.actions import Action
    from tablelight.core.record import replay

    record = read_json_file(args.record)
    game = replay(record)
    if game.name != "farside":
        raise SetupError(f"{args.record} is a {game.name} record, not a farside one")
    changed = False
    if args.undo:
        undone = game.undo()
        print(f"undone: {json.dumps(undone['action'])}")
        changed = True
    if args.action:
        action = Action.parse(parse_json(args.action, "--action", max_bytes=65536), "--action")
        before = len(game.log)
        game.apply(action, seat=args.seat)
        for entry in game.log[before:]:
            if entry.get("action", {}).get("type") == "secret":
                # Printed on a shared screen: keep the primary objective and stratagem secret.
                print(f"  seat {entry['seat']}: secret objectives noted, team size {entry['action']['team_size']}")
            else:
                print(game.describe_entry(entry))
        changed = True
    if changed:
        _write(json.dumps(game.to_record(), indent=1) + "\n", args.record)
    if args.view is not None:
        print(json.dumps(game.view(args.view), indent=1))
        return 0
    print(game.describe())
    if game.is_over():
        print(game.describe_result())
    if args.legal:
        legal = game.legal_actions()
        for action in legal[:60]:
            print("  " + json.dumps(action))
        if len(legal) > 60:
            print(f"  ... {len(legal) - 60} more")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
