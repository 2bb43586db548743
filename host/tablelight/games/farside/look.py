"""Farside's face, part 3: the look of the console (see :mod:`tablelight.games.farside.face`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tablelight.core.fields import is_chance_entry
from tablelight.core.game import LogEntry
from tablelight.games.farside.console import AP_LEDS
from tablelight.games.farside.menu import FarsideMenu
from tablelight.table.face import BLINK, OFF, PULSE, SEAT_COLORS, SOLID, WHITE, DiceRoll, Pixel, flash_over, scaled

AMBER = (255, 140, 0)
PHASE_COLOR = (160, 160, 160)
#: Pip LED order of a die: top-left, top-right, middle-left, centre, middle-right, bottom-left, bottom-right.
PIP_PATTERNS: dict[int, tuple[int, ...]] = {
    0: (),
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
}


class FarsideLook(FarsideMenu):
    """What every LED of the console shows."""

    def pixels(self, flashing: Collection[int] = ()) -> list[Pixel]:
        game = self.game
        layout = self.layout
        pixels: list[Pixel] = [OFF] * layout.leds
        seat_to_act = game.current_seat()
        for seat in (0, 1):
            self._seat_pixels(pixels, seat, seat_to_act)
        self._track_pixels(pixels)
        if seat_to_act is not None and game.phase in layout.phases:
            pixels[layout.phases[game.phase]] = scaled(PHASE_COLOR, 1.0)
        self._last_roll_pixels(pixels)
        self._button_pixels(pixels, seat_to_act)
        return flash_over(pixels, flashing)

    def _die(self, pixels: list[Pixel], leds: Sequence[int], value: int, look: Pixel) -> None:
        for pip in PIP_PATTERNS.get(min(max(value, 0), 6), ()):
            pixels[leds[pip]] = look

    def _seat_pixels(self, pixels: list[Pixel], seat: int, seat_to_act: int | None) -> None:
        game = self.game
        layout = self.layout
        color = SEAT_COLORS[seat]
        command, manoeuvre = game.command_die[seat], game.manoeuvre_die[seat]
        rolled = game.command_dice[seat]
        if command is not None and manoeuvre is not None:
            self._die(pixels, layout.command_die[seat], command, scaled(color, 1.0))
            used = game.manoeuvre_used[seat] is not None
            self._die(pixels, layout.manoeuvre_die[seat], manoeuvre, scaled(color, 0.15 if used else 0.6))
        elif len(rolled) == 2:
            choosing = game.phase == "command" and game.pending is None and seat_to_act == seat
            look = scaled(color, 1.0, PULSE) if choosing else scaled(color, 0.6)
            self._die(pixels, layout.command_die[seat], rolled[0], look)
            self._die(pixels, layout.manoeuvre_die[seat], rolled[1], look)
        left = game.action_points[seat]
        total = command or 0
        in_turn = game.phase in ("action", "melee", "impact") and game.active == seat
        for index, led in enumerate(layout.action_points[seat]):
            if index < left:
                pixels[led] = scaled(color, 1.0)
            elif in_turn and index < total:
                pixels[led] = scaled(color, 0.1)
        if (self.menu == "spend" and seat_to_act == seat and 0 < left <= AP_LEDS
                and self.choices and self.choices[self.index]["type"] in ("activate", "secure")):
            pixels[layout.action_points[seat][left - 1]] = scaled(color, 1.0, BLINK)  # the point about to be spent
        turn = layout.turn[seat]
        if seat_to_act is None:
            pixels[turn] = scaled(color, 1.0, BLINK) if seat in game.winners() else scaled(color, 0.1)
        elif seat == seat_to_act:
            pixels[turn] = scaled(color, 1.0, PULSE)
        elif game.phase in ("action", "melee", "impact") and game.active == seat:
            pixels[turn] = scaled(color, 0.5)
        else:
            pixels[turn] = scaled(color, 0.1)

    def _track_pixels(self, pixels: list[Pixel]) -> None:
        game = self.game
        counts = [sum(game.objectives[seat].values()) for seat in (0, 1)]
        limit = game.options["objective_limit"]
        last_round = sum(counts) >= limit and not game.is_over()
        effect = PULSE if last_round else SOLID
        owners = [0] * counts[0] + [1] * counts[1]
        for index, led in enumerate(self.layout.track):
            if index < len(owners):
                pixels[led] = scaled(SEAT_COLORS[owners[index]], 1.0, effect)
            elif index + 1 == limit:
                pixels[led] = scaled(WHITE, 0.1)

    def last_roll(self) -> tuple[int | None, str, list[int]] | None:
        """(seat, roll kind, values) of the last roll in the log; a defence roll's values are [failed dice]."""
        log = self.game.log
        end = len(log) - 1
        while end >= 0:
            entry = log[end]
            if is_chance_entry(entry):
                break
            action = entry.get("action")
            if action and action.get("type") == "roll" and ("dice" in action or "fails" in action):
                if "fails" in action:
                    return entry.get("seat"), "defense", [action["fails"]]
                return entry.get("seat"), "table", list(action["dice"])
            end -= 1
        if end < 0:
            return None
        return self._chance_run(log, end)

    def _chance_run(self, log: Sequence[LogEntry], end: int) -> tuple[int | None, str, list[int]]:
        last = log[end]
        context = {k: v for k, v in last.items() if k != "value"}
        start = end
        while start > 0 and is_chance_entry(log[start - 1]) and {k: v for k, v in log[start - 1].items() if k != "value"} == context:
            start -= 1
        values = [int(e["value"]) for e in log[start:end + 1]]
        kind = str(last["chance"])
        seat = last.get("seat")
        if kind == "defense":
            model = self.game.models.get(last.get("model", ""))
            if model is None:
                return None, kind, [len(values)]
            return model["owner"], kind, [self.game.defense_fails(last["model"], values)]
        return seat if isinstance(seat, int) else None, kind, values

    def _last_roll_pixels(self, pixels: list[Pixel]) -> None:
        game = self.game
        faces = self.layout.last_roll
        pending = game.pending
        if self.entry and pending is not None:
            color = SEAT_COLORS[pending["seat"]]
            for die, value in enumerate(self.entry[:2]):
                self._die(pixels, faces[die], value, scaled(color, 1.0, BLINK))
            return
        last = self.last_roll()
        if last is None:
            return
        seat, kind, values = last
        if kind == "defense":
            fails = values[0]
            look = scaled(AMBER, 1.0)
            self._die(pixels, faces[0], min(fails, 6), look)
            self._die(pixels, faces[1], min(max(fails - 6, 0), 6), look)
            return
        color = SEAT_COLORS[seat] if seat in (0, 1) else WHITE
        for die, value in enumerate(values[:2]):
            self._die(pixels, faces[die], value, scaled(color, 0.8))

    def _available(self) -> set[str]:
        """The buttons that can do something now."""
        game = self.game
        legal = game.legal_actions()
        types = {a["type"] for a in legal}
        ready: set[str] = set()
        if game.pending is not None and game.options["dice"] != "host":
            ready.add("roll")
        if any((a["type"] == "activate" and not a.get("group")) or a["type"] == "secure" for a in legal):
            ready.add("spend")
        if types & {"end_turn", "done"}:
            ready.add("advance")
        if "impact" in types:
            ready.add("impact")
        if types & {"break_through", "loot"}:
            ready.add("leave")
        if any((a["type"] == "activate" and a.get("group")) or a["type"] == "pile_in" for a in legal):
            ready.add("group")
        if legal:
            ready |= {"next", "prev"}
        if self.menu is not None:
            ready |= {"confirm", "cancel"}
            if len(self._varying_fields()) > 1:
                ready.add("field")
        if self.entry:
            ready |= {"confirm", "cancel"}
        return ready

    def _button_pixels(self, pixels: list[Pixel], seat_to_act: int | None) -> None:
        if seat_to_act is None:
            return
        color = SEAT_COLORS[seat_to_act] if seat_to_act in (0, 1) else WHITE
        open_key = {"manoeuvre0": None, "manoeuvre1": None, "all": None}.get(self.menu or "", self.menu)
        press_roll = self.game.pending is not None and self.game.options["dice"] != "host"
        for name in self._available():
            led = self.layout.button_led[name]
            if name == open_key or (name == "roll" and press_roll) or (name == "advance" and self.advance_armed):
                pixels[led] = scaled(color, 1.0, PULSE)
            else:
                pixels[led] = scaled(WHITE, 0.25)

    def dice_rolls(self, entries: Sequence[LogEntry]) -> list[DiceRoll]:
        """Rolls among new log ``entries`` for the board to animate (``BoardSession.dice``).

        Command rolls land on the seat's two dice, other rolls on the last-roll dice (a
        defence roll: its failed dice in amber). Physical dice entered at the table are not
        animated (the players rolled them).
        """
        rolls: list[DiceRoll] = []
        index = 0
        entries = list(entries)
        while index < len(entries):
            if "chance" not in entries[index]:
                index += 1
                continue
            context = {k: v for k, v in entries[index].items() if k != "value"}
            end = index
            while end + 1 < len(entries) and is_chance_entry(entries[end + 1]) and \
                    {k: v for k, v in entries[end + 1].items() if k != "value"} == context:
                end += 1
            seat, kind, values = self._chance_run(entries, end)
            index = end + 1
            if kind == "command" and seat in (0, 1) and len(values) == 2:
                faces = [self.layout.command_die[seat], self.layout.manoeuvre_die[seat]]
                color = SEAT_COLORS[seat]
            elif kind == "defense":
                fails = values[0]
                values = [min(fails, 6), min(max(fails - 6, 0), 6)]
                faces = self.layout.last_roll
                color = AMBER
            else:
                faces = self.layout.last_roll
                color = SEAT_COLORS[seat] if seat in (0, 1) else WHITE
                values = values[:2]
            leds: list[int] = []
            for face, value in zip(faces, values):
                pattern = PIP_PATTERNS[min(max(value, 0), 6)]
                leds += [face[p] for p in pattern] + [face[p] for p in range(7) if p not in pattern]
            rolls.append(DiceRoll(leds, values, color))
        return rolls
