"""Rule coverage and seat balance in every lab report (``tablelight lab ... --coverage``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tablelight.cli.main import main
from tablelight.games.landover.rules import ACTION_TYPES
from tablelight.lab.coverage import catalogue

from tests.lab.test_lab import lab_json


def test_the_catalogue_comes_from_the_game() -> None:
    assert catalogue("landover", 3, {})["action"] == sorted(ACTION_TYPES)
    assert "merchant_fleet" in catalogue("landover", 3, {})["card"]
    assert "printer" not in catalogue("landover", 3, {})["card"]  # held for its point, never played
    assert set(catalogue("farside", 2, {})["manoeuvre"]) >= {"Evade", "Cure", "The Chosen"}
    assert catalogue("farlander", 2, {})["forced"] == ["skip"]


def test_coverage_counts_every_action_type_the_games_played(capsys: pytest.CaptureFixture[str]) -> None:
    stats = lab_json(capsys, "mainland", "--games", "6", "--players", "3", "--bots", "greedy", "--seed", "4",
                     "--workers", "1")
    variant = stats["variants"][0]
    cover = variant["coverage"]
    assert set(cover["rules"]["action"]) == {"place", "replace", "gather", "pass"}
    for kind, counted in variant["action_types"].items():
        assert cover["rules"]["action"][kind]["per_game"] == counted["per_game"]
    assert cover["rules"]["card"]["camp"]["games"]["k"] == 6  # every clan starts with its camp
    assert cover["undeclared"] == []
    assert cover["declared"] == sum(len(rules) for rules in cover["rules"].values())
    assert cover["fired"] == cover["declared"] - len(cover["never_fired"])


def test_a_rule_that_cannot_fire_is_flagged(capsys: pytest.CaptureFixture[str]) -> None:
    # With the barbarians held off for the whole game no attack can happen: the report must say so.
    stats = lab_json(capsys, "landover", "--games", "4", "--players", "3", "--bots", "greedy", "--seed", "2",
                     "--workers", "1", "--vary", "barbarian_delay=0,100000")
    on, off = (v["coverage"] for v in stats["variants"])
    assert "barbarians:attack" not in on["never_fired"] and on["rules"]["barbarians"]["attack"]["per_game"] > 0
    assert {"barbarians:attack", "barbarians:cities_reduced", "chance:barbarian_city"} <= set(off["never_fired"])
    assert off["rules"]["barbarians"]["attack"]["games"]["k"] == 0


def test_barbarian_attacks_are_counted_from_the_track(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    lab_json(capsys, "landover", "--games", "3", "--players", "3", "--bots", "greedy", "--seed", "5",
             "--workers", "1", "--out", str(out))
    for line in out.read_text().splitlines()[1:]:
        game = json.loads(line)
        rules, events = game["rules"], game["events"]
        # No delay by default: an attack every 7th barbarian ship, the track emptied after each.
        assert rules["barbarians:attack"] == events["event_die:barbarian"] // 7
        assert rules["barbarians:attack"] == rules.get("barbarians:cities_reduced", 0) + rules.get("barbarians:no_city_lost", 0)
        assert rules.get("barbarians:cities_reduced", 0) <= events.get("chance:barbarian_city", 0)


def test_coverage_flag_prints_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "farlander", "--games", "4", "--workers", "1", "--quiet", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "rules fired:" in out and "rule coverage (per game" in out
    assert "action:" in out and "place" in out and "conquer" in out
    assert main(["lab", "farlander", "--games", "4", "--workers", "1", "--quiet"]) == 0
    plain = capsys.readouterr().out
    assert "rules fired:" in plain and "rule coverage (per game" not in plain


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


def test_seat_balance_counts_games_won_by_one_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    stats = lab_json(capsys, "farlander", "--games", "20", "--players", "2", "--bots", "random", "--seed", "3",
                     "--workers", "1", "--out", str(out))
    balance = stats["variants"][0]["seat_balance"]
    won = [g for g in records(out) if not g["capped"] and len(g["winners"]) == 1]
    assert balance["won_outright"] == len(won) and 0 < len(won) < 20  # some shared wins at this seed
    first_wins = sum(1 for g in won if g["first_seat"] in g["winners"])
    assert (balance["first_player"]["k"], balance["first_player"]["n"]) == (first_wins, len(won))
    for seat, p in enumerate(balance["by_seat"]):
        assert p["k"] == sum(1 for g in won if seat in g["winners"]) and p["n"] == len(won)
        assert p["ci95"][0] <= p["rate"] <= p["ci95"][1]
    assert sum(p["k"] for p in balance["by_seat"]) == len(won)
    assert balance["fair_share"] == 0.5
    rates = {"first player": balance["first_player"]["rate"], "first attacker": balance["by_role"]["first attacker"]["rate"]}
    rates |= {f"seat {s}": p["rate"] for s, p in enumerate(balance["by_seat"])}
    furthest = max(rates, key=lambda name: abs(rates[name] - 0.5))
    assert balance["largest_edge"]["points"] == round(100 * (rates[furthest] - 0.5), 1)


def test_the_first_attacker_is_the_seat_drawn_after_the_distribution() -> None:
    from tablelight.core.actions import ChanceEntry
    from tablelight.core.registry import game_class
    from tablelight.lab.coverage import key_seats

    cls = game_class("farlander")
    game = cls(2, {}, 11)
    bots = [cls.make_bot("random", seat) for seat in range(2)]
    assert key_seats(game) == {}  # nobody drawn to attack yet
    while not game.is_over():
        seat = game.current_seat()
        game.apply(bots[seat].choose(game), seat=seat)
    draws = [e for e in game.log if isinstance(e, ChanceEntry) and e.kind == "first_player"]
    assert [e["phase"] for e in draws] == ["distribution", "action"]
    assert key_seats(game) == {"first attacker": draws[1].value}


def test_old_results_without_rule_counts_still_aggregate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    whole = lab_json(capsys, "farlander", "--games", "3", "--seed", "1", "--workers", "1", "--out", str(out))
    lines = out.read_text().splitlines()
    stripped = [lines[0]] + [json.dumps({k: v for k, v in json.loads(line).items() if k != "rules"}) for line in lines[1:]]
    out.write_text("\n".join(stripped) + "\n")
    again = lab_json(capsys, "farlander", "--games", "3", "--seed", "1", "--workers", "1", "--out", str(out))
    assert again["run"]["games_resumed"] == 3
    before, after = (stats["variants"][0]["coverage"]["rules"] for stats in (whole, again))
    for category in ("action", "chance", "forced"):  # counted from the log: the same
        assert after[category] == before[category]
    # The rules only a game's summary held (Farlander's conquests by kind) are missing, not wrong.
    assert before["conquest"]["enemy"]["per_game"] > 0 and after["conquest"]["enemy"]["per_game"] == 0


def test_html_report_shows_seat_balance_and_coverage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.html"
    assert main(["lab", "landover", "--games", "2", "--players", "3", "--bots", "greedy", "--workers", "1", "--quiet",
                 "--report", str(report)]) == 0
    text = report.read_text()
    assert "Seat balance (games won by one seat)" in text and "Rule coverage" in text
    assert "never fired: <b" in text and "merchant_fleet" in text


def test_a_rule_the_variant_cannot_reach_is_not_declared() -> None:
    # Farside's seats send rolls only when the table rolls the dice.
    assert "roll" not in catalogue("farside", 2, {"dice": "host"})["action"]
    assert "roll" in catalogue("farside", 2, {"dice": "table"})["action"]


def test_a_rule_an_option_turns_off_is_named_with_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    # Two-player Farlander has garrisons off by default: their rules are not declared, but named.
    stats = lab_json(capsys, "farlander", "--games", "2", "--players", "2", "--workers", "1")
    cover = stats["variants"][0]["coverage"]
    assert "conquest:garrison" in cover["unreachable"] and "garrisons are off" in cover["unreachable"]["conquest:garrison"]
    assert "garrison" not in cover["rules"].get("conquest", {})
    assert main(["lab", "farside", "--games", "2", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "cannot fire here:   end:announced (game_end is at_limit" in out and "end:round_limit (round_limit is 0" in out
