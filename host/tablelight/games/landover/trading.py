"""Trading with the bank: the rate each seat has for each card (3:1, or 2:1 by harbor, merchant,
commerce 3 or a merchant fleet), and checking and making a trade."""

from __future__ import annotations

from tablelight.core.game import Action
from tablelight.games.landover.hexmap import CARDS, RESOURCE_KINDS, TERRAIN_RESOURCE
from tablelight.games.landover.rules import CARD_INDEX, COMMERCE, TRADES
from tablelight.games.landover.state import LandoverState
from tablelight.games.landover.validation import field_choice, fields, rule


def trade_rate(p: LandoverState, seat: int, kind: int) -> int:
    """How many cards of ``kind`` buy one card: 3, or 2 by harbor, merchant, bank or fleet."""
    if kind in p.fleet and seat == p.seat:
        return 2
    if kind < RESOURCE_KINDS:  # harbors and the merchant trade resources
        if kind in p.harbor_kinds[seat]:
            return 2
        if p.merchant_owner == seat and TERRAIN_RESOURCE.get(p.terrain[p.merchant_hex]) == kind:
            return 2
    elif p.culture[seat][COMMERCE] >= 3:
        return 2
    return 3


def check_trade(p: LandoverState, seat: int, action: Action) -> Action:
    """A trade's normal form (the listed value), or the rule it breaks."""
    fields(action, ("give", "get"))
    give = CARD_INDEX[field_choice(action, "give", CARDS)]
    get = CARD_INDEX[field_choice(action, "get", CARDS)]
    if give == get:
        raise rule("landover.trade.same_kind", "give and get must be different cards")
    rate = trade_rate(p, seat, give)
    if p.hands[seat][give] < rate:
        raise rule(
            "landover.trade.not_enough", f"trading {CARDS[give]} takes {rate}; you have {p.hands[seat][give]}"
        )
    return TRADES[give][get - (get > give)]


def trade(p: LandoverState, seat: int, action: Action) -> None:
    """Make a checked trade at the seat's rate."""
    hand = p.hands[seat]
    give, get = CARD_INDEX[action["give"]], CARD_INDEX[action["get"]]
    hand[give] -= trade_rate(p, seat, give)
    hand[get] += 1
