"""Landover's face, part 3: words for people (prompts, what a press did, what an action was).

Places are named as players find them on the map: a hex by the resource it yields and its number
("wheat 8", as the drawing labels it), a corner by the hexes that meet there ("where wheat 8, ore 5
and the sea meet"), a side by the two hexes it lies between ("between wheat 8 and ore 5"). The
board's number of the place follows in brackets ("(corner 44)"): names may repeat, the number never
does, and the board's makers read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.game import Action
from tablelight.games.landover.choice import FIELD_KINDS, FIELD_WORDS, LandoverChoice
from tablelight.games.landover.hexmap import RESOURCES, TERRAIN_RESOURCE
from tablelight.games.landover.layout import KINDS, MODE_BUTTONS
from tablelight.games.landover.rules import EVENT_FACES
from tablelight.table.face import SEAT_NAMES, words

#: A terrain by what it yields, as the drawing labels a hex (gold yields any resource).
TERRAIN_WORDS = {**{t: RESOURCES[i] for t, i in TERRAIN_RESOURCE.items()}, "gold": "gold"}
#: The action types in players' words: the first step of a seat's choices on its page.
TYPE_WORDS = {
    "build": "build", "improve": "improve a culture", "trade": "trade", "raid": "raid", "lucky_raid": "raid (lucky 7)",
    "remove_catapult": "remove a catapult", "military": "buy military power", "end_turn": "end the turn",
    "roll": "roll", "take": "take the cards", "play": "play a development card",
}


#: How a seat's page chooses each kind of field: on the map, or among the choices listed below it.
PAGE_HOW = {
    "corner": "tap it on the map, or choose it below", "side": "tap it on the map, or choose it below",
    "hex": "tap the hex on the map, or choose it below", "hexes": "tap the hexes on the map, or choose them below",
    "seat": "choose the player below", "kind": "choose the card kind below", "kinds": "choose the card kinds below",
    "name": "choose the card below", "white": "choose the white die's number below", "red": "choose the red die's number below",
}


def listed(names: list[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class LandoverWords(LandoverChoice):
    """The Landover face's sentences."""

    TYPE_WORDS = TYPE_WORDS

    def hex_name(self, h: int) -> str:
        """A hex as the drawing labels it: ``"wheat 8"``, ``"gold 5"``, ``"a mystery hex"``, ``"the sea"``."""
        game = self.game
        terrain, number = game.terrain(h), game.number(h)
        if terrain == "water":
            return "the sea"
        if terrain == "mystery":
            return "a mystery hex"
        word = TERRAIN_WORDS.get(terrain, terrain)
        return f"{word} {number}" if number is not None else word

    def _met(self, hexes: list[int], around: int) -> list[str]:
        """The names of the ``around`` hexes at a place, ``hexes`` those on the map: land first, then
        the sea once (water, or beyond the map's edge)."""
        land = [self.hex_name(h) for h in hexes if self.game.terrain(h) != "water"]
        return land + (["the sea"] if len(land) < around else [])

    def corner_words(self, v: int) -> str:
        """Where corner ``v`` is: ``"where wheat 8, ore 5 and the sea meet"``."""
        met = self._met(list(self.game.map.vertex_hexes[v]), 3)
        return f"where {listed(met)} meet" if len(met) > 1 else f"at a corner of {met[0]}"

    def side_words(self, e: int) -> str:
        """Where side ``e`` is: ``"between wheat 8 and ore 5"``; a side on open water by the land near it."""
        m = self.game.map
        a, b = m.edge_vertices[e]
        both = sorted(set(m.vertex_hexes[a]) & set(m.vertex_hexes[b]))
        if any(self.game.terrain(h) != "water" for h in both):
            return f"between {' and '.join(self._met(both, 2))}"
        near = sorted({h for v in (a, b) for h in m.vertex_hexes[v] if self.game.terrain(h) != "water"})
        return f"at sea by {listed([self.hex_name(h) for h in near])}" if near else "out at sea"

    def place_words(self, field: str, value: Any) -> str:
        """A place field's value where players find it, the board's number in brackets:
        ``"where wheat 8, ore 5 and the sea meet (corner 44)"``, ``"wheat 8 (hex 12)"``."""
        kind = FIELD_KINDS.get(field)
        if not isinstance(value, int) or isinstance(value, bool):
            if kind == "hexes" and isinstance(value, list):
                return " and ".join(self.place_words("hex", h) for h in value)
            return str(value)
        if kind == "corner" and 0 <= value < self.game.corner_count:
            return f"{self.corner_words(value)} (corner {value})"
        if kind == "side" and 0 <= value < self.game.side_count:
            return f"{self.side_words(value)} (side {value})"
        if kind in ("hex", "hexes") and 0 <= value < self.game.hex_count:
            m, terrain = self.game.map, self.game.terrain
            land = sorted({h for v in m.hex_vertices[value] for h in m.vertex_hexes[v] if terrain(h) != "water"})
            if terrain(value) == "water" and land:  # a sea key's hex: by the land it touches
                return f"the sea by {listed([self.hex_name(h) for h in land])} (hex {value})"
            return f"{self.hex_name(value)} (hex {value})"
        return str(value)

    def _hex_words(self, h: int) -> str:
        game = self.game
        text = self.place_words("hex", h)
        catapult = game.catapult_on(h)
        if catapult is not None:
            text += f", catapult of {SEAT_NAMES[catapult]}"
        merchant = game.merchant()
        if merchant is not None and h == merchant[1]:
            text += f", merchant of {SEAT_NAMES[merchant[0]]}"
        return text

    def _seat_words(self, s: int) -> str:
        game = self.game
        if s >= game.players:
            return f"no {SEAT_NAMES[s]} player in this game"
        return (
            f"{SEAT_NAMES[s]}: {game.vp(s)} points, {game.hand_size(s)} cards, {len(game.dev_cards(s))} development cards, "
            f"military {game.military(s)}, culture {list(game.culture(s).values())}"
        )

    def _value_words(self, field: str, value: Any) -> str:
        if FIELD_KINDS[field] == "seat":
            return SEAT_NAMES[value]
        if FIELD_KINDS[field] in ("corner", "side", "hex", "hexes"):
            return self.place_words(field, value)
        if isinstance(value, list):
            return ", ".join(str(x) for x in value)
        return str(value)

    def _next_words(self, page: bool = False) -> str:
        """What to choose next, with the board's keys or (``page``) on a seat's page: a tap on the map
        or a choice listed below it."""
        field = self.open_field()
        if field is None:
            return "choose it below" if page else "press confirm"
        slot = FIELD_KINDS[field]
        how = PAGE_HOW[slot] if page else {
            "corner": "press a hex next to it (again for the next one), then confirm",
            "side": "press a hex next to it (for a water side a sea key; again for the next one), then confirm",
            "hex": "press the hex",
            "hexes": "press the hexes",
            "seat": "press the player's turn light",
            "kind": "press a card-kind key",
            "kinds": "press card-kind keys",
            "name": "press card to go through them, then confirm",
            "white": "press a white die light",
            "red": "press a red die light",
        }[slot]
        what = FIELD_WORDS[field].split(" (")[0] if page else FIELD_WORDS[field]  # a page has no "(card key)"
        options = self.options(field)
        if slot in ("corner", "side"):  # their names are long: the map shows where they are
            return f"choose the {what}: {how} ({len(options)} possible)"
        named = self.hex_name if slot in ("hex", "hexes") else (lambda x: self._value_words(field, x)) if slot == "seat" else str
        shown = ", ".join(named(x) for x in options[:8])
        more = " ..." if len(options) > 8 else ""
        return f"choose the {what}: {how} ({shown}{more})"

    def _what_now(self, seat: int, page: bool = False) -> str:
        game = self.game
        phase = game.phase
        if phase == "setup":
            piece = self.mode_actions("setup")[0]["piece"]
            place = "side" if piece == "road" else "corner"
            if page:
                return f"place your {piece}: tap its {place} on the map, or choose it below"
            return f"place your {piece}: press a hex next to the {place} (again for the next), then confirm"
        if phase == "roll":
            if page:
                return "roll, or play the alchemist (choose the white and red numbers)"
            return "press confirm to roll, or card to play the alchemist (then the white and red numbers, confirm)"
        if phase == "lucky_raid":
            if page:
                return "lucky 7: tap the hex to raid on the map (any revealed land hex without a catapult)"
            return "lucky 7: press the hex to raid (any revealed land hex without a catapult), then confirm"
        if phase == "take":
            return f"{self._seen_words()}; {self._next_words(page)}"
        playable = bool(self._playable_cards())
        legal = self.legal_actions()  # what the hand allows: these words are the seat's own
        possible = [m for m in MODE_BUTTONS if (playable if m == "card" else any(self._in_mode(a, m, None) for a in legal))]
        if possible == ["end_turn"]:  # say why nothing else is offered
            return ("your hand pays for nothing now (road: wood + clay; bridge: wood + wool; village: clay, wood, wool, "
                    "wheat; city: 3 ore + 2 wheat; military: wool + wheat; a trade: 3 of a kind, 2 at a harbor): "
                    + ("end the turn" if page else "press end turn"))
        return ("choose: " if page else "press ") + ", ".join(m.replace("_", " ") for m in possible)

    def _seen_words(self) -> str:
        """What the master merchant or spy shows its player (the prompt of phase ``take``: that seat's alone)."""
        game = self.game
        taking = game.taking()
        assert taking is not None
        target = taking["target"]
        if taking["card"] == "master_merchant":
            cards = ", ".join(f"{n} {name}" for name, n in zip(KINDS, game.hand(target).values()) if n)
            return f"master merchant: {SEAT_NAMES[target]} holds {cards or 'nothing'}"
        names = ", ".join(name.replace("_", " ") for name in sorted(game.dev_cards(target)))
        return f"spy: {SEAT_NAMES[target]} holds {names or 'no development card'}"

    def action_words(self, action: Action) -> str:
        """A choice for the seat making it: a take names the cards it takes (that seat sees them)."""
        if action.get("type") == "take" and ("cards" in action or "dev_card" in action):
            taken = action["cards"] if "cards" in action else [action["dev_card"]]
            return "take " + " and ".join(str(name).replace("_", " ") for name in taken)
        if action.get("type") == "play" and ("take" in action or "card_taken" in action):  # record formats 1 and 2
            taken = action["take"] if "take" in action else [action["card_taken"]]
            return f"{self.describe_action(action)}: take " + " and ".join(str(name).replace("_", " ") for name in taken)
        return self.describe_action(action)

    def log_words(self, action: Action) -> str:
        """A seat's own log: the cards of a take it may see (it took or lost them) are named."""
        if action.get("type") == "take" and ("cards" in action or "dev_card" in action):
            card = "master merchant" if "cards" in action else "spy"
            return "takes " + self.action_words(action).removeprefix("take ") + f" ({card})"
        return self.action_words(action)

    def prompt(self, seat: int) -> str:
        text: str = self._with_legal(lambda: self._prompt(seat))
        return text

    def page_prompt(self, seat: int) -> str:
        """The prompt on ``seat``'s page: what to tap on the map or choose below it, no board keys."""
        text: str = self._with_legal(lambda: self._prompt(seat, page=True))
        return text

    def _prompt(self, seat: int, page: bool = False) -> str:
        game = self.game
        hand = ", ".join(f"{n} {name}" for name, n in zip(KINDS, game.hand(seat).values()) if n)
        status = f"{game.vp(seat)} points; hand: {hand or 'empty'}"
        if self._mode() is not None and (self.chosen or self.mode is not None) and not (self.mode == "card" and self.card is None):
            return f"{status}. {self._next_words(page)}"
        return f"{status}. {self._what_now(seat, page)}"

    def secret_sections(self, seat: int, view: dict[str, Any]) -> list[tuple[str, str | list[str]]]:
        player = view["players"][seat]
        return [("resources", words(player.get("hand", {}))), ("development cards", words(player.get("dev_cards", [])))]

    def led_labels(self) -> dict[int, str]:
        """LED -> hex number, for the terminal drawing: the words "hex 12" point at a light."""
        return {led: str(h) for h, led in self.layout.hex_led.items()}

    def place_labels(self) -> dict[int, str]:
        """Hexes, corners and sides by number: the words the choices use ("corner 12", "side 40")."""
        labels = self.led_labels()
        labels.update({led: str(v) for v, led in self.layout.corner_led.items()})
        labels.update({led: str(e) for e, led in self.layout.side_led.items()})
        return labels

    def describe_entry(self, entry: Mapping[str, Any], seat: int | None = None) -> str | None:
        """A draw of the log in words: dice, the event die's face, who lost or drew what (a secret
        card or a random pick from a hand is not named: its value says only which of the cards)."""
        kind, value = entry.get("chance"), entry.get("value")
        who = self.seat_word(entry["seat"]) if isinstance(entry.get("seat"), int) else "a player"
        if entry.get("hidden") or not isinstance(value, (int, list)):
            value = None
        if kind in ("white_die", "red_die"):
            return f"{kind.replace('_', ' ')}: {value}"
        if kind == "event_die" and isinstance(value, int) and 1 <= value <= len(EVENT_FACES):
            face = EVENT_FACES[value - 1]
            return "event die: barbarian ships (they move one step)" if face == "barbarian" else f"event die: {face} (cards of that culture)"
        if kind in ("gold", "aqueduct") and isinstance(value, int) and 0 <= value < len(RESOURCES):
            return f"{'a gold hex' if kind == 'gold' else 'the aqueduct'} gives {who} 1 {RESOURCES[value]}"
        simple = {
            "seat_order": "the turn order is drawn",
            "steal": f"{who} takes a random resource from {self.seat_word(entry['victim']) if isinstance(entry.get('victim'), int) else 'a player'}",
            "discard": f"{who} discards a random card (a 7: too many cards)",
            "famine": f"famine: {who} discards a random resource",
            "dev_card": f"{who} draws a {entry.get('deck', 'development')} card",
            "barbarian_city": f"the barbarians reduce one of {who}'s cities to a village",
            "defender_deck": f"{who} defended best (shared): draws a development card",
            "mystery": "a mystery hex is revealed",
            "anarchy": "anarchy: the number tokens are shuffled",
        }
        if kind == "seat_order" and isinstance(value, list):
            return "the turn order is drawn: " + ", ".join(self.seat_word(s) for s in value if isinstance(s, int))
        if kind in simple:
            return simple[str(kind)]
        return super().describe_entry(entry, seat)

    def describe_action(self, action: Action) -> str:
        kind = action.get("type")
        if kind == "build":
            where = self.place_words("vertex", action["vertex"]) if "vertex" in action else self.place_words("edge", action.get("edge"))
            return f"builds a {action.get('piece')} {where}"
        if kind == "improve":
            metro = f" and wins the metro: the city {self.place_words('city', action['city'])}" if "city" in action else ""
            return f"improves {action.get('culture')}{metro}"
        if kind == "trade":
            return f"trades {action.get('give')} for {action.get('get')}"
        if kind in ("raid", "lucky_raid"):
            return f"raids {self.place_words('hex', action.get('hex'))}" + (" (lucky 7)" if kind == "lucky_raid" else "")
        if kind == "remove_catapult":
            return f"removes the catapult from {self.place_words('hex', action.get('hex'))}"
        if kind == "military":
            return "buys military power"
        if kind == "end_turn":
            return "ends the turn"
        if kind == "roll":
            return "rolls"
        if kind == "take":  # which cards is the taker's and the victim's secret; how many is public
            if "cards" in action:
                count = len(action["cards"]) if isinstance(action["cards"], list) else 0
                return f"takes {count} card{'' if count == 1 else 's'} (master merchant)"
            if "dev_card" in action:
                return "takes a development card (spy)"
            return "takes the cards the card allows"
        if kind == "play":
            card = str(action.get("card", "")).replace("_", " ")
            details = {k: v for k, v in action.items() if k not in ("type", "card", "take", "card_taken")}
            if "target" in details:
                details["target"] = SEAT_NAMES[details["target"]] if isinstance(details["target"], int) and 0 <= details["target"] < 4 else details["target"]
            # where it is played, as players find it ("on wheat 8 (hex 12)"); other details in brackets
            places = {"vertex": " {}", "hex": " on {}", "hexes": " on {}", "edge": " on the piece {}", "to": ", moved {}"}
            where = "".join(places[k].format(self.place_words(k, v)) for k, v in details.items() if k in places)
            rest = {k: v for k, v in details.items() if k not in places}
            extra = " (" + ", ".join(f"{k} {v}" for k, v in rest.items()) + ")" if rest else ""
            return f"plays {card}{extra}{where}"
        return str(action)
