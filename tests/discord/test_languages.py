"""Who reads what: channel posts and pictures in the game's language, private replies in the reader's."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.i18n import t
from bot.rules.quadropolis.tiles import slot_target
from cogs import ids
from render import pictures
from tests.discord.conftest import Harness, answer

SEED = 20_251_125
"""Every game here is dealt from this seed, so each run plays the same game (the first menu option takes a tile)."""


async def start_quadropolis(h: Harness, user: str, **options: Any) -> int:
    h.service._seed_source = lambda: SEED
    lobby = await h.fake.slash("game", "new", game="quadropolis", mode="classic", ai_players=1, user=user, **options)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=user)).response()
    await h.settle()
    return gid


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    with Image.open(io.BytesIO(png)) as img:
        return img.size, img.convert("RGB").tobytes()


def turn_message(h: Harness, message_xid: int | None) -> Any:
    return next(m for m in h.channel_messages() if m.id == message_xid)


async def test_a_hungarian_server_plays_in_hungarian(harness: Harness) -> None:
    """A hu server and a hu player: lobby, turn messages, menus, private steps and pictures are Hungarian."""
    h = harness
    h.fake.world.guild_locale = "hu"
    h.fake.user("alice").locale = "hu"
    gid = await start_quadropolis(h, "alice")
    info = await h.service.info(gid)
    assert info.game.locale == "hu"
    alice = h.fake.user("alice").id
    turn = turn_message(h, info.game.turn_message_xid)
    assert t("turn.your_turn", "hu", players=f"<@{alice}>") in turn.content
    assert t("turn.your_turn", "hu", players="x") != t("turn.your_turn", "en", players="x")
    selects = [c for row in turn.components for c in row["components"] if c["type"] == 3]
    sides = {t(f"quadropolis.ui.side.{side}", "hu") for side in "LTRB"}
    assert sides.isdisjoint({t(f"quadropolis.ui.side.{side}", "en") for side in "LTRB"})
    assert selects and all(c["placeholder"] in sides for c in selects)
    # The picture is the Hungarian one: the same view drawn in English is a different picture.
    snap = await h.service.snapshot(gid)
    view = snap.view(None)
    names = [s.name for s in info.seats]
    renderer = pictures.get("quadropolis")
    assert renderer is not None
    posted = pixels(turn.attachments[0].data)
    drawn = {(loc, s): pixels(renderer.render_turn(view, s, names, locale=loc)) for loc in ("hu", "en") for s in (0, 1)}
    assert posted in (drawn["hu", 0], drawn["hu", 1])  # the seat who just acted, or the one to act
    assert posted not in (drawn["en", 0], drawn["en", 1])
    # A take opens the private build step, in Hungarian.
    select, option = next((c, o["value"]) for c in selects for o in c["options"] if takes_a_tile(o["value"], view))
    took = await h.fake.select(turn, select["custom_id"], [option], user="alice")
    await took.response()
    await h.settle()
    private = [s for s in await took.wait_sent(2) if s.ephemeral and s.content]
    assert private
    discard = t("quadropolis.ui.discard", "hu")
    assert discard != t("quadropolis.ui.discard", "en")
    labels = [c.get("label") for s in private for row in s.components for c in row["components"]]
    assert discard in labels, labels
    assert private[-1].content == t("quadropolis.ui.where", "hu", **where_params(await h.service.snapshot(gid)))


def takes_a_tile(value: str, view: Any) -> bool:
    """Whether a take option's architect points at a face-up tile of the construction site."""
    move = ids.parse_move_value(value)
    if move.get("kind") != "take":
        return False
    row, col = slot_target(str(move["slot"]), int(move["architect"]))
    return bool(view["site"]["squares"][row][col].get("state") == "tile")


def where_params(snap: Any) -> dict[str, Any]:
    seat = snap.view(None)["turn"]["seat"]
    pending = snap.view(seat)["pending"]
    return {"tile": pending["tile"]["label"], "architect": pending["architect"]}


async def test_a_polish_server_posts_in_polish_and_answers_an_english_user_in_english(harness: Harness) -> None:
    """A pl server: the lobby and the turns are Polish for everyone; Bob, who reads English, gets English replies."""
    h = harness
    h.fake.world.guild_locale = "pl"
    lobby = await h.fake.slash("game", "new", game="quadropolis", mode="classic", user="alice")
    sent = await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    assert (await h.service.info(gid)).game.locale == "pl"
    assert sent.embeds[0]["title"] == t("lobby.title", "pl", title=t("quadropolis.title", "pl"), game=gid)
    joined = await h.fake.click(lobby, f"lobby:{gid}:join", user="bob")
    await joined.response()
    status = await h.fake.slash("game", "list", user="bob")
    reply = await status.response()
    assert reply.ephemeral and reply.embeds[0]["title"] == t("list.title", "en")
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    info = await h.service.info(gid)
    awaited = info.seats[next(iter(info.awaiting))].user_xid
    turn = turn_message(h, info.game.turn_message_xid)
    assert t("turn.your_turn", "pl", players=f"<@{awaited}>") in turn.content


async def test_the_host_chooses_the_game_language(harness: Harness) -> None:
    """/game new language: overrides the server's locale for the game's posts."""
    h = harness
    lobby = await h.fake.slash("game", "new", game="quadropolis", language="es", user="alice")
    sent = await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    assert (await h.service.info(gid)).game.locale == "es"
    assert sent.embeds[0]["title"] == t("lobby.title", "es", title=t("quadropolis.title", "es"), game=gid)


async def test_more_options_at_game_new(harness: Harness) -> None:
    """/game new more: sets the game's other options (the party game's time limit); a bad one is a sentence."""
    h = harness
    bad = await h.fake.slash("game", "new", game="urbanpanic", mode="party", more="party_minutes", user="alice")
    assert "name=value" in ((await bad.response()).content or "")
    lobby = await h.fake.slash(
        "game", "new", game="urbanpanic", mode="party", more="party_minutes=30 party_goals=on", user="alice"
    )
    await lobby.response()
    info = await h.service.game_in_channel(h.fake.channel("games").id)
    assert info.game.options["party_minutes"] == "30" and info.game.options["party_goals"] == "on"


async def test_the_host_changes_the_game_language_later(harness: Harness) -> None:
    """/game settings language: the game speaks the new language from its next post; others may not change it."""
    h = harness
    lobby = await h.fake.slash("game", "new", game="quadropolis", user="alice")
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    refused = await h.fake.slash("game", "settings", language="pl", user="bob")
    assert (await answer(refused)).ephemeral
    assert (await h.service.info(gid)).game.locale == "en"
    changed = await h.fake.slash("game", "settings", language="pl", user="alice")
    reply = await answer(changed)
    assert not reply.ephemeral and reply.content == t("community.settings.language", "pl", game=gid)
    assert (await h.service.info(gid)).game.locale == "pl"
