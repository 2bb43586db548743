

def test_farside_names_the_seat_that_acted_first_in_round_one() -> None:
    from tablelight.lab.coverage import key_seats

    game = played("farside", 2, "tactician", 3)
    first_round = [e for e in game.log if not isinstance(e, ChanceEntry)
                   and e["action"]["type"] not in ("secret", "command", "roll")]
    assert key_seats(game) == {"first to act": first_round[0]["seat"]}
    fresh = game_class("farside")(2, {}, 3)
    assert key_seats(fresh) == {}
