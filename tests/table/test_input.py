import pytest

from tablelight.games.farlander.engine import NOBODY
from tablelight.games.farlander.face import InputMachine
from tablelight.games.farlander.face import load_layout


def machine(game):
    return InputMachine(game, load_layout())


def test_every_slice_key_of_a_territory_selects_it(fresh_game):
    m = machine(fresh_game)
    for index, territory in enumerate(fresh_game.map.territories):
        for key in m.keys_for(index):
            outcome = m.press(key)
            assert outcome.action == {"type": "place", "territory": territory.id}
    # 7 slots x 6 slices are all territory keys; centre keys only where a tile has an interior.
    interiors = sum(1 for t in fresh_game.map.territories if not t.edges)
    assert len(m.key_territory) == 42 + interiors


def test_centre_key_without_interior_and_buttons_in_distribution(fresh_game):
    m = machine(fresh_game)
    interior_slots = {t.tile for t in fresh_game.map.territories if not t.edges}
    empty_centre = next(s for s in range(7) if s not in interior_slots)
    outcome = m.press(empty_centre * 7 + 6)
    assert outcome.refused and outcome.action is None and "not part of any territory" in outcome.message
    assert m.press(49).refused  # confirm: nothing to confirm
    assert not m.press(50).refused and m.target is None


def test_conquest_target_units_confirm(action_game):
    game = action_game
    m = machine(game)
    seat = game.current_seat()
    target = game.targets(seat)[0]
    spare = game.spare_units(seat, target)
    out = m.press(m.keys_for(target)[0])
    assert not out.refused and m.target == target and "confirm" in out.message
    assert m.press(49).refused  # no units chosen yet
    source, most = sorted(spare.items())[0]
    out = m.press(m.keys_for(source)[-1])
    assert m.moves == {source: 1}
    out = m.press(49)
    assert out.action == {"type": "conquer", "target": game.ids[target], "moves": {game.ids[source]: 1}}
    assert game.is_legal(out.action)


def test_units_wrap_back_to_zero_past_the_limit(action_game):
    game = action_game
    m = machine(game)
    seat = game.current_seat()
    target, spare = next(
        (t, game.spare_units(seat, t)) for t in game.targets(seat) if game.spare_units(seat, t)
    )
    source, most = max(spare.items(), key=lambda item: item[1])
    m.press(m.keys_for(target)[0])
    limit = min(most, 5)
    for count in range(1, limit + 1):
        m.press(m.keys_for(source)[0])
        assert m.moves == {source: count}
    m.press(m.keys_for(source)[0])
    assert m.moves == {}


def test_refused_presses_change_nothing_and_flash(action_game):
    game = action_game
    m = machine(game)
    seat = game.current_seat()
    before = game.to_record()
    own = next(t for t in range(len(game.ids)) if game.owner[t] == seat)
    out = m.press(m.keys_for(own)[0])
    assert out.refused and out.flash == m.leds_of(own) and "already yours" in out.message
    assert m.target is None
    target = game.targets(seat)[0]
    m.press(m.keys_for(target)[0])
    # A territory of the other seat that is neither a source nor (once units are chosen) a target.
    source = sorted(game.spare_units(seat, target))[0]
    m.press(m.keys_for(source)[0])
    enemy = next(
        t for t in range(len(game.ids)) if game.owner[t] not in (seat, NOBODY) and t != target
    )
    out = m.press(m.keys_for(enemy)[0])
    assert out.refused and out.flash == m.leds_of(enemy) and m.target == target and m.moves == {source: 1}
    assert game.to_record() == before


def test_cancel_and_pressing_the_target_again_drop_the_conquest(action_game):
    game = action_game
    m = machine(game)
    seat = game.current_seat()
    target = game.targets(seat)[0]
    m.press(m.keys_for(target)[0])
    m.press(m.keys_for(sorted(game.spare_units(seat, target))[0])[0])
    out = m.press(50)
    assert m.target is None and m.moves == {} and "cancelled" in out.message
    m.press(m.keys_for(target)[0])
    m.press(m.keys_for(target)[0])
    assert m.target is None


def test_another_target_switches_before_units_are_chosen(action_game):
    game = action_game
    m = machine(game)
    seat = game.current_seat()
    targets = game.targets(seat)
    if len(targets) < 2:
        pytest.skip("this position offers a single target")
    first, second = targets[0], next(t for t in targets[1:] if t not in game.spare_units(seat, targets[0]))
    m.press(m.keys_for(first)[0])
    m.press(m.keys_for(second)[0])
    assert m.target == second
