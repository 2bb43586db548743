"""Landover at a lit board: the archipelago map lit hex by hex, and the keys of a person.

**Layout** (``hardware/layouts/landover.json``, made by :func:`generate_layout` from the
built-in ``archipelago`` map and checked by :class:`LandoverLayout`): one LED and one key
per land hex (mystery hexes included), one LED per land corner, one LED per side of the
map (land, coast and water: every road and bridge shows), a key without an LED on 27 of
the 36 water hexes (``sea``: every water side is a side of one of them, see
:func:`sea_key_hexes`), four turn LEDs (with keys: they choose a player), the barbarian
track (7 LEDs), the white and red dice (6 LEDs each, with keys: the alchemist's numbers),
the event die (1 LED) and the merchant LED. Buttons: road, bridge, village, city, wall,
military, science, commerce, politics, trade, raid, catapult (remove one), card, end
turn, confirm, cancel, and one key per card kind (wool ... coin). 348 LEDs, 92 keys:
more than 255 LEDs need wide LED numbers (protocol 1's ``CAP_WIDE``, firmware 1.1.0 or
later, up to 760 LEDs); the keys are a 10 x 10 matrix, all 20 free pins of the Feather.

**Look** (:meth:`LandoverFace.pixels`):

* hexes glow dimly in their terrain's colour (mystery: faint violet); after this turn's
  roll the hexes that produce light up at full brightness; a hex under a catapult
  blinks in the catapult owner's colour; the merchant's hex pulses in its owner's colour;
* corners: a village in its owner's colour at 35 %, a city at full brightness (with a
  city wall: in a pale, whitened owner colour), a metro city pulsing; sides: a road in its
  owner's colour at half brightness, a bridge in a pale owner colour;
* the turn LED of the seat to act pulses, the others glow dimly (the winners' blink at the
  end); the barbarian track lights one LED per step taken; the white and red dice light as
  many LEDs as they show; the event LED shows the event face (barbarian orange, science
  green, commerce yellow, politics blue); the merchant LED its owner's colour;
* while a person chooses, the places still possible pulse in their colour, the one
  picked by cycling blinks and the ones chosen shine; a refused press flashes white.
  The board is shared and hands are secret: the places are those of the public listing
  (what any hand could do, :meth:`~.choice.LandoverChoice.public_actions`), so a mode
  looks the same whether or not the hand pays for it (the seat's own screen says so, and
  confirm is refused); a development card's choice is not shown at all.

**Input** (:meth:`LandoverFace.press`): a button chooses what to do (build type,
military, a culture, trade, raid, catapult, card, end turn); then the action's places
and values: a hex key picks a hex, or cycles through the corners or sides of that hex
that are still possible (the picked one blinks; a sea key cycles through the sides of its
water hex, so bridges on open water are chosen that way); a side key (a layout may give
sides keys; this one does not) picks its side; a turn key a
player; a card-kind key a resource or commodity; a die key a number; the card key
cycles through the cards one can play (and, once a spy is played, the cards to take); confirm
takes the blinking pick and applies the action once it is complete. Setup and the lucky
raid need no button; before the roll, confirm rolls (or card + dice keys + confirm plays
the alchemist). Cancel drops everything chosen. Every choice narrows the engine's
public listing, and the action applied is a legal one (checked on confirm, and by ``Game.apply`` again);
a refused press changes nothing and says why (the engine's reason where it has one).
"""

from __future__ import annotations

from typing import Any

from tablelight.games.landover.choice import FIELD_KINDS, FIELD_WORDS, HEX_STEP
from tablelight.games.landover.layout import MODE_BUTTONS, LandoverLayout
from tablelight.games.landover.layoutgen import generate_layout, sea_key_hexes
from tablelight.games.landover.look import LandoverLook
from tablelight.games.landover.words import LandoverWords
from tablelight.core.game import Action
from tablelight.table.face import Outcome, seat_and_role
from tablelight.table.picker import Picker

__all__ = ["LandoverFace", "LandoverLayout", "generate_layout", "sea_key_hexes"]

#: How a seat's page leads a place step's words ("the city where wheat 8 ... meet (corner 4)").
PLACE_LEADS = {"city": "the city ", "to": "to the side "}


class LandoverFace(LandoverLook, LandoverWords):
    """Landover's :class:`~tablelight.table.face.GameFace`: the choosing state (:mod:`.choice`), the look
    (:mod:`.look`), the words (:mod:`.words`) and, here, the input."""

    def press(self, key: int) -> Outcome:
        secret_before = self.secret_choice()
        outcome: Outcome = self._with_legal(lambda: self._press(key))
        if secret_before or self.secret_choice():  # a refusal there would tell which card is chosen
            outcome.flash = []
        return outcome

    def drawing(self, seat: int | None) -> str:
        """The islands with their pieces, the players' public counts and, in ``seat``'s own drawing, its
        cards, costs and trade rates (:mod:`.drawing`)."""
        from tablelight.games.landover.drawing import landover_svg

        svg: str = self._with_legal(lambda: landover_svg(self, seat))
        return svg

    def choice_value_words(self, field: str, value: Any) -> str | None:
        """A step in players' words: a place where they find it on the map (its number in brackets),
        a piece as "a village", a player by colour."""
        if field.startswith(HEX_STEP):  # the hex a corner or side is filed under
            return self.place_words("hex", value)
        if FIELD_KINDS.get(field) in ("corner", "side", "hex", "hexes"):
            return PLACE_LEADS.get(field, "") + self.place_words(field, value)
        if field == "piece" and isinstance(value, str):
            return f"a {value}"
        if FIELD_KINDS.get(field) == "seat" and isinstance(value, int) and 0 <= value < len(self.seat_names):
            return self.seat_names[value]
        if field in ("culture", "card", "card_taken", "dev_card") and isinstance(value, str):
            return value.replace("_", " ")
        return None

    def narrow(self, chosen: dict[str, Any]) -> Outcome:
        """A seat's page chose part of an action: the mode it belongs to, and the places and values it
        names, as if chosen with the keys (the board lights them).

        The board shows the same whatever the hand, as with the keys: a choice is taken from the
        public listing (the seat's answer says when the hand does not pay), and one that only a
        development card could make leaves the board as a card does, refused or not."""
        seat = self.game.current_seat()
        if seat is None:
            return Outcome("the game is over", refused=True)
        if not chosen:
            self.reset()
            return Outcome("choice cleared")
        outcome, secret = self._narrow(chosen)
        if secret and (outcome.refused or self.mode is None):
            self.reset()
            self.mode = "card"  # nothing of the choice is shown: as for a card the seat holds
        return outcome

    def _narrow(self, chosen: dict[str, Any]) -> tuple[Outcome, bool]:
        """:meth:`narrow`'s work: the seat's answer, and whether the choice is a development card's."""
        near = {name[len(HEX_STEP):]: h for name, h in chosen.items() if name.startswith(HEX_STEP)}
        chosen = {name: value for name, value in chosen.items() if not name.startswith(HEX_STEP)}
        secret = self.game.phase == "main" and (chosen.get("type") == "play" or "card" in chosen)
        probe, refusal = self._probe(self._reachable(secret), chosen, near)
        if refusal and self.game.phase == "main" and not secret:  # (a place only a card could use)
            secret = True
            probe, refusal = self._probe(self._reachable(secret), chosen, near)
        if refusal:
            return Outcome(refusal, refused=True), secret
        modes = {(self._mode_of(a), a.get("card") if a["type"] == "play" else None) for a in probe.candidates()}
        self.reset()
        if len(modes) > 1 and self._implied_mode() is None:  # too broad for one mode button (or a step back)
            return Outcome("choose what to do"), secret
        first = probe.candidates()[0]
        kind = first["type"]
        mode = self._mode_of(first)
        if self._implied_mode() is None:
            self.mode, self.card = mode, first.get("card") if kind == "play" else None
        self.picker.agree({name: value for name, value in chosen.items() if name in FIELD_KINDS})
        outcome = self._narrowed(mode, first, near)
        if not set(probe.candidates()) & set(self.legal_now()):  # the board shows where it could go all the same
            return Outcome(f"{str(mode).replace('_', ' ')}: {self._mode_problem(mode)} (cancel to drop it)", refused=True), secret
        return outcome, secret

    def _probe(self, listing: list[Action], chosen: dict[str, Any], near: dict[str, int]) -> tuple[Picker, str]:
        """``listing`` narrowed by ``chosen``, and why not when nothing agrees ("": something does)."""
        probe = Picker(lambda: listing, tuple(FIELD_KINDS))
        if not probe.agree(chosen):
            return probe, "no legal action agrees with that choice"
        for name, h in near.items():  # a hex step: a keyed hex with a possible place of that field around it
            if FIELD_KINDS.get(name) not in ("corner", "side") or h not in self.layout.keyed_hexes or not any(
                a.get(name) in self.around(name, h) for a in probe.candidates()
            ):
                where = self.place_words("hex", h) if isinstance(h, int) and not isinstance(h, bool) else repr(h)
                return probe, f"no possible {FIELD_WORDS.get(name, name)} around {where}"
        return probe, ""

    def _narrowed(self, mode: str, first: Action, near: dict[str, int]) -> Outcome:
        """The seat's words once a page's choice is taken (a hex step: the first place around it blinks)."""
        field = self.open_field()
        if field is not None and field in near:  # a hex step: as if its hex key were pressed
            h = near[field]
            cycled = self._cycle(field, h)
            if cycled.refused or self.tentative is None:  # pragma: no cover - checked above: a place is possible here
                return Outcome(f"{str(mode).replace('_', ' ')}: {cycled.message}")
            here = [x for x in self.around(field, h) if x in self.options(field)]
            return Outcome(f"{str(mode).replace('_', ' ')}: {len(here)} possible around {self.hex_name(h)}, choose one below "
                           f"(the board blinks the {FIELD_WORDS[field]} {self.place_words(field, self.tentative[1])})")
        what = self.describe_action(first) if field is None else self._next_words(page=True)  # the page's words: no keys
        return Outcome(f"{str(mode).replace('_', ' ')}: {what}")

    def _reachable(self, names_card: bool) -> list[Action]:
        """What a page's narrowing may choose from: what the keys reach, so that the board shows the
        same whatever the hand (the seat's own answer says whether the hand allows it). In the main
        phase: the public listing, or the development cards the seat can play when it names one."""
        if self.game.phase != "main":
            return self.legal_now()  # (the other phases read no hand)
        if names_card:
            return [a for a in self.legal_now() if a["type"] == "play"]
        return [a for a in self.public_actions() if a["type"] != "play"]

    @staticmethod
    def _mode_of(action: Action) -> str:
        """The mode button whose actions include ``action``."""
        kind = str(action["type"])
        return str({"build": action.get("piece"), "improve": action.get("culture"), "lucky_raid": "raid",
                    "remove_catapult": "catapult", "play": "card"}.get(kind, kind))

    def _press(self, key: int) -> Outcome:
        game = self.game
        found = seat_and_role(self.game, key, self.layout.roles, "the Landover board")
        if isinstance(found, Outcome):
            return found
        seat, (name, value) = found
        if name == "cancel":
            had = self.mode is not None or bool(self.chosen) or self.tentative is not None
            self.reset()
            return Outcome("choice dropped" if had else "nothing to cancel")
        if name == "confirm":
            return self._confirm(seat)
        if name in MODE_BUTTONS:
            return self._choose_mode(seat, name)
        if game.phase == "roll" and self.mode is None and name in ("white", "red"):
            cards = self._playable_cards()
            if "alchemist" in cards:
                self.mode, self.card = "card", "alchemist"
        kind = {"hex": "position", "side": "side", "seat": "seat", "kind": "kind", "white": "white", "red": "red"}[name]
        if self._mode() is None:
            if name == "seat":
                return Outcome(self._seat_words(value))
            if name == "hex":
                return Outcome(f"{self._hex_words(value)}. {self._what_now(seat)}")
            return Outcome(f"choose what to do first: {self._what_now(seat)}", refused=True)
        field = self.open_field(kind)
        if field is None and name == "kind":
            field = self.open_field("kinds")
        if field is None:
            if name == "seat":
                return Outcome(self._seat_words(value))
            return Outcome(f"this key chooses nothing now: {self._next_words()}", refused=True, flash=self._flash_key(name, value))
        slot = FIELD_KINDS[field]
        if slot in ("corner", "side") and name == "hex":
            return self._cycle(field, value)
        if slot == "side":
            return self._pick_side(field, value)
        return self._choose_value(field, value, self._flash_key(name, value))

    def _flash_key(self, role: str, value: Any) -> list[int]:
        layout = self.layout
        if role == "hex":
            if value in layout.hex_led:
                return [layout.hex_led[value]]
            return [layout.side_led[e] for e in self.hex_sides[value]]  # a sea key: its hex's outline
        if role == "side":
            return [layout.side_led[value]]
        if role == "seat":
            return [layout.turn_leds[value]]
        if role in ("white", "red"):
            return [layout.die_leds[role][value - 1]]
        return []

    def _choose_mode(self, seat: int, mode: str) -> Outcome:
        game = self.game
        phase = game.phase
        if phase == "setup":
            step = self.mode_actions("setup")
            piece = step[0]["piece"] if step else "?"
            if mode != piece:
                return Outcome(f"setup: place a {piece} now (press a hex, then confirm)", refused=True)
            return Outcome(f"setup: press a hex to pick the corner or side for your {piece}, then confirm")
        if phase == "lucky_raid" and mode != "raid":
            return Outcome("lucky 7: press the hex to raid, then confirm", refused=True)
        if phase == "roll" and mode != "card":
            return Outcome("roll first: press confirm to roll (or card to play the alchemist)", refused=True)
        if phase == "take":
            field = self.open_field("name")
            if mode != "card" or field is None:
                return Outcome(f"first take the cards: {self._next_words()}", refused=True)
            return self._cycle_name(field)
        if mode == "card":
            cards = self._playable_cards()
            if not cards:
                held = sorted(set(game.dev_cards(seat)))
                note = f" (you hold {', '.join(held)})" if held else ""
                if phase == "roll":
                    return Outcome(f"no development card you can play now{note}", refused=True)
                # The board leaves any other mode as it does for a playable card: the cards are secret.
                self.mode, self.card, self.chosen, self.tentative = "card", None, {}, None
                return Outcome(f"no development card you can play now{note}; choose something else")
            if self.mode == "card" and (self.chosen or self.tentative is not None):
                field = self.open_field("name")
                if field is None:
                    return Outcome(f"card: {self._next_words()} (cancel to choose another card)", refused=True)
                return self._cycle_name(field)
            if self.mode == "card" and self.card in cards:
                card = cards[(cards.index(self.card) + 1) % len(cards)]
            else:
                card = cards[0]
            self.mode, self.card, self.chosen, self.tentative = "card", card, {}, None
            others = f"; card again for the next ({len(cards)} playable)" if len(cards) > 1 else ""
            return Outcome(f"play {card.replace('_', ' ')}: {self._next_words()}{others}")
        if self.mode == mode and mode == "end_turn":
            return self._confirm(seat)
        actions = self.mode_actions(mode)
        if not actions:
            return Outcome(self._mode_problem(mode), refused=True, flash=[self.layout.turn_leds[seat]])
        self.mode, self.card, self.chosen, self.tentative = mode, None, {}, None
        if mode == "end_turn":
            return Outcome("press confirm (or end turn again) to end your turn")
        legal = set(self.legal_actions())
        if not any(a in legal for a in actions):  # the board shows the mode all the same: the hand is secret
            return Outcome(f"{mode.replace('_', ' ')}: {self._mode_problem(mode)}; the board shows where it could go "
                           f"(confirm will be refused; cancel to drop it): {self._next_words()}")
        return Outcome(f"{mode.replace('_', ' ')}: {self._next_words()}")

    def _cycle_name(self, field: str) -> Outcome:
        """The card key on a card-name field (the spy's card to take): pick the next name."""
        names = self.options(field)
        current = self.tentative[1] if self.tentative is not None and self.tentative[0] == field else None
        pick = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        self.tentative = (field, pick)
        return Outcome(f"take {pick.replace('_', ' ')}? confirm to take it, card again for the next ({len(names)})")

    def _cycle(self, field: str, h: int) -> Outcome:
        """A hex key on a corner or side field: pick the next possible one around that hex."""
        slot = FIELD_KINDS[field]
        around = self.hex_corners[h] if slot == "corner" else self.hex_sides[h]
        possible = self.options(field)
        here = [x for x in around if x in possible]
        if not here:
            unlit = [x for x in possible if x not in (self.layout.corner_led if slot == "corner" else self.layout.side_led)]
            extra = f" (the board has no light for {slot}s {unlit[:5]})" if unlit and slot == "side" else ""
            reason = self._place_problem(field, around)
            return Outcome(f"no {FIELD_WORDS[field]} around {self.place_words('hex', h)}: {reason}{extra}", refused=True,
                           flash=self._flash_key("hex", h))
        current = self.tentative[1] if self.tentative is not None and self.tentative[0] == field else None
        pick = here[(here.index(current) + 1) % len(here)] if current in here else here[0]
        self.tentative = (field, pick)
        self.near = (field, h)  # a seat's page now lists the places around this hex
        more = f" ({len(here)} around this hex: press it again for the next)" if len(here) > 1 else ""
        return Outcome(f"{FIELD_WORDS[field]} {self.place_words(field, pick)}{more}: confirm to take it")

    def _pick_side(self, field: str, e: int) -> Outcome:
        if e not in self.options(field):
            return Outcome(self._place_problem(field, [e]), refused=True, flash=[self.layout.side_led[e]])
        self.tentative = (field, e)
        return Outcome(f"{FIELD_WORDS[field]} {self.place_words(field, e)}: confirm to take it")

    def _choose_value(self, field: str, value: Any, flash: list[int]) -> Outcome:
        if not self.picker.choose(field, value):
            return Outcome(self._place_problem(field, [value]), refused=True, flash=flash)
        self.tentative = None
        return Outcome(f"{FIELD_WORDS[field]}: {self._value_words(field, self.chosen[field])}; {self._next_words()}")

    def _confirm(self, seat: int) -> Outcome:
        game = self.game
        if self._mode() is None:
            if game.phase == "roll":
                return Outcome("roll", action=Action({"type": "roll"}))
            return Outcome(f"nothing to confirm: {self._what_now(seat)}", refused=True)
        locked = ""
        before = dict(self.chosen), self.tentative
        if self.tentative is not None:
            field, value = self.tentative
            self.chosen[field] = value
            self.tentative = None
            locked = f"{FIELD_WORDS[field]} {self._value_words(field, value)} chosen"
        actions = self.picker.candidates()
        if not actions:
            return Outcome(f"that is not possible any more: {self._what_now(seat)}", refused=True)
        if self.open_field() is not None:
            if locked:
                return Outcome(f"{locked}; {self._next_words()}")
            return Outcome(f"not complete yet: {self._next_words()}", refused=True)
        action = self.picker.action()
        if action is None:  # pragma: no cover - complete fields always name one listed action
            return Outcome(f"not complete yet: {self._next_words()}", refused=True)
        if action not in self.legal_actions():  # chosen from the public listing: the hand does not pay it
            self.chosen, self.tentative = before
            return Outcome(self.problem(action) or "not possible now", refused=True, flash=self.flash_for(action))
        return Outcome(self.describe_action(action), action=action)
