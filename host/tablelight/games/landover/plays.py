"""Development cards in play: listing every way to play one, checking a play, carrying it out.

The three share one reading of each card (``docs/rules/landover.md``): the plays of a card are
``rules.FIXED_PLAYS`` or its lister in ``PLAY_LISTERS`` (the listing reads both), exactly the plays
:meth:`_check_card_play` accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tablelight.core.actions import FrozenList
from tablelight.core.errors import MalformedActionError
from tablelight.core.game import Action
from tablelight.games.landover.hexmap import (
    CARDS,
    CARD_KINDS,
    COMMODITIES,
    RESOURCES,
    RESOURCE_KINDS,
)
from tablelight.games.landover.cards import card_culture
from tablelight.games.landover.rules import (
    CARD_INDEX,
    CITY,
    COSTS,
    CULTURE_INDEX,
    INVENTOR_NUMBERS,
    MAIN,
    NOBODY,
    ORE,
    TAKE,
    TWO_STEP_CARDS,
    VILLAGE,
    WHEAT,
    inventor_action,
    play_action,
)
from tablelight.games.landover.validation import LandoverValidation


class LandoverPlays(LandoverValidation):
    # One lister per card whose plays depend on the position (the others are FIXED_PLAYS): every way
    # to play the card now, as shared immutable values in a list or tuple the caller must not change.

    def _alchemist_plays(self, seat: int) -> Sequence[Action]:
        return ()  # only before the roll (ROLL_CHOICES)

    def _military_plays(self, seat: int) -> Sequence[Action]:
        return (play_action("military"),) if self.military[seat] < self.military_cap(seat) else ()

    def _commercial_harbor_plays(self, seat: int) -> Sequence[Action]:
        hand = self.hands[seat]
        return [play_action("commercial_harbor", "give", RESOURCES[g], "get", c) for g in range(RESOURCE_KINDS) if hand[g] for c in COMMODITIES]

    def _master_merchant_plays(self, seat: int) -> Sequence[Action]:
        out: list[Action] = []
        points = self._kept_scores()
        mine = points[seat]
        for s in self._others[seat]:
            if self.record_format >= 3:  # the target only: its hand is seen once the card is played
                if points[s] > mine and self.hand_size(s):
                    out.append(play_action("master_merchant", "target", s))
            elif points[s] > mine:
                out += [
                    Action({"type": "play", "card": "master_merchant", "target": s, "take": FrozenList(take)})
                    for take in self._merchant_takes(s)
                ]
        return out

    def _merchant_plays(self, seat: int) -> Sequence[Action]:
        return [play_action("merchant", "hex", h) for h in self._settled_hexes(seat)]

    def _inventor_plays(self, seat: int) -> Sequence[Action]:
        # Keyed by the hexes that may swap: a swap keeps them (it trades two of their numbers).
        swappable = self._inventor_hexes

        def swaps() -> list[Action]:
            return [inventor_action(a, b) for i, a in enumerate(swappable) for b in swappable[i + 1 :]]

        return self._cached(("inventor", swappable), swaps)

    def _medicine_plays(self, seat: int) -> Sequence[Action]:
        hand = self.hands[seat]
        if hand[ORE] >= 2 and hand[WHEAT] >= 1 and self.counts[seat]["city"] < self.limits["city"]:
            return [play_action("medicine", "vertex", v) for v in self._own_corners(seat, VILLAGE)]
        return ()

    def _siege_plays(self, seat: int) -> Sequence[Action]:
        if self.raided:
            return ()
        return self._raid_plays(seat, "siege")

    def _bishop_plays(self, seat: int) -> Sequence[Action]:
        catapults = self.catapult_at
        return [play_action("bishop", "hex", h) for h in sorted(catapults)] if catapults else ()

    def _deserter_plays(self, seat: int) -> Sequence[Action]:
        military = self.military
        out: list[Action] = []
        for s in self._others[seat]:  # a loop: most often nobody else has a military power to take
            if military[s] >= 1:
                out.append(play_action("deserter", "target", s))
        return out

    def _vandal_plays(self, seat: int) -> Sequence[Action]:
        out: list[Action] = []
        for s in self._others[seat]:
            out += self._vandal_targets(s)
        return out

    def _vandal_targets(self, owner: int) -> list[Action]:
        """The vandal's plays on ``owner``'s sides (kept with the lists of ``owner``'s own pieces)."""
        return self._cached(
            ("vandal_target", owner), lambda: [play_action("vandal", "edge", e) for e in sorted(self._open_edges(owner))]
        )

    def _diplomat_plays(self, seat: int) -> Sequence[Action]:
        return self._cached(
            ("diplomat", seat),
            lambda: [
                play_action("diplomat", "edge", e, "to", to)
                for e in sorted(self._open_edges(seat))
                for to in self._diplomat_targets(seat, e)
            ],
        )

    def _raze_plays(self, seat: int) -> Sequence[Action]:
        if self.military[seat] < 1:
            return ()
        metro = self.corner_metro
        return [play_action("raze", "vertex", v) for s in self._others[seat] for v in self._own_corners(s, CITY) if metro[v] < 0]

    def _spy_plays(self, seat: int) -> Sequence[Action]:
        others = self._others[seat]
        if self.record_format >= 3:  # the number of cards a seat holds is public, the cards are not
            return [play_action("spy", "target", s) for s in others if self.dev_cards[s]]
        return [
            Action({"type": "play", "card": "spy", "target": s, "card_taken": name})
            for s in others
            for name in sorted(set(self.dev_cards[s]))
        ]

    def _checked_take(self, action: Action, field: str, rule: str, target: int) -> FrozenList:
        """The master merchant's cards in ``field`` (the take of format 3, the play's ``take`` before),
        in card order, when ``target``'s hand allows them."""
        cards = action.get(field)
        if not isinstance(cards, list) or not all(isinstance(x, str) and x in CARD_INDEX for x in cards):
            raise MalformedActionError(rule, f"{field} must be a list of card names, got {cards!r}")
        normal = sorted(cards, key=CARD_INDEX.__getitem__)
        if normal not in self._merchant_takes(target):
            raise self._rule(rule, f"take two cards seat {target} holds (one if it holds one); {normal} is not possible")
        return FrozenList(normal)

    def _take_actions(self) -> list[Action]:
        """Phase ``take``: what the player may take from the target it now sees (listed to the player alone: it is the seat to act)."""
        taking = self.taking
        assert taking is not None
        target = taking["target"]
        if taking["card"] == "master_merchant":
            return [Action({"type": "take", "cards": FrozenList(take)}) for take in self._merchant_takes(target)]
        return [Action({"type": "take", "dev_card": name}) for name in sorted(set(self.dev_cards[target]))]

    def _check_take(self, action: Action) -> Action:
        """A take in phase ``take``, checked with the same rules :meth:`_take_actions` lists by."""
        taking = self.taking
        assert taking is not None
        target = taking["target"]
        if taking["card"] == "master_merchant":
            self._fields(action, ("cards",))
            return Action({"type": "take", "cards": self._checked_take(action, "cards", "landover.take.cards", target)})
        self._fields(action, ("dev_card",))
        name = action.get("dev_card")
        if not isinstance(name, str) or name not in self.dev_cards[target]:
            raise self._rule("landover.take.dev_card", f"seat {target} holds no {name!r}")
        return Action({"type": "take", "dev_card": name})

    def _perform_take(self, seat: int, action: Action) -> None:
        taking = self.taking
        assert taking is not None
        target = taking["target"]
        if "cards" in action:
            for name in action["cards"]:
                self.hands[target][CARD_INDEX[name]] -= 1
                self.hands[seat][CARD_INDEX[name]] += 1
        else:
            self.dev_cards[target].remove(action["dev_card"])
            self.dev_cards[seat].append(action["dev_card"])
        self.taking = None
        self.phase = MAIN

    def _merchant_takes(self, target: int) -> list[list[str]]:
        """The card pairs (or the single card) ``target``'s hand allows (master merchant)."""
        hand = self.hands[target]
        total = sum(hand)
        if total == 0:
            return []
        if total == 1:
            return [[CARDS[k]] for k in range(CARD_KINDS) if hand[k]]
        pairs = []
        for a in range(CARD_KINDS):
            if not hand[a]:
                continue
            for b in range(a, CARD_KINDS):
                if hand[b] and (a != b or hand[a] >= 2):
                    pairs.append([CARDS[a], CARDS[b]])
        return pairs

    def _check_card_play(self, seat: int, card: str, action: Action) -> Action:
        """Validate a card's fields; the same tests the card's lister (``PLAY_LISTERS``) lists by."""
        out: Action = Action({"type": "play", "card": card})
        hand = self.hands[seat]
        if card in ("crane", "irrigation", "mining", "road_building", "famine", "wedding", "anarchy", "military"):
            self._fields(action, ("card",))
            if card == "military" and self.military[seat] >= self.military_cap(seat):
                raise self._rule("landover.military.cap", "military power stops at 3 until politics 3 (barracks)")
            return out
        if card == "commercial_harbor":
            self._fields(action, ("card", "give", "get"))
            give = self._field_choice(action, "give", RESOURCES)
            get = self._field_choice(action, "get", COMMODITIES)
            if not hand[CARD_INDEX[give]]:
                raise self._rule("landover.trade.not_enough", f"you have no {give}")
            return Action({**out, "give": give, "get": get})
        if card in ("merchant_fleet", "resource_monopoly", "commodity_monopoly"):
            self._fields(action, ("card", "kind"))
            choices = CARDS if card == "merchant_fleet" else RESOURCES if card == "resource_monopoly" else COMMODITIES
            return Action({**out, "kind": self._field_choice(action, "kind", choices)})
        if card in ("master_merchant", "deserter", "spy"):
            fields = {"master_merchant": ("card", "target", "take"), "deserter": ("card", "target"), "spy": ("card", "target", "card_taken")}
            two_steps = self.record_format >= 3 and card in TWO_STEP_CARDS
            self._fields(action, ("card", "target") if two_steps else fields[card])
            target = self._field_int(action, "target", self.players, "seat")
            if target == seat:
                raise self._rule("landover.card.target_self", "pick another player")
            if card == "deserter":
                if self.military[target] < 1:
                    raise self._rule("landover.card.no_military", f"seat {target} has no military power to desert")
                return Action({**out, "target": target})
            if two_steps:  # the cards are chosen after the play, by the player who then sees them
                if card == "master_merchant" and self.vp(target) <= self.vp(seat):
                    raise self._rule("landover.card.not_ahead", f"seat {target} does not have more victory points than you")
                if card == "master_merchant" and not self.hand_size(target):
                    raise self._rule("landover.card.empty_hand", f"seat {target} holds no resource or commodity cards")
                if card == "spy" and not self.dev_cards[target]:
                    raise self._rule("landover.card.no_dev_cards", f"seat {target} holds no development cards")
                return Action({**out, "target": target})
            if card == "spy":
                name = action.get("card_taken")
                if name not in self.dev_cards[target]:
                    raise self._rule("landover.card.spy_missing", f"seat {target} holds no {name!r}")
                return Action({**out, "target": target, "card_taken": name})
            if self.vp(target) <= self.vp(seat):
                raise self._rule("landover.card.not_ahead", f"seat {target} does not have more victory points than you")
            return Action({**out, "target": target, "take": self._checked_take(action, "take", "landover.card.take", target)})
        if card in ("merchant", "siege", "bishop"):
            self._fields(action, ("card", "hex"))
            h = self._field_int(action, "hex", self.hex_count, "hex")
            if card == "merchant" and h not in self._settled_hexes(seat):
                raise self._rule("landover.card.merchant_hex", f"the merchant goes on a resource hex next to your village or city; hex {h} is not one")
            if card == "siege":
                self._check_raid(seat, h, free=True)
            if card == "bishop" and h not in self.catapult_at:
                raise self._rule("landover.catapult.none_there", f"hex {h} has no catapult")
            return Action({**out, "hex": h})
        if card == "inventor":
            self._fields(action, ("card", "hexes"))
            hexes = action.get("hexes")
            if not isinstance(hexes, list) or len(hexes) != 2:
                raise MalformedActionError("landover.card.hexes", "hexes must be a list of two hex ids")
            pair = sorted(self._field_int({"hex": h}, "hex", self.hex_count, "hex") for h in hexes)
            if pair[0] == pair[1]:
                raise self._rule("landover.card.inventor_same", "pick two different hexes")
            for h in pair:
                if not self._land_hex(h) or self.number[h] not in INVENTOR_NUMBERS:
                    raise self._rule("landover.card.inventor_number", f"hex {h} has no 3, 4, 5, 9, 10 or 11 token")
            return Action({**out, "hexes": FrozenList(pair)})
        if card == "medicine" or card == "raze":
            self._fields(action, ("card", "vertex"))
            v = self._field_int(action, "vertex", self.corner_count, "corner")
            if card == "medicine":
                self._pay_problem(seat, COSTS["medicine"], "a city with medicine")
                if self.counts[seat]["city"] >= self.limits["city"]:
                    raise self._rule("landover.build.no_pieces", f"you have all {self.limits['city']} cities on the board")
                if self.corner_owner[v] != seat or self.corner_level[v] != VILLAGE:
                    raise self._rule("landover.build.city_needs_village", f"a city replaces one of your villages; corner {v} has none")
            else:
                if self.military[seat] < 1:
                    raise self._rule("landover.military.none", "raze costs 1 military power; you have 0")
                if self.corner_owner[v] in (NOBODY, seat) or self.corner_level[v] != CITY:
                    raise self._rule("landover.card.raze_target", f"corner {v} holds no opponent's city")
                if self.corner_metro[v] >= 0:
                    raise self._rule("landover.card.raze_metro", "a metro city cannot be razed")
            return Action({**out, "vertex": v})
        if card == "vandal":
            self._fields(action, ("card", "edge"))
            e = self._field_int(action, "edge", self.side_count, "side")
            owner = self.side_owner[e]
            if owner in (NOBODY, seat) or not self._open_end(owner, e):
                raise self._rule("landover.card.vandal_target", f"side {e} is not an opponent's road or bridge at an open end")
            return Action({**out, "edge": e})
        if card == "diplomat":
            self._fields(action, ("card", "edge", "to"))
            e = self._field_int(action, "edge", self.side_count, "side")
            to = self._field_int(action, "to", self.side_count, "side")
            if self.side_owner[e] != seat or not self._open_end(seat, e):
                raise self._rule("landover.card.diplomat_from", f"side {e} is not your road or bridge at an open end")
            if to not in self._diplomat_targets(seat, e):
                raise self._rule("landover.card.diplomat_to", f"your piece cannot move to side {to}")
            return Action({**out, "edge": e, "to": to})
        raise MalformedActionError("landover.card.unknown", f"unknown development card {card!r}")  # pragma: no cover

    def _others_in_turn_order(self) -> list[int]:
        """The other seats, from the one after the seat to act round the table."""
        return [self.order[(self.turn_index + i) % self.players] for i in range(1, self.players)]

    def _play_card(self, seat: int, action: Action) -> None:
        """Carry out a checked play; the card goes back under its deck."""
        card = action["card"]
        self.dev_cards[seat].remove(card)
        self.decks[CULTURE_INDEX[card_culture()[card]]].append(card)  # back under its deck
        hand = self.hands[seat]
        if card == "alchemist":
            self._roll((action["white"], action["red"]))
        elif card == "crane":
            self.crane = True
        elif card == "commercial_harbor":
            hand[CARD_INDEX[action["give"]]] -= 1
            hand[CARD_INDEX[action["get"]]] += 1
        elif card in TWO_STEP_CARDS and "take" not in action and "card_taken" not in action:
            self.taking = {"seat": seat, "card": card, "target": action["target"]}  # record format 3
            self.phase = TAKE
        elif card == "master_merchant":
            target = self.hands[action["target"]]
            for name in action["take"]:
                target[CARD_INDEX[name]] -= 1
                hand[CARD_INDEX[name]] += 1
        elif card == "merchant":
            self.merchant_owner = seat
            self.merchant_hex = action["hex"]
        elif card == "merchant_fleet":
            self.fleet.add(CARD_INDEX[action["kind"]])
        elif card in ("resource_monopoly", "commodity_monopoly"):
            kind = CARD_INDEX[action["kind"]]
            most = 2 if card == "resource_monopoly" else 1
            for s in self._others_in_turn_order():
                n = min(most, self.hands[s][kind])
                self.hands[s][kind] -= n
                hand[kind] += n
        elif card == "famine":
            mine = self.vp(seat)
            for s in self._others_in_turn_order():
                if self.vp(s) > mine:
                    for _ in range(2):
                        self._lose_random_card(s, RESOURCE_KINDS, "famine", seat=s)
        elif card == "inventor":
            a, b = action["hexes"]
            self.number[a], self.number[b] = self.number[b], self.number[a]
            self._index_numbers()
        elif card in ("irrigation", "mining"):
            terrain, kind = ("field", WHEAT) if card == "irrigation" else ("mountain", ORE)
            for v in self.corners_of[seat]:
                if any(self.terrain[h] == terrain for h in self.map.vertex_hexes[v]):
                    hand[kind] += 2
        elif card == "medicine":
            for kind, n in COSTS["medicine"]:
                hand[kind] -= n
            self._upgrade(seat, action["vertex"])
        elif card == "road_building":
            self.free_routes += 2
        elif card == "military":
            self.military[seat] += 1
        elif card == "siege":
            self._raid(seat, action["hex"])
        elif card == "bishop":
            self._remove_catapult(action["hex"])
        elif card == "deserter":
            self.military[action["target"]] -= 1
            if self.military[seat] < self.military_cap(seat):
                self.military[seat] += 1
        elif card == "vandal":
            self._take_edge(action["edge"])
        elif card == "diplomat":
            piece = self.side_route[action["edge"]]
            self._take_edge(action["edge"])
            self._put_edge(seat, action["to"], piece)
        elif card == "raze":
            self.military[seat] -= 1
            self._reduce_city(action["vertex"])
        elif card == "spy":
            target = action["target"]
            self.dev_cards[target].remove(action["card_taken"])
            self.dev_cards[seat].append(action["card_taken"])
        elif card == "wedding":
            mine = self.vp(seat)
            for s in self._others_in_turn_order():
                if self.vp(s) > mine:
                    for _ in range(2):
                        self._steal(seat, s, CARD_KINDS)
        elif card == "anarchy":
            if self.saved_numbers is None:
                self.saved_numbers = list(self.number)
            numbered = [h for h in self._land_hexes if self.number[h] is not None]
            order = self._chance_permutation("anarchy", len(numbered))
            values = [self.number[h] for h in numbered]
            for i, h in enumerate(numbered):
                self.number[h] = values[order[i]]
            self._index_numbers()


#: The lister of each card whose plays depend on the position.
PLAY_LISTERS: dict[str, Callable[[LandoverPlays, int], Sequence[Action]]] = {
    "alchemist": LandoverPlays._alchemist_plays,
    "military": LandoverPlays._military_plays,
    "commercial_harbor": LandoverPlays._commercial_harbor_plays,
    "master_merchant": LandoverPlays._master_merchant_plays,
    "merchant": LandoverPlays._merchant_plays,
    "inventor": LandoverPlays._inventor_plays,
    "medicine": LandoverPlays._medicine_plays,
    "siege": LandoverPlays._siege_plays,
    "bishop": LandoverPlays._bishop_plays,
    "deserter": LandoverPlays._deserter_plays,
    "vandal": LandoverPlays._vandal_plays,
    "diplomat": LandoverPlays._diplomat_plays,
    "raze": LandoverPlays._raze_plays,
    "spy": LandoverPlays._spy_plays,
}
