"""The user guide names the bot a ``bot`` seat gets in each game as the code picks it."""

import re
from pathlib import Path

from tablelight.core.registry import game_class
from tablelight.table.seats import default_bot

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "user-guide.md"


def test_the_guide_names_each_games_bot_seat_as_the_code_picks_it():
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    said = re.search(r"`bot` \(the game's best bot: (.*?)\)", text)
    assert said, "the guide no longer says which bot a `bot` seat gets"
    named = {}
    for bot, games in re.findall(r"`([\w-]+)` for ([A-Z]\w+(?: and [A-Z]\w+)*)", said.group(1)):
        for game in games.split(" and "):
            named[game.lower()] = bot
    assert named == {game: default_bot(game_class(game)) for game in ("farlander", "mainland", "landover", "farside")}
