"""Commands named in sentences become command mentions Discord shows in the reader's language."""

from __future__ import annotations

from cogs.commandlinks import CommandLinks


def test_named_commands_become_mentions_with_the_top_level_id() -> None:
    """ "/game new" -> "</game new:11>"; the longest known name wins; unknown commands stay as written."""
    links = CommandLinks()
    links.learn({"game": 11, "league": 22}, ["game", "game new", "game notify", "league join"])
    assert links.link("Start one with /game new.") == "Start one with </game new:11>."
    assert links.link("Use /league join or /game.") == "Use </league join:22> or </game:11>."
    assert links.link("/btc campaign next") == "/btc campaign next"
    assert links.link("Type `/game new` here") == "Type `/game new` here"
    assert links.link("/game notify language:pl") == "</game notify:11> language:pl"


def test_before_the_sync_nothing_changes() -> None:
    """Without ids (no sync yet) a sentence is sent as written."""
    assert CommandLinks().link("Start one with /game new.") == "Start one with /game new."
