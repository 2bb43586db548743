"""Development cards in play: listing every way to play one, checking a play, carrying it out.

The three functions share one reading of each card (``docs/rules/landover.md``):
:func:`card_plays` lists exactly the plays :func:`check_card` accepts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablelight.core.errors import MalformedActionError
from tablelight.core.game import Action
from tablelight.games.landover.board import CARDS, COMMODITIES, RESOURCES
from tablelight.games.landover.cards import card_culture
from tablelight.games.landover.rules import (
    CARD_INDEX,
    CITY,
    COSTS,
    CULTURE_INDEX,
    FIXED_PLAYS,
    INVENTOR_NUMBERS,
    NOBODY,
    ORE,
    VILLAGE,
    WHEAT,
)

if TYPE_CHECKING:
    from tablelight.games.landover.engine import Landover


def card_plays(game: Landover, seat: int, card: str) -> list[Action]:
    """Every way to play ``card`` now (fields as :func:`check_card` accepts them)."""
    fixed = FIXED_PLAYS.get(card)
    if fixed is not None:
        return list(fixed)
    out: list[Action] = []
    others = [s for s in range(game.players) if s != seat]
    hand = game.res[seat]
    if card == "alchemist":
        return out  # only before the roll
    if card == "military":
        return [{"type": "play", "card": card}] if game.military[seat] < game.military_cap(seat) else out
    if card == "commercial_harbor":
        return [
            {"type": "play", "card": card, "give": RESOURCES[g], "get": c}
            for g in range(5)
            if hand[g]
            for c in COMMODITIES
        ]
    if card == "master_merchant":
        mine = game.vp(seat)
        for s in others:
            if game.vp(s) > mine:
                out += [{"type": "play", "card": card, "target": s, "take": take} for take in takes(game, s)]
        return out
    if card == "merchant":
        return [{"type": "play", "card": card, "hex": h} for h in game._settled_hexes(seat)]
    if card == "inventor":

        def swaps() -> list[Action]:
            swappable = [h for h in range(game.nh) if game._land_hex(h) and game.number[h] in INVENTOR_NUMBERS]
            return [
                {"type": "play", "card": card, "hexes": [a, b]}
                for i, a in enumerate(swappable)
                for b in swappable[i + 1 :]
            ]

        return game._cached(("inventor", game._number_version), swaps)
    if card == "medicine":
        if hand[ORE] >= 2 and hand[WHEAT] >= 1 and game.counts[seat]["city"] < game.limits["city"]:
            return [{"type": "play", "card": card, "vertex": v} for v in game._own_corners(seat, VILLAGE)]
        return out
    if card == "siege":
        if game.raided:
            return out
        return [{"type": "play", "card": card, "hex": h} for h in game._raid_hexes(seat)]
    if card == "bishop":
        return [{"type": "play", "card": card, "hex": h} for h in sorted(game.catapult_at)]
    if card == "deserter":
        return [{"type": "play", "card": card, "target": s} for s in others if game.military[s] >= 1]
    if card == "vandal":
        return game._cached(
            ("vandal", seat),
            lambda: [{"type": "play", "card": card, "edge": e} for s in others for e in sorted(game._open_edges(s))],
        )
    if card == "diplomat":
        return game._cached(
            ("diplomat", seat),
            lambda: [
                {"type": "play", "card": card, "edge": e, "to": to}
                for e in sorted(game._open_edges(seat))
                for to in game._diplomat_targets(seat, e)
            ],
        )
    if card == "raze":
        if game.military[seat] < 1:
            return out
        return [
            {"type": "play", "card": card, "vertex": v}
            for s in others
            for v in game._own_corners(s, CITY)
            if game.vmetro[v] < 0
        ]
    if card == "spy":
        return [
            {"type": "play", "card": card, "target": s, "card_taken": name}
            for s in others
            for name in sorted(set(game.devs[s]))
        ]
    return out


def takes(game: Landover, target: int) -> list[list[str]]:
    """The card pairs (or the single card) ``target``'s hand allows (master merchant)."""
    hand = game.res[target]
    total = sum(hand)
    if total == 0:
        return []
    if total == 1:
        return [[CARDS[k]] for k in range(8) if hand[k]]
    pairs = []
    for a in range(8):
        if not hand[a]:
            continue
        for b in range(a, 8):
            if hand[b] and (a != b or hand[a] >= 2):
                pairs.append([CARDS[a], CARDS[b]])
    return pairs


def check_card(game: Landover, seat: int, card: str, action: Action) -> Action:
    """Validate a card's fields; the same tests :func:`card_plays` lists by."""
    out: Action = {"type": "play", "card": card}
    hand = game.res[seat]
    if card in ("crane", "irrigation", "mining", "road_building", "famine", "wedding", "anarchy", "military"):
        game._fields(action, ("card",))
        if card == "military" and game.military[seat] >= game.military_cap(seat):
            raise game._rule("landover.military.cap", "military power stops at 3 until politics 3 (barracks)")
        return out
    if card == "commercial_harbor":
        game._fields(action, ("card", "give", "get"))
        give = game._field_choice(action, "give", RESOURCES)
        get = game._field_choice(action, "get", COMMODITIES)
        if not hand[CARD_INDEX[give]]:
            raise game._rule("landover.trade.not_enough", f"you have no {give}")
        return {**out, "give": give, "get": get}
    if card in ("merchant_fleet", "resource_monopoly", "commodity_monopoly"):
        game._fields(action, ("card", "kind"))
        choices = CARDS if card == "merchant_fleet" else RESOURCES if card == "resource_monopoly" else COMMODITIES
        return {**out, "kind": game._field_choice(action, "kind", choices)}
    if card in ("master_merchant", "deserter", "spy"):
        fields = {"master_merchant": ("card", "target", "take"), "deserter": ("card", "target"), "spy": ("card", "target", "card_taken")}
        game._fields(action, fields[card])
        target = game._field_int(action, "target", game.players, "seat")
        if target == seat:
            raise game._rule("landover.card.target_self", "pick another player")
        if card == "deserter":
            if game.military[target] < 1:
                raise game._rule("landover.card.no_military", f"seat {target} has no military power to desert")
            return {**out, "target": target}
        if card == "spy":
            name = action.get("card_taken")
            if name not in game.devs[target]:
                raise game._rule("landover.card.spy_missing", f"seat {target} holds no {name!r}")
            return {**out, "target": target, "card_taken": name}
        if game.vp(target) <= game.vp(seat):
            raise game._rule("landover.card.not_ahead", f"seat {target} does not have more victory points than you")
        take = action.get("take")
        if not isinstance(take, list) or not all(isinstance(x, str) and x in CARD_INDEX for x in take):
            raise MalformedActionError("landover.card.take", f"take must be a list of card names, got {take!r}")
        normal = sorted(take, key=CARD_INDEX.__getitem__)
        if normal not in takes(game, target):
            raise game._rule("landover.card.take", f"take two cards seat {target} holds (one if it holds one); {normal} is not possible")
        return {**out, "target": target, "take": normal}
    if card in ("merchant", "siege", "bishop"):
        game._fields(action, ("card", "hex"))
        h = game._field_int(action, "hex", game.nh, "hex")
        if card == "merchant" and h not in game._settled_hexes(seat):
            raise game._rule("landover.card.merchant_hex", f"the merchant goes on a resource hex next to your village or city; hex {h} is not one")
        if card == "siege":
            game._check_raid(seat, h, free=True)
        if card == "bishop" and h not in game.catapult_at:
            raise game._rule("landover.catapult.none_there", f"hex {h} has no catapult")
        return {**out, "hex": h}
    if card == "inventor":
        game._fields(action, ("card", "hexes"))
        hexes = action.get("hexes")
        if not isinstance(hexes, list) or len(hexes) != 2:
            raise MalformedActionError("landover.card.hexes", "hexes must be a list of two hex ids")
        pair = sorted(game._field_int({"hex": h}, "hex", game.nh, "hex") for h in hexes)
        if pair[0] == pair[1]:
            raise game._rule("landover.card.inventor_same", "pick two different hexes")
        for h in pair:
            if not game._land_hex(h) or game.number[h] not in INVENTOR_NUMBERS:
                raise game._rule("landover.card.inventor_number", f"hex {h} has no 3, 4, 5, 9, 10 or 11 token")
        return {**out, "hexes": pair}
    if card == "medicine" or card == "raze":
        game._fields(action, ("card", "vertex"))
        v = game._field_int(action, "vertex", game.nv, "corner")
        if card == "medicine":
            game._pay_problem(seat, COSTS["medicine"], "a city with medicine")
            if game.counts[seat]["city"] >= game.limits["city"]:
                raise game._rule("landover.build.no_pieces", f"you have all {game.limits['city']} cities on the board")
            if game.vo[v] != seat or game.vl[v] != VILLAGE:
                raise game._rule("landover.build.city_needs_village", f"a city replaces one of your villages; corner {v} has none")
        else:
            if game.military[seat] < 1:
                raise game._rule("landover.military.none", "raze costs 1 military power; you have 0")
            if game.vo[v] in (NOBODY, seat) or game.vl[v] != CITY:
                raise game._rule("landover.card.raze_target", f"corner {v} holds no opponent's city")
            if game.vmetro[v] >= 0:
                raise game._rule("landover.card.raze_metro", "a metro city cannot be razed")
        return {**out, "vertex": v}
    if card == "vandal":
        game._fields(action, ("card", "edge"))
        e = game._field_int(action, "edge", game.ne, "side")
        owner = game.eo[e]
        if owner in (NOBODY, seat) or not game._open_end(owner, e):
            raise game._rule("landover.card.vandal_target", f"side {e} is not an opponent's road or bridge at an open end")
        return {**out, "edge": e}
    if card == "diplomat":
        game._fields(action, ("card", "edge", "to"))
        e = game._field_int(action, "edge", game.ne, "side")
        to = game._field_int(action, "to", game.ne, "side")
        if game.eo[e] != seat or not game._open_end(seat, e):
            raise game._rule("landover.card.diplomat_from", f"side {e} is not your road or bridge at an open end")
        if to not in game._diplomat_targets(seat, e):
            raise game._rule("landover.card.diplomat_to", f"your piece cannot move to side {to}")
        return {**out, "edge": e, "to": to}
    raise MalformedActionError("landover.card.unknown", f"unknown development card {card!r}")  # pragma: no cover


def play_card(game: Landover, seat: int, action: Action) -> None:
    """Carry out a checked play; the card goes back under its deck."""
    card = action["card"]
    game.devs[seat].remove(card)
    game.decks[CULTURE_INDEX[card_culture()[card]]].append(card)  # back under its deck
    hand = game.res[seat]
    others = [game.order[(game.turn_index + i) % game.players] for i in range(1, game.players)]
    if card == "alchemist":
        game._roll((action["white"], action["red"]))
    elif card == "crane":
        game.crane = True
    elif card == "commercial_harbor":
        hand[CARD_INDEX[action["give"]]] -= 1
        hand[CARD_INDEX[action["get"]]] += 1
    elif card == "master_merchant":
        target = game.res[action["target"]]
        for name in action["take"]:
            target[CARD_INDEX[name]] -= 1
            hand[CARD_INDEX[name]] += 1
    elif card == "merchant":
        game.merchant_owner = seat
        game.merchant_hex = action["hex"]
    elif card == "merchant_fleet":
        game.fleet.add(CARD_INDEX[action["kind"]])
    elif card in ("resource_monopoly", "commodity_monopoly"):
        kind = CARD_INDEX[action["kind"]]
        most = 2 if card == "resource_monopoly" else 1
        for s in others:
            n = min(most, game.res[s][kind])
            game.res[s][kind] -= n
            hand[kind] += n
    elif card == "famine":
        mine = game.vp(seat)
        for s in others:
            if game.vp(s) > mine:
                for _ in range(2):
                    game._lose_random_card(s, 5, "famine", seat=s)
    elif card == "inventor":
        a, b = action["hexes"]
        game.number[a], game.number[b] = game.number[b], game.number[a]
        game._index_numbers()
    elif card in ("irrigation", "mining"):
        terrain, kind = ("field", WHEAT) if card == "irrigation" else ("mountain", ORE)
        for v in game.corners_of[seat]:
            if any(game.terrain[h] == terrain for h in game.map.vertex_hexes[v]):
                hand[kind] += 2
    elif card == "medicine":
        for kind, n in COSTS["medicine"]:
            hand[kind] -= n
        game._upgrade(seat, action["vertex"])
    elif card == "road_building":
        game.free_routes += 2
    elif card == "military":
        game.military[seat] += 1
    elif card == "siege":
        game._raid(seat, action["hex"])
    elif card == "bishop":
        game._remove_catapult(action["hex"])
    elif card == "deserter":
        game.military[action["target"]] -= 1
        if game.military[seat] < game.military_cap(seat):
            game.military[seat] += 1
    elif card == "vandal":
        game._take_edge(action["edge"])
    elif card == "diplomat":
        piece = game.ep[action["edge"]]
        game._take_edge(action["edge"])
        game._put_edge(seat, action["to"], piece)
    elif card == "raze":
        game.military[seat] -= 1
        game._reduce_city(action["vertex"])
    elif card == "spy":
        target = action["target"]
        game.devs[target].remove(action["card_taken"])
        game.devs[seat].append(action["card_taken"])
    elif card == "wedding":
        mine = game.vp(seat)
        for s in others:
            if game.vp(s) > mine:
                for _ in range(2):
                    game._steal(seat, s, 8)
    elif card == "anarchy":
        if game.saved_numbers is None:
            game.saved_numbers = list(game.number)
        numbered = [h for h in range(game.nh) if game._land_hex(h) and game.number[h] is not None]
        order = game._chance_permutation("anarchy", len(numbered))
        values = [game.number[h] for h in numbered]
        for i, h in enumerate(numbered):
            game.number[h] = values[order[i]]
        game._index_numbers()
