"""The robber's part and the barbarians: the 7 (discards, anarchy undone, catapults home, the lucky 7),
raids and thefts, catapults, and the barbarians' attack."""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.hexmap import CARD_KINDS, RESOURCE_KINDS
from tablelight.games.landover.pieces import place_catapult, reduce_city
from tablelight.games.landover.places import free_cities, lucky_hexes
from tablelight.games.landover.production import draw_dev
from tablelight.games.landover.rules import DEV_HAND_LIMIT, LUCKY, NOBODY
from tablelight.games.landover.scoring import hand_size, safe_hand, vp
from tablelight.games.landover.state import Chance, LandoverState, index_numbers


def seven(p: LandoverState, chance: Chance, roller: int) -> None:
    if p.saved_numbers is not None:
        p.number = p.saved_numbers
        p.saved_numbers = None
        index_numbers(p)
    p.catapult_at.clear()
    p.catapult = [-1] * p.players
    for step in range(p.players):
        s = p.order[(p.turn_index + step) % p.players]
        size = hand_size(p, s)
        if size > safe_hand(p, s):
            for _ in range(size // 2):
                lose_random_card(p, chance, s, CARD_KINDS, "discard", seat=s)
    mine = vp(p, roller)
    if all(vp(p, s) > mine for s in p.others[roller]):
        if p.record_format >= 2:
            p.lucky_raid = bool(lucky_hexes(p))  # "they may place their catapult": optional
        else:
            p.phase = LUCKY


def lose_random_card(p: LandoverState, chance: Chance, owner: int, kinds: int, kind: str, **context: Any) -> int:
    """Remove one random card of ``owner``'s first ``kinds`` card kinds (RESOURCE_KINDS: resources only, CARD_KINDS: any card); -1 if none."""
    hand = p.hands[owner]
    total = sum(hand[:kinds])
    if total == 0:
        return -1
    pick = chance.draw_below(kind, total, **context)
    for kind in range(kinds):
        if pick < hand[kind]:
            hand[kind] -= 1
            return kind
        pick -= hand[kind]
    raise AssertionError("unreachable")  # pragma: no cover


def steal(p: LandoverState, chance: Chance, thief: int, victim: int, kinds: int) -> None:
    """Move one random card of ``victim``'s first ``kinds`` kinds (see _lose_random_card) to ``thief``."""
    kind = lose_random_card(p, chance, victim, kinds, "steal", seat=thief, victim=victim)
    if kind >= 0:
        p.hands[thief][kind] += 1


def steal_from_settlers(p: LandoverState, chance: Chance, seat: int, h: int) -> None:
    """One random resource from each opponent with a village or city on hex ``h``."""
    victims = sorted({p.corner_owner[v] for v in p.map.hex_vertices[h] if p.corner_owner[v] not in (NOBODY, seat)})
    for victim in victims:
        steal(p, chance, seat, victim, RESOURCE_KINDS)


def raid(p: LandoverState, chance: Chance, seat: int, h: int) -> None:
    p.raided = True
    place_catapult(p, seat, h)
    steal_from_settlers(p, chance, seat, h)


def barbarian_attack(p: LandoverState, chance: Chance) -> None:
    strength = sum(c["city"] for c in p.counts) + sum(1 for owner in p.metro_owner if owner != NOBODY)
    defence = sum(p.military)
    if strength == 0 and p.options["barbarians_at_zero"] == "no_attack":
        return  # no city on the board: nothing to attack, nothing defended
    if strength > defence:
        if p.options["barbarian_losers"] == "any_city":
            exposed = [s for s in range(p.players) if p.counts[s]["city"]]
        else:
            exposed = [s for s in range(p.players) if free_cities(p, s)]
        if exposed:
            weakest = min(p.military[s] for s in exposed)
            for s in p.order:
                if s in exposed and p.military[s] == weakest:
                    cities = free_cities(p, s)  # a metro city is never reduced
                    unwalled = [v for v in cities if not p.corner_wall[v]]
                    pool = unwalled or cities
                    if pool:
                        reduce_city(p, pool[chance.draw_below("barbarian_city", len(pool), seat=s)])
        return
    best = max(p.military)
    top = [s for s in p.order if p.military[s] == best]
    if len(top) == 1:
        p.defender[top[0]] += 1
    else:
        for s in top:
            decks = [c for c in range(3) if p.decks[c]]
            if decks and len(p.dev_cards[s]) < DEV_HAND_LIMIT:
                draw_dev(p, chance, s, decks[chance.draw_below("defender_deck", len(decks), seat=s)])
    p.military = [max(0, x - 1) for x in p.military]
