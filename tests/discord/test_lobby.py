"""The lobby end to end through discord.py's real dispatch and the fake Discord."""

from __future__ import annotations

from bot.i18n import t
from tests.discord.conftest import Harness


async def new_toy(h: Harness, user: str = "alice", channel: str = "games") -> object:
    handle = await h.fake.slash("game", "new", game="toy", user=user, channel=channel)
    await handle.response()
    await h.settle()
    return handle


async def test_commands_synced_to_dev_guild(harness: Harness) -> None:
    """Setup syncs the /game group to the development guild."""
    names = {c["name"] for c in harness.fake.commands()}
    assert "game" in names


async def test_new_game_posts_lobby_with_buttons(harness: Harness) -> None:
    """/game new answers publicly with a lobby embed and Join/Leave/Add AI/Start buttons."""
    handle = await new_toy(harness)
    sent = await handle.response()
    assert not sent.ephemeral
    assert "Sealed Bids" in sent.embeds[0]["title"]
    game = (await harness.service.game_in_channel(harness.fake.channel("games").id)).game
    assert sent.custom_ids == [
        f"lobby:{game.id}:join",
        f"lobby:{game.id}:leave",
        f"lobby:{game.id}:ai",
        f"lobby:{game.id}:start",
    ]
    assert game.lobby_message_xid is not None


async def test_busy_channel_refused_with_sentence(harness: Harness) -> None:
    """/game new in a channel that has a game is refused ephemerally, naming that game."""
    await new_toy(harness)
    second = await harness.fake.slash("game", "new", game="toy", user="bob")
    sent = await second.response()
    assert sent.ephemeral and "already has a game" in (sent.content or "")


async def test_join_twice_and_non_host_start(harness: Harness) -> None:
    """Join by button updates the lobby; joining twice and a non-host Start get sentences."""
    lobby = await new_toy(harness)
    gid = (await harness.service.game_in_channel(harness.fake.channel("games").id)).id
    click = await harness.fake.click(lobby, f"lobby:{gid}:join", user="bob")
    update = await click.response()
    assert "bob" in str(update.embeds[0]).lower()
    again = await harness.fake.click(lobby, f"lobby:{gid}:join", user="bob")
    refusal = await again.response()
    assert refusal.ephemeral and "already joined" in (refusal.content or "")
    start = await harness.fake.click(lobby, f"lobby:{gid}:start", user="bob")
    refusal = await start.response()
    await harness.settle()
    assert refusal.ephemeral or "host" in str(start.sent)
    assert "Only the host" in " ".join(s.content or "" for s in start.sent)
    assert (await harness.service.info(gid)).game.status == "lobby"


async def test_start_posts_turn_and_stale_button_refused(harness: Harness) -> None:
    """After Start the lobby buttons go; an old lobby button and a forged id get sentences."""
    lobby = await new_toy(harness)
    gid = (await harness.service.game_in_channel(harness.fake.channel("games").id)).id
    await (await harness.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    start = await harness.fake.click(lobby, f"lobby:{gid}:start", user="alice")
    await start.response()
    await harness.settle()
    info = await harness.service.info(gid)
    assert info.game.status == "active"
    turn = [m for m in harness.channel_messages() if m.id == info.game.turn_message_xid]
    assert turn and "your move" in turn[0].content
    # The lobby message was edited: no buttons any more. A click on the old button is still refused.
    fake_lobby_click = harness.fake.make_click(
        turn[0], turn[0].components[0]["components"][0]["custom_id"], user="carol"
    )
    fake_lobby_click.payload["data"]["custom_id"] = f"lobby:{gid}:join"
    handle = await harness.fake.deliver(fake_lobby_click)
    sent = await handle.response()
    assert sent.ephemeral and "already started" in (sent.content or "")
    forged = harness.fake.make_click(turn[0], turn[0].components[0]["components"][0]["custom_id"], user="alice")
    forged.payload["data"]["custom_id"] = "mv:zz:not-a-move"
    sent = await (await harness.fake.deliver(forged)).response()
    assert sent.ephemeral and "could not read that button" in (sent.content or "")


async def test_forget_me_needs_confirmation(harness: Harness) -> None:
    """/game forget-me without confirmation deletes nothing; with it, the host leaves the lobby and
    the next player becomes host, so the lobby can still start."""
    lobby = await new_toy(harness)
    gid = (await harness.service.game_in_channel(harness.fake.channel("games").id)).id
    await (await harness.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    refused = await harness.fake.slash("game", "forget-me", confirm=False, user="alice")
    assert "Nothing was deleted" in ((await refused.response()).content or "")
    done = await harness.fake.slash("game", "forget-me", confirm=True, user="alice")
    texts = " ".join(s.content or "" for s in await done.wait_sent(2))
    assert "I forgot you" in texts
    info = await harness.service.info(gid)
    assert [s.name for s in info.seats] == ["Bob"] and info.game.host_xid == harness.fake.user("bob").id


async def test_forget_me_in_a_game_lets_the_ai_play_on(harness: Harness) -> None:
    """Forgotten while awaited: the seat loses its id and the AI makes its move at once."""
    lobby = await new_toy(harness)
    gid = (await harness.service.game_in_channel(harness.fake.channel("games").id)).id
    await (await harness.fake.click(lobby, f"lobby:{gid}:join", user="bob")).response()
    await (await harness.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await harness.settle()
    done = await harness.fake.slash("game", "forget-me", confirm=True, user="alice")
    await done.wait_sent(2)
    await harness.settle()
    info = await harness.service.info(gid)
    assert info.seats[0].user_xid is None and info.seats[0].name == "Former player"
    assert info.awaiting == {1}, "the AI bid for the forgotten seat"


async def test_mode_and_level_autocomplete_follow_the_game(harness: Harness) -> None:
    """/game new suggests the chosen game's own modes and AI levels."""
    auto = await harness.fake.autocomplete("game", "new", game="quadropolis", mode="", focused="mode")
    await auto.response()
    assert [c["value"] for c in auto.choices or []] == ["classic", "expert"]
    auto = await harness.fake.autocomplete("game", "new", game="btc", ai_level="gr", focused="ai_level")
    await auto.response()
    assert [c["value"] for c in auto.choices or []] == ["greedy"]
    harness.fake.user("alice").locale = "hu"
    auto = await harness.fake.autocomplete("game", "new", game="btc", ai_level="", focused="ai_level")
    await auto.response()
    assert [(c["name"], c["value"]) for c in auto.choices or []] == [
        ("véletlen", "random"),
        ("mohó", "greedy"),
        ("erős", "strong"),
    ]
    auto = await harness.fake.autocomplete("game", "new", game="btc", ai_level="er", focused="ai_level")
    await auto.response()
    assert [c["value"] for c in auto.choices or []] == ["strong"], "what is typed matches the shown name"


async def test_modes_and_options_are_offered_and_listed_in_the_players_language(harness: Harness) -> None:
    """/game new suggests modes and options by their names in the user's language (what is sent stays the
    id), and the lobby lists the game's options in the game's language, never as raw ids."""
    h = harness
    h.fake.user("alice").locale = "pl"
    auto = await h.fake.autocomplete("game", "new", game="quadropolis", mode="", focused="mode")
    await auto.response()
    assert [(c["name"], c["value"]) for c in auto.choices or []] == [("Klasyczny", "classic"), ("Ekspercki", "expert")]
    auto = await h.fake.autocomplete(
        "game", "new", game="urbanpanic", mode="party", more="party_minutes=30 party_g", focused="more"
    )
    await auto.response()
    assert [(c["name"], c["value"]) for c in auto.choices or []] == [
        ("party_minutes=30 party_goals=off (Karty celów: wyłączone)", "party_minutes=30 party_goals=off"),
        ("party_minutes=30 party_goals=on (Karty celów: włączone)", "party_minutes=30 party_goals=on"),
    ]
    auto = await h.fake.autocomplete("game", "new", game="btc", mode="solo_full", more="campaign", focused="more")
    await auto.response()
    offered = [c["value"] for c in auto.choices or []]
    assert offered and not any(v.startswith("campaign_used") for v in offered), "bookkeeping was offered"

    lobby = await h.fake.slash(
        "game",
        "new",
        game="urbanpanic",
        mode="party",
        more="party_minutes=30 party_goals=on",
        language="hu",
        user="alice",
    )
    sent = await lobby.response()
    fields = {f["name"]: f["value"] for f in sent.embeds[0]["fields"]}
    assert fields[t("lobby.options", "hu")].splitlines() == [
        "Változat: parti (valós idejű)",
        "Időkorlát (perc): 30",
        "Célkártyák: be",
    ]
