"""Seeded Farside games whose every output is fingerprinted: the record's text, every legal listing,
and every few steps the state, each seat's view and view log (what ``rules serve`` sends), the text,
and what the face shows of it (the drawings, the LEDs, the prompts, the words of the actions). The
fingerprints in ``seeded-digests.json`` were taken from the engine before it became a position plus
rule functions (2026-11-28, the chain of seven classes); ``test_farside_same_records.py`` plays the
same games now and compares. ``python -m tests.farside.seeded`` prints them afresh (``--write``
writes the file again, after a deliberate change of the rules, with the reason in the commit)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from tablelight.core.rng import Rng
from tablelight.games.farside.army import cost_army
from tablelight.games.farside.coverage import key_seats, rules_fired
from tablelight.games.farside.engine import FarsideEncounter, army_from_report
from tablelight.games.farside.lab_events import lab_events
from tablelight.games.farside.lab_setup import pool
from tablelight.table.face import make_face

DIGESTS = Path(__file__).parent / "seeded-digests.json"
#: Every this many steps the state, views, view logs and the face are fingerprinted too.
VIEW_EVERY = 11

#: name -> (seed, options, record format, bots: "random", "tactician" or a search bot name, armies:
#: None for the demo forces, else two indices into the lab's pool of rosters).
CASES: dict[str, tuple[int, dict[str, Any], int, str, tuple[int, int] | None]] = {
    "random": (1, {}, 5, "random", None),
    "random-b": (2, {}, 5, "random", None),
    "random-pool": (3, {"points_level": 1000}, 5, "random", (0, 2)),
    "random-options": (4, {"deployment": "roll_shared", "wipe_out": "at_once", "secure_takeover": "adds",
                           "game_end": "announced", "round_limit": 4}, 5, "random", None),
    "random-fixed-deployment": (5, {"deployment": "20", "objective_limit": 6}, 5, "random", (1, 3)),
    "table-dice": (6, {"dice": "table", "round_limit": 3}, 5, "random", None),
    "press-dice": (7, {"dice": "press", "round_limit": 3}, 5, "random", None),
    "format1": (8, {"round_limit": 5}, 1, "random", None),
    "format2": (9, {"round_limit": 5}, 2, "random", None),
    "format3": (10, {"points_check": "record", "points_level": 300}, 3, "random", None),
    "format4": (11, {}, 4, "random", (2, 4)),
    "tactician": (12, {}, 5, "tactician", None),
    "tactician-pool": (13, {"points_level": 1000}, 5, "tactician", (0, 1)),
    "tactician-table": (14, {"dice": "table", "game_end": "announced", "round_limit": 6}, 5, "tactician", (3, 4)),
    "tactician-b": (16, {}, 5, "tactician", None),
    "tactician-press": (17, {"dice": "press", "wipe_out": "at_once"}, 5, "tactician", (2, 3)),
    "tactician-format4": (18, {}, 4, "tactician", (0, 4)),
    "mcts": (15, {"round_limit": 2}, 5, "mcts:6", None),
}


def setup_of(armies: tuple[int, int] | None) -> dict[str, Any] | None:
    if armies is None:
        return None
    rosters = pool()
    return {"armies": [army_from_report(cost_army(rosters[i])) for i in armies]}


def face_print(face: Any, game: FarsideEncounter) -> bytes:
    """What the face shows now: both drawings and the shared one, the LEDs, the prompts, the words of
    the first legal actions."""
    parts: list[Any] = [face.drawing(None), face.drawing(0), face.drawing(1), [list(p) for p in face.pixels()]]
    parts += [face.prompt(seat) for seat in (0, 1)]
    parts += [face.describe_action(a) for a in game.legal_actions()[:12]]
    return json.dumps(parts, default=repr).encode()


def play(name: str) -> dict[str, str]:
    """The fingerprints of case ``name``: its record text, its listings, its views, its face."""
    seed, options, record_format, bots, armies = CASES[name]
    game = FarsideEncounter(2, options, seed, setup=setup_of(armies), record_format=record_format)
    face = make_face(game)
    rng = Rng(seed)
    chooser = None if bots == "random" else [FarsideEncounter.make_bot(bots, seed * 10 + s) for s in range(2)]
    listings = hashlib.sha256()
    views = hashlib.sha256()
    faces = hashlib.sha256()
    step = 0
    while not game.is_over():
        legal = game.legal_actions()
        listings.update(json.dumps(legal, separators=(",", ":")).encode())
        if step % VIEW_EVERY == 0:
            views.update(json.dumps(game.state(), sort_keys=True).encode())
            for each in (0, 1):
                views.update(json.dumps(game.view(each), sort_keys=True).encode())
                views.update(json.dumps(game.view_log(each), separators=(",", ":")).encode())
            views.update(game.describe().encode())
            faces.update(face_print(face, game))
        seat = game.current_seat()
        assert seat is not None
        action = game.random_action(rng) if chooser is None else chooser[seat].choose(game)
        game.apply(action)
        step += 1
    views.update(json.dumps(game.state(), sort_keys=True).encode() + game.describe_result().encode())
    views.update(json.dumps([sorted(rules_fired(game).items()), sorted(lab_events(game).items()), key_seats(game)]).encode())
    faces.update(face_print(face, game))
    return {
        "record": hashlib.sha256(game.save().encode()).hexdigest(),
        "listings": listings.hexdigest(),
        "views": views.hexdigest(),
        "face": faces.hexdigest(),
        "steps": str(step),
    }


def main() -> int:
    out = {name: play(name) for name in CASES}
    text = json.dumps(out, indent=1, sort_keys=True)
    if sys.argv[1:] == ["--write"]:
        DIGESTS.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
