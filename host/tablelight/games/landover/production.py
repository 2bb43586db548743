"""Production: the resources and commodities a roll gives, the aqueduct's card, and the development
cards a culture gate (or a tied defence) draws."""

from __future__ import annotations

from tablelight.games.landover.cards import CULTURES, vp_cards
from tablelight.games.landover.hexmap import RESOURCE_KINDS, TERRAIN_COMMODITY, TERRAIN_RESOURCE
from tablelight.games.landover.rules import CITY, DEV_HAND_LIMIT, SCIENCE
from tablelight.games.landover.state import Chance, LandoverState


def draw_dev(p: LandoverState, chance: Chance, seat: int, c: int) -> None:
    deck = p.decks[c]
    if not deck or len(p.dev_cards[seat]) >= DEV_HAND_LIMIT:
        return
    card = deck.pop(chance.draw_below("dev_card", len(deck), seat=seat, deck=CULTURES[c]))
    if card in vp_cards():
        p.vp_cards[seat] += 1  # played at once, out of the game
    else:
        p.dev_cards[seat].append(card)


def produce(p: LandoverState, chance: Chance, total: int) -> None:
    got = [False] * p.players
    corner_owner, corner_level = p.corner_owner, p.corner_level
    settled = p.settled_corners
    for h in p.by_number.get(total, ()):
        if h in p.catapult_at or not settled[h]:
            continue
        terrain = p.terrain[h]
        for v in settled[h]:  # in the hex's corner order, as the gold draws are logged
            owner = corner_owner[v]
            hand = p.hands[owner]
            got[owner] = True
            city = corner_level[v] == CITY
            if terrain == "gold":
                for _ in range(3 if city else 2):
                    hand[chance.draw_below("gold", RESOURCE_KINDS, seat=owner)] += 1
                continue
            kind = TERRAIN_RESOURCE[terrain]
            hand[kind] += 1
            if city:
                commodity = TERRAIN_COMMODITY.get(terrain)
                hand[kind if commodity is None else commodity] += 1
    for s in range(p.players):
        if not got[s] and p.culture[s][SCIENCE] >= 3:
            p.hands[s][chance.draw_below("aqueduct", RESOURCE_KINDS, seat=s)] += 1

