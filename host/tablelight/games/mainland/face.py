"""Mainland at a lit board: a mini-map beside the table, and the keys of a person.

**Layout** (``hardware/layouts/mainland.json``, checked by :class:`MainlandLayout`): an LED
matrix with one LED per board tile (``matrix.leds[y][x]``, 16x16 on the reference board: the
default board of every player count), per clan a turn LED and six chieftain-token LEDs (284
LEDs in all, so the board needs the wide-LED firmware), and keys: one per matrix column and
row (they set the chosen card's x and y), five hand keys, and the buttons rotate, up, down,
left, right, confirm, cancel, replace, pass and gather. A board larger than the matrix is
refused up front.

**Look** (:meth:`MainlandFace.pixels`):

* each tile lights in its clan's colour: dim (30 %) in general, full in the current
  clan's Mainland (its largest territory); once the game is over every clan's
  Mainland is at full brightness;
* matrix cells beyond the board's limit glow faint grey, so the limit shows;
* while the camp is chosen (a clan's first turn: every clan's first card, so no secret),
  every legal spot for it as it is turned now (the top-left tile of each legal placement)
  pulses: in the clan's colour on a tile, faint white on empty space; the camp itself, at
  the spot, blinks in the clan's colour when it may go there, grey when it may not;
* while a card of the hand is chosen, only the four tiles at the spot blink in the clan's
  colour, wherever the keys put it: the board is shared and the card is secret, so it shows
  nothing that depends on the card (not its legal spots, not whether it fits there; choosing
  it, turning it or a spot for it on the seat's page does not move the spot); the seat's own
  screen says where it fits, and a seat's page lists the spots and shows the one it chose;
* the turn LED of the clan to act pulses, the others glow dimly (a clan out of tokens:
  dark); at the end the winners' blink; token LEDs show each clan's tokens left;
* a refused press flashes the LEDs concerned white for a moment.

**Input** (:meth:`MainlandFace.press`): press a hand key to choose a card (the spot stays
where it is: the seat's own screen says where the card fits; the same key again drops it), rotate, move the spot
with the arrows or with a column key and a row key, then confirm. What is chosen narrows the
engine's legal placements through the shared :class:`~tablelight.table.picker.Picker`
(fields ``card``, ``rotation``, ``x``, ``y``): the card and the way it is turned are chosen
in the picker (a seat's page lists the same candidates, and may choose them too:
:meth:`MainlandFace.narrow`), the spot is a free cursor until confirm chooses it (it starts
each turn in the middle). Replace swaps the chosen card for the top of the deck. Pass and
gather cost a token, so they ask for a second press (the same key or confirm); any other key calls them off. In a clan's first
turn the camp card is chosen already. Every press is checked with the engine
(placements, ``Game.check`` for the reason); the face never applies anything, and a refused
press changes nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from tablelight.core.errors import SetupError
from tablelight.core.game import Action
from tablelight.games.mainland.data import CARDS, ITEM_NAMES, rotated, spot_name, turn_name
from tablelight.games.mainland.reads import MainlandReads
from tablelight.table.face import (
    BLINK,
    IDLE_TURN_LEVEL,
    OFF,
    PULSE,
    SOLID,
    GameFace,
    Outcome,
    Pixel,
    flash_over,
    scaled,
    seat_and_role,
    words,
)
from tablelight.table.layout import LayoutError, check_layout_data, whole
from tablelight.table.picker import Picker, refusal

if TYPE_CHECKING:
    from tablelight.games.mainland.engine import Mainland

#: Clan colours, by seat: green, frozen (ice blue), sand, arid (red earth).
CLAN_COLORS: tuple[tuple[int, int, int], ...] = ((0, 200, 0), (0, 140, 255), (255, 170, 0), (230, 40, 0))
CLAN_NAMES = ("green", "frozen", "sand", "arid")
TILE_LEVEL = 0.3
MAINLAND_LEVEL = 1.0
SPOT_LEVEL = 0.7
EMPTY_SPOT: Pixel = (60, 60, 60, PULSE)
BAD_SPOT: Pixel = (110, 110, 110, BLINK)
BEYOND_LIMIT: Pixel = (6, 6, 6, SOLID)
TOKEN_LEVEL = 0.5
HAND_SIZE = 5
BUTTONS = ("rotate", "up", "down", "left", "right", "confirm", "cancel", "replace", "pass", "gather")
MOVES = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
CAMP = "camp"


class MainlandLayout:
    """The Mainland sections of a layout, checked (see the module docstring)."""

    def __init__(self, data: dict[str, Any], source: str = "layout") -> None:
        check_layout_data(data, source)
        leds, keys = data["leds"], data["keys"]
        matrix = data.get("matrix")
        if not isinstance(matrix, dict) or not isinstance(matrix.get("leds"), list):
            raise LayoutError(f"{source}: missing matrix (an object with leds: one list of LEDs per row)")
        rows = matrix["leds"]
        if not rows or any(not isinstance(row, list) or len(row) != len(rows[0]) for row in rows):
            raise LayoutError(f"{source}: matrix leds must be rows of equal length")
        self.columns, self.rows = len(rows[0]), len(rows)
        self.cell_leds = [[whole(led, f"{source}: matrix LED ({x}, {y})", leds) for x, led in enumerate(row)] for y, row in enumerate(rows)]
        turn, tokens = data.get("turn_leds"), data.get("token_leds")
        if not isinstance(turn, list) or len(turn) != 4:
            raise LayoutError(f"{source}: turn_leds must list 4 LEDs (one per clan)")
        if not isinstance(tokens, list) or len(tokens) != 4 or any(not isinstance(t, list) or len(t) != 6 for t in tokens):
            raise LayoutError(f"{source}: token_leds must list 6 LEDs per clan for 4 clans")
        self.turn_leds = [whole(led, f"{source}: turn LED", leds) for led in turn]
        self.token_leds = [[whole(led, f"{source}: token LED", leds) for led in row] for row in tokens]
        used = [led for row in self.cell_leds for led in row] + self.turn_leds + [led for row in self.token_leds for led in row]
        if len(set(used)) != len(used):
            raise LayoutError(f"{source}: an LED is given two roles")
        #: key -> (role, value): ("column", x), ("row", y), ("hand", index) or (button name, 0).
        self.roles: dict[int, tuple[str, int]] = {}
        for field, role, count in (("column_keys", "column", self.columns), ("row_keys", "row", self.rows), ("hand_keys", "hand", HAND_SIZE)):
            listed = data.get(field)
            if not isinstance(listed, list) or len(listed) != count:
                raise LayoutError(f"{source}: {field} must list {count} keys")
            for value, key in enumerate(listed):
                self._role(whole(key, f"{source}: {field}", keys), (role, value), source)
        buttons = data.get("buttons")
        if not isinstance(buttons, dict):
            raise LayoutError(f"{source}: buttons must map {', '.join(BUTTONS)} to keys")
        for name in BUTTONS:
            if name not in buttons:
                raise LayoutError(f"{source}: no {name} button")
            self._role(whole(buttons[name], f"{source}: button {name}", keys), (name, 0), source)
        self.leds = leds
        self.data = data

    def _role(self, key: int, role: tuple[str, int], source: str) -> None:
        if key in self.roles:
            raise LayoutError(f"{source}: key {key} is given two roles")
        self.roles[key] = role

    def keys_of(self, role: str, value: int = 0) -> int:
        """The key with ``role`` (``"hand"``, 2) -> the key choosing the third card."""
        return next(key for key, found in self.roles.items() if found == (role, value))


def card_words(card: str) -> str:
    """A card's tiles as a person reads them: ``village plain / mountain forest`` (top row / bottom row)."""
    tl, tr, br, bl = (ITEM_NAMES[t] for t in CARDS[card].tiles)
    return f"{tl} {tr} / {bl} {br}"


class MainlandFace(GameFace):
    """Mainland's :class:`~tablelight.table.face.GameFace`; see the module docstring."""

    default_layout = "mainland"
    seat_names = CLAN_NAMES
    TYPE_WORDS: ClassVar[Mapping[str, str]] = {"place": "place a card", "replace": "replace a card from your deck", "gather": "gather your clan",
                  "pass": "pass"}

    def __init__(self, game: Mainland, layout_data: dict[str, Any]) -> None:
        self.game = game
        self.reads = MainlandReads(game)
        self.layout = MainlandLayout(layout_data, f"layout {layout_data.get('id')!r}" if isinstance(layout_data, dict) else "layout")
        size = self.reads.size
        if size > self.layout.columns or size > self.layout.rows:
            raise SetupError(
                f"the {self.layout.data['id']} mini-map shows boards up to {self.layout.columns}x{self.layout.rows} tiles, "
                f"this game's board is {size}x{size}: play with --board-size {min(self.layout.columns, self.layout.rows)} "
                "or less (one matrix LED per tile)"
            )
        #: The hand card chosen (kept even when it fits nowhere: it may still be replaced).
        self.card: str | None = None
        self.rotation = 0
        #: Whether the turn was chosen (rotate, or a page): only then does it narrow the choices.
        self.turned = False
        #: The free cursor: the top-left tile of the chosen card (chosen in the picker on confirm).
        self.x = self.y = max(0, (size - 2) // 2)
        self.armed: str | None = None
        #: The spot a seat's page chose for a hand card: shown on that seat's own page only (the
        #: board's cursor stays where the keys left it: legal spots would tell the card).
        self.page_spot: tuple[int, int] | None = None
        self.picker = Picker(self.placing_actions, ("card", "rotation", "x", "y"))

    # ----------------------------------------------------------------- queries

    def chosen(self) -> str | None:
        """The card being placed: the camp in a clan's first turn, else the hand card chosen."""
        seat = self.reads.current_seat()
        if seat is None:
            return None
        if not self.reads.camp_placed(seat):
            return CAMP
        return self.card

    def place_action(self) -> Action | None:
        card = self.chosen()
        if card is None:
            return None
        return Action({"type": "place", "card": card, "x": self.x, "y": self.y, "rotation": self.rotation})

    def placing_actions(self) -> list[Action]:
        """The engine's legal placements (the picker's source)."""
        return [a for a in self.legal_now() if a["type"] == "place"]

    def legal_rotation(self, card: str, rotation: int) -> int | None:
        """The rotation the engine lists for ``card`` turned ``rotation`` times (a symmetric card lists
        one of two equal turns), or None when it fits nowhere turned that way."""
        turned = rotated(CARDS[card].tiles, rotation)
        for c, _x, _y, r in self.reads.placements():
            if c == card and rotated(CARDS[card].tiles, r) == turned:
                return r
        return None

    def sync_picker(self) -> None:
        """Narrow the picker to the card chosen and the way it is turned now (the spot stays free)."""
        self.picker.reset()
        card = self.chosen()
        if card is None or not self.picker.choose("card", card):
            return
        rotation = self.legal_rotation(card, self.rotation) if self.turned else None
        if rotation is not None:
            self.picker.choose("rotation", rotation)

    def candidates(self) -> list[Action] | None:
        """The legal actions still consistent with the keys pressed (None: nothing chosen yet)."""
        card = self.chosen()
        if self.reads.current_seat() is None or card is None or (card == CAMP and not self.turned):
            return None  # nothing chosen with keys yet (the camp is chosen by the rules)
        self.sync_picker()
        placing = self.picker.candidates() if self.picker.chosen else []
        swaps = [a for a in self.legal_now() if a["type"] == "replace" and a["card"] == card]
        return placing + swaps

    def spots(self, card: str | None = None, rotation: int | None = None) -> list[tuple[int, int]]:
        """Top-left tiles of every legal placement of ``card`` turned ``rotation`` times (default: the chosen ones)."""
        card = card if card is not None else self.chosen()
        if card is None:
            return []
        listed = self.legal_rotation(card, self.rotation if rotation is None else rotation)
        if listed is None:
            return []
        narrowed = Picker(self.placing_actions, self.picker.order)
        narrowed.choose("card", card)
        narrowed.choose("rotation", listed)
        return sorted((a["y"], a["x"]) for a in narrowed.candidates())

    def problem(self, action: Action) -> str | None:
        """The engine's reason why ``action`` is not legal now, or None. Validation only: nothing changes."""
        return refusal(self.game, action)

    def footprint(self, x: int, y: int) -> list[int]:
        """The LEDs of the four tiles a card at (x, y) covers (those on the matrix)."""
        cells = self.layout.cell_leds
        return [cells[y + dy][x + dx] for dy in (0, 1) for dx in (0, 1) if 0 <= y + dy < self.layout.rows and 0 <= x + dx < self.layout.columns]

    # -------------------------------------------------------------------- look

    def pixels(self, flashing: Collection[int] = ()) -> list[Pixel]:
        reads, layout = self.reads, self.layout
        pixels: list[Pixel] = [OFF] * layout.leds
        seat = reads.current_seat()
        clans = reads.clan_scores()
        highlighted: set[tuple[int, int]] = set()
        for clan in clans:
            if clan.mainland is not None and (seat is None or clan.clan == seat):
                highlighted.update(clan.mainland.cells)
        size = reads.size
        for y in range(layout.rows):
            for x in range(layout.columns):
                led = layout.cell_leds[y][x]
                if x >= size or y >= size:
                    pixels[led] = BEYOND_LIMIT
                    continue
                owner = reads.clan_at(x, y)
                if owner is not None:
                    level = MAINLAND_LEVEL if (x, y) in highlighted else TILE_LEVEL
                    pixels[led] = scaled(CLAN_COLORS[owner], level)
        card = self.chosen()
        if seat is not None and card is not None:
            look = scaled(CLAN_COLORS[seat], 1.0, BLINK)
            if card == CAMP:  # the camp is no secret: where it fits may show (a hand card's may not)
                for y, x in self.spots():
                    owner = reads.clan_at(x, y)
                    led = layout.cell_leds[y][x]
                    pixels[led] = scaled(CLAN_COLORS[owner], SPOT_LEVEL, PULSE) if owner is not None else EMPTY_SPOT
                action = self.place_action()
                look = look if action is not None and self.game.is_legal(action) else BAD_SPOT
            for led in self.footprint(self.x, self.y):
                pixels[led] = look
        winners = set(reads.winners()) if seat is None else set()
        for s in range(reads.players):
            if seat is None:
                turn = scaled(CLAN_COLORS[s], 1.0, BLINK) if s in winners else scaled(CLAN_COLORS[s], IDLE_TURN_LEVEL)
            elif s == seat:
                turn = scaled(CLAN_COLORS[s], 1.0, PULSE)
            else:
                turn = scaled(CLAN_COLORS[s], IDLE_TURN_LEVEL) if reads.tokens(s) > 0 else OFF
            pixels[layout.turn_leds[s]] = turn
            for t, led in enumerate(layout.token_leds[s]):
                pixels[led] = scaled(CLAN_COLORS[s], TOKEN_LEVEL) if t < reads.tokens(s) else OFF
        return flash_over(pixels, flashing)

    # ------------------------------------------------------------------- input

    def reset(self) -> None:
        self.card = None
        self.rotation = 0
        self.turned = False
        self.armed = None
        self.page_spot = None
        self.picker.reset()
        # every turn starts with the spot in the middle (a page may have moved it anywhere)
        self.x = self.y = max(0, (self.reads.size - 2) // 2)

    def press(self, key: int) -> Outcome:
        reads = self.reads
        found = seat_and_role(self.game, key, self.layout.roles, "the Mainland board")
        if isinstance(found, Outcome):
            return found
        seat, (name, value) = found
        armed, self.armed = self.armed, None
        self.page_spot = None  # the keys move the board's own cursor
        if armed is not None and name in (armed, "confirm"):
            return Outcome(f"{armed} ({self.token_words(seat)})", action=Action({"type": armed}))
        if armed is not None and name == "cancel":
            return Outcome(f"{armed} called off")
        if name == "hand":
            return self._choose(seat, value)
        if name in ("pass", "gather"):
            return self._arm(seat, name)
        if name == "cancel":
            if self.card is None:
                return Outcome("nothing to cancel" if reads.camp_placed(seat) else "your first card is your camp: place it")
            dropped, self.card = self.card, None
            return Outcome(f"{dropped} put back in your hand")
        card = self.chosen()
        if card is None:
            return Outcome(f"choose a card first (hand keys 1-{len(reads.hand(seat))})", refused=True)
        if name == "replace":
            return self._replace(seat, card)
        if name == "confirm":
            return self._confirm(card)
        if name == "rotate":
            self.rotation = (self.rotation + 1) % 4
            self.turned = True
            return Outcome(f"{card} {turn_name(self.rotation)}: {self.spot_words(card)}")
        x, y = self.x, self.y
        if name in MOVES:
            dx, dy = MOVES[name]
            x, y = x + dx, y + dy
        elif name == "column":
            x = value
        else:
            y = value
        span = reads.size - 2
        if not (0 <= x <= span and 0 <= y <= span):
            return Outcome(
                f"a card at {spot_name(x, y)} would leave the board: x and y are 0-{span} on this {reads.size}x{reads.size} board",
                refused=True,
                flash=self.footprint(self.x, self.y),
            )
        self.x, self.y = x, y
        return Outcome(f"{card} at {spot_name(x, y)}: {self.spot_words(card)}")

    def narrow(self, chosen: dict[str, Any]) -> Outcome:
        """A seat's page chose part of a placement (card, then turn, then spot): the board shows it
        as if the keys had chosen it; a replace with its card chooses that card."""
        seat = self.reads.current_seat()
        if seat is None:
            return Outcome("the game is over", refused=True)
        self.armed = None
        if not chosen:
            self.reset()
            return Outcome("choice cleared")
        probe = Picker(self.legal_now, ("type", *self.picker.order))
        if not probe.agree(chosen):
            return Outcome("no legal action agrees with that choice", refused=True)
        card = chosen.get("card")
        if chosen.get("type") not in ("place", "replace") or not isinstance(card, str):
            self.reset()  # too broad for the board to show (or a step back): nothing chosen there
            return Outcome("choose a card")
        same = card == self.chosen()
        if card != CAMP:
            self.card = card
        self.rotation = chosen.get("rotation", self.rotation if same else 0)
        turned = "rotation" in chosen or (same and self.turned)
        if chosen.get("type") == "replace":
            return Outcome(f"{card} chosen: choose it below to swap it for the top of your deck")
        probe.agree(Action({"type": "place", **chosen, "rotation": chosen.get("rotation", self.rotation)})) or probe.agree(chosen)
        first = probe.candidates()[0]
        self.rotation = first["rotation"]
        spot = (chosen.get("x", first["x"]), chosen.get("y", first["y"]))
        if card == CAMP:  # the camp is no secret: the board shows the spot the page chose
            self.x, self.y = spot
        # a hand card's spot is the seat's own: only its page shows it (the spots a card may take would tell it)
        self.page_spot = None if card == CAMP or ("x" not in chosen and "y" not in chosen) else spot
        self.turned = turned
        x, y = self.page_spot or (self.x, self.y)
        return Outcome(f"{card} at {spot_name(x, y)}, {turn_name(self.rotation)}: {self.spot_words(card, page=True, at=(x, y))}")

    # ----------------------------------------------------------------- helpers

    def token_words(self, seat: int) -> str:
        left = self.reads.tokens(seat)
        return f"a chieftain token lost: {left - 1} left" if left > 1 else "your last chieftain token: you stop"

    def spot_words(self, card: str, page: bool = False, at: tuple[int, int] | None = None) -> str:
        """Whether the chosen card fits where it is (or at ``at``); how to place it at the board or
        (``page``) on a seat's page."""
        action = self.place_action()
        assert action is not None
        if at is not None:
            action = action.replace(x=at[0], y=at[1])
        reason = self.problem(action)
        count = len(self.spots())
        if reason is None:
            how = "choose it below to place it" if page else "confirm to place it"
            return f"it fits here; {how} ({count} spots turned this way)"
        return f"not here ({reason}); {count} spots turned this way"

    def _choose(self, seat: int, index: int) -> Outcome:
        reads = self.reads
        hand = reads.hand(seat)
        if not reads.camp_placed(seat):
            return Outcome("your first card is your camp: place it before any card of your hand", refused=True)
        if index >= len(hand):
            return Outcome(f"no card {index + 1}: your hand holds {len(hand)}", refused=True)
        card = hand[index]
        if card == self.card:
            self.card = None
            return Outcome(f"{card} put back in your hand")
        # The spot and the turn stay as the keys left them: the shared board shows nothing that
        # depends on the card (where it fits is said here, on the seat's own screen).
        self.card, self.rotation, self.turned = card, 0, False
        everywhere = [(r, spot) for r in range(4) for spot in self.spots(card, r)]
        if not everywhere:
            return Outcome(f"{card} ({card_words(card)}) fits nowhere now: replace it, choose another card or pass")
        action = self.place_action()
        here = "it fits here" if action is not None and self.problem(action) is None else "not here"
        rotation, (y, x) = next(((r, spot) for r, spot in everywhere if r == 0), everywhere[0])
        return Outcome(
            f"{card} ({card_words(card)}) fits in {len(everywhere)} ways ({here}), e.g. at {spot_name(x, y)}, "
            f"{turn_name(rotation)}: move it (arrows, x and y keys), rotate, then confirm"
        )

    def _arm(self, seat: int, kind: str) -> Outcome:
        reason = self.problem(Action({"type": kind}))
        if reason is not None:
            return Outcome(reason, refused=True, flash=self.layout.token_leds[seat][: self.reads.tokens(seat)])
        self.armed = kind
        what = "pass" if kind == "pass" else "gather your clan (all your cards off the board reshuffled, 5 drawn)"
        return Outcome(f"press {kind} again or confirm to {what}: {self.token_words(seat)}; any other key calls it off")

    def _replace(self, seat: int, card: str) -> Outcome:
        action: Action = Action({"type": "replace", "card": card})
        reason = self.problem(action)
        if reason is not None:
            return Outcome(reason, refused=True)
        return Outcome(f"{card} replaced by the top card of your deck", action=action)

    def _confirm(self, card: str) -> Outcome:
        action = self.place_action()
        assert action is not None
        self.sync_picker()
        turn = self.legal_rotation(card, self.rotation)
        if "rotation" not in self.picker.chosen and turn is not None:
            self.picker.choose("rotation", turn)
        if self.picker.choose("x", self.x) and self.picker.choose("y", self.y) and self.picker.action() is not None:
            # the turn as the person chose it (the engine takes either of a symmetric card's equal turns)
            return Outcome(f"place {card} at ({self.x}, {self.y})", action=action)
        self.sync_picker()  # the spot stays a free cursor
        reason = self.problem(action) or "not a legal placement"
        return Outcome(reason, refused=True, flash=self.footprint(self.x, self.y))

    # ------------------------------------------------------------------- words

    def secret_sections(self, seat: int, view: dict[str, Any]) -> list[tuple[str, str | list[str]]]:
        hand = [f"{card}: {card_words(card)}" for card in view.get("hand", [])]
        return [("hand", hand or ["empty"]), ("discard pile", words(view.get("discard", [])))]

    def prompt(self, seat: int) -> str:
        reads = self.reads
        if not reads.camp_placed(seat):
            return (
                f"place your camp ({card_words(CAMP)}): move it with the arrows or the x and y keys, rotate, confirm "
                f"({len(self.spots(CAMP, self.rotation))} spots turned this way)"
            )
        hand = ", ".join(f"{i + 1} {card} ({card_words(card)})" for i, card in enumerate(reads.hand(seat)))
        legal = {action["type"] for action in self.legal_now()}
        tokens = f"{reads.tokens(seat)} token{'s' * (reads.tokens(seat) != 1)}"
        if "place" not in legal:  # say why, and what is left to do (passing and gathering cost a token)
            ways = [w for t, w in (("replace", "replace a card (choose it, then replace)"), ("gather", "gather your clan"),
                                   ("pass", "pass")) if t in legal]
            what = f"{', '.join(ways[:-1])} or {ways[-1]}" if len(ways) > 1 else ways[0]
            return (f"your hand: {hand}. None of your cards fits anywhere now (a card must overlap a card in play and "
                    f"an empty space, cover only what its tiles may cover, and have its requirements on the board): "
                    f"{what}; {tokens} left")
        extra = "" if reads.replaced else ", replace (after choosing a card), gather"
        return f"your hand: {hand}. Choose a card and place it, or pass{extra}; {reads.tokens(seat)} tokens"

    def page_prompt(self, seat: int) -> str:
        """The prompt on ``seat``'s page: the camp is placed by a tap on the map, not with the board's keys."""
        if self.reads.camp_placed(seat):
            return self.prompt(seat)  # it names no key
        return (f"place your camp ({card_words(CAMP)}): tap a spot on the map, or choose where and how "
                f"it is turned below ({len(self.spots(CAMP, self.rotation))} spots turned this way)")

    def flash_for(self, action: Action) -> list[int]:
        x, y = action.get("x"), action.get("y")
        if action.get("type") == "place" and isinstance(x, int) and isinstance(y, int):
            if 0 <= x < self.layout.columns and 0 <= y < self.layout.rows:
                return self.footprint(x, y)
        seat = self.reads.current_seat()
        return [] if seat is None else [self.layout.turn_leds[seat]]

    def describe_entry(self, entry: Mapping[str, Any], seat: int | None = None) -> str | None:
        """A deck shuffled (its order is nobody's to see, its owner's included)."""
        if entry.get("chance") == "shuffle" and isinstance(entry.get("seat"), int):
            clan = self.seat_word(entry["seat"])
            if entry.get("reason") == "gathering":
                return f"the {clan} clan's cards are shuffled together (gathering)"
            return f"the {clan} clan's deck is shuffled"
        return super().describe_entry(entry, seat)

    def describe_action(self, action: Action) -> str:
        kind = action.get("type")
        if kind == "place":
            card = action.get("card")
            words = f" ({card_words(card)})" if isinstance(card, str) and card in CARDS else ""
            return f"places {card}{words} at {spot_name(action.get('x'), action.get('y'))}, {turn_name(action.get('rotation'))}"
        if kind == "replace":
            return "replaces a card of its hand with the top of its deck"  # which card is secret
        if kind == "gather":
            return "gathers its clan: cards reshuffled, 5 drawn, a chieftain token lost"
        if kind == "pass":
            return "passes and loses a chieftain token"
        return str(action)

    def drawing(self, seat: int | None) -> str | None:
        """The placed cards; for a seat also its hand, and while it acts its chosen card's turns and
        spots (:mod:`tablelight.games.mainland.drawing`)."""
        from tablelight.games.mainland.drawing import draw

        return draw(self, seat)

    def choice_value_words(self, field: str, value: Any) -> str | None:
        """A card is named with its tiles (``c12: village plain / mountain forest``)."""
        if field == "card" and isinstance(value, str):
            return f"{value}: {card_words(value)}" if value != "camp" else "camp"
        if field == "rotation" and isinstance(value, int):
            return turn_name(value)  # as the rotate key turns it, never degrees
        return None

    def action_words(self, action: Action) -> str:
        """A choice in words for the seat making it: which of its cards a replace puts back."""
        card = action.get("card")
        if action.get("type") == "replace" and isinstance(card, str) and card in CARDS:
            return f"replaces {card} ({card_words(card)}) with the top of its deck"
        return self.describe_action(action)
