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
from tablelight.games.mainland.data import CARDS, DECK_IDS, EMPTY, ITEM, ITEM_NAMES, REQUIRES, spot_name
from tablelight.games.mainland.placing import (
    ADVANCED_ON,
    CAMP_ID,
    ON_CARD,
    ROTATIONS,
    Problem,
    fitting_rotations,
    ground_problem,
    overlay_problem,
)
from tablelight.games.mainland.boardfile import board_text
from tablelight.games.mainland.scoring import ClanScore, score_board

HAND_SIZE = 5
TOKENS = 6
#: Board side in tiles per number of players (the "limit" lines of the rulebook's mat).
BOARD_SIZES = {2: 12, 3: 14, 4: 16}
CLAN_NAMES = ("green", "frozen", "sand", "arid")

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
        #: Anchors covering at least one tile in play (the only ones a card other than the camp may use).
        self._touching: set[int] = set()
        #: The anchors each laid card changed (what lies under them, or that they now touch play), in order;
        #: and per card, how far into that list its fits (:meth:`_fits_of`) were brought, and the fits.
        self._board_changes: list[int] = []
        self._card_fits: dict[str, tuple[int, dict[int, tuple[int, ...]]]] = {}
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
        self._find_touching()  # a tile may have been emptied: found again from the board
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
        (the placement benchmark times that), each card's fits too. Changes nothing a player can see."""
        self._placement_cache = None
        self._card_fits = {}

    def placements(self, seat: int | None = None) -> list[tuple[str, int, int, int]]:
        """Every legal (card, x, y, rotation) of ``seat`` (default: the current seat) now.

        The tests are :meth:`_fit`'s, which :meth:`_check` uses too, in its parts: what depends only on
        the tiles under an anchor (:func:`fitting_rotations`, kept across listings) and the advanced
        items' requirements (the seat's visible tiles: per anchor and card, whatever the rotation).
        Only anchors that :meth:`_fit` would reject for touching no tile in play are skipped.
        """
        seat = self.turn if seat is None else seat
        if seat is None:
            return []
        if seat == self.turn and self._placement_cache and self._placement_cache[0] == self._version:
            return self._placement_cache[1]
        found: list[tuple[str, int, int, int]] = []
        anchors, extend = self.anchors, found.extend
        if not self.camp_placed[seat]:  # the camp: anywhere on empty space
            tops = self.top_item
            for x, y, cells in anchors:
                below = (tops[cells[0]], tops[cells[1]], tops[cells[2]], tops[cells[3]])
                for rotation in fitting_rotations(CAMP_ID, below):
                    found.append((CAMP_ID, x, y, rotation))
        else:
            # Cards with the same tiles fit the same places: test one of them, list them all.
            same_tiles: dict[tuple[int, ...], list[str]] = {}
            for card in sorted(set(self.hands[seat])):
                same_tiles.setdefault(CARDS[card].tiles, []).append(card)
            groups = list(same_tiles.values())
            fitting: list[tuple[int, int, tuple[int, ...]]] = []  # (anchor, group, rotations)
            tops, clans = self.top_item, self.top_clan
            for number, group in enumerate(groups):
                card = group[0]
                if not ADVANCED_ON[card]:
                    fitting.extend((anchor, number, rotations) for anchor, rotations in self._fits_of(card).items())
                    continue
                # The requirements count the seat's visible tiles less those the card would cover: where it
                # covers none of the seat's own, the verdict is the same at every such anchor.
                uncovered_verdict = self._requirements_unmet(seat, card, {}) is None
                for anchor, rotations in self._fits_of(card).items():
                    cells = anchors[anchor][2]
                    if seat in (clans[cells[0]], clans[cells[1]], clans[cells[2]], clans[cells[3]]):
                        below = (tops[cells[0]], tops[cells[1]], tops[cells[2]], tops[cells[3]])
                        if self._requirement_problem(seat, card, cells, below) is not None:
                            continue
                    elif not uncovered_verdict:
                        continue
                    fitting.append((anchor, number, rotations))
            fitting.sort()  # anchor by anchor, then the hand's order: the listing's order since the first record
            for anchor, number, rotations in fitting:
                x, y, _ = anchors[anchor]
                group = groups[number]
                for rotation in rotations:
                    extend((same, x, y, rotation) for same in group)
        if seat == self.turn:
            self._placement_cache = (self._version, found)
        return found

    def _fits_of(self, card: str) -> dict[int, tuple[int, ...]]:
        """Anchor -> the rotations of ``card`` that the ground and overlay rules allow there, for every
        anchor touching a tile in play. Kept per card and brought up to date from the anchors laid cards
        changed since (:meth:`_lay`), so a listing tests only what changed since that card's last one."""
        kept = self._card_fits.get(card)
        changes, tops, anchors = self._board_changes, self.top_item, self.anchors
        if kept is None or len(changes) - kept[0] > len(self._touching):  # long unused: find them afresh
            pending: Any = sorted(self._touching)
            fits: dict[int, tuple[int, ...]] = {}
        else:
            pending, fits = changes[kept[0]:], kept[1]
        for anchor in pending:
            cells = anchors[anchor][2]
            rotations = fitting_rotations(card, (tops[cells[0]], tops[cells[1]], tops[cells[2]], tops[cells[3]]))
            if rotations:
                fits[anchor] = rotations
            else:
                fits.pop(anchor, None)
        self._card_fits[card] = (len(changes), fits)
        return fits

    def _covering(self, cell: int) -> list[int]:
        """The anchors whose cards would cover ``cell``."""
        size, span = self.size, self.size - 1
        y, x = divmod(cell, size)
        return [ay * span + ax for ay in (y - 1, y) if 0 <= ay < span for ax in (x - 1, x) if 0 <= ax < span]

    def _find_touching(self) -> None:
        """Find the anchors touching a tile in play from the whole board (after :meth:`set_tile`)."""
        self._touching = set()
        self._board_changes, self._card_fits = [], {}
        self._changed_under(tuple(cell for cell, top in enumerate(self.top_item) if top != EMPTY))

    def _fit(
        self, seat: int, card: str, rotation: int, cells: tuple[int, ...], below: tuple[int, ...]
    ) -> Problem | None:
        """Why ``card`` may not lie on ``cells`` (whose top items are ``below``), or None.

        The single placement test: validation calls it, and listing calls its parts
        (:func:`fitting_rotations`: ground and overlay; then the requirements).
        """
        same_layout = ROTATIONS[card].index(ROTATIONS[card][rotation])  # the listed one of equal rotations
        if same_layout not in fitting_rotations(card, below):  # the verdict; the two functions below say why
            problem = ground_problem(card, cells, below)
            if problem is None:
                tile = overlay_problem(card, rotation, below)
                assert tile is not None, "fitting_rotations and overlay_problem read the same table"
                problem = ("mainland.place.overlay", cells[tile], ROTATIONS[card][rotation][tile], below[tile])
            return problem
        return self._requirement_problem(seat, card, cells, below)

    def _requirement_problem(self, seat: int, card: str, cells: tuple[int, ...], below: tuple[int, ...]) -> Problem | None:
        """The advanced items' requirements: enough visible tiles of the seat's own (the same whatever the rotation)."""
        if not ADVANCED_ON[card]:
            return None
        lost: dict[int, int] = {}  # the seat's own visible tiles the card would cover, per item
        clans = self.top_clan
        for i in range(4):
            if clans[cells[i]] == seat:
                lost[below[i]] = lost.get(below[i], 0) + 1
        return self._requirements_unmet(seat, card, lost)

    def _requirements_unmet(self, seat: int, card: str, lost: dict[int, int]) -> Problem | None:
        """The first advanced item of ``card`` whose requirement the seat's visible tiles, less ``lost``, do not meet."""
        counts = self.counts[seat]
        on_card = ON_CARD[card]
        for item, copies in ADVANCED_ON[card]:
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
            if card != CAMP_ID:
                raise RuleViolationError("mainland.camp.first", "your first card must be your camp")
        elif card == CAMP_ID:
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
            if action["card"] == CAMP_ID:
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
        self._changed_under(cells)

    def _changed_under(self, cells: tuple[int, ...]) -> None:
        """What lies on ``cells`` changed: the anchors covering them touch play now, and are noted for :meth:`_fits_of`."""
        changed = sorted({anchor for cell in cells for anchor in self._covering(cell)})
        self._touching.update(changed)
        self._board_changes.extend(changed)

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
