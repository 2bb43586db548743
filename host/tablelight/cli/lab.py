"""``tablelight lab GAME``: many bot games per rule variant, with win rates, lengths and their error bars."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablelight.cli.common import add_game_subparsers, options_from_args
from tablelight.core.errors import SetupError
from tablelight.core.game import Game


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "lab", help="play many bot games per rule variant and report balance with confidence intervals"
    )

    def add_common(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
        sub.add_argument("--games", type=int, default=100, help="games per variant (default 100)")
        sub.add_argument("--players", type=int, help=f"number of seats (default {cls.min_players})")
        sub.add_argument(
            "--bots", default="random",
            help=f"one bot for every seat or one per seat, comma-separated; they rotate seats each game ({', '.join(cls.bot_names())})",
        )
        sub.add_argument(
            "--vary", action="append", default=[], metavar="OPTION=V1,V2",
            help="a rule variant per value (repeat for every combination); 'players' varies the seats",
        )
        sub.add_argument("--seed", type=int, default=0, help="lab seed: every game's seed is derived from it")
        sub.add_argument(
            "--max-actions", type=int, metavar="N",
            help="stop a game after N player actions and count it as capped (default 200000)",
        )
        sub.add_argument("--workers", type=int, help="worker processes (default: every core)")
        sub.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask cluster: tcp://host:8786, or local:N to start one")
        sub.add_argument("--out", metavar="FILE", help="stream every game to this JSON-lines file; rerun to continue")
        sub.add_argument("--json", action="store_true", help="print the statistics as JSON (run facts under 'run')")
        sub.add_argument("--report", metavar="FILE", help="write an HTML report with plots")
        sub.add_argument("--coverage", action="store_true",
                         help="print how often every rule fired (action, card, chance, scoring, event) and flag the never-fired")
        sub.add_argument("--quiet", action="store_true", help="no progress bar")
        sub.add_argument(
            "--scaling", metavar="W1,W2", help="play the lab once per worker count and print games/s of each (e.g. 1,2)"
        )
        from tablelight.lab.setups import add_arguments

        add_arguments(sub, cls.name)  # the game's own lab options (Farside's --roster)
        sub.set_defaults(func=run)

    add_game_subparsers(parser, "measure", add_common)


def run(args: argparse.Namespace) -> int:
    from tablelight.lab.aggregate import aggregate
    from tablelight.lab.plan import make_plan, parse_vary
    from tablelight.lab.runner import run_plan

    cls: type[Game] = args.game_class
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    if not bots:
        raise SetupError("--bots names no bot")
    if args.workers is not None and args.workers < 1:
        raise SetupError(f"--workers must be at least 1, got {args.workers}")
    if args.cluster and args.workers:
        raise SetupError("--cluster and --workers exclude each other (the cluster has its own workers)")
    plan = make_plan(
        cls.name, games=args.games, players=args.players, bots=bots, seed=args.seed,
        options=options_from_args(args, cls), vary=parse_vary(args.vary), max_actions=args.max_actions,
    )
    from tablelight.lab.setups import plan_setup

    setup = plan_setup(cls.name, args, plan["variants"])
    if setup is not None:  # only for games that draw their setups, so other plans stay as they were
        plan["setup"] = setup
    if args.scaling:
        return _scaling(plan, args)
    records, facts = run_plan(plan, workers=args.workers, cluster=args.cluster, out=args.out, progress=not args.quiet)
    stats = aggregate(plan, records)
    stats["run"] = {**facts, "engine": f"{cls.__module__}:{cls.__name__}", "python": sys.version.split()[0]}
    if args.report:
        from tablelight.lab.report import write_report

        write_report(args.report, stats)
        print(f"report written to {args.report}", file=sys.stderr)
    if args.json:
        print(json.dumps(stats, indent=1, sort_keys=True))
    else:
        from tablelight.lab.text import describe

        print(describe(stats, coverage=args.coverage))
    return 0


def _scaling(plan: dict[str, Any], args: argparse.Namespace) -> int:
    """Same plan with each worker count; the statistics must agree, the speed should not."""
    from tablelight.lab.aggregate import aggregate
    from tablelight.lab.runner import run_plan

    if args.out or args.cluster:
        raise SetupError("--scaling plays the lab afresh per worker count: drop --out and --cluster")
    counts = []
    for part in args.scaling.split(","):
        if not part.strip().isdigit() or int(part) < 1:
            raise SetupError(f"--scaling takes worker counts such as 1,2, got {args.scaling!r}")
        counts.append(int(part))
    rows = []
    reference = None
    for workers in counts:
        records, facts = run_plan(plan, workers=workers, progress=not args.quiet)
        stats = aggregate(plan, records)
        same = reference is None or stats == reference
        reference = reference or stats
        rows.append({"workers": workers, "games": facts["games_played"], "seconds": facts["seconds"],
                     "games_per_s": facts["games_per_s"], "same_statistics": same})
    base = rows[0]["games_per_s"] or 0
    for row in rows:
        row["speedup"] = round(row["games_per_s"] / base, 2) if base else None
    if args.json:
        print(json.dumps({"scaling": rows}, indent=1))
    else:
        for row in rows:
            print(f"{row['workers']} worker(s): {row['games']} games in {row['seconds']} s = "
                  f"{row['games_per_s']} games/s (x{row['speedup']}); same statistics: {row['same_statistics']}")
    return 0 if all(row["same_statistics"] for row in rows) else 1
