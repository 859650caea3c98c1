"""Between Two Cities solo through the Discord harness: a Full game by clicks against the Automas,
and a campaign game played to its bonus with the record moving on (/btc campaign ...)."""

from __future__ import annotations

import json
from typing import Any

from bot import i18n
from bot.rules.btc.rules import RULES
from cogs import presenters
from cogs.app import CityBot
from tests.discord.conftest import Harness, answer

PNG = b"\x89PNG\r\n\x1a\n"
MAX_STEPS = 80


def selects(message: Any) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row["components"] if c["type"] == 3]


def option_moves(message: Any) -> list[dict[str, Any]]:
    return [json.loads(o["value"]) for s in selects(message) for o in s["options"]]


class Player:
    """One human clicking through their private choices: "Open my choices" on the turn message
    when no private menu is at hand, else the menu the bot sent after the last choice."""

    def __init__(self, h: Harness, gid: int, user: str) -> None:
        self.h, self.gid, self.user = h, gid, user
        self.menu: Any = None
        self.opened = 0
        self.summaries: list[str] = []

    async def open(self) -> Any:
        info = await self.h.service.info(self.gid)
        turn = next(m for m in self.h.channel_messages() if m.id == info.game.turn_message_xid)
        (button,) = [c["custom_id"] for row in turn.components for c in row["components"]]
        assert button.startswith("open:"), button
        handle = await self.h.fake.click(turn, button, user=self.user)
        private = await handle.response()
        assert private.ephemeral and private.pngs, "the private choices come with the player's picture"
        self.opened += 1
        return private

    async def act(self, pick: Any = None) -> dict[str, Any] | None:
        """Take one move (``pick(moves)`` chooses, default the first offered); None if nothing to do."""
        menu = self.menu if self.menu is not None and selects(self.menu) else await self.open()
        if not selects(menu):
            self.menu = None
            return None
        moves = option_moves(menu)
        move = pick(moves) if pick is not None else moves[0]
        value = json.dumps(move, separators=(",", ":"), sort_keys=True)
        custom_id = next(s["custom_id"] for s in selects(menu) if any(o["value"] == value for o in s["options"]))
        choice = await self.h.fake.select(menu, custom_id, [value], user=self.user)
        await choice.response()
        await self.h.settle()
        edits = [e.content for e in choice.edits if e.content]
        self.summaries += edits
        follow = [s for s in choice.followups if s.custom_ids and s.ephemeral]
        self.menu = follow[-1] if follow else None
        return move


async def new_solo(h: Harness, mode: str = "solo_full", user: str = "alice") -> int:
    lobby = await h.fake.slash("game", "new", game="btc", mode=mode, difficulty=4, user=user)
    await lobby.response()
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=user)).response()
    await h.settle()
    return gid


async def test_solo_full_game_by_clicks(harness: Harness, monkeypatch: Any) -> None:
    """A whole solo Full game by clicks: only the human is ever awaited (the Automas act inside the
    human's moves, logged turn by turn), and the end picture with the ranking against the Automas
    is posted in the channel."""
    h = harness
    ended: list[dict[str, Any]] = []
    presenter = presenters.get("btc")
    original_end = presenter.render_end

    def spy_end(view: dict[str, Any], names: list[str], locale: str = "en") -> bytes | None:
        ended.append(view)
        return original_end(view, names, locale)

    monkeypatch.setattr(presenter, "render_end", spy_end)
    gid = await new_solo(h)
    info = await h.service.info(gid)
    assert len(info.seats) == 1 and not info.seats[0].is_ai
    first_turn = next(m for m in h.channel_messages() if m.id == info.game.turn_message_xid)
    assert f"<@{h.fake.user('alice').id}>" in first_turn.content
    alice = Player(h, gid, "alice")
    automa_steps = []
    for _ in range(MAX_STEPS):
        info = await h.service.info(gid)
        if info.game.status != "active":
            break
        assert info.awaiting == frozenset({0}) and not info.awaited_ai(), "only the human is awaited"
        assert await alice.act() is not None
        view = (await h.service.snapshot(gid)).view(None)
        automa_steps.append(len((view["automa"] or {}).get("log", [])) if view["phase"] != "over" else None)
    info = await h.service.info(gid)
    assert info.game.status == "finished"
    # 2 Automas x 3 turns x rounds 1 and 3: twelve card draws, all without anyone else acting.
    assert max(s for s in automa_steps if s is not None) == 12
    assert any("Autommaso (card" in s for s in alice.summaries), alice.summaries[:3]
    assert alice.opened <= 2, "after the first choice the next private menu comes by itself"
    result = info.game.result
    assert result is not None
    automas = result["details"]["automas"]
    assert sorted(i18n.resolve(a["name"]) for a in automas) == ["Automarta", "Autommaso"]
    ranks = sorted([result["seats"][0]["rank"], *(a["rank"] for a in automas)])
    assert ranks[0] == 1 and max(ranks) <= 3
    end = [m for m in h.channel_messages() if "is over" in (m.content or "")]
    assert len(end) == 1
    assert end[0].attachments and end[0].attachments[0].data.startswith(PNG), "the end picture is posted"
    assert (
        f"{result['seats'][0]['rank']}. <@{h.fake.user('alice').id}> — {result['seats'][0]['total']} points"
        in end[0].content
    )
    assert ended and ended[-1]["result"]["details"]["automas"] == automas, (
        "the end picture is drawn from the result ranking the Automas"
    )


async def test_campaign_game_to_its_bonus_and_the_record(harness: Harness) -> None:
    """/btc campaign start, next (a lobby as /game new posts it), a Simple campaign game by clicks
    to its bonus move, then the record moves on: a line in the channel, and status shows game 1."""
    h = harness
    alice_id = h.fake.user("alice").id
    started = await answer(
        await h.fake.slash("btc", "campaign", "start", length=3, difficulty=2, mode="simple", user="alice")
    )
    assert "Campaign started: 3 games, simple mode, difficulty 2" in (started.content or "")
    opened = await h.fake.slash("btc", "campaign", "next", user="alice")
    lobby = await answer(opened)
    assert not lobby.ephemeral and "game 1 of 3" in (lobby.content or "")
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    assert f"lobby:{gid}:start" in lobby.custom_ids and f"lobby:{gid}:join" in lobby.custom_ids
    assert lobby.embeds[0]["title"].endswith(f"game #{gid}")
    await h.settle()  # the bot records the lobby message's id after answering: wait for it, not a race
    info = await h.service.info(gid)
    assert info.game.lobby_message_xid is not None
    assert info.game.options["campaign"] == "3" and info.game.options["campaign_game"] == "1"
    # Nobody else can sit in a solo campaign lobby.
    join = await (await h.fake.click(opened, f"lobby:{gid}:join", user="bob")).response()
    assert join.ephemeral and "full" in (join.content or "").lower()
    again = await answer(await h.fake.slash("btc", "campaign", "next", user="alice"))
    assert again.ephemeral and f"already open: game #{gid}" in (again.content or "")
    await (await h.fake.click(opened, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()

    alice = Player(h, gid, "alice")
    for _ in range(MAX_STEPS):
        snap = await h.service.snapshot(gid)
        if snap.state.phase == "bonus":
            break
        await alice.act()
    else:
        raise AssertionError("no bonus phase")
    assert (await h.service.info(gid)).game.status == "active", "the game waits for the bonus"
    if alice.menu is None:
        alice.menu = await alice.open()
    offered = option_moves(alice.menu)
    assert offered and {m["kind"] for m in offered} == {"bonus"}
    assert {m["type"] for m in offered} == {"shops", "factories", "taverns", "offices", "parks", "houses"}
    # Someone else cannot take the bonus of alice's campaign game.
    refused = await (await h.fake.slash("btc", "campaign", "bonus", choice="parks", user="bob")).response()
    assert refused.ephemeral and "Alice's campaign game, not yours" in (refused.content or "")
    # The typed fallback offers the same choices with the points each would bring.
    auto = await h.fake.autocomplete("btc", "campaign", "bonus", choice="par", user="alice")
    await auto.response()
    labels = [c["name"] for c in auto.choices or []]
    assert labels and all(label.startswith("parks from ") for label in labels)
    typo = await h.fake.slash("btc", "campaign", "bonus", choice="xyz", user="alice")
    said = await typo.followup(0)
    assert said.ephemeral and said.content == 'I did not understand "xyz"; pick a bonus from the list.'
    mark = len(h.channel_messages())
    taken = await alice.act(lambda moves: next(m for m in moves if m["type"] == "parks"))
    assert taken is not None and taken["type"] == "parks"
    info = await h.service.info(gid)
    assert info.game.status == "finished"
    summary = info.game.result["seats"][0]["details"]["campaign"]  # type: ignore[index]
    assert summary["bonus_type"] == "parks"
    city = {0: "Left City", 2: "Right City"}[summary["bonus_city"]]
    assert f"parks from {city}: {summary['bonus']} points" in labels
    line = await h.fake.wait_until(
        lambda: next((m for m in h.channel_messages()[mark:] if "campaign, game 1 of 3" in (m.content or "")), None),
        5,
        "the campaign line",
    )
    posted = h.channel_messages()[mark:]
    end_index = next(i for i, m in enumerate(posted) if "is over" in (m.content or ""))
    assert posted.index(line) > end_index, "the campaign line follows the end of the game"
    assert f"+ parks bonus {summary['bonus']} = {summary['total']} campaign points" in line.content
    assert "Next: game 2 of 3" in line.content

    status = await (await h.fake.slash("btc", "campaign", "status", user="alice")).response()
    assert status.ephemeral
    embed = status.embeds[0]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert embed["title"] == "Alice's campaign"
    assert fields["Games played (1 of 3)"].startswith(f"1. {summary['campaign_points']} points")
    assert fields["Bonus types used"] == "parks"
    assert "parks" not in fields["Bonus types left"]
    assert fields["Campaign points"] == str(summary["total"])
    assert "Game 2: open it with /btc campaign next" in fields["Next"]
    campaign = await h.bot.get_cog("BtcCog").campaigns.db.running(alice_id)  # type: ignore[union-attr]
    assert (campaign.next_game, campaign.used, campaign.game_id) == (2, "P", None)


async def test_campaign_refusals_are_sentences(harness: Harness) -> None:
    """Every refusal of /btc campaign is an ephemeral sentence: none, already running, not a
    campaign game here, and the abandon that stops the open game."""
    h = harness
    for cmd in ("next", "status", "abandon"):
        sent = await answer(await h.fake.slash("btc", "campaign", cmd, user="bob"))
        assert sent.ephemeral and "no campaign running" in (sent.content or ""), (cmd, sent.content)
    other = await (await h.fake.slash("btc", "campaign", "status", player="carol", user="bob")).response()
    assert other.content == "Carol has never played a campaign."
    await answer(await h.fake.slash("btc", "campaign", "start", user="bob"))
    twice = await answer(await h.fake.slash("btc", "campaign", "start", length=6, user="bob"))
    assert "already have a campaign running (game 1 of 3 is next)" in (twice.content or "")
    # A standard game in the channel is not a campaign game.
    await (await h.fake.slash("game", "new", game="btc", user="carol")).response()
    here = await (await h.fake.slash("btc", "campaign", "bonus", choice="parks", user="carol")).response()
    assert here.content == "This channel's game is not a campaign game."
    busy = await answer(await h.fake.slash("btc", "campaign", "next", user="bob"))
    assert busy.ephemeral and "This channel already has a game" in (busy.content or "")
    assert (await h.bot.get_cog("BtcCog").campaigns.db.running(h.fake.user("bob").id)).game_id is None  # type: ignore[union-attr]
    # In another channel bob opens and starts his game, then abandons the campaign.
    opened = await h.fake.slash("btc", "campaign", "next", user="bob", channel="general")
    await answer(opened)
    gid = (await h.service.game_in_channel(h.fake.channel("general").id)).id
    await (await h.fake.click(opened, f"lobby:{gid}:start", user="bob")).response()
    await h.settle()
    gone = await answer(await h.fake.slash("btc", "campaign", "abandon", user="bob"))
    assert "abandoned after 0 of 3 games" in (gone.content or "") and f"Game #{gid}" in (gone.content or "")
    await h.settle()
    assert (await h.service.info(gid)).game.status == "abandoned"
    stopped = [m for m in h.channel_messages("general") if f"Game #{gid} was stopped" in (m.content or "")]
    assert len(stopped) == 1
    state = await (await h.fake.slash("btc", "campaign", "status", user="bob")).response()
    assert "Abandoned after 0 of 3 games." in state.embeds[0]["description"]


async def test_campaign_survives_a_restart_that_missed_the_end(harness: Harness) -> None:
    """The bot stops right after a campaign game's bonus, before the record moved on; the next
    start counts the game (once), says so in the game's channel, and status shows it."""
    h = harness
    alice_id = h.fake.user("alice").id
    await answer(await h.fake.slash("btc", "campaign", "start", mode="simple", user="alice"))
    opened = await h.fake.slash("btc", "campaign", "next", user="alice")
    await answer(opened)
    gid = (await h.service.game_in_channel(h.fake.channel("games").id)).id
    await (await h.fake.click(opened, f"lobby:{gid}:start", user="alice")).response()
    await h.settle()
    cog = h.bot.get_cog("BtcCog")
    h.service.end_listeners.remove(cog.campaigns.on_end)  # type: ignore[union-attr]  # the end is missed
    for step in range(MAX_STEPS):
        snap = await h.service.snapshot(gid)
        if snap.state.phase == "over":
            break
        await h.service.move(gid, alice_id, RULES.ai_move(snap.state, 0, "random", step))
    assert (await h.service.info(gid)).game.status == "finished"
    await h.bot.close()
    bot = CityBot(h.bot.settings, clock=h.clock)
    try:
        await bot.login(h.fake.token)  # setup_hook: the cog's resume counts the game
        h.fake.use_client(bot)
        line = await h.fake.wait_until(
            lambda: next((m for m in h.channel_messages() if "campaign, game 1 of 3" in (m.content or "")), None),
            5,
            "the late campaign line",
        )
        assert "Next: game 2 of 3" in line.content
        status = await (await h.fake.slash("btc", "campaign", "status", user="alice")).response()
        fields = {f["name"]: f["value"] for f in status.embeds[0]["fields"]}
        assert fields["Games played (1 of 3)"].startswith("1. ")
        restarted = bot.get_cog("BtcCog")
        assert await restarted.campaigns.resume() == 0  # type: ignore[union-attr]  # counted once
        games = await restarted.campaigns.db.games((await restarted.campaigns.db.latest(alice_id)).id)  # type: ignore[union-attr]
        assert [g.game_id for g in games] == [gid]
    finally:
        await bot.close()
