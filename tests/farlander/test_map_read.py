"""A random game's map is built when first read (random games nobody draws never build it):
the rules read the same territories from the placement as the map holds."""

from tablelight.core.rng import Rng
from tablelight.games.farlander.engine import Farlander


def test_the_map_read_after_play_is_the_one_the_rules_used() -> None:
    for seed in range(6):
        game, rng = Farlander(3, None, seed), Rng(seed)  # 3 players: garrisons on, worth 2
        while not game.is_over():
            game.apply(game.random_action(rng))
        territories = game.map.territories
        assert [t.id for t in territories] == game.ids
        assert [tuple(game.index[n] for n in t.neighbors) for t in territories] == list(game.neighbors)
        points = [0, 0, 0]
        for t, owner in enumerate(game.owner):
            if owner >= 0:
                points[owner] += 2 if territories[t].garrison else 1
        assert game.scores() == points
        assert Farlander.load(game.save()).map.to_json() == game.map.to_json()  # the record holds the same map
