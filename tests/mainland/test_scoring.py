"""Mainland scoring, the Mainland tie-break, the board file formats and the scoring assistant command."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tablelight.core.errors import SetupError
from tablelight.games.mainland import cli
from tablelight.games.mainland.boardfile import BoardFileError, parse_board
from tablelight.games.mainland.data import ITEM
from tablelight.games.mainland.engine import Mainland, board_text
from tablelight.games.mainland.scoring import score_board

EXAMPLE = Path(__file__).parent / "boards" / "worked-example.txt"


def board_of(cells: dict[tuple[int, int], str], clan: int = 0) -> dict[tuple[int, int], tuple[int, int]]:
    return {cell: (clan, ITEM[item]) for cell, item in cells.items()}


def test_the_rulebooks_worked_example() -> None:
    scores = score_board(parse_board(EXAMPLE.read_text()))
    clan = scores[0]
    assert (clan.mainland_tiles, clan.mainland_items, clan.minor_items, clan.total) == (30, 29, 7, 66)
    assert [s.total for s in scores] == [66, 42, 47]
    assert sorted(t.size for t in clan.territories) == [2, 2, 30]


def test_tiles_touching_by_corners_are_separate_territories() -> None:
    scores = score_board(board_of({(0, 0): "village", (1, 1): "tower", (2, 1): "plain"}))
    assert sorted(t.size for t in scores[0].territories) == [1, 2]
    # The Mainland is the 2-tile territory: 2 tiles + tower 2; the lone village scores 1 as minor.
    assert scores[0].total == 2 + 2 + 1


def test_resources_score_only_in_the_mainland() -> None:
    scores = score_board(board_of({(0, 0): "wheat", (1, 0): "wood", (5, 5): "gold", (7, 7): "castle"}))
    # Mainland: wheat+wood (2 tiles, 2 points); minor: gold 0, castle 5.
    assert (scores[0].mainland_tiles, scores[0].mainland_items, scores[0].minor_items) == (2, 2, 5)


def test_mainland_tie_goes_to_the_higher_value_even_if_the_other_would_total_more() -> None:
    # Two 3-tile territories: A holds a warrior (value 4 as Mainland, 2 as minor); B three wheat
    # (value 3, 0 as minor). The rulebook picks A: 3 + 4 + 0 = 7 (B would give 3 + 3 + 2 = 8).
    cells = {(0, 0): "warrior", (1, 0): "plain", (2, 0): "plain", (0, 5): "wheat", (1, 5): "wheat", (2, 5): "wheat"}
    clan = score_board(board_of(cells))[0]
    assert clan.mainland is not None and (0, 0) in clan.mainland.cells
    assert clan.total == 7


def test_mainland_tie_on_size_and_value_takes_the_better_total() -> None:
    # A: village (value 2, minor 1); B: wheat + wood (value 2, minor 0). Choosing B keeps A's minor point.
    cells = {(0, 0): "village", (1, 0): "plain", (2, 0): "plain", (0, 5): "wheat", (1, 5): "wood", (2, 5): "plain"}
    clan = score_board(board_of(cells))[0]
    assert clan.mainland is not None and (0, 5) in clan.mainland.cells
    assert clan.total == 3 + 2 + 1


def test_a_larger_territory_beats_a_more_valuable_one() -> None:
    cells = {(0, 0): "castle", (5, 5): "plain", (6, 5): "plain"}
    clan = score_board(board_of(cells))[0]
    assert clan.mainland_tiles == 2 and clan.total == 2 + 0 + 5


def test_clans_without_tiles_score_zero() -> None:
    assert [s.total for s in score_board(board_of({(0, 0): "plain"}), clans=3)] == [1, 0, 0]


def test_engine_scores_agree_with_the_board_file_round_trip() -> None:
    game = Mainland(2, seed=1)
    game.apply({"type": "place", "card": "camp", "x": 3, "y": 3, "rotation": 0})
    game.apply({"type": "place", "card": "camp", "x": 7, "y": 7, "rotation": 2})
    text = board_text(game.board_cells(), game.size)
    assert parse_board(text) == game.board_cells()
    assert parse_board(json.dumps(game.board_json())) == game.board_cells()
    assert [s.total for s in score_board(parse_board(text), 2)] == game.scores() == [6, 6]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0pl 9xx", "line 1, tile 2"),
        ("0pl 7pl", "line 1, tile 2"),
        ('[{"x": 0, "y": 0, "clan": 0}]', "exactly x, y, clan and item"),
        ('[{"x": 0, "y": 0, "clan": 0, "item": "dragon"}]', "unknown item"),
        ('[{"x": -1, "y": 0, "clan": 0, "item": "plain"}]', "x must be"),
        ('[{"x": 0, "y": 0, "clan": 0, "item": "plain"}, {"x": 0, "y": 0, "clan": 1, "item": "wheat"}]', "twice"),
        ('{"tiles": []}', "'board' list"),
        ("[1, 2", "not valid JSON"),
    ],
)
def test_bad_board_files_get_clear_errors(text: str, message: str) -> None:
    with pytest.raises(BoardFileError) as caught:
        parse_board(text, "b.txt")
    assert message in str(caught.value)


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


def test_score_command_prints_the_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["mainland", "score", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "clan 0: 66 points" in out and "Mainland: 30 tiles + 29 item points = 59" in out
    assert "minor territories: 7 item points" in out and "winner: clan 0" in out


def test_score_command_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = [{"x": x, "y": 0, "clan": 1, "item": "plain"} for x in range(3)]
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"board": board}))
    assert run_cli(["mainland", "score", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["total"] for c in data["clans"]] == [0, 3] and data["winners"] == [1]
    assert data["clans"][1]["territory_list"][0]["cells"] == [[0, 0], [1, 0], [2, 0]]


def test_score_command_reads_a_game_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = Mainland(2, seed=3)
    rng_actions = 0
    while not game.is_over() and rng_actions < 400:
        game.apply(game.legal_actions()[-1] if game.camp_placed[game.current_seat() or 0] else game.legal_actions()[0])
        rng_actions += 1
    path = tmp_path / "record.json"
    path.write_text(game.save())
    assert run_cli(["mainland", "score", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["total"] for c in data["clans"]] == game.scores()


def test_score_command_errors(tmp_path: Path) -> None:
    with pytest.raises(SetupError, match="no such file"):
        run_cli(["mainland", "score", str(tmp_path / "missing.txt")])
    bad = tmp_path / "bad.txt"
    bad.write_text("0pl zz\n")
    with pytest.raises(BoardFileError, match="line 1"):
        run_cli(["mainland", "score", str(bad)])
    with pytest.raises(SetupError, match="too few"):
        run_cli(["mainland", "score", str(EXAMPLE), "--clans", "2"])


def test_bench_command_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["mainland", "bench", "--games", "1", "--sample-games", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["placement"]["positions"] > 0 and figures["placement"]["placements"] > 0
    assert figures["placement"]["placements_per_s"] > 0
    assert figures["random_games"]["games"] == 1 and figures["random_games"]["actions"] > 0
