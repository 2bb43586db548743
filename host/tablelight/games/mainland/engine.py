"""The Mainland rules engine.

2-4 clans lay 2x2-tile cards on a square grid of tiles. Each clan first lays its
camp card; afterwards, on its turn, a clan may replace one card of its hand with
the top of its deck, then places one card (rotated any way) that overlaps at
least one tile in play and at least one empty space (a card holding a castle
may lie entirely on cards), stays inside the board and obeys the overlay table
on every tile, with the requirements of its advanced items met; then draws back
to five. Instead a clan may pass, or (at the very start of its turn) gather all
its off-board cards, reshuffle and draw five; both cost a chieftain token. A
clan without tokens stops; the game ends when every clan has stopped. Scoring is
in :mod:`tablelight.games.mainland.scoring`.

Actions::

    {"type": "place", "card": "village3", "x": 4, "y": 5, "rotation": 1}
    {"type": "replace", "card": "tower2"}
    {"type": "gather"}
    {"type": "pass"}

``x, y`` is the top-left tile the card covers; ``rotation`` counts quarter
turns clockwise (0-3). Hands and deck order are secret: :meth:`Mainland.view`
shows a seat only its own hand and :meth:`Mainland.view_log` hides every
shuffle's order and the card another clan replaced. Rule decisions and the
card and overlay design are in ``docs/rules/mainland.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tablelight.core.errors import MalformedActionError, RuleViolationError, SetupError
from tablelight.core.fields import NOBODY, is_action_entry, is_whole
from tablelight.core.game import Action, Game, LogEntry
from tablelight.core.options import OptionSpec
from tablelight.core.rng import Rng
from tablelight.games.mainland.data import (
    ADVANCED,
    CAMP_CARD,
    CARDS,
    CASTLE,
    COVERS,
    DECK_IDS,
    EMPTY,
    ITEM,
    ITEM_NAMES,
    REQUIRES,
    rotated,
    spot_name,
)
from tablelight.games.mainland.scoring import ClanScore, score_board

HAND_SIZE = 5
TOKENS = 6
#: Board side in tiles per number of players (the "limit" lines of the rulebook's mat).
BOARD_SIZES = {2: 12, 3: 14, 4: 16}
CLAN_NAMES = ("green", "frozen", "sand", "arid")

_CAMP_ID = CAMP_CARD.id
#: Per card: its tiles (item numbers, clockwise from the top left) after 0-3 quarter turns; then
#: the rotations that give distinct layouts.
ROTATIONS: dict[str, tuple[tuple[int, int, int, int], ...]] = {
    cid: tuple(rotated(card.tiles, r) for r in range(4)) for cid, card in CARDS.items()
}
_DISTINCT_ROTATIONS: dict[str, tuple[int, ...]] = {
    cid: tuple(r for r in range(4) if rots[r] not in rots[:r]) for cid, rots in ROTATIONS.items()
}
_HAS_CASTLE: dict[str, bool] = {cid: CASTLE in card.tiles for cid, card in CARDS.items()}
#: Per card: (advanced item, copies on the card) pairs, and item -> copies on the card.
_ADVANCED_ON: dict[str, tuple[tuple[int, int], ...]] = {
    cid: tuple((item, card.tiles.count(item)) for item in sorted(set(card.tiles) & ADVANCED))
    for cid, card in CARDS.items()
}
_ON_CARD: dict[str, dict[int, int]] = {
    cid: {item: card.tiles.count(item) for item in set(card.tiles)} for cid, card in CARDS.items()
}

# Why a placement fails: a rule id and the values its message needs (formatted only on demand).
Problem = tuple[Any, ...]


class Mainland(Game):
    name = "mainland"
    min_players = 2
    max_players = 4
    has_secrets = True  # each clan's hand and the shuffles are hidden (view, view_log)
    #: "strong" is Mainland's strongest bot, the greedy one (so `bench bots`' default works).
    own_bots = {"greedy": "tablelight.games.mainland.bots:GreedyBot", "strong": "tablelight.games.mainland.bots:GreedyBot"}
    option_specs = (
        OptionSpec(
            "board_size",
            int,
            lambda players: BOARD_SIZES[players],
            "side of the square board in tiles (default 12, 14, 16 for 2, 3, 4 players)",
            choices=tuple(range(6, 33)),
        ),
        OptionSpec(
            "own_card_requirements",
            bool,
            False,
            "a card's own wheat, wood, gold, village... may meet its advanced items' requirements (default: off)",
        ),
    )

    # ------------------------------------------------------------------ setup

    def _setup(self, setup: Mapping[str, Any] | None) -> None:
        size = self.size = self.options["board_size"]
        self.own_card_counts: bool = self.options["own_card_requirements"]
        #: Anchors: every top-left position of a card inside the board, with its four cells clockwise.
        self.anchors: list[tuple[int, int, tuple[int, int, int, int]]] = [
            (x, y, (y * size + x, y * size + x + 1, (y + 1) * size + x + 1, (y + 1) * size + x))
            for y in range(size - 1)
            for x in range(size - 1)
        ]
        self.top_item: list[int] = [EMPTY] * (size * size)
        self.top_clan: list[int] = [NOBODY] * (size * size)
        #: Visible (uncovered) tiles per clan per item number.
        self.counts: list[list[int]] = [[0] * len(ITEM_NAMES) for _ in range(self.players)]
        self.tokens = [TOKENS] * self.players
        self.camp_placed = [False] * self.players
        self.hands: list[list[str]] = [[] for _ in range(self.players)]
        self.decks: list[list[str]] = [[] for _ in range(self.players)]
        self.discards: list[list[str]] = [[] for _ in range(self.players)]
        self.turn: int | None = 0  # the rulebook's youngest player is seat 0
        self.replaced = False  # the current clan used step 1 this turn
        self.turns_played = 0
        self._version = 0  # bumped on every change; keys the caches below
        self._placement_cache: tuple[int, list[tuple[str, int, int, int]]] | None = None
        self._score_cache: tuple[int, list[ClanScore]] | None = None
        for seat in range(self.players):
            self._shuffle_into_deck(seat, list(DECK_IDS), "setup")
            self._draw(seat, HAND_SIZE)

    # ---------------------------------------------------------------- queries

    def current_seat(self) -> int | None:
        return self.turn

    def cell(self, x: int, y: int) -> tuple[int, int]:
        """(clan, item number) on tile (x, y); (-1, 0) for the empty space."""
        index = y * self.size + x
        return self.top_clan[index], self.top_item[index]

    def set_tile(self, x: int, y: int, clan: int, item: str) -> None:
        """Put ``clan``'s ``item`` on tile (x, y), outside the rules (tests and puzzles set up boards with it).

        ``item`` "empty" clears the tile. Bypasses the log: a game changed this way no longer replays.
        """
        index = y * self.size + x
        old_clan = self.top_clan[index]
        if old_clan != NOBODY:
            self.counts[old_clan][self.top_item[index]] -= 1
        number = ITEM[item]
        self.top_item[index] = number
        self.top_clan[index] = NOBODY if number == EMPTY else clan
        if number != EMPTY:
            self.counts[clan][number] += 1
        self._version += 1

    def set_cards(self, seat: int, hand: list[str], deck: list[str], discards: list[str] | None = None) -> None:
        """Lay out ``seat``'s off-board cards as ``hand``, ``deck`` (top first) and ``discards`` (default: as
        they are), outside the rules like :meth:`set_tile` (tests and puzzles set up positions with it).
        The cards must be the seat's own off-board cards, each once; SetupError otherwise."""
        discards = list(self.discards[seat]) if discards is None else list(discards)
        if sorted(hand + deck + discards) != sorted(self.hands[seat] + self.decks[seat] + self.discards[seat]):
            raise SetupError(f"seat {seat}'s hand, deck and discards must hold its own off-board cards, each once")
        self.hands[seat], self.decks[seat], self.discards[seat] = list(hand), list(deck), discards
        self._version += 1

    def forget_placements(self) -> None:
        """Drop the cached placement listing, so that the next :meth:`placements` lists from scratch
        (the placement benchmark times that). Changes nothing a player can see."""
        self._placement_cache = None

    def placements(self, seat: int | None = None) -> list[tuple[str, int, int, int]]:
        """Every legal (card, x, y, rotation) of ``seat`` (default: the current seat) now.

        The one test is :meth:`_fit`, which :meth:`_check` uses too; only anchors
        that :meth:`_fit` would reject for touching no tile in play are skipped.
        """
        seat = self.turn if seat is None else seat
        if seat is None:
            return []
        if seat == self.turn and self._placement_cache and self._placement_cache[0] == self._version:
            return self._placement_cache[1]
        found: list[tuple[str, int, int, int]] = []
        cards = [_CAMP_ID] if not self.camp_placed[seat] else sorted(set(self.hands[seat]))
        # Cards with the same tiles fit the same places: test one of them, list them all.
        same_tiles: dict[tuple[int, ...], list[str]] = {}
        for card in cards:
            same_tiles.setdefault(CARDS[card].tiles, []).append(card)
        groups = list(same_tiles.values())
        tops = self.top_item
        for anchor in self._candidate_anchors(camp=not self.camp_placed[seat]) if cards else ():
            x, y, cells = self.anchors[anchor]
            below = (tops[cells[0]], tops[cells[1]], tops[cells[2]], tops[cells[3]])
            for group in groups:
                card = group[0]
                if self._ground_problem(card, cells, below) is not None:
                    continue
                for rotation in _DISTINCT_ROTATIONS[card]:
                    if self._cover_problem(seat, card, rotation, cells, below) is None:
                        found.extend((same, x, y, rotation) for same in group)
        if seat == self.turn:
            self._placement_cache = (self._version, found)
        return found

    def _candidate_anchors(self, camp: bool) -> list[int]:
        """Anchors worth testing: all for a camp, else those covering at least one tile in play."""
        if camp:
            return list(range(len(self.anchors)))
        size, span = self.size, self.size - 1
        chosen: set[int] = set()
        for index, item in enumerate(self.top_item):
            if item != EMPTY:
                y, x = divmod(index, size)
                for ay in (y - 1, y):
                    if 0 <= ay < span:
                        for ax in (x - 1, x):
                            if 0 <= ax < span:
                                chosen.add(ay * span + ax)
        return sorted(chosen)

    def _fit(
        self, seat: int, card: str, rotation: int, cells: tuple[int, ...], below: tuple[int, ...]
    ) -> Problem | None:
        """Why ``card`` may not lie on ``cells`` (whose top items are ``below``), or None.

        The single placement test: validation calls it, and listing calls its
        two parts (the second only where the first passes).
        """
        return self._ground_problem(card, cells, below) or self._cover_problem(seat, card, rotation, cells, below)

    @staticmethod
    def _ground_problem(card: str, cells: tuple[int, ...], below: tuple[int, ...]) -> Problem | None:
        """The rules on what lies under the card as a whole: camps on empty space, others on play and space."""
        if card == _CAMP_ID:
            for i in range(4):
                if below[i] != EMPTY:
                    return ("mainland.place.camp_overlap", cells[i])
            return None
        empty = (below[0] == EMPTY) + (below[1] == EMPTY) + (below[2] == EMPTY) + (below[3] == EMPTY)
        if empty == 4:
            return ("mainland.place.touch",)
        if empty == 0 and not _HAS_CASTLE[card]:
            return ("mainland.place.empty",)
        return None

    def _cover_problem(
        self, seat: int, card: str, rotation: int, cells: tuple[int, ...], below: tuple[int, ...]
    ) -> Problem | None:
        """The rules tile by tile: the overlay table, then the advanced items' requirements."""
        if card == _CAMP_ID:
            return None
        tiles = ROTATIONS[card][rotation]
        for i in range(4):
            if not COVERS[tiles[i]] >> below[i] & 1:
                return ("mainland.place.overlay", cells[i], tiles[i], below[i])
        advanced = _ADVANCED_ON[card]
        if advanced:
            counts = self.counts[seat]
            lost: dict[int, int] = {}
            clans = self.top_clan
            for i in range(4):
                if clans[cells[i]] == seat:
                    lost[below[i]] = lost.get(below[i], 0) + 1
            on_card = _ON_CARD[card]
            for item, copies in advanced:
                needed = counts[item] - lost.get(item, 0) + copies
                for required in REQUIRES[item]:
                    have = counts[required] - lost.get(required, 0)
                    if self.own_card_counts:
                        have += on_card.get(required, 0)
                    if have < needed:
                        return ("mainland.place.requirement", item, required, needed, have)
        return None

    def _problem_message(self, problem: Problem, card: str, x: int, y: int) -> str:
        rule = problem[0]
        if rule == "mainland.place.camp_overlap":
            cx, cy = self._xy(problem[1])
            return f"the camp card must lie on empty space; the tile at {spot_name(cx, cy)} is taken"
        if rule == "mainland.place.touch":
            return f"{card} at {spot_name(x, y)} must overlap at least one card in play"
        if rule == "mainland.place.empty":
            return f"{card} at {spot_name(x, y)} must overlap at least one empty space (only a castle card may lie wholly on cards)"
        if rule == "mainland.place.overlay":
            _, index, item, below = problem
            cx, cy = self._xy(index)
            return f"a {ITEM_NAMES[item]} cannot be placed on a {ITEM_NAMES[below]} (the tile at {spot_name(cx, cy)})"
        _, item, required, needed, have = problem
        return (
            f"{needed} {ITEM_NAMES[item]}(s) need {needed} visible {ITEM_NAMES[required]}(s) of your own "
            f"(not counting what this card covers); you have {have}"
        )

    def _xy(self, index: int) -> tuple[int, int]:
        y, x = divmod(index, self.size)
        return x, y

    def legal_actions(self) -> list[Action]:
        seat = self.turn
        if seat is None:
            return []
        actions: list[Action] = [
            Action({"type": "place", "card": card, "x": x, "y": y, "rotation": rotation})
            for card, x, y, rotation in self.placements(seat)
        ]
        return actions + self._other_actions(seat)

    def random_action(self, rng: Rng) -> Action:
        """Uniform over :meth:`legal_actions` (same order, same draw) without building every dict."""
        seat = self.turn
        assert seat is not None
        placements = self.placements(seat)
        others = self._other_actions(seat)
        pick = rng.below(len(placements) + len(others))
        if pick < len(placements):
            card, x, y, rotation = placements[pick]
            return Action({"type": "place", "card": card, "x": x, "y": y, "rotation": rotation})
        return others[pick - len(placements)]

    def _other_actions(self, seat: int) -> list[Action]:
        """The legal actions besides placing: replace, gather, pass."""
        if not self.camp_placed[seat]:
            return []
        actions: list[Action] = []
        if not self.replaced:
            if self.decks[seat]:
                actions.extend(Action({"type": "replace", "card": card}) for card in sorted(set(self.hands[seat])))
            actions.append(Action({"type": "gather"}))
        actions.append(Action({"type": "pass"}))
        return actions

    def scores(self) -> list[int]:
        return [clan.total for clan in self.clan_scores()]

    def clan_scores(self) -> list[ClanScore]:
        """Each clan's territories, Mainland and points on the board now."""
        if self._score_cache is None or self._score_cache[0] != self._version:
            self._score_cache = (self._version, score_board(self.board_cells(), self.players))
        return self._score_cache[1]

    def board_cells(self) -> dict[tuple[int, int], tuple[int, int]]:
        """(x, y) -> (clan, item number) for every covered tile."""
        size = self.size
        return {
            (index % size, index // size): (self.top_clan[index], item)
            for index, item in enumerate(self.top_item)
            if item != EMPTY
        }

    def board_json(self) -> list[dict[str, Any]]:
        """The board as the record's ``result.board`` list, row by row."""
        size = self.size
        return [
            {"x": index % size, "y": index // size, "clan": self.top_clan[index], "item": ITEM_NAMES[item]}
            for index, item in enumerate(self.top_item)
            if item != EMPTY
        ]

    def result(self) -> dict[str, Any]:
        clans = self.clan_scores()
        return {
            "scores": [clan.total for clan in clans],
            "winners": self.winners(),
            "board": self.board_json(),
            "breakdown": [clan.summary() for clan in clans],
        }

    def _public(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "size": self.size,
            "turn": self.turn,
            "replaced": self.replaced,
            "tokens": list(self.tokens),
            "camp_placed": list(self.camp_placed),
            "hand_sizes": [len(hand) for hand in self.hands],
            "deck_sizes": [len(deck) for deck in self.decks],
            "discard_sizes": [len(pile) for pile in self.discards],
            "board": self.board_json(),
            "scores": self.scores(),
            "winners": self.winners(),
        }

    def state(self) -> dict[str, Any]:
        return {
            **self._public(),
            "hands": [list(hand) for hand in self.hands],
            "decks": [list(deck) for deck in self.decks],
            "discards": [list(pile) for pile in self.discards],
        }

    def view(self, seat: int) -> dict[str, Any]:
        """The board, everyone's counts, and only ``seat``'s own hand and discards (no deck order)."""
        self._check_seat(seat)
        return {
            **self._public(),
            "seat": seat,
            "hand": list(self.hands[seat]),
            "discard": list(self.discards[seat]),
        }

    def view_log(self, seat: int) -> list[dict[str, Any]]:
        """The log without any shuffle's order, and without the card another clan replaced."""
        self._check_seat(seat)
        shown: list[dict[str, Any]] = []
        entry: Mapping[str, Any]
        for entry in self.log:
            if entry.get("chance") == "shuffle":
                entry = {**entry, "value": None, "hidden": True}
            elif is_action_entry(entry) and entry["action"].get("type") == "replace" and entry["seat"] != seat:
                entry = {**entry, "action": {"type": "replace", "card": None}}
            shown.append(dict(entry))
        return shown

    # -------------------------------------------------------------- the rules

    def _check(self, action: Action) -> Action:
        seat = self.turn
        assert seat is not None
        kind = action.get("type")
        fields = {"place": {"card", "x", "y", "rotation"}, "replace": {"card"}, "gather": set(), "pass": set()}
        if not isinstance(kind, str) or kind not in fields:
            raise MalformedActionError(
                "mainland.action.unknown_type", f"unknown action type {kind!r}; expected place, replace, gather or pass"
            )
        extra = set(action) - fields[kind] - {"type"}
        if extra:
            raise MalformedActionError("mainland.action.unknown_field", f"unexpected field(s): {sorted(extra)}")
        missing = fields[kind] - set(action)
        if missing:
            raise MalformedActionError("mainland.action.missing_field", f"{kind} needs the field(s) {sorted(missing)}")
        if kind != "place" and not self.camp_placed[seat]:
            raise RuleViolationError("mainland.camp.first", "your first card must be your camp: place it")
        if kind == "pass":
            return Action({"type": "pass"})
        if kind == "gather":
            if self.replaced:
                raise RuleViolationError(
                    "mainland.gather.start_of_turn", "clan gathering is only allowed at the very start of a turn"
                )
            return Action({"type": "gather"})
        card = action["card"]
        if not isinstance(card, str) or card not in CARDS:
            raise MalformedActionError("mainland.action.unknown_card", f"card must be a card id, got {card!r}")
        if kind == "replace":
            if self.replaced:
                raise RuleViolationError("mainland.replace.once", "you may replace only one card per turn")
            if card not in self.hands[seat]:
                raise RuleViolationError("mainland.card.not_in_hand", f"{card} is not in your hand")
            if not self.decks[seat]:
                raise RuleViolationError("mainland.replace.empty_deck", "your deck is empty: nothing to replace with")
            return Action({"type": "replace", "card": card})
        x, y, rotation = action["x"], action["y"], action["rotation"]
        for name, value in (("x", x), ("y", y), ("rotation", rotation)):
            if not is_whole(value):
                raise MalformedActionError("mainland.action.not_a_number", f"{name} must be a whole number, got {value!r}")
        if not 0 <= rotation <= 3:
            raise MalformedActionError("mainland.action.rotation", f"rotation is 0-3 quarter turns, got {rotation}")
        if not self.camp_placed[seat]:
            if card != _CAMP_ID:
                raise RuleViolationError("mainland.camp.first", "your first card must be your camp")
        elif card == _CAMP_ID:
            raise RuleViolationError("mainland.camp.once", "your camp is already on the board")
        elif card not in self.hands[seat]:
            raise RuleViolationError("mainland.card.not_in_hand", f"{card} is not in your hand")
        span = self.size - 1
        if not (0 <= x < span and 0 <= y < span):
            raise RuleViolationError(
                "mainland.place.limit",
                f"a card at {spot_name(x, y)} leaves the board: x and y must be 0-{span - 1} on a {self.size}x{self.size} board",
            )
        _, _, cells = self.anchors[y * span + x]
        tops = self.top_item
        below = (tops[cells[0]], tops[cells[1]], tops[cells[2]], tops[cells[3]])
        problem = self._fit(seat, card, rotation, cells, below)
        if problem is not None:
            raise RuleViolationError(problem[0], self._problem_message(problem, card, x, y))
        # Rotations giving the same layout are one move: name it by the smallest.
        tiles = ROTATIONS[card][rotation]
        rotation = ROTATIONS[card].index(tiles)
        return Action({"type": "place", "card": card, "x": x, "y": y, "rotation": rotation})

    def _perform(self, action: Action) -> None:
        seat = self.turn
        assert seat is not None
        self._version += 1
        kind = action["type"]
        if kind == "replace":
            self.hands[seat].remove(action["card"])
            self.discards[seat].append(action["card"])
            self._draw(seat, 1)
            self.replaced = True
            return  # the clan still places or passes
        if kind == "place":
            self._lay(seat, action["card"], action["x"], action["y"], action["rotation"])
            if action["card"] == _CAMP_ID:
                self.camp_placed[seat] = True
            else:
                self.hands[seat].remove(action["card"])
                self._draw(seat, HAND_SIZE - len(self.hands[seat]))
        elif kind == "gather":
            gathered = self.hands[seat] + self.decks[seat] + self.discards[seat]
            self.hands[seat], self.decks[seat], self.discards[seat] = [], [], []
            order = {cid: i for i, cid in enumerate(DECK_IDS)}
            self._shuffle_into_deck(seat, sorted(gathered, key=order.__getitem__), "gathering")
            self._draw(seat, HAND_SIZE)
            self.tokens[seat] -= 1
        else:  # pass
            self.tokens[seat] -= 1
        self._end_turn(seat)

    def _lay(self, seat: int, card: str, x: int, y: int, rotation: int) -> None:
        _, _, cells = self.anchors[y * (self.size - 1) + x]
        for cell, item in zip(cells, ROTATIONS[card][rotation]):
            old_clan = self.top_clan[cell]
            if old_clan != NOBODY:
                self.counts[old_clan][self.top_item[cell]] -= 1
            self.top_clan[cell] = seat
            self.top_item[cell] = item
            self.counts[seat][item] += 1

    def _shuffle_into_deck(self, seat: int, cards: list[str], reason: str) -> None:
        order = self._chance_permutation("shuffle", len(cards), seat=seat, reason=reason)
        self.decks[seat] = [cards[i] for i in order]

    def _draw(self, seat: int, count: int) -> None:
        deck = self.decks[seat]
        drawn, self.decks[seat] = deck[:count], deck[count:]
        self.hands[seat].extend(drawn)

    def _end_turn(self, seat: int) -> None:
        self.replaced = False
        self.turns_played += 1
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self.tokens[candidate] > 0:
                self.turn = candidate
                return
        self.turn = None

    # ------------------------------------------------------------------ text

    def describe(self, color: bool = False) -> str:
        lines = [board_text(self.board_cells(), self.size, color)]
        for seat in range(self.players):
            lines.append(
                f"  clan {seat} ({CLAN_NAMES[seat]}): {self.tokens[seat]} tokens, hand {len(self.hands[seat])}, "
                f"deck {len(self.decks[seat])}, score {self.scores()[seat]}"
            )
        lines.append("  game over" if self.turn is None else f"  clan {self.turn} to act")
        return "\n".join(lines)

    def describe_result(self) -> str:
        text = super().describe_result()
        if not self.is_over():
            return text
        parts = [text]
        for clan in self.clan_scores():
            parts.append(
                f"  clan {clan.clan}: Mainland {clan.mainland_tiles} tiles + {clan.mainland_items} item points, "
                f"minor territories {clan.minor_items} = {clan.total}"
            )
        return "\n".join(parts)


_COLORS = ("\033[32m", "\033[36m", "\033[33m", "\033[31m")  # green, frozen, sand, arid
_RESET = "\033[0m"


def board_text(cells: Mapping[tuple[int, int], tuple[int, int]], size: int, color: bool = False) -> str:
    """The board in the text format of docs/rules/mainland.md (``0vi`` = clan 0's village, ``.`` empty).

    With ``color`` each tile gets its clan's ANSI colour (the text is then no longer a board file).
    """
    from tablelight.games.mainland.boardfile import ITEM_CODES

    rows = []
    for y in range(size):
        row = []
        for x in range(size):
            if (x, y) in cells:
                clan, item = cells[(x, y)]
                token = f"{clan}{ITEM_CODES[ITEM_NAMES[item]]}"
                row.append(f"{_COLORS[clan % 4]}{token}{_RESET}" if color else token)
            else:
                row.append("  .")
        rows.append(" ".join(row))
    return "\n".join(rows)
