"""The command line, run as a user runs it."""

import json
import subprocess
import sys

TABLELIGHT = [sys.executable, "-m", "tablelight"]


def run(*args):
    return subprocess.run(TABLELIGHT + list(args), capture_output=True, text=True)


def test_selfplay_records_and_replay_checks(tmp_path):
    path = tmp_path / "g.json"
    done = run("selfplay", "farlander", "--players", "4", "--seed", "2", "--garrisons", "off", "--bots", "strong,random,random,strong", "--record", str(path))
    assert done.returncode == 0, done.stderr
    record = json.loads(path.read_text())
    assert record["players"] == 4 and record["options"]["garrisons"] is False
    assert "winner" in done.stdout
    replayed = run("replay", str(path))
    assert replayed.returncode == 0 and str(record["result"]["scores"]) in replayed.stdout
    # Break one action: replay fails and names the entry.
    index = next(i for i, e in enumerate(record["log"]) if e.get("action", {}).get("type") == "conquer")
    record["log"][index]["action"]["moves"] = {}
    path.write_text(json.dumps(record))
    broken = run("replay", str(path))
    assert broken.returncode == 1 and f"log entry {index}" in broken.stderr


def test_selfplay_show_draws_the_board_and_bad_arguments_fail_cleanly(tmp_path):
    shown = run("selfplay", "farlander", "--seed", "1", "--show")
    assert shown.returncode == 0 and "tile a:" in shown.stdout and "action phase" in shown.stdout
    assert run("selfplay", "farlander", "--players", "6").returncode == 1
    assert "2-4 players" in run("selfplay", "farlander", "--players", "6").stderr
    assert "unknown bot" in run("selfplay", "farlander", "--bots", "genius").stderr
    missing = run("replay", str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    (tmp_path / "bad.json").write_text("{not json")
    assert "not valid JSON" in run("replay", str(tmp_path / "bad.json")).stderr


def test_selfplay_on_a_map_file(tmp_path):
    game_map = {"territories": [
        {"id": "n", "neighbors": ["s", "e"]}, {"id": "s", "neighbors": ["n", "e"]}, {"id": "e", "neighbors": ["n", "s"], "garrison": True},
    ]}
    (tmp_path / "map.json").write_text(json.dumps(game_map))
    done = run("selfplay", "farlander", "--map", str(tmp_path / "map.json"), "--record", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "r.json").read_text())
    assert [t["id"] for t in record["map"]["territories"]] == ["n", "s", "e"]
    assert run("replay", str(tmp_path / "r.json")).returncode == 0


def test_bench_prints_figures():
    done = run("bench", "rules", "farlander", "--games", "20", "--json")
    figures = json.loads(done.stdout)
    assert figures["games"] == 20 and figures["games_per_s"] > 0 and figures["actions"] > 20 * 72


def test_the_command_line_builds_for_every_registered_game_and_takes_option_pairs(tmp_path):
    from tablelight.cli.main import build_parser
    from tablelight.core.registry import game_names

    parser = build_parser()  # a clash between a game option and a common flag would raise here
    for name in game_names():
        assert parser.parse_args(["selfplay", name]).game == name
    done = run("selfplay", "farlander", "--option", "garrisons=on", "--option", "claim-empty=on", "--record", str(tmp_path / "r.json"))
    assert done.returncode == 0, done.stderr
    import json as _json

    assert _json.loads((tmp_path / "r.json").read_text())["options"] == {"garrisons": True, "claim_empty": True}
    assert "NAME=VALUE" in run("selfplay", "farlander", "--option", "garrisons").stderr
