"""The roll: the white, red and event dice (the alchemist chooses the first two), and what they set off."""

from __future__ import annotations

from tablelight.games.landover.production import draw_dev, produce
from tablelight.games.landover.raids import barbarian_attack, seven
from tablelight.games.landover.rules import BARBARIAN_TRACK, CULTURE_INDEX, EVENT_FACES, MAIN
from tablelight.games.landover.state import Chance, LandoverState


def roll(p: LandoverState, chance: Chance, chosen: tuple[int, int] | None) -> None:
    seat = p.seat
    if chosen is None:
        white = chance.draw_die("white_die")
        red = chance.draw_die("red_die")
    else:
        white, red = chosen
    event = chance.draw_die("event_die")
    p.dice = {"white": white, "red": red, "event": EVENT_FACES[event - 1]}
    p.phase = MAIN
    face = EVENT_FACES[event - 1]
    if face == "barbarian":
        if p.barbarian_delay > 0:
            p.barbarian_delay -= 1
        else:
            p.barbarians += 1
            if p.barbarians >= BARBARIAN_TRACK:
                barbarian_attack(p, chance)
                p.barbarians = 0
    else:
        c = CULTURE_INDEX[face]
        for step in range(p.players):
            s = p.order[(p.turn_index + step) % p.players]
            if p.culture[s][c] >= red:
                draw_dev(p, chance, s, c)
    total = white + red
    if total == 7:
        seven(p, chance, seat)
    else:
        produce(p, chance, total)

