"""The shared input picker narrows an engine's legal actions by the values chosen so far."""

from tablelight.games.farlander.engine import Farlander
from tablelight.table.picker import Picker, refusal

ACTIONS = [
    {"type": "trade", "give": ["wool", "wool"], "get": "ore"},
    {"type": "trade", "give": ["wool", "wool"], "get": "clay"},
    {"type": "trade", "give": ["wood", "wool"], "get": "ore"},
    {"type": "move", "to": 3, "units": {"a1": 2, "b2": 1}},
    {"type": "move", "to": 3, "units": {"a1": 1}},
]


def picker() -> Picker:
    return Picker(lambda: ACTIONS, ("to", "units", "give", "get"))


def test_choices_narrow_the_candidates_and_a_refused_choice_changes_nothing():
    p = picker()
    assert p.open_field() == "give" and p.options("to") == [3]  # fields follow the first candidate
    assert p.choose("give", "wool") and len(p.candidates()) == 3
    assert p.options("give") == ["wool", "wood"]
    assert not p.choose("give", "ore") and p.chosen == {"give": ["wool"]}
    assert p.choose("give", "wool") and p.options("give") == []
    assert p.action() is None and p.open_field() == "get"
    assert p.choose("get", "clay")
    assert p.action() == {"type": "trade", "give": ["wool", "wool"], "get": "clay"}


def test_count_fields_are_chosen_one_unit_at_a_time():
    p = picker()
    assert p.choose("to", 3) and p.options("units") == ["a1", "b2"]
    assert p.choose("units", "a1") and p.action() == {"type": "move", "to": 3, "units": {"a1": 1}}
    assert p.choose("units", "a1") and p.action() is None  # two from a1 needs one from b2 as well
    assert not p.choose("units", "a1")
    assert p.choose("units", "b2") and p.action() == {"type": "move", "to": 3, "units": {"a1": 2, "b2": 1}}


def test_a_phone_page_picks_a_whole_candidate():
    p = picker()
    assert not p.pick({"type": "move", "to": 4, "units": {}})
    assert p.pick(ACTIONS[3]) and p.action() == ACTIONS[3]
    p.reset()
    assert p.chosen == {} and len(p.candidates()) == len(ACTIONS)


def test_a_page_partial_choice_replaces_what_was_chosen_or_changes_nothing():
    p = picker()
    assert p.choose("give", "wood")
    assert not p.agree({"type": "trade", "get": "gold"}) and p.chosen == {"give": ["wood"]}
    assert p.agree({"type": "move", "units": {"a1": 2}})  # a count field: the units chosen so far
    assert p.candidates() == [ACTIONS[3]] and p.open_field() == "to" and p.action() is None
    assert p.agree(ACTIONS[3]) and p.action() == ACTIONS[3]  # a whole action: every field chosen
    assert p.agree({}) and len(p.candidates()) == len(ACTIONS)


def test_refusal_is_the_engines_own_reason():
    game = Farlander(2, seed=1)
    assert refusal(game, game.legal_actions()[0]) is None
    assert refusal(game, {"type": "jump"}) == "unknown action type 'jump'; now expected 'place'"
    assert refusal(game, {"type": "jump"}, with_rule=True).endswith("[farlander.action.unknown_type]")
