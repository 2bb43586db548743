"""Landover's face, part 1: what a person is in the middle of choosing.

A mode button (build a road, trade, play a card...) narrows the engine's listing to that
mode's; the shared :class:`~tablelight.table.picker.Picker` narrows them further by the places and
values chosen with keys. :class:`LandoverChoice` keeps that state and says why a mode or a place
is refused (the engine's own reason where it has one); the look (:mod:`.look`), the words
(:mod:`.words`) and the input (:mod:`.face`) build on it.

The board is shared and a hand is secret, so what the keys choose follows the *public* listing
(:meth:`LandoverChoice.public_actions`): the actions the seat could take whatever its hand
(where a road may go, which cultures it may improve, every trade); whether the hand pays is
said on the seat's own screen when it picks the mode, and checked on confirm. A development
card is secret too: while one is chosen (mode ``card`` after the roll) the board shows nothing
of the choice (:meth:`LandoverChoice.secret_choice`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tablelight.core.errors import IllegalActionError, SetupError
from tablelight.core.game import Action
from tablelight.games.landover.layout import BUILD_PIECES, CULTURE_BUTTONS, KINDS, LAYOUT_ID, LandoverLayout
from tablelight.games.landover.rules import ROLL_CHOICES, ROLL_EVERY_TURN_FORMAT
from tablelight.table.face import SEAT_NAMES, GameFace, position_memo
from tablelight.table.picker import Picker, refusal

if TYPE_CHECKING:
    from tablelight.games.landover.engine import Landover

#: Action fields a person chooses, in the order they are asked for, and what chooses them.
FIELD_KINDS: dict[str, str] = {
    "vertex": "corner",
    "city": "corner",
    "edge": "side",
    "to": "side",
    "hex": "hex",
    "hexes": "hexes",
    "target": "seat",
    "give": "kind",
    "get": "kind",
    "kind": "kind",
    "take": "kinds",
    "card_taken": "name",
    "cards": "kinds",
    "dev_card": "name",
    "white": "white",
    "red": "red",
}
FIXED_FIELDS = ("type", "piece", "culture", "card")
#: A page's step that names the hex of a corner or side field (``"hex_of_vertex": 12``) before the place.
HEX_STEP = "hex_of_"
FIELD_WORDS = {
    "vertex": "corner", "city": "city for the metro", "edge": "side", "to": "side to move it to", "hex": "hex",
    "hexes": "two hexes", "target": "player (turn keys)", "give": "card to give", "get": "card to get",
    "kind": "card kind", "take": "cards to take", "card_taken": "card to take (card key)", "white": "white die",
    "red": "red die", "cards": "cards to take", "dev_card": "card to take (card key)",
}
#: The hand the public listing is made with: every kind of card, more than any cost asks.
PUBLIC_HAND = (9,) * len(KINDS)
#: Engine rules that say why a whole kind of action is impossible (not one place).
GENERAL_RULES = (
    "landover.cost.", "landover.build.no_pieces", "landover.military.", "landover.culture.max",
    "landover.raid.once_per_turn", "landover.action.wrong_phase", "landover.card.",
)


class LandoverChoice(GameFace):
    """The choosing state of :class:`~tablelight.games.landover.face.LandoverFace`."""

    default_layout = LAYOUT_ID
    seat_names = SEAT_NAMES

    def __init__(self, game: Landover, layout_data: dict[str, Any]) -> None:
        self.game = game
        source = f"layout {layout_data.get('id')!r}" if isinstance(layout_data, dict) else "layout"
        self.layout = LandoverLayout(layout_data, source)
        m = game.map
        land = sorted(h for h, island in enumerate(m.hex_island) if island >= 0)
        if list(game.map.coords) != self.layout.coords or land != sorted(self.layout.hex_led):
            raise SetupError(
                f"the {self.layout.data['id']} board is built for the {self.layout.map_name} map; this game's map "
                f"({game.map.name}) has other hexes: play with --map-name {self.layout.map_name} and no --map file"
            )
        far = [v for v in self.layout.corner_led if v >= game.corner_count] + [e for e in self.layout.side_led if e >= game.side_count]
        if far:
            raise SetupError(f"the {self.layout.data['id']} layout names corners or sides the map does not have: {far[:5]}")
        #: Per hex: its corners and sides that have an LED, in turning order.
        self.hex_corners = [[v for v in m.hex_vertices[h] if v in self.layout.corner_led] for h in range(game.hex_count)]
        self.hex_sides: list[list[int]] = []
        edge_of = {frozenset(ends): e for e, ends in enumerate(m.edge_vertices)}
        for h in range(game.hex_count):
            corners = m.hex_vertices[h]
            sides = [edge_of[frozenset((corners[k - 1], corners[k]))] for k in range(6)]
            self.hex_sides.append([e for e in sides if e in self.layout.side_led])
        #: Per corner and per side: the keyed hex a seat's page files it under (land before sea, lowest id).
        self.corner_home: dict[int, int] = {}
        self.side_home: dict[int, int] = {}
        for h in sorted(self.layout.hex_led) + sorted(self.layout.sea_key):
            for v in self.hex_corners[h]:
                self.corner_home.setdefault(v, h)
            for e in self.hex_sides[h]:
                self.side_home.setdefault(e, h)
        self.picker = Picker(self.mode_actions, tuple(FIELD_KINDS))
        self.reset()

    # ------------------------------------------------------------------ choosing

    def reset(self) -> None:
        #: The engine's legal actions during one press, look or prompt (the game cannot change meanwhile).
        self._legal: list[Action] | None = None
        self.mode: str | None = None
        self.card: str | None = None
        self.chosen: dict[str, Any] = {}
        self.tentative: tuple[str, Any] | None = None
        #: (corner or side field, hex): the hex whose corners or sides a hex key (or a page's hex step)
        #: went to; the candidates are those around it until the field is chosen.
        self.near: tuple[str, int] | None = None

    def _implied_mode(self) -> str | None:
        """The mode a phase sets by itself: setup pieces and the lucky raid need no button."""
        phase = self.game.phase
        if phase == "setup":
            return "setup"
        if phase == "lucky_raid":
            return "raid"
        if phase == "take":  # after a master merchant or spy: the cards to take (record format 3)
            return "take"
        return None

    def _mode(self) -> str | None:
        return self.mode if self.mode is not None else self._implied_mode()

    def _in_mode(self, action: Action, mode: str | None, card: str | None) -> bool:
        kind = action["type"]
        if mode == "setup":
            return True
        if mode in BUILD_PIECES:
            return kind == "build" and action["piece"] == mode
        if mode in CULTURE_BUTTONS:
            return kind == "improve" and action["culture"] == mode
        if mode == "raid":
            return kind in ("raid", "lucky_raid")
        if mode == "catapult":
            return kind == "remove_catapult"
        if mode == "card":
            return kind == "play" and action["card"] == card
        return kind == mode  # military, trade, end_turn

    def mode_actions(self, mode: str | None = None, card: str | None = None) -> list[Action]:
        """The actions of a mode the keys choose among (default: the mode chosen now): a card's
        plays from the engine's legal actions, every other mode's from the public listing."""
        if self.game.current_seat() is None:
            return []
        if mode is None:
            mode, card = self._mode(), self.card
        if mode is None:
            return []
        listing = self.legal_actions() if mode == "card" else self.public_actions()
        return [a for a in listing if self._in_mode(a, mode, card)]

    def legal_actions(self) -> list[Action]:
        return self._legal if self._legal is not None else position_memo(self, "_legal_memo", self.game.legal_actions)

    def public_actions(self) -> list[Action]:
        """What the seat to act could do whatever its hidden cards: in the main phase, the legal actions
        of a copy of the game where it holds :data:`PUBLIC_HAND` and no development card (costs aside,
        every rule reads only public things: the pieces, military, cultures, harbors); in the other
        phases the legal actions (they read no hand: the setup, the lucky raid, the take); before the
        roll, rolling and every alchemist play (any hand may hold one)."""
        game = self.game
        seat = game.current_seat()
        if seat is not None and game.phase == "roll":
            return list(ROLL_CHOICES)
        if seat is None or game.phase != "main":
            return self.legal_actions()

        def listed() -> list[Action]:
            return game.actions_if_holding(PUBLIC_HAND, ())

        return position_memo(self, "_public_memo", listed)  # listed once per position

    def secret_choice(self) -> bool:
        """Whether what is being chosen depends on a hidden card (a development card; before record
        format 4 the roll phase came only with an alchemist, so its choice was no secret there): the
        board then shows nothing of it."""
        return self._mode() == "card" and (self.game.phase != "roll" or self.game.record_format >= ROLL_EVERY_TURN_FORMAT)

    def _with_legal(self, work: Any) -> Any:
        """Run ``work()`` with the legal actions listed once (a press asks for them many times)."""
        if self._legal is not None or self.game.current_seat() is None:
            return work()
        self._legal = self.legal_actions()
        try:
            return work()
        finally:
            self._legal = None

    @property
    def chosen(self) -> dict[str, Any]:
        """Field -> value chosen so far (the picker's)."""
        return self.picker.chosen

    @chosen.setter
    def chosen(self, value: dict[str, Any]) -> None:
        self.picker.chosen = value

    def candidates(self) -> list[Action] | None:
        """The chosen mode's legal actions that agree with everything chosen so far (None: no mode yet)."""
        if self.game.current_seat() is None or self._mode() is None or (self._mode() == "card" and self.card is None):
            return None  # nothing chosen yet (the card button without a playable card chose none)
        found: list[Action] = self._with_legal(self._legal_candidates)
        if self.near is not None and self.near[0] not in self.chosen:
            field, h = self.near
            found = [a for a in found if a.get(field) in self.around(field, h)]
        elif not self.chosen and len(found) == len(self.legal_actions()):
            return None  # a mode the phase forces (a setup placement) narrows nothing: no key chose it
        return found

    def _legal_candidates(self) -> list[Action]:
        """The picker's candidates the hand allows (the seat's page lists what it may choose)."""
        legal = set(self.legal_actions())
        return [a for a in self.picker.candidates() if a in legal]

    def around(self, field: str, h: int) -> list[int]:
        """The corners (or sides, by ``field``'s kind) of hex ``h`` that have a light, in turning order."""
        return self.hex_corners[h] if FIELD_KINDS[field] == "corner" else self.hex_sides[h]

    def choice_steps(self, action: Action) -> list[tuple[str, Any]]:
        """A seat's page narrows a corner or a side as the board's keys do: first its hex
        (``"hex_of_vertex": h``, a step :meth:`narrow` understands), then the place itself."""
        steps: list[tuple[str, Any]] = []
        for field, value in action.items():
            if FIELD_KINDS.get(field) in ("corner", "side") and isinstance(value, int):
                h = self.home_hex(field, value)
                if h is not None:
                    steps.append((f"{HEX_STEP}{field}", h))
            steps.append((field, value))
        return steps

    def home_hex(self, field: str, place: int) -> int | None:
        """The hex a page files corner or side ``place`` under: the hex the keys went to, if it is around it."""
        if self.near is not None and self.near[0] == field and place in self.around(field, self.near[1]):
            return self.near[1]
        return (self.corner_home if FIELD_KINDS[field] == "corner" else self.side_home).get(place)

    def open_field(self, kind: str | None = None) -> str | None:
        """The first field still to choose (of ``kind`` when given; ``"position"``: hex, corner or side)."""

        def of_kind(name: str) -> bool:
            slot = FIELD_KINDS[name]
            return kind is None or slot == kind or (kind == "position" and slot in ("corner", "side", "hex", "hexes"))

        return self.picker.open_field(of_kind)

    def options(self, name: str) -> list[Any]:
        """The values ``name`` may still take (list fields: the single items that may be added)."""
        return self.picker.options(name)

    def _playable_cards(self) -> list[str]:
        cards: list[str] = []
        for action in self.legal_actions():
            if action["type"] == "play" and action["card"] not in cards:
                cards.append(action["card"])
        return cards

    # ----------------------------------------------------------------- reasons

    def problem(self, action: Action) -> str | None:
        """The engine's reason why ``action`` is not legal now, or None (validation only)."""
        return refusal(self.game, action)

    def _mode_problem(self, mode: str) -> str:
        """Why a mode has no legal action: the engine's reason when it is a general one."""
        game = self.game
        probes: dict[str, Action] = {
            "road": Action({"type": "build", "piece": "road", "edge": 0}),
            "bridge": Action({"type": "build", "piece": "bridge", "edge": 0}),
            "village": Action({"type": "build", "piece": "village", "vertex": 0}),
            "city": Action({"type": "build", "piece": "city", "vertex": 0}),
            "wall": Action({"type": "build", "piece": "wall", "vertex": 0}),
            "military": Action({"type": "military"}),
            "raid": Action({"type": "raid", "hex": 0}),
            "catapult": Action({"type": "remove_catapult", "hex": 0}),
            "end_turn": Action({"type": "end_turn"}),
            "trade": Action({"type": "trade", "give": "wool", "get": "wood"}),
        }
        for name in CULTURE_BUTTONS:
            probes[name] = Action({"type": "improve", "culture": name})
        probe = probes.get(mode)
        if probe is not None:
            try:
                game.check(probe)
            except IllegalActionError as error:
                if error.rule.startswith(GENERAL_RULES):
                    return error.message
        words = {
            "road": "no side where you may build a road now",
            "bridge": "no side where you may build a bridge now",
            "village": "no corner where you may build a village now",
            "city": "no village of yours to make a city now",
            "wall": "no city of yours without a wall",
            "trade": "nothing to trade: a trade takes 3 of one card (2 at your harbors, merchant, bank)",
            "raid": "no hex you may raid now",
            "catapult": "no catapult to remove (it costs 1 military power)",
        }
        return words.get(mode, f"{mode.replace('_', ' ')} is not possible now")

    def _place_problem(self, name: str, values: list[Any]) -> str:
        """The engine's reason why none of ``values`` fits field ``name`` now."""
        actions = self.picker.candidates()
        if not actions or not values:
            return f"no {FIELD_WORDS[name]} there"
        for value in values:
            probe = dict(actions[0])
            probe.update(self.chosen)
            probe[name] = [value] if isinstance(actions[0][name], list) else value
            reason = self.problem(Action.parse(probe))
            if reason is not None:
                return reason
        return f"no {FIELD_WORDS[name]} there fits what you chose"
