"""Nothing a seat can see rebuilds another seat's hidden cards.

For every game with secrets (Mainland's hands and decks, Landover's resources and development
cards, Farside's missions) a game is played through public means at a table with two human
seats, and an attacker sitting at seat 0 collects everything seat 0 may see: its view JSON, its
view log, the record ``rules serve`` gives ``as_seat`` 0, every other answer of ``rules serve``
scoped to seat 0 (a bot asked for while seat 1 acts included), and the text of the shared
screen (the table's public messages and the terminal drawing). The attacker then tries to
rebuild seat 1's secrets: by looking for them, and by searching seeds (every number it saw and
the small ones) and replaying what it saw with each. Each attack is first run on the owner's
full record (``tablelight games export``), where it must succeed: the attacks are not vacuous.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tablelight.core.errors import IllegalActionError, TablelightError
from tablelight.core.game import Game
from tablelight.core.record import replay
from tablelight.core.registry import game_class
from tablelight.core.rng import Rng, secret_seed
from tablelight.core.serve import RulesServer
from tablelight.games.landover.hexmap import CARDS
from tablelight.table.layout import load_layout_data
from tablelight.table.service import Table
from tablelight.view.terminal import draw

from .conftest import FakeBoard

OBSERVER, VICTIM = 0, 1
SMALL_SEEDS = 100


def secret_of(game: Game, seat: int) -> Any:
    """What ``seat`` hides from the others, as JSON."""
    if game.name == "mainland":
        return {"hand": sorted(game.hands[seat]), "deck": list(game.decks[seat])}  # type: ignore[attr-defined]
    if game.name == "landover":
        hand = {"hand": game.hand(seat)}  # type: ignore[attr-defined]
        return {**hand, "dev_cards": sorted(game.dev_cards(seat))}  # type: ignore[attr-defined]
    if game.name == "farside":  # the team size is public
        mission = game.state()["secrets"][seat]
        return {"mission": {"primary": mission["primary"], "stratagem": mission["stratagem"]}} if mission else None
    raise AssertionError(game.name)


def played(name: str, actions: int, seed: int) -> tuple[Game, Table]:
    """A game of ``name`` with a secret seed, ``actions`` random actions into it, played at a table
    with two human seats: keys pressed on the board first (what a person would do), then the action."""
    game = game_class(name)(2, {}, seed)
    board = FakeBoard()
    table = Table(game, ["human", "human"], board=board, flash_seconds=0.0)
    table.refresh()
    table.prompt()
    rng = Rng(7)
    keys = int(load_layout_data(type(table.face).default_layout)["keys"])
    def hiding() -> bool:  # the victim holds something to hide, and the attacker something else
        secret, own = secret_of(game, VICTIM), secret_of(game, OBSERVER)
        return secret != own and any(v and (not isinstance(v, dict) or any(v.values())) for v in (secret or {}).values())

    while not game.is_over() and (sum(1 for e in game.log if "action" in e) < actions or not hiding()):
        for _ in range(3):  # a few presses: the face's words for them go to the seat's screen
            table.press(rng.below(keys))
            if game.is_over():
                break
        if game.is_over():
            break
        table.face.reset()
        assert table.apply(game.random_action(rng))
    return game, table


def channels(game: Game, table: Table, seat: int) -> dict[str, Any]:
    """Everything ``seat`` may see, by channel."""
    server = RulesServer()
    loaded = server.handle({"cmd": "load", "record": game.to_record(), "as_seat": seat})
    assert loaded["ok"], loaded
    answers = [loaded]
    for request in ({"cmd": "state"}, {"cmd": "legal"}, {"cmd": "record"}, {"cmd": "scores"},
                    {"cmd": "view", "seat": seat}, {"cmd": "bot"}, {"cmd": "view", "seat": 1 - seat}):
        answers.append(server.handle({**request, "as_seat": seat}))
    layout = load_layout_data(type(table.face).default_layout)
    labels = getattr(table.face, "led_labels", lambda: {})()
    shared = "\n".join(table.messages) + "\n" + draw(layout, table.pixels(), color=False, labels=labels)
    return {
        "view": game.view(seat),
        "view_log": game.view_log(seat),
        "scoped record": server.handle({"cmd": "record", "as_seat": seat})["record"],
        "rules serve answers": answers,
        "shared screen": shared,
    }


def numbers_in(value: Any) -> set[int]:
    """Every whole number in a JSON value (strings searched for digits too)."""
    text = json.dumps(value)
    return {int(n) for n in re.findall(r"\d+", text)}


def pieces(value: Any) -> list[Any]:
    """Every list and object inside a JSON value (strings too: a hand may be written out)."""
    found = [value]
    if isinstance(value, dict):
        for item in value.values():
            found.extend(pieces(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(pieces(item))
    return found


def rebuild_with_seed(seen: dict[str, Any], game: Game, seed: int) -> Any:
    """Seat ``VICTIM``'s secrets rebuilt by replaying the actions seen with ``seed``'s draws (None: no fit)."""
    setup = {k: v for k, v in seen.items() if k in ("map", "armies")}
    try:
        rebuilt = type(game)(game.players, seen.get("options") or {}, seed, setup=setup or None)
        for entry in seen["log"]:
            if "action" in entry and not entry.get("auto"):
                rebuilt.apply(entry["action"], seat=entry["seat"])
    except (IllegalActionError, TablelightError, KeyError, TypeError):
        return None
    return secret_of(rebuilt, VICTIM)


def seed_search(seen: dict[str, Any], everything: Any, game: Game) -> bool:
    """True if some seed the attacker can think of rebuilds the victim's secrets."""
    truth = secret_of(game, VICTIM)
    candidates = numbers_in(everything) | set(range(SMALL_SEEDS))
    candidates = {c for c in candidates if c < 1 << 64}
    return any(rebuild_with_seed(seen, game, c) == truth for c in sorted(candidates))


def found_in(secret: Any, everything: Any, own: Any = None) -> bool:
    """True if a non-empty part of the secret (one the attacker's ``own`` secret does not share) appears
    as it is (a list in any order) anywhere in what was seen."""
    mine = list(own.values()) if isinstance(own, dict) else []
    parts = [v for v in (secret.values() if isinstance(secret, dict) else [secret]) if v and v not in mine]

    def same(piece: Any, part: Any) -> bool:
        if isinstance(piece, list) and isinstance(part, list):
            return sorted(map(json.dumps, piece)) == sorted(map(json.dumps, part))
        if isinstance(piece, dict) and isinstance(part, dict):
            return all(key in piece and piece[key] == value for key, value in part.items())
        return bool(piece == part)

    return any(same(piece, part) for part in parts for piece in pieces(everything))


CASES = [("mainland", 16), ("landover", 220), ("farside", 12)]


@pytest.mark.parametrize(("name", "actions"), CASES)
def test_no_channel_a_seat_sees_rebuilds_another_seats_secrets(name: str, actions: int) -> None:
    seed = secret_seed()
    game, table = played(name, actions, seed)
    truth = secret_of(game, VICTIM)
    assert not game.is_over() and truth and found_in(truth, truth, secret_of(game, OBSERVER))

    # The attacks work on the owner's full record: it names the seed and every draw.
    owner = game.to_record()
    assert found_in(truth, {"state": game.state()})
    if name != "farside":  # Farside's missions are chosen, not drawn: the seed decides only public dice
        assert seed_search(owner, owner, game), "the seed search must rebuild the secrets from the owner's record"
    assert replay(owner).to_record() == owner

    seen = channels(game, table, OBSERVER)
    everything = json.dumps(seen)
    assert str(seed) not in everything, "the seed reached seat 0"
    for channel, value in seen.items():
        assert not found_in(truth, value, secret_of(game, OBSERVER)), f"seat 1's secrets appear in seat 0's {channel}"
    record = seen["scoped record"]
    assert "seed" not in record and record["as_seat"] == OBSERVER
    if name != "farside":
        assert not seed_search(record, seen, game), "a seed found from seat 0's channels rebuilds seat 1's secrets"
        with pytest.raises(TablelightError):
            replay(record)  # the hidden draws are gone: the seat's record cannot be replayed into the secrets

    # The shared screen: no private word of either seat, no card a hand holds that was never played.
    shared = seen["shared screen"]
    assert any(table.private_messages[seat] for seat in (0, 1)), "the faces said something privately"
    assert "your hand" not in shared and "see your own screen" in shared
    if name != "farside":  # in Farside only the mission is secret: its other words are public later
        for seat in (0, 1):
            for words in table.private_messages[seat]:
                assert words not in shared
    if name == "mainland":
        played_cards = {e["action"].get("card") for e in game.log if "action" in e}
        for seat in (0, 1):
            for card in set(game.hands[seat]) - played_cards:  # type: ignore[attr-defined]
                assert not re.search(rf"\b{card}\b", shared), f"{card} in seat {seat}'s hand is on the shared screen"
    if name == "farside":
        primary, stratagem = truth["mission"]["primary"], truth["mission"]["stratagem"]
        assert f"primary {primary}, stratagem {stratagem}" not in shared


def test_rules_serve_scoped_to_a_seat_acts_and_asks_only_for_it() -> None:
    """as_seat 1 cannot apply, undo or ask the bot for seat 0, nor read seat 0's view; refusals change nothing."""
    server = RulesServer()
    new = server.handle({"cmd": "new", "game": "mainland", "players": 2})
    assert new["ok"] and isinstance(new["state"], dict)
    mover = new["seat"]
    other = 1 - mover
    before = server.handle({"cmd": "record"})["record"]
    legal = server.handle({"cmd": "legal", "as_seat": mover})["actions"]
    bot = server.handle({"cmd": "bot", "as_seat": other})
    assert bot["ok"] is False and bot["error"]["kind"] == "NotYourSeat" and "action" not in bot
    applied = server.handle({"cmd": "apply", "action": legal[0], "as_seat": other})
    assert applied["ok"] is False and applied["error"]["kind"] == "NotYourTurnError"
    forged = server.handle({"cmd": "apply", "action": legal[0], "seat": mover, "as_seat": other})
    assert forged["ok"] is False and forged["error"]["kind"] == "NotYourSeat"
    peek = server.handle({"cmd": "view", "seat": mover, "as_seat": other})
    assert peek["ok"] is False and peek["error"]["kind"] == "NotYourSeat"
    assert server.handle({"cmd": "record"})["record"] == before
    # The seat to act may ask its bot and apply; the other cannot undo that.
    own = server.handle({"cmd": "bot", "as_seat": mover, "apply": True})
    assert own["ok"] and own["applied"] and "hands" not in own["state"]
    undo = server.handle({"cmd": "undo", "as_seat": other})
    assert undo["ok"] is False and undo["error"]["kind"] == "NotYourSeat"
    assert server.handle({"cmd": "undo", "as_seat": mover})["ok"]
    # A new game with no seed gets a secret one: not 0, and different each time.
    seeds = {server.handle({"cmd": "new", "game": "mainland"}) and server.games[server.last_id].seed for _ in range(3)}
    assert len(seeds) == 3 and 0 not in seeds
