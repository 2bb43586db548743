"""The shared board keeps hidden cards secret (issue 24).

Everyone at the table sees the board's LEDs (and the public board page, and the terminal's public
words), so what they show may depend only on public things and on the keys pressed. For each game
with secrets two games are made through public means, equal in everything one seat (the observer)
may see but with another seat's hidden cards different: a seeded game is played with random
actions, and its record is replayed with one hidden chance outcome entered differently (Mainland:
a shuffle of the seat to act; Landover: a development card drawn or a card stolen out of the
observer's sight; Farside: the secret mission noted before, with the same team size). Both are
seated at a table with human seats and the same keys are pressed on both, the hidden card's keys
among them (Mainland's hand keys, Landover's mode buttons): the board's LEDs (refusal flashes
included) and the public words must be the same at every step.

Before issue 24 Mainland lit the legal spots of the hand card under consideration and Landover
pulsed the places of a mode only when the hand paid for it: ``python -m tests.table.board_leaks``
measures what that told (see its docstring).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tablelight.core.errors import TablelightError
from tablelight.core.game import Game
from tablelight.core.record import replay
from tablelight.core.registry import game_class, game_entries
from tablelight.core.rng import Rng
from tablelight.table.face import GameFace
from tablelight.table.service import Table

from .conftest import FakeBoard

OBSERVER = 0


def public(game: Game, seat: int = OBSERVER) -> Any:
    """Everything ``seat`` may see of ``game``."""
    return game.view(seat), list(game.view_log(seat))


def played(name: str, players: int, seed: int, actions: int) -> Game:
    game = game_class(name)(players, {}, seed)
    rng = Rng(seed + 1000)
    for _ in range(actions):
        if game.is_over():
            break
        game.apply(game.random_action(rng))
    return game


def variants(record: dict[str, Any], index: int, values: Iterator[Any]) -> Iterator[Game]:
    """``record`` replayed with log entry ``index`` (a chance outcome or an action) changed to each
    of ``values`` in turn; the replays the engine refuses are left out."""
    for value in values:
        changed = copy.deepcopy(record)
        entry = changed["log"][index]
        if "chance" in entry:
            entry["value"] = value
        else:
            entry["action"] = value
        changed.pop("result", None)
        try:
            yield replay(changed)
        except TablelightError:
            continue


def hidden_twin(game: Game, victim: int, hides: Callable[[dict[str, Any]], bool],
                values: Callable[[dict[str, Any]], Iterator[Any]], differs: Callable[[Game, Game], bool]) -> Game | None:
    """A replay of ``game`` with the last log entry ``hides`` accepts entered as another of ``values``:
    one the observer sees exactly as in ``game`` and where ``differs`` (the victim's secret changed)."""
    record = game.to_record()
    wanted = public(game)
    for index in range(len(record["log"]) - 1, -1, -1):
        entry = record["log"][index]
        if not hides(entry):
            continue
        for other in variants(record, index, values(entry)):
            if len(other.log) == len(game.log) and public(other) == wanted and differs(game, other):
                return other
        return None
    return None


def mainland_twin(game: Game) -> Game | None:
    """Two cards of the last shuffle of the seat to act swapped, so that its hand differs."""
    victim = game.current_seat()

    def swaps(entry: dict[str, Any]) -> Iterator[list[int]]:
        order = entry["value"]
        for i in range(len(order)):
            for j in range(len(order) - 1, i, -1):
                swapped = list(order)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                yield swapped

    return hidden_twin(game, victim, lambda e: e.get("chance") == "shuffle" and e.get("seat") == victim, swaps,
                       lambda a, b: sorted(a.hands[victim]) != sorted(b.hands[victim]))  # type: ignore[attr-defined]


def landover_twin(game: Game, cards: bool = True) -> Game | None:
    """The last development card the seat to act drew (unless not ``cards``), or the last card it
    stole or lost out of the observer's sight, entered as another."""
    victim = game.current_seat()

    def hidden(entry: dict[str, Any]) -> bool:
        if entry.get("chance") == "dev_card" and cards:
            return bool(entry.get("seat") == victim)
        involved = (entry.get("seat"), entry.get("victim"))
        return entry.get("chance") == "steal" and victim in involved and OBSERVER not in involved

    def differs(a: Game, b: Game) -> bool:
        return (a.hand(victim), a.dev_cards(victim)) != (b.hand(victim), b.dev_cards(victim))  # type: ignore[attr-defined]

    return hidden_twin(game, victim, hidden, lambda e: iter(range(40)), differs)


def farside_twin(game: Game) -> Game | None:
    """The observer's opponent's secret mission noted as another with the same team size."""
    victim = 1 - OBSERVER
    missions = sorted({(a["primary"], a["stratagem"]) for a in game_class("farside")(2, {}, 1).legal_actions()})

    def others(entry: dict[str, Any]) -> Iterator[dict[str, Any]]:
        action = entry["action"]
        for primary, stratagem in missions:
            if (primary, stratagem) != (action["primary"], action["stratagem"]):
                yield {**action, "primary": primary, "stratagem": stratagem}

    def secret(entry: dict[str, Any]) -> bool:
        return entry.get("seat") == victim and entry.get("action", {}).get("type") == "secret"

    return hidden_twin(game, victim, secret, others,
                       lambda a, b: a.state()["secrets"][victim] != b.state()["secrets"][victim])


class Seated:
    """A game at a table of human seats with a board and a clock the test moves."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.now = 0.0
        self.board = FakeBoard()
        self.table = Table(game, ["human"] * game.players, board=self.board, flash_seconds=1.0, clock=lambda: self.now)
        self.table.refresh()
        self.table.prompt()

    @property
    def face(self) -> GameFace:
        return self.table.face

    def press(self, key: int) -> None:
        self.now += 5.0  # the last refusal's flash is over
        self.table.refresh()
        self.table.press(key)

    def shared(self) -> Any:
        """What everyone at the table sees: the LEDs (flashes included) and the public words."""
        return self.table.pixels(), self.board.shown[-1], list(self.table.messages)


def key_groups(face: GameFace) -> list[list[int]]:
    """The layout's keys grouped by what they do (hand keys, arrows, mode buttons, hexes...)."""
    layout: Any = getattr(face, "layout")
    roles: dict[int, tuple[str, Any]] = layout.roles if hasattr(layout, "roles") else layout.key_role
    groups: dict[str, list[int]] = {}
    for key, (role, value) in sorted(roles.items()):
        groups.setdefault(role if role not in ("button",) else f"button {value}", []).append(key)
    return list(groups.values())


def drive(a: Seated, b: Seated, presses: int, seed: int, secret_in_play: Callable[[Seated, Seated], bool]) -> int:
    """Press the same keys on both (a group of keys at random, then one of its keys) until the games
    part in public (one applied an action the other refused: the log says so anyway) or ``presses``
    are done; the shared board and words must be the same after every press. Returns the number of
    presses made while ``secret_in_play``."""
    assert a.shared() == b.shared()
    rng = Rng(seed)
    groups = key_groups(a.face)
    counted = 0
    for step in range(presses):
        group = groups[rng.below(len(groups))]
        key = group[rng.below(len(group))]
        a.press(key)
        b.press(key)
        if public(a.game) != public(b.game):
            break  # an action taken in one game and refused in the other: that is public by nature
        assert a.shared() == b.shared(), f"the shared board differs after press {step + 1} (key {key})"
        counted += secret_in_play(a, b)
        if a.game.is_over():
            break
    return counted


def mainland_choosing(a: Seated, b: Seated) -> bool:
    """Each seat is considering a hand card, and they are not the same card."""
    return bool(a.face.card and b.face.card and a.face.card != b.face.card)  # type: ignore[attr-defined]


def landover_choosing(a: Seated, b: Seated) -> bool:
    """A mode is chosen in both, and the hand pays for it in one game and not the other (or a card)."""
    fa, fb = a.face, b.face
    mode = fa.mode  # type: ignore[attr-defined]
    if mode is None or mode != fb.mode:  # type: ignore[attr-defined]
        return False
    return bool(fa.candidates() != fb.candidates())


def twins(name: str, players: int, make: Callable[[Game], Game | None], wanted: int) -> Iterator[tuple[Game, Game]]:
    """``wanted`` pairs of games equal in public with the hidden cards changed, from seeded games."""
    found = 0
    for seed in range(1, 200):
        for actions in (12, 30, 60, 120, 200):
            game = played(name, players, seed, actions)
            if game.is_over() or game.current_seat() == OBSERVER:
                continue
            other = make(game)
            if other is not None:
                found += 1
                yield game, other
                break
        if found == wanted:
            return
    raise AssertionError(f"only {found} {name} pairs found")


#: Per game with secrets and a lit board: players, the twin maker, when a secret is in play on the
#: keys, and how many presses of the walks at least must be made with one.
COMPARED: dict[str, tuple[int, Callable[[Game], Game | None], Callable[[Seated, Seated], bool], int]] = {
    "mainland": (2, mainland_twin, mainland_choosing, 20),
    "landover": (3, landover_twin, landover_choosing, 10),
    "farside": (2, farside_twin, lambda a, b: True, 20),  # its console never showed a mission: a guard
}


def test_every_game_with_secrets_and_a_board_is_compared() -> None:
    """A new game that hides something and has a face must join this file's comparison."""
    secret = {name for name, entry in game_entries().items()
              if entry.face is not None and game_class(name).view is not Game.view}
    assert secret == set(COMPARED)


@pytest.mark.parametrize("name", sorted(COMPARED))
def test_the_shared_board_is_the_same_whatever_the_hidden_cards(name: str) -> None:
    players, make, choosing, least = COMPARED[name]
    counted = 0
    for number, (game, other) in enumerate(twins(name, players, make, 4)):
        assert public(game) == public(other)
        counted += drive(Seated(game), Seated(other), 150, number, choosing)
    assert counted >= least  # the hidden cards were in play on the keys: the comparison is not vacuous


def test_mainland_every_hand_key_and_turn_shows_the_same_on_the_board() -> None:
    """Each hand key, the card turned four ways and moved over the board: the same LEDs whichever
    cards the hand holds (the old board lit the chosen card's legal spots: 51.5% named it)."""
    (game, other), = twins("mainland", 2, mainland_twin, 1)
    a, b = Seated(game), Seated(other)
    layout: Any = a.face.layout
    different = 0
    for index in range(len(game.hands[game.current_seat()])):  # type: ignore[attr-defined]
        keys = [layout.keys_of("hand", index)] + [layout.keys_of("rotate")] * 4
        keys += [layout.keys_of(m) for m in ("up", "left", "down", "right")]
        keys += [layout.keys_of("column", 0), layout.keys_of("row", 0), layout.keys_of("cancel")]
        for key in keys:
            a.press(key)
            b.press(key)
            assert a.shared() == b.shared()
            different += mainland_choosing(a, b)
    assert different >= 5


def test_landover_every_mode_button_shows_the_same_on_the_board() -> None:
    """Each mode button, then a few hexes and confirm, then cancel: the same LEDs whether or not the
    hand pays for the mode (the old board pulsed a mode's places only when it did)."""
    paid_differently = 0
    stolen = twins("landover", 3, lambda game: landover_twin(game, cards=False), 2)
    for game, other in [*stolen, *twins("landover", 3, landover_twin, 2)]:
        a, b = Seated(game), Seated(other)
        layout: Any = a.face.layout
        for mode in ("road", "bridge", "village", "city", "wall", "military", "science", "commerce", "politics",
                     "trade", "raid", "catapult", "card", "end_turn"):
            hexes = [layout.key_of("hex", h) for h in sorted(layout.hex_led)[::7]]
            # the card button after a mode: the board leaves the mode whether or not a card is playable
            for key in [layout.key_of(mode), *hexes, layout.key_of("card"), *hexes[:3], layout.key_of("cancel")]:
                a.press(key)
                b.press(key)
                assert a.shared() == b.shared(), f"{mode}: the shared board differs"
                paid_differently += landover_choosing(a, b)
    assert paid_differently >= 1


def test_landover_keys_still_reach_every_legal_action() -> None:
    """The keys choose from the public listing: it holds every legal action but a development card's
    (those follow the engine's listing), so nothing the hand allows is out of the keys' reach."""
    checked = 0
    for seed in (1, 2, 3):
        game = game_class("landover")(3, {}, seed)
        face = Seated(game).face
        rng = Rng(seed)
        for _ in range(300):
            if game.is_over():
                break
            if game.phase == "main":  # type: ignore[attr-defined]
                legal = {a for a in game.legal_actions() if a["type"] != "play"}
                assert legal <= set(face.public_actions())  # type: ignore[attr-defined]
                checked += 1
            game.apply(game.random_action(rng))
    assert checked >= 100


def test_landover_a_development_card_chosen_on_a_page_is_not_on_the_board() -> None:
    """A seat's page chose a development card to play, and its place: the board shows nothing of
    it (the page is the seat's own screen)."""
    shown = 0
    for game, _ in twins("landover", 3, landover_twin, 4):
        seated = Seated(game)
        before = seated.shared()
        for play in [a for a in game.legal_actions() if a["type"] == "play"][:6]:
            for step in range(1, len(play) + 1):
                assert seated.table.narrow(dict(list(play.items())[:step]))
                assert seated.shared()[0] == before[0], f"{play}: the board shows the card's choice"
                shown += 1
            seated.table.narrow({})
    assert shown >= 4


def test_landover_a_page_narrowing_shows_the_same_on_the_board_whatever_the_hand() -> None:
    """A seat's page narrows (part of) an action, with the board showing no mode or a mode's places:
    the board after it is the same whether or not the hand holds the card or pays for the build.
    Before, the page's narrowing followed the hand: a card the seat held left the mode the board
    showed and one it did not hold was refused and left the board as it was (a bridge or a trade
    the hand paid for lit its places, one it did not was refused)."""
    compared = hidden_differently = 0
    pairs = [*twins("landover", 3, landover_twin, 2), *twins("landover", 3, lambda g: landover_twin(g, cards=False), 2)]
    for game, other in pairs:
        wanted: list[dict[str, Any]] = []
        for action in [*game.legal_actions(), *other.legal_actions()]:
            items = list(dict(action).items())
            wanted += [dict(items[:step]) for step in range(1, len(items) + 1) if dict(items[:step]) not in wanted]
        for mode in (None, "road"):
            for chosen in wanted[:80]:
                a, b = Seated(game), Seated(other)
                if mode is not None:
                    a.press(a.face.layout.key_of(mode))  # type: ignore[attr-defined]
                    b.press(b.face.layout.key_of(mode))  # type: ignore[attr-defined]
                done = a.table.narrow(chosen), b.table.narrow(chosen)
                assert a.shared() == b.shared(), f"after the board's {mode} mode, a page narrowed {chosen}"
                compared += 1
                hidden_differently += done[0] != done[1]  # the page's own answer may differ: it is the seat's
    assert compared >= 100 and hidden_differently >= 10  # the hands were in play: the comparison is not vacuous
