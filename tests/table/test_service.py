import pytest

from tablelight.core.errors import SetupError
from tablelight.games.farlander.engine import Farlander
from tablelight.games.farlander.face import InputMachine
from tablelight.games.farlander.face import load_layout
from tablelight.games.farlander.face import BLINK, render
from tablelight.table.service import Table, resolve_seats
from tablelight.table.store import GameStore


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_seat_specs():
    assert resolve_seats(Farlander, "human,random", None) == ["human", "random"]
    assert resolve_seats(Farlander, "random", 3) == ["random"] * 3
    assert resolve_seats(Farlander, "bot,human", 2)[0] in Farlander.bot_names()
    with pytest.raises(SetupError, match="3 seats for 2"):
        resolve_seats(Farlander, "human,bot,bot", 2)
    with pytest.raises(SetupError, match="unknown seat kind 'wizard'"):
        resolve_seats(Farlander, "human,wizard", 2)


def test_a_bot_game_runs_to_the_end_and_shows_every_state(fake_board, tmp_path):
    game = Farlander(2, seed=4)
    with GameStore(tmp_path / "g.sqlite") as store:
        table = Table(game, ["random", "random"], board=fake_board, store=store)
        table.run()
        assert game.is_over()
        assert fake_board.shown[-1] == render(game, load_layout())
        assert store.games()[0].status == "over"
        assert store.load(table.game_id).to_record() == game.to_record()
    assert "game over" in table.messages[-1]


def test_every_action_is_stored_before_the_board_shows_it(tmp_path):
    path = tmp_path / "g.sqlite"

    class CheckingBoard:
        def __init__(self) -> None:
            self.checked = 0

        def show(self, pixels):
            with GameStore(path) as other:  # another connection: only committed data is visible
                stored = other.record(table.game_id)["log"]
            assert len(stored) == len(game.log)
            self.checked += 1

        def poll(self, timeout):
            return []

        connected = True

        def dice(self, leds, values, *, color):
            pass

        def in_sync(self):
            return True

    board = CheckingBoard()
    game = Farlander(2, seed=8)
    with GameStore(path) as store:
        table = Table(game, ["random", "random"], board=board, store=store)
        table.run(max_actions=12)
    assert board.checked >= 12


def _human_first_game(seed: int = 6) -> Farlander:
    for s in range(seed, seed + 50):
        game = Farlander(2, seed=s)
        if game.current_seat() == 0:
            return game
    raise AssertionError("no seed where seat 0 starts")


def test_human_places_by_pressing_and_bot_answers(fake_board, tmp_path):
    game = _human_first_game()
    table = Table(game, ["human", "random"], board=fake_board)
    keys = InputMachine(game, load_layout())
    fake_board.press(keys.keys_for(3)[0])
    table.step()
    placed = [e for e in game.log if "action" in e]
    assert placed[0] == {"seat": 0, "action": {"type": "place", "territory": game.ids[3]}}
    table.step()  # the bot's turn
    assert [e["seat"] for e in game.log if "action" in e] == [0, 1]
    assert game.current_seat() == 0
    assert "red: press a territory to place a unit (35 left)" == table.messages[-1]


def test_an_illegal_press_flashes_and_changes_nothing(fake_board):
    clock = Clock()
    game = _human_first_game()
    table = Table(game, ["human", "human"], board=fake_board, clock=clock, flash_seconds=1.0)
    keys = InputMachine(game, load_layout())
    leds = load_layout().leds_of(game.map.territories[0].tile, game.map.territories[0].edges)
    fake_board.press(keys.keys_for(0)[0])  # seat 0 places in territory 0
    table.step()
    fake_board.press(keys.keys_for(0)[0])  # seat 1 may not place in seat 0's territory
    before = game.to_record()
    shows = len(fake_board.shown)
    table.step()
    assert game.to_record() == before
    assert "held by red" in table.messages[-1]  # the engine says "seat 0": players read colours
    assert len(fake_board.shown) == shows + 1
    assert all(fake_board.shown[-1][led] == (255, 255, 255, BLINK) for led in leds)
    clock.now += 1.5
    table.step()
    assert fake_board.shown[-1] == render(game, load_layout())


def test_presses_during_a_bot_turn_are_ignored(fake_board):
    game = _human_first_game()
    table = Table(game, ["random", "random"], board=fake_board, bot_delay=10.0, clock=Clock())
    fake_board.press(3)
    table.step()
    assert [e for e in game.log if "action" in e] == []
    assert "plays by itself" in table.messages[-1]


def test_a_human_conquest_through_the_board(fake_board):
    from tablelight.core.rng import Rng

    game = Farlander(2, seed=11)
    rng = Rng(1)
    while game.phase != "action":
        game.apply(game.random_action(rng))
    seat = game.current_seat()
    seats = ["random", "random"]
    seats[seat] = "human"
    table = Table(game, seats, board=fake_board)
    keys = InputMachine(game, load_layout())
    target = game.targets(seat)[0]
    source = sorted(game.spare_units(seat, target))[0]
    for key in (keys.keys_for(target)[0], keys.keys_for(source)[0], 49):
        fake_board.press(key)
    table.step()
    last = [e for e in game.log if "action" in e and e["seat"] == seat][-1]
    assert last["action"] == {"type": "conquer", "target": game.ids[target], "moves": {game.ids[source]: 1}}
    assert game.owner[target] == seat


def test_a_resumed_game_ends_exactly_like_an_uninterrupted_one(tmp_path):
    seats = ["random", "strong", "random"]
    straight = Farlander(3, seed=21)
    Table(straight, seats).run()

    path = tmp_path / "g.sqlite"
    game = Farlander(3, seed=21)
    with GameStore(path) as store:
        table = Table(game, seats, store=store)
        table.run(max_actions=40)  # the host "dies" here
        game_id = table.game_id
    with GameStore(path) as store:
        resumed = store.load(game_id)
        Table(resumed, store.seats(game_id), store=store, game_id=game_id).run()
        assert resumed.to_record() == straight.to_record()
        assert store.load(game_id).to_record() == straight.to_record()


def test_a_human_seat_needs_a_board():
    with pytest.raises(SetupError, match="needs a board"):
        Table(Farlander(2), ["human", "random"])


def test_bots_wait_while_the_board_is_away(fake_board):
    game = Farlander(2, seed=3)
    table = Table(game, ["random", "random"], board=fake_board, poll_interval=0.0)
    table.run(max_actions=3)
    fake_board.connected = False
    for _ in range(5):
        table.step()
    assert sum(1 for e in game.log if "action" in e and not e.get("auto")) == 3
    assert "waiting for it to come back" in table.messages[-1]
    fake_board.connected = True
    table.step()
    table.step()
    assert "the board is back" in table.messages
    assert sum(1 for e in game.log if "action" in e and not e.get("auto")) >= 4


def test_every_word_players_read_names_the_seats_by_colour(fake_board):
    """Prompts, the moves said to the table, the pages' seats, turn line and log read "red" and "blue"
    (as the game-over line does), never "seat 0 (red, human)"."""
    from tablelight.table.intents import Choose
    from tablelight.web.desk import Desk

    game = _human_first_game()
    table = Table(game, ["human", "random"], board=fake_board)
    desk = Desk(table)
    table.prompt()
    keys = InputMachine(game, load_layout())
    fake_board.press(keys.keys_for(3)[0])
    table.step()
    table.step()  # the bot's move
    said = table.messages
    assert said[-3].startswith("red: places a unit in") and said[-2].startswith("blue: places a unit in")
    assert said[-1].startswith("red: press a territory")
    public, page = desk.public(), desk.seat(0)
    assert page is not None and [s["label"] for s in public["seats"]] == ["red", "blue"] and page["label"] == "red"
    assert public["turn_line"] == "red: your turn" and public["log"][-1].startswith("blue: places a unit in")
    shown = " ".join([*said, public["turn_line"], *public["log"], page["prompt"], *page["log"]])
    assert "seat 0" not in shown and "seat 1" not in shown and ", human)" not in shown and ", random)" not in shown
    refused = table.handle(Choose({"type": "end"}, seat=1, at=len(game.log)))
    assert refused.words == "blue is not played by a person"
