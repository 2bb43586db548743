"""The roll and what it sets off: production, development draws, the 7, raids and thefts, the barbarians."""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.hexmap import (
    CARD_KINDS,
    RESOURCE_KINDS,
    TERRAIN_COMMODITY,
    TERRAIN_RESOURCE,
)
from tablelight.games.landover.cards import CULTURES, vp_cards
from tablelight.games.landover.rules import (
    BARBARIAN_TRACK,
    CITY,
    CULTURE_INDEX,
    DEV_HAND_LIMIT,
    EVENT_FACES,
    LUCKY,
    MAIN,
    NOBODY,
    SCIENCE,
)
from tablelight.games.landover.pieces import LandoverPieces


class LandoverProduction(LandoverPieces):
    def _roll(self, chosen: tuple[int, int] | None) -> None:
        seat = self.seat
        if chosen is None:
            white = self._chance_die("white_die")
            red = self._chance_die("red_die")
        else:
            white, red = chosen
        event = self._chance_die("event_die")
        self.dice = {"white": white, "red": red, "event": EVENT_FACES[event - 1]}
        self.phase = MAIN
        face = EVENT_FACES[event - 1]
        if face == "barbarian":
            if self.barbarian_delay > 0:
                self.barbarian_delay -= 1
            else:
                self.barbarians += 1
                if self.barbarians >= BARBARIAN_TRACK:
                    self._barbarian_attack()
                    self.barbarians = 0
        else:
            c = CULTURE_INDEX[face]
            for step in range(self.players):
                s = self.order[(self.turn_index + step) % self.players]
                if self.culture[s][c] >= red:
                    self._draw_dev(s, c)
        total = white + red
        if total == 7:
            self._seven(seat)
        else:
            self._produce(total)

    def _draw_dev(self, seat: int, c: int) -> None:
        deck = self.decks[c]
        if not deck or len(self.dev_cards[seat]) >= DEV_HAND_LIMIT:
            return
        card = deck.pop(self._chance_below("dev_card", len(deck), seat=seat, deck=CULTURES[c]))
        if card in vp_cards():
            self.vp_cards[seat] += 1  # played at once, out of the game
        else:
            self.dev_cards[seat].append(card)

    def _produce(self, total: int) -> None:
        got = [False] * self.players
        corner_owner, corner_level = self.corner_owner, self.corner_level
        settled = self._settled_corners
        for h in self.by_number.get(total, ()):
            if h in self.catapult_at or not settled[h]:
                continue
            terrain = self.terrain[h]
            for v in settled[h]:  # in the hex's corner order, as the gold draws are logged
                owner = corner_owner[v]
                hand = self.hands[owner]
                got[owner] = True
                city = corner_level[v] == CITY
                if terrain == "gold":
                    for _ in range(3 if city else 2):
                        hand[self._chance_below("gold", RESOURCE_KINDS, seat=owner)] += 1
                    continue
                kind = TERRAIN_RESOURCE[terrain]
                hand[kind] += 1
                if city:
                    commodity = TERRAIN_COMMODITY.get(terrain)
                    hand[kind if commodity is None else commodity] += 1
        for s in range(self.players):
            if not got[s] and self.culture[s][SCIENCE] >= 3:
                self.hands[s][self._chance_below("aqueduct", RESOURCE_KINDS, seat=s)] += 1

    def _seven(self, roller: int) -> None:
        if self.saved_numbers is not None:
            self.number = self.saved_numbers
            self.saved_numbers = None
            self._index_numbers()
        self.catapult_at.clear()
        self.catapult = [-1] * self.players
        for step in range(self.players):
            s = self.order[(self.turn_index + step) % self.players]
            size = self.hand_size(s)
            if size > self.safe_hand(s):
                for _ in range(size // 2):
                    self._lose_random_card(s, CARD_KINDS, "discard", seat=s)
        mine = self.vp(roller)
        if all(self.vp(s) > mine for s in self._others[roller]):
            if self.record_format >= 2:
                self.lucky_raid = bool(self._lucky_hexes())  # "they may place their catapult": optional
            else:
                self.phase = LUCKY

    def _lose_random_card(self, owner: int, kinds: int, chance: str, **context: Any) -> int:
        """Remove one random card of ``owner``'s first ``kinds`` card kinds (RESOURCE_KINDS: resources only, CARD_KINDS: any card); -1 if none."""
        hand = self.hands[owner]
        total = sum(hand[:kinds])
        if total == 0:
            return -1
        pick = self._chance_below(chance, total, **context)
        for kind in range(kinds):
            if pick < hand[kind]:
                hand[kind] -= 1
                return kind
            pick -= hand[kind]
        raise AssertionError("unreachable")  # pragma: no cover

    def _steal(self, thief: int, victim: int, kinds: int) -> None:
        """Move one random card of ``victim``'s first ``kinds`` kinds (see _lose_random_card) to ``thief``."""
        kind = self._lose_random_card(victim, kinds, "steal", seat=thief, victim=victim)
        if kind >= 0:
            self.hands[thief][kind] += 1

    def _steal_from_settlers(self, seat: int, h: int) -> None:
        """One random resource from each opponent with a village or city on hex ``h``."""
        victims = sorted({self.corner_owner[v] for v in self.map.hex_vertices[h] if self.corner_owner[v] not in (NOBODY, seat)})
        for victim in victims:
            self._steal(seat, victim, RESOURCE_KINDS)

    def _raid(self, seat: int, h: int) -> None:
        self.raided = True
        self._place_catapult(seat, h)
        self._steal_from_settlers(seat, h)

    def _barbarian_attack(self) -> None:
        strength = sum(c["city"] for c in self.counts) + sum(1 for owner in self.metro_owner if owner != NOBODY)
        defence = sum(self.military)
        if strength == 0 and self.options["barbarians_at_zero"] == "no_attack":
            return  # no city on the board: nothing to attack, nothing defended
        if strength > defence:
            if self.options["barbarian_losers"] == "any_city":
                exposed = [s for s in range(self.players) if self.counts[s]["city"]]
            else:
                exposed = [s for s in range(self.players) if self._free_cities(s)]
            if exposed:
                weakest = min(self.military[s] for s in exposed)
                for s in self.order:
                    if s in exposed and self.military[s] == weakest:
                        cities = self._free_cities(s)  # a metro city is never reduced
                        unwalled = [v for v in cities if not self.corner_wall[v]]
                        pool = unwalled or cities
                        if pool:
                            self._reduce_city(pool[self._chance_below("barbarian_city", len(pool), seat=s)])
            return
        best = max(self.military)
        top = [s for s in self.order if self.military[s] == best]
        if len(top) == 1:
            self.defender[top[0]] += 1
        else:
            for s in top:
                decks = [c for c in range(3) if self.decks[c]]
                if decks and len(self.dev_cards[s]) < DEV_HAND_LIMIT:
                    self._draw_dev(s, decks[self._chance_below("defender_deck", len(decks), seat=s)])
        self.military = [max(0, x - 1) for x in self.military]
