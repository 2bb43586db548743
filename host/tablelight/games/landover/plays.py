"""Development cards in play: listing every way to play one, checking a play, carrying it out.

The three share one reading of each card (``docs/rules/landover.md``): the plays of a card are
``rules.FIXED_PLAYS`` or its lister in ``PLAY_LISTERS`` (the listing reads both), exactly the plays
:func:`check_card_play` accepts.
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
    diplomat_action,
    inventor_action,
    play_action,
)
from tablelight.games.landover.dice import roll
from tablelight.games.landover.pieces import put_edge, reduce_city, remove_catapult, take_edge, upgrade
from tablelight.games.landover.places import (
    diplomat_targets,
    land_hex,
    open_edges,
    open_end,
    own_corners,
    raid_plays,
    settled_hexes,
)
from tablelight.games.landover.raids import lose_random_card, raid, steal
from tablelight.games.landover.scoring import hand_size, kept_scores, military_cap, vp
from tablelight.games.landover.state import Chance, LandoverState, cached, index_numbers
from tablelight.games.landover.validation import check_raid, field_choice, field_int, fields, pay_problem, rule


# One lister per card whose plays depend on the position (the others are FIXED_PLAYS): every way
# to play the card now, as shared immutable values in a list or tuple the caller must not change.


def alchemist_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    return ()  # only before the roll (ROLL_CHOICES)


def military_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    return (play_action("military"),) if p.military[seat] < military_cap(p, seat) else ()


def commercial_harbor_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    hand = p.hands[seat]
    return [play_action("commercial_harbor", "give", RESOURCES[g], "get", c) for g in range(RESOURCE_KINDS) if hand[g] for c in COMMODITIES]


def master_merchant_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    out: list[Action] = []
    points = kept_scores(p)
    mine = points[seat]
    for s in p.others[seat]:
        if p.record_format >= 3:  # the target only: its hand is seen once the card is played
            if points[s] > mine and hand_size(p, s):
                out.append(play_action("master_merchant", "target", s))
        elif points[s] > mine:
            out += [
                Action({"type": "play", "card": "master_merchant", "target": s, "take": FrozenList(take)})
                for take in merchant_takes(p, s)
            ]
    return out


def merchant_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    return [play_action("merchant", "hex", h) for h in settled_hexes(p, seat)]


def inventor_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    # Keyed by the hexes that may swap: a swap keeps them (it trades two of their numbers).
    swappable = p.inventor_hexes

    def swaps() -> list[Action]:
        return [inventor_action(a, b) for i, a in enumerate(swappable) for b in swappable[i + 1 :]]

    return cached(p, ("inventor", swappable), swaps)


def medicine_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    hand = p.hands[seat]
    if hand[ORE] >= 2 and hand[WHEAT] >= 1 and p.counts[seat]["city"] < p.limits["city"]:
        return [play_action("medicine", "vertex", v) for v in own_corners(p, seat, VILLAGE)]
    return ()


def siege_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    if p.raided:
        return ()
    return raid_plays(p, seat, "siege")


def bishop_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    catapults = p.catapult_at
    return [play_action("bishop", "hex", h) for h in sorted(catapults)] if catapults else ()


def deserter_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    military = p.military
    out: list[Action] = []
    for s in p.others[seat]:  # a loop: most often nobody else has a military power to take
        if military[s] >= 1:
            out.append(play_action("deserter", "target", s))
    return out


def vandal_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    out: list[Action] = []
    for s in p.others[seat]:
        out += vandal_targets(p, s)
    return out


def vandal_targets(p: LandoverState, owner: int) -> list[Action]:
    """The vandal's plays on ``owner``'s sides (kept with the lists of ``owner``'s own pieces)."""
    return cached(p, 
        ("vandal_target", owner), lambda: [play_action("vandal", "edge", e) for e in sorted(open_edges(p, owner))]
    )


def diplomat_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    return cached(p, 
        ("diplomat", seat),
        lambda: [
            diplomat_action(e, to)
            for e in sorted(open_edges(p, seat))
            for to in diplomat_targets(p, seat, e)
        ],
    )


def raze_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    if p.military[seat] < 1:
        return ()
    metro = p.corner_metro
    return [play_action("raze", "vertex", v) for s in p.others[seat] for v in own_corners(p, s, CITY) if metro[v] < 0]


def spy_plays(p: LandoverState, seat: int) -> Sequence[Action]:
    others = p.others[seat]
    if p.record_format >= 3:  # the number of cards a seat holds is public, the cards are not
        return [play_action("spy", "target", s) for s in others if p.dev_cards[s]]
    return [
        Action({"type": "play", "card": "spy", "target": s, "card_taken": name})
        for s in others
        for name in sorted(set(p.dev_cards[s]))
    ]


def checked_take(p: LandoverState, action: Action, field: str, rule_id: str, target: int) -> FrozenList:
    """The master merchant's cards in ``field`` (the take of format 3, the play's ``take`` before),
    in card order, when ``target``'s hand allows them."""
    cards = action.get(field)
    if not isinstance(cards, list) or not all(isinstance(x, str) and x in CARD_INDEX for x in cards):
        raise MalformedActionError(rule_id, f"{field} must be a list of card names, got {cards!r}")
    normal = sorted(cards, key=CARD_INDEX.__getitem__)
    if normal not in merchant_takes(p, target):
        raise rule(rule_id, f"take two cards seat {target} holds (one if it holds one); {normal} is not possible")
    return FrozenList(normal)


def take_actions(p: LandoverState) -> list[Action]:
    """Phase ``take``: what the player may take from the target it now sees (listed to the player alone: it is the seat to act)."""
    taking = p.taking
    assert taking is not None
    target = taking["target"]
    if taking["card"] == "master_merchant":
        return [Action({"type": "take", "cards": FrozenList(take)}) for take in merchant_takes(p, target)]
    return [Action({"type": "take", "dev_card": name}) for name in sorted(set(p.dev_cards[target]))]


def check_take(p: LandoverState, action: Action) -> Action:
    """A take in phase ``take``, checked with the same rules :meth:`_take_actions` lists by."""
    taking = p.taking
    assert taking is not None
    target = taking["target"]
    if taking["card"] == "master_merchant":
        fields(action, ("cards",))
        return Action({"type": "take", "cards": checked_take(p, action, "cards", "landover.take.cards", target)})
    fields(action, ("dev_card",))
    name = action.get("dev_card")
    if not isinstance(name, str) or name not in p.dev_cards[target]:
        raise rule("landover.take.dev_card", f"seat {target} holds no {name!r}")
    return Action({"type": "take", "dev_card": name})


def perform_take(p: LandoverState, seat: int, action: Action) -> None:
    taking = p.taking
    assert taking is not None
    target = taking["target"]
    if "cards" in action:
        for name in action["cards"]:
            p.hands[target][CARD_INDEX[name]] -= 1
            p.hands[seat][CARD_INDEX[name]] += 1
    else:
        p.dev_cards[target].remove(action["dev_card"])
        p.dev_cards[seat].append(action["dev_card"])
    p.taking = None
    p.phase = MAIN


def merchant_takes(p: LandoverState, target: int) -> list[list[str]]:
    """The card pairs (or the single card) ``target``'s hand allows (master merchant)."""
    hand = p.hands[target]
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


def check_card_play(p: LandoverState, seat: int, card: str, action: Action) -> Action:
    """Validate a card's fields; the same tests the card's lister (``PLAY_LISTERS``) lists by."""
    out: Action = Action({"type": "play", "card": card})
    hand = p.hands[seat]
    if card in ("crane", "irrigation", "mining", "road_building", "famine", "wedding", "anarchy", "military"):
        fields(action, ("card",))
        if card == "military" and p.military[seat] >= military_cap(p, seat):
            raise rule("landover.military.cap", "military power stops at 3 until politics 3 (barracks)")
        return out
    if card == "commercial_harbor":
        fields(action, ("card", "give", "get"))
        give = field_choice(action, "give", RESOURCES)
        get = field_choice(action, "get", COMMODITIES)
        if not hand[CARD_INDEX[give]]:
            raise rule("landover.trade.not_enough", f"you have no {give}")
        return Action({**out, "give": give, "get": get})
    if card in ("merchant_fleet", "resource_monopoly", "commodity_monopoly"):
        fields(action, ("card", "kind"))
        choices = CARDS if card == "merchant_fleet" else RESOURCES if card == "resource_monopoly" else COMMODITIES
        return Action({**out, "kind": field_choice(action, "kind", choices)})
    if card in ("master_merchant", "deserter", "spy"):
        card_fields = {"master_merchant": ("card", "target", "take"), "deserter": ("card", "target"), "spy": ("card", "target", "card_taken")}
        two_steps = p.record_format >= 3 and card in TWO_STEP_CARDS
        fields(action, ("card", "target") if two_steps else card_fields[card])
        target = field_int(action, "target", p.players, "seat")
        if target == seat:
            raise rule("landover.card.target_self", "pick another player")
        if card == "deserter":
            if p.military[target] < 1:
                raise rule("landover.card.no_military", f"seat {target} has no military power to desert")
            return Action({**out, "target": target})
        if two_steps:  # the cards are chosen after the play, by the player who then sees them
            if card == "master_merchant" and vp(p, target) <= vp(p, seat):
                raise rule("landover.card.not_ahead", f"seat {target} does not have more victory points than you")
            if card == "master_merchant" and not hand_size(p, target):
                raise rule("landover.card.empty_hand", f"seat {target} holds no resource or commodity cards")
            if card == "spy" and not p.dev_cards[target]:
                raise rule("landover.card.no_dev_cards", f"seat {target} holds no development cards")
            return Action({**out, "target": target})
        if card == "spy":
            name = action.get("card_taken")
            if name not in p.dev_cards[target]:
                raise rule("landover.card.spy_missing", f"seat {target} holds no {name!r}")
            return Action({**out, "target": target, "card_taken": name})
        if vp(p, target) <= vp(p, seat):
            raise rule("landover.card.not_ahead", f"seat {target} does not have more victory points than you")
        return Action({**out, "target": target, "take": checked_take(p, action, "take", "landover.card.take", target)})
    if card in ("merchant", "siege", "bishop"):
        fields(action, ("card", "hex"))
        h = field_int(action, "hex", p.hex_count, "hex")
        if card == "merchant" and h not in settled_hexes(p, seat):
            raise rule("landover.card.merchant_hex", f"the merchant goes on a resource hex next to your village or city; hex {h} is not one")
        if card == "siege":
            check_raid(p, seat, h, free=True)
        if card == "bishop" and h not in p.catapult_at:
            raise rule("landover.catapult.none_there", f"hex {h} has no catapult")
        return Action({**out, "hex": h})
    if card == "inventor":
        fields(action, ("card", "hexes"))
        hexes = action.get("hexes")
        if not isinstance(hexes, list) or len(hexes) != 2:
            raise MalformedActionError("landover.card.hexes", "hexes must be a list of two hex ids")
        pair = sorted(field_int({"hex": h}, "hex", p.hex_count, "hex") for h in hexes)
        if pair[0] == pair[1]:
            raise rule("landover.card.inventor_same", "pick two different hexes")
        for h in pair:
            if not land_hex(p, h) or p.number[h] not in INVENTOR_NUMBERS:
                raise rule("landover.card.inventor_number", f"hex {h} has no 3, 4, 5, 9, 10 or 11 token")
        return Action({**out, "hexes": FrozenList(pair)})
    if card == "medicine" or card == "raze":
        fields(action, ("card", "vertex"))
        v = field_int(action, "vertex", p.corner_count, "corner")
        if card == "medicine":
            pay_problem(p, seat, COSTS["medicine"], "a city with medicine")
            if p.counts[seat]["city"] >= p.limits["city"]:
                raise rule("landover.build.no_pieces", f"you have all {p.limits['city']} cities on the board")
            if p.corner_owner[v] != seat or p.corner_level[v] != VILLAGE:
                raise rule("landover.build.city_needs_village", f"a city replaces one of your villages; corner {v} has none")
        else:
            if p.military[seat] < 1:
                raise rule("landover.military.none", "raze costs 1 military power; you have 0")
            if p.corner_owner[v] in (NOBODY, seat) or p.corner_level[v] != CITY:
                raise rule("landover.card.raze_target", f"corner {v} holds no opponent's city")
            if p.corner_metro[v] >= 0:
                raise rule("landover.card.raze_metro", "a metro city cannot be razed")
        return Action({**out, "vertex": v})
    if card == "vandal":
        fields(action, ("card", "edge"))
        e = field_int(action, "edge", p.side_count, "side")
        owner = p.side_owner[e]
        if owner in (NOBODY, seat) or not open_end(p, owner, e):
            raise rule("landover.card.vandal_target", f"side {e} is not an opponent's road or bridge at an open end")
        return Action({**out, "edge": e})
    if card == "diplomat":
        fields(action, ("card", "edge", "to"))
        e = field_int(action, "edge", p.side_count, "side")
        to = field_int(action, "to", p.side_count, "side")
        if p.side_owner[e] != seat or not open_end(p, seat, e):
            raise rule("landover.card.diplomat_from", f"side {e} is not your road or bridge at an open end")
        if to not in diplomat_targets(p, seat, e):
            raise rule("landover.card.diplomat_to", f"your piece cannot move to side {to}")
        return Action({**out, "edge": e, "to": to})
    raise MalformedActionError("landover.card.unknown", f"unknown development card {card!r}")  # pragma: no cover


def others_in_turn_order(p: LandoverState) -> list[int]:
    """The other seats, from the one after the seat to act round the table."""
    return [p.order[(p.turn_index + i) % p.players] for i in range(1, p.players)]


def play_card(p: LandoverState, chance: Chance, seat: int, action: Action) -> None:
    """Carry out a checked play; the card goes back under its deck."""
    card = action["card"]
    p.dev_cards[seat].remove(card)
    p.decks[CULTURE_INDEX[card_culture()[card]]].append(card)  # back under its deck
    hand = p.hands[seat]
    if card == "alchemist":
        roll(p, chance, (action["white"], action["red"]))
    elif card == "crane":
        p.crane = True
    elif card == "commercial_harbor":
        hand[CARD_INDEX[action["give"]]] -= 1
        hand[CARD_INDEX[action["get"]]] += 1
    elif card in TWO_STEP_CARDS and "take" not in action and "card_taken" not in action:
        p.taking = {"seat": seat, "card": card, "target": action["target"]}  # record format 3
        p.phase = TAKE
    elif card == "master_merchant":
        target = p.hands[action["target"]]
        for name in action["take"]:
            target[CARD_INDEX[name]] -= 1
            hand[CARD_INDEX[name]] += 1
    elif card == "merchant":
        p.merchant_owner = seat
        p.merchant_hex = action["hex"]
    elif card == "merchant_fleet":
        p.fleet.add(CARD_INDEX[action["kind"]])
    elif card in ("resource_monopoly", "commodity_monopoly"):
        kind = CARD_INDEX[action["kind"]]
        most = 2 if card == "resource_monopoly" else 1
        for s in others_in_turn_order(p):
            n = min(most, p.hands[s][kind])
            p.hands[s][kind] -= n
            hand[kind] += n
    elif card == "famine":
        mine = vp(p, seat)
        for s in others_in_turn_order(p):
            if vp(p, s) > mine:
                for _ in range(2):
                    lose_random_card(p, chance, s, RESOURCE_KINDS, "famine", seat=s)
    elif card == "inventor":
        a, b = action["hexes"]
        p.number[a], p.number[b] = p.number[b], p.number[a]
        index_numbers(p)
    elif card in ("irrigation", "mining"):
        terrain, kind = ("field", WHEAT) if card == "irrigation" else ("mountain", ORE)
        for v in p.corners_of[seat]:
            if any(p.terrain[h] == terrain for h in p.map.vertex_hexes[v]):
                hand[kind] += 2
    elif card == "medicine":
        for kind, n in COSTS["medicine"]:
            hand[kind] -= n
        upgrade(p, chance, seat, action["vertex"])
    elif card == "road_building":
        p.free_routes += 2
    elif card == "military":
        p.military[seat] += 1
    elif card == "siege":
        raid(p, chance, seat, action["hex"])
    elif card == "bishop":
        remove_catapult(p, action["hex"])
    elif card == "deserter":
        p.military[action["target"]] -= 1
        if p.military[seat] < military_cap(p, seat):
            p.military[seat] += 1
    elif card == "vandal":
        take_edge(p, action["edge"])
    elif card == "diplomat":
        piece = p.side_route[action["edge"]]
        take_edge(p, action["edge"])
        put_edge(p, chance, seat, action["to"], piece)
    elif card == "raze":
        p.military[seat] -= 1
        reduce_city(p, action["vertex"])
    elif card == "spy":
        target = action["target"]
        p.dev_cards[target].remove(action["card_taken"])
        p.dev_cards[seat].append(action["card_taken"])
    elif card == "wedding":
        mine = vp(p, seat)
        for s in others_in_turn_order(p):
            if vp(p, s) > mine:
                for _ in range(2):
                    steal(p, chance, seat, s, CARD_KINDS)
    elif card == "anarchy":
        if p.saved_numbers is None:
            p.saved_numbers = list(p.number)
        numbered = [h for h in p.land_hexes if p.number[h] is not None]
        order = chance.draw_permutation("anarchy", len(numbered))
        values = [p.number[h] for h in numbered]
        for i, h in enumerate(numbered):
            p.number[h] = values[order[i]]
        index_numbers(p)


#: The lister of each card whose plays depend on the position.
PLAY_LISTERS: dict[str, Callable[[LandoverState, int], Sequence[Action]]] = {
    "alchemist": alchemist_plays,
    "military": military_plays,
    "commercial_harbor": commercial_harbor_plays,
    "master_merchant": master_merchant_plays,
    "merchant": merchant_plays,
    "inventor": inventor_plays,
    "medicine": medicine_plays,
    "siege": siege_plays,
    "bishop": bishop_plays,
    "deserter": deserter_plays,
    "vandal": vandal_plays,
    "diplomat": diplomat_plays,
    "raze": raze_plays,
    "spy": spy_plays,
}
