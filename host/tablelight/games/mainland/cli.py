"""``tablelight mainland score BOARD`` (the scoring assistant) and ``tablelight mainland bench``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tablelight.core.errors import SetupError
from tablelight.core.inputs import MAX_FILE_BYTES, decode_utf8, read_text
from tablelight.games.mainland.boardfile import parse_board
from tablelight.games.mainland.scoring import score_board


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("mainland", help="Mainland tools: score a finished board, placement benchmark")
    actions = parser.add_subparsers(dest="mainland_command", metavar="ACTION", required=True)

    score = actions.add_parser(
        "score",
        help="score a finished Mainland board: territories, Mainland and points per clan",
        description="Board formats (docs/rules/mainland.md): JSON tiles [{\"x\":0,\"y\":0,\"clan\":1,\"item\":\"wheat\"}, ...], "
        "a game record, or text rows of tiles such as '0pl 0wh 1vi .' ('-' reads standard input).",
    )
    score.add_argument("board", help="board file (JSON or text), or - for standard input")
    score.add_argument("--clans", type=int, help="number of clans (default: the highest clan on the board + 1)")
    score.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    score.set_defaults(func=run_score)

    bench = actions.add_parser("bench", help="legal placements per second and random games per second")
    bench.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    bench.add_argument("--games", type=int, default=100, help="complete random games to time (default 100)")
    bench.add_argument("--sample-games", type=int, default=20, help="random games whose positions are timed")
    bench.add_argument("--seed", type=int, default=0)
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(func=run_bench)


def _read(path: str) -> str:
    if path == "-":
        return decode_utf8(sys.stdin.buffer.read(MAX_FILE_BYTES), "standard input")
    return read_text(path)


def run_score(args: argparse.Namespace) -> int:
    board = parse_board(_read(args.board), args.board)
    highest = max((clan for clan, _ in board.values()), default=-1)
    clans = args.clans if args.clans is not None else highest + 1
    if clans < highest + 1 or clans < 1:
        raise SetupError(f"--clans {clans} is too few: the board has tiles of clan {highest}")
    scores = score_board(board, clans)
    best = max((s.total for s in scores), default=0)
    winners = [s.clan for s in scores if s.total == best]
    if args.json:
        print(json.dumps({"clans": [s.details(_items(board)) for s in scores], "winners": winners}, indent=1))
        return 0
    for clan in scores:
        print(f"clan {clan.clan}: {clan.total} points")
        if clan.mainland is None:
            print("  no tiles on the board")
            continue
        print(
            f"  Mainland: {clan.mainland_tiles} tiles + {clan.mainland_items} item points = "
            f"{clan.mainland_tiles + clan.mainland_items}"
        )
        print(f"  minor territories: {clan.minor_items} item points")
        for territory in clan.details(_items(board))["territory_list"]:
            label = "Mainland" if territory["mainland"] else "minor"
            items = ", ".join(f"{n} {name}" for name, n in sorted(territory["items"].items()))
            first = territory["cells"][0]
            print(
                f"    {label:8} {territory['tiles']:3} tiles from ({first[0]}, {first[1]}), "
                f"{territory['points']} points: {items}"
            )
    print("winner: clan " + " and clan ".join(str(w) for w in winners) + (" (shared)" if len(winners) > 1 else ""))
    return 0


def _items(board: dict[tuple[int, int], tuple[int, int]]) -> dict[tuple[int, int], int]:
    return {cell: item for cell, (_, item) in board.items()}


def run_bench(args: argparse.Namespace) -> int:
    from tablelight.games.mainland.bench import placement_speed, random_game_speed

    placing = placement_speed(args.players, args.sample_games, args.seed)
    games = random_game_speed(args.players, args.games, args.seed)
    if args.json:
        print(json.dumps({"players": args.players, "placement": placing, "random_games": games}))
        return 0
    print(
        f"mainland, {args.players} players: legal placements of {placing['positions']} positions from random games "
        f"in {placing['seconds']} s\n"
        f"  {placing['listings_per_s']} full listings/s, {placing['placements_per_s']} legal placements/s "
        f"(mean {placing['mean_placements']} per position)\n"
        f"random games: {games['games']} games, {games['actions']} actions in {games['seconds']} s\n"
        f"  {games['games_per_s']} games/s, {games['actions_per_s']} actions/s"
    )
    return 0
