"""The board as a Discord Activity, end to end (issue 39's first "Done when"): at 390 x 844 and at 1280 x 800 a
player clicks "Play on the board" under a turn post (the fake Discord records the LAUNCH_ACTIVITY callback and
starts the instance), the stand-in Discord client frames the Activity (the SDK's real build: handshake, READY,
AUTHORIZE with a code the fake's token endpoint accepts, AUTHENTICATE, the participants), and the player plays
a Quadropolis turn and a Between Two Cities draft pick by taps inside the frame; the channel gets the turn post
a click makes, and the other player's Discord click arrives in the frame without a reload."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Frame

from bot.i18n import t
from bot.testing.fakediscord.payloads import CB_LAUNCH_ACTIVITY
from tests.conftest import FakeClock
from tests.discord.activity_standin import WAIT, Activity, discord_chromium, open_activity, run_harness
from tests.discord.conftest import Harness
from tests.discord.test_quadropolis import play_turn
from tests.discord.test_web_browser import until
from tests.web.browser import PHONE

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "activity-phone.png"
"""The README's picture of the Activity at phone size: written there with UPDATE_SCREENSHOTS=1 (else the test
makes it in its own folder)."""


@pytest.fixture
async def activity_harness(tmp_path: Path, clock: FakeClock, database: str | Path) -> AsyncIterator[Harness]:
    async for h in run_harness(tmp_path, clock, database):
        yield h


SEED = 393939
Posts = list[tuple[str, list[bytes]]]


def posts(h: Harness, channel: str, gid: int) -> Posts:
    """What the channel shows: each message's text (its game number made neutral) and its pictures."""
    return [
        ((m.content or "").replace(f"#{gid}", "#N"), [a.data for a in m.attachments])
        for m in h.channel_messages(channel)
    ]


async def twin_by_clicks_flow(h: Harness, moves: list[tuple[int, dict[str, Any]]], channel: str) -> Posts:
    """The same game (the same seed and players) in a channel of its own, the same moves each made through a
    click's door (``Service.move``, then the turn flow, as ``cogs.play`` does): what its channel shows."""
    h.fake.world.add_channel(channel)
    gid = await new_game(h, "quadropolis", "classic", ["alice", "bob"], channel)
    for seat, move in moves:
        info = await h.service.info(gid)
        plain = {k: v for k, v in move.items() if k != "at"}
        outcome = await h.service.move(gid, info.seats[seat].user_xid, plain, expected_version=info.game.version)
        await h.bot.flow.after_move(outcome, None)
        await h.settle()
    return posts(h, channel, gid)


async def new_game(h: Harness, game: str, mode: str, users: list[str], channel: str) -> int:
    h.service._seed_source = lambda: SEED  # the same tiles and seats in a game and its twin
    lobby = await h.fake.slash("game", "new", game=game, mode=mode, user=users[0], channel=channel)
    await lobby.response()
    gid = int((await h.service.game_in_channel(h.fake.channel(channel).id)).id)
    for user in users[1:]:
        await (await h.fake.click(lobby, f"lobby:{gid}:join", user=user)).response()
    await (await h.fake.click(lobby, f"lobby:{gid}:start", user=users[0])).response()
    await h.settle()
    return gid


async def launch(h: Harness, gid: int, channel: str, user: str) -> str:
    """The user clicks "Play on the board" under the game's latest post that has it: Discord launches the
    Activity (callback type 12) and the instance of that channel holds the user. Its id."""
    post = next(m for m in reversed(h.channel_messages(channel)) if f"board:{gid}" in m.custom_ids())
    click = await h.fake.click(post, f"board:{gid}", user=user)
    await click.response()
    assert click.callback is not None and click.callback.callback_type == CB_LAUNCH_ACTIVITY
    assert click.id in h.fake.activities.launches
    instance = next(i for i in h.fake.activities.instances.values() if i.channel_id == h.fake.channel(channel).id)
    assert int(h.fake.user(user).id) in instance.users
    return instance.id


async def board_ready(frame: Frame, version: int) -> None:
    await until(
        frame,
        "(() => { const p = document.querySelector('section.play');"
        " const img = p && p.querySelector('img.playpic');"
        f" return !!p && !p.hidden && !!img && /[?&]v={version}(&|$)/.test(img.src)"
        " && p.querySelectorAll('.playtarget, .playchoice').length > 0; })()",
        WAIT,
    )


async def tap_a_move(frame: Frame) -> None:
    """Taps on the board's targets and buttons, the first offered each time, until Confirm; then Confirm."""
    for _ in range(12):
        if await frame.locator("section.play .playconfirm").count():
            break
        await frame.locator("section.play .playtarget, section.play .playchoice").first.click()
    async with frame.page.expect_response(
        lambda r: r.url.split("?")[0].endswith("/move") and r.request.method == "POST"
    ) as sent:
        await frame.locator("section.play .playconfirm").click()
    answer = await sent.value
    assert answer.status == 200, await answer.text()


def shown(h: Harness, name: str) -> str:
    """How the Activity names a participant: the name Discord shows (the global name, else the username)."""
    user = h.fake.user(name)
    return user.global_name or user.username


async def people(activity: Activity) -> list[str]:
    return list(await activity.shell.locator("#activity-people-list li").all_text_contents())


async def check_frame_fits(activity: Activity, viewport: dict[str, int]) -> None:
    """The Activity's page fills Discord's frame without scrolling sideways, the board's frame inside it."""
    shell = activity.shell
    wide = await shell.evaluate("[document.documentElement.scrollWidth, window.innerWidth, window.innerHeight]")
    assert wide[0] <= wide[1] == viewport["width"], wide
    box = await shell.locator("#activity-game").bounding_box()
    assert box is not None and box["width"] >= viewport["width"] - 20 and box["height"] >= viewport["height"] / 2
    game = await activity.game()
    inner = await game.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert inner[0] <= inner[1], inner


async def quadropolis_turn(
    h: Harness, browser: Browser, viewport: dict[str, int], platform: str, picture: Path
) -> None:
    names = {h.fake.user("alice").id: "alice", h.fake.user("bob").id: "bob"}
    gid = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "games")
    info = await h.service.info(gid)
    first = next(iter(info.awaiting))
    player = names[info.seats[first].user_xid]
    other = "bob" if player == "alice" else "alice"
    instance_id = await launch(h, gid, "games", player)
    activity = await open_activity(h, browser, player, instance_id, viewport, platform=platform)
    game = await activity.game()
    await until(activity.shell, "document.getElementById('activity-people-list').children.length == 1", WAIT)
    assert await people(activity) == [f"{shown(h, player)} (you)"]
    await activity.shell.evaluate("window.stayed = true")  # gone if the Activity's page reloads
    await game.evaluate("window.stayed = true")
    await check_frame_fits(activity, viewport)
    assert await game.locator("a[href^='/sessions']").count() == 0  # a page Discord's frame cannot show
    hrefs = await game.eval_on_selector_all("a[href^='/']", "links => links.map(a => a.getAttribute('href'))")
    assert hrefs and all(h.startswith("/activity/g/") for h in hrefs), hrefs  # its own links stay inside

    # The player's turn by taps inside Discord's frame: the channel gets the turn post a click makes.
    before = len(h.channel_messages("games"))
    version = info.game.version
    for _ in range(3):  # Quadropolis: the take, then (unless the rules end the turn there) the build or Discard
        await board_ready(game, (await h.service.info(gid)).game.version)
        await tap_a_move(game)
        await h.settle()
        if first not in (await h.service.info(gid)).awaiting:
            break
    after = await h.service.info(gid)
    assert after.game.version > version and first not in after.awaiting
    # The channel is told exactly as after the same moves made by clicks (its twin, the same seed).
    assert posts(h, "games", gid) == await twin_by_clicks_flow(h, await h.service.move_log(gid), "twin")
    posted = h.channel_messages("games")[before:]
    turn_post = next(m for m in posted if m.id == after.game.turn_message_xid)
    assert turn_post.attachments and f"<@{after.seats[next(iter(after.awaiting))].user_xid}>" in turn_post.content

    # The other player arrives in the Activity, and plays by Discord clicks: the frame follows, not reloaded.
    await activity.participants([player, other])
    await until(activity.shell, "document.getElementById('activity-people-list').children.length == 2", WAIT)
    assert sorted(await people(activity)) == sorted([f"{shown(h, player)} (you)", shown(h, other)])
    assert await play_turn(h, gid, names) == other
    done = (await h.service.info(gid)).game.version
    await until(game, f"Number(document.getElementById('live').dataset.version) >= {done}", WAIT)
    await board_ready(game, done)  # and it is the player's turn again, on the board
    assert await game.evaluate("window.stayed === true") and await activity.shell.evaluate("window.stayed === true")
    if platform == "desktop":  # Discord's picture-in-picture frame: only the board stays
        assert await activity.page.evaluate("window.standin.event('ACTIVITY_LAYOUT_MODE_UPDATE', {layout_mode: 1})")
        await until(activity.shell, "document.getElementById('activity').dataset.layout === '1'", WAIT)
        assert not await activity.shell.locator("#activity-people").is_visible()
        assert await activity.shell.locator("#activity-game").is_visible()
    shot = await activity.page.screenshot(path=str(picture))
    assert shot.startswith(b"\x89PNG")
    assert not activity.errors, activity.errors
    await activity.page.context.close()


async def between_two_cities_pick(h: Harness, browser: Browser, viewport: dict[str, int], platform: str) -> None:
    gid = await new_game(h, "btc", "standard", ["alice", "bob", "carol"], "general")
    info = await h.service.info(gid)
    instance_id = await launch(h, gid, "general", "carol")
    activity = await open_activity(h, browser, "carol", instance_id, viewport, platform=platform)
    game = await activity.game()
    seat = info.seat_of(int(h.fake.user("carol").id))
    assert seat is not None and seat.seat in info.awaiting
    await board_ready(game, info.game.version)
    await tap_a_move(game)  # two tiles of the hand, then Confirm
    await h.settle()
    after = await h.service.info(gid)
    assert after.game.version == info.game.version + 1 and seat.seat not in after.awaiting
    log = await h.service.move_log(gid)
    assert [s for s, _ in log] == [seat.seat]
    assert not activity.errors, activity.errors
    await activity.page.context.close()


@pytest.mark.parametrize(("viewport", "platform"), [(PHONE, "mobile"), (DESKTOP, "desktop")], ids=["phone", "desktop"])
async def test_the_board_in_discord_from_a_turn_post(
    activity_harness: Harness, viewport: dict[str, int], platform: str, tmp_path: Path
) -> None:
    h = activity_harness
    picture = tmp_path / "activity.png"
    if viewport == PHONE and os.environ.get("UPDATE_SCREENSHOTS") == "1":
        picture = SCREENSHOT
    async with discord_chromium() as browser:
        await quadropolis_turn(h, browser, viewport, platform, picture)
        await between_two_cities_pick(h, browser, viewport, platform)
    assert not h.fake.refusals and not h.fake.internal_errors, (h.fake.refusals, h.fake.internal_errors)


async def test_a_refused_consent_shows_the_public_board_and_why(activity_harness: Harness) -> None:
    """The user says no to Discord's consent: the channel's public board, one sentence why they cannot play,
    no session, and no move offered."""
    h = activity_harness
    gid = await new_game(h, "quadropolis", "classic", ["alice", "bob"], "games")
    info = await h.service.info(gid)
    player = next(s for s in info.seats if s.seat in info.awaiting)
    name = "alice" if player.user_xid == int(h.fake.user("alice").id) else "bob"
    instance_id = await launch(h, gid, "games", name)
    async with discord_chromium() as browser:
        activity = await open_activity(h, browser, name, instance_id, PHONE, consent=False, platform="mobile")
        game = await activity.game()
        said = await activity.shell.locator("#activity-status").text_content()
        assert said == t("web.activity.refused", "en")
        await until(game, f"Number(document.getElementById('live').dataset.version) == {info.game.version}", WAIT)
        assert await game.locator("section.play").count() == 0 and await game.locator("#board").count() == 1
        assert not activity.errors, activity.errors
        messages = [m for m in await activity.messages() if m.get("from") == "frame"]
        assert [m["message"][1].get("cmd") for m in messages[1:]] == ["AUTHORIZE"]  # nothing more was asked
    assert await h.service._store.fetch_all("SELECT * FROM web_sessions") == []
