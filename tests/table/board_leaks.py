"""How much the shared board tells about a seat's hidden cards: the figure of issue 24.

``python -m tests.table.board_leaks [situations]`` (run from the repository with ``PYTHONPATH=host``)
plays seeded random games and, at each situation, asks what the board would show for every hidden
holding an observer cannot rule out:

* Mainland: the seat to act presses a hand key; the card under that key is any card of its own that
  is not on the board (hand, deck or discard pile). Per press, the cards whose picture (the LEDs,
  with the flash of a refused press) equals the true card's are the ones the observer is left
  with: their mean, and how often it is one card (the card named outright).
* Landover: in the main phase the seat to act presses each mode button; its hand is swapped for
  random hands of the same size (and its development cards for others of the same count). A
  button whose picture differs between the hands depends on the hand: their share.

With 150 situations per game (``python -m tests.table.board_leaks 150``), before the board was made
public (issue 24): Mainland 735 presses, 24.03 possible cards, 9.69 left, 17.7% named outright;
Landover 2,030 pictures, 32.6% depending on the hand. Now: 24.03 left, 0.0% named; 0.0%. (The
issue's own probe, another sampling, found 22.2 cards cut to 1.88, 51.5% named, and 7.5%.)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from tablelight.core.game import Game
from tablelight.core.registry import game_class
from tablelight.core.rng import Rng
from tablelight.games.landover.layout import MODE_BUTTONS
from tablelight.table.face import GameFace, Pixel, make_face

ALTERNATIVE_HANDS = 8


def picture(face: GameFace, key: int) -> list[Pixel]:
    """The board after ``key`` is pressed: what the face shows, with the flash of a refused press."""
    outcome = face.press(key)
    return face.pixels(outcome.flash if outcome.refused else ())


def situations(name: str, count: int, seed: int = 1) -> Iterator[Game]:
    """``count`` positions of seeded random games of ``name`` (two seats) at a seat's turn."""
    rng = Rng(seed)
    found = 0
    game_seed = seed
    while found < count:
        game = game_class(name)(2, {}, game_seed)
        game_seed += 1
        steps = 0
        while not game.is_over() and found < count and steps < 400:
            game.apply(game.random_action(rng))
            steps += 1
            if steps % 3 == 0 and not game.is_over():
                found += 1
                yield game


def mainland_figure(count: int) -> dict[str, Any]:
    """Per hand-key press: how many cards the picture leaves possible (see the module docstring)."""
    left: list[int] = []
    possible: list[int] = []
    for game in situations("mainland", count):
        seat = game.current_seat()
        assert seat is not None
        if not game.camp_placed[seat]:  # type: ignore[attr-defined]
            continue
        hand = list(game.hands[seat])  # type: ignore[attr-defined]
        hidden = sorted(set(hand) | set(game.decks[seat]) | set(game.discards[seat]))  # type: ignore[attr-defined]
        for index, true_card in enumerate(hand):
            seen: dict[str, list[Pixel]] = {}
            for card in hidden:
                other = game.clone()
                swapped = list(hand)
                if card in swapped:
                    swapped[swapped.index(card)] = true_card
                swapped[index] = card
                other.hands[seat] = swapped  # type: ignore[attr-defined]
                face = make_face(other)
                seen[card] = picture(face, face.layout.keys_of("hand", index))  # type: ignore[attr-defined]
            left.append(sum(1 for shown in seen.values() if shown == seen[true_card]))
            possible.append(len(hidden))
    return {
        "presses": len(left),
        "possible_cards": round(sum(possible) / len(possible), 2),
        "cards_left": round(sum(left) / len(left), 2),
        # named outright by the picture (a seat with one card unseen is named by the counts alone)
        "named_percent": round(100 * sum(1 for n, p in zip(left, possible) if n == 1 < p) / len(left), 1),
    }


def landover_figure(count: int) -> dict[str, Any]:
    """The share of (situation, mode button) pictures that differ between hands of the same size."""
    rng = Rng(99)
    depends = pressed = 0
    from tablelight.games.landover.hexmap import CARDS
    from tablelight.games.landover.plays import PLAY_LISTERS
    from tablelight.games.landover.rules import FIXED_PLAYS

    kinds = sorted({*FIXED_PLAYS, *PLAY_LISTERS})

    for game in situations("landover", count):
        if game.phase != "main":  # type: ignore[attr-defined]
            continue
        seat = game.current_seat()
        assert seat is not None
        size = game.hand_size(seat)  # type: ignore[attr-defined]
        devs = len(game.dev_cards(seat))  # type: ignore[attr-defined]
        hands: list[tuple[list[int], list[str]]] = [(list(game.hand(seat).values()), list(game.dev_cards(seat)))]  # type: ignore[attr-defined]
        for _ in range(ALTERNATIVE_HANDS):
            hand = [0] * len(CARDS)
            for _ in range(size):
                hand[rng.below(len(CARDS))] += 1
            hands.append((hand, [kinds[rng.below(len(kinds))] for _ in range(devs)]))
        faces = []
        for hand, dev in hands:
            other = game.clone()
            other.pos.hands[seat] = hand  # type: ignore[attr-defined]
            other.pos.dev_cards[seat] = dev  # type: ignore[attr-defined]
            faces.append(make_face(other))
        for button in MODE_BUTTONS:
            shown = []
            for face in faces:
                face.reset()
                key = next(k for k, role in face.layout.roles.items() if role == (button, 0))  # type: ignore[attr-defined]
                shown.append(picture(face, key))
            pressed += 1
            depends += any(s != shown[0] for s in shown)
    return {"pictures": pressed, "depend_on_hand_percent": round(100 * depends / pressed, 1)}


def main(argv: list[str]) -> None:
    count = int(argv[0]) if argv else 120
    print("mainland", mainland_figure(count))
    print("landover", landover_figure(count))


if __name__ == "__main__":
    main(sys.argv[1:])
