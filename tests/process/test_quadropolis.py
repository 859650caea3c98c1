"""A whole Quadropolis game (Classic, Alice against one AI seat) played by injected selects and
clicks through the real bot process; the store's move log replays to the stored result."""

from __future__ import annotations

import json
from typing import Any

from bot.testing.fakediscord.payloads import FakeMessage
from bot.testing.fakediscord.server import FakeDiscord, InteractionHandle
from tests.fakediscord.fixtures import BotProcess
from tests.process.conftest import WAIT, ids_of, poll, public_messages, store_of, user_id

PNG = b"\x89PNG\r\n\x1a\n"
MAX_TURNS = 40


def take_menu(message: FakeMessage, gid: int) -> tuple[int, str, str, bool] | None:
    """(version, select id, value, takes a tile) of the first option that takes a tile (else the
    first option) on a public turn message of game ``gid``; None if it has no take menu."""
    found: list[tuple[int, str, str, bool]] = []
    for row in message.components:
        for comp in row.get("components", []):
            cid = comp.get("custom_id", "")
            if comp.get("type") == 3 and cid.startswith(f"sel:{gid}:"):
                for option in comp.get("options", []):
                    found.append((int(cid.split(":")[2]), cid, option["value"], "takes nothing" not in option["label"]))
    if not found:
        return None
    return next((f for f in found if f[3]), found[0])


async def next_turn(fake: FakeDiscord, gid: int, after: int) -> tuple[FakeMessage, int, str, str, bool] | None:
    """The newest public take menu newer than version ``after``, or None once the game is over."""

    def find() -> Any:
        for message in reversed(public_messages(fake, "games")):
            if "is over" in message.content:
                return ("over",)
            menu = take_menu(message, gid)
            if menu is not None and menu[0] > after:
                return (message, *menu)
        return None

    found = await fake.wait_until(find, WAIT, f"a turn of game {gid} after version {after}")
    return None if found == ("over",) else found


async def play_turn(
    fake: FakeDiscord, message: FakeMessage, select_id: str, value: str, takes: bool
) -> InteractionHandle:
    """Alice takes with the select; if a tile was taken she builds it with the first offered button."""
    took = await fake.select(message, select_id, [value], user="alice")
    await took.response(WAIT)
    if not takes:
        return took
    step = await fake.wait_until(
        lambda: next((s for s in took.sent if s.kind == "followup"), None), WAIT, "the build step"
    )
    assert step.ephemeral and step.custom_ids, f"no build buttons: {step}"
    assert json.loads(step.custom_ids[0].split(":", 4)[4])["kind"] in ("build", "discard")
    built = await fake.click(step, step.custom_ids[0], user="alice")
    await built.response(WAIT)
    return built


async def test_quadropolis_classic_against_ai_by_components(fake_discord: FakeDiscord, toy_bot: BotProcess) -> None:
    """Alice plays a whole Classic game against the AI through the process: every human turn by a
    take select and a build button, every turn told with a picture, a final ranking with a picture;
    the store's move log replays to the stored result and the database is intact."""
    from bot import games

    fake = fake_discord
    lobby = await fake.slash("game", "new", game="quadropolis", mode="classic", ai_players=1, user="alice")
    sent = await lobby.response(WAIT)
    gid = int(next(c for c in sent.custom_ids if c.endswith(":start")).split(":")[1])
    await (await fake.click(lobby, f"lobby:{gid}:start", user="alice")).response(WAIT)

    version, turns = -1, 0
    while (found := await next_turn(fake, gid, version)) is not None:
        message, version, select_id, value, takes = found
        assert f"<@{user_id(fake, 'alice')}>" in message.content
        assert message.attachments and message.attachments[0].data.startswith(PNG)
        outsider = await fake.select(message, select_id, [value], user="bob")
        assert "not playing" in ((await outsider.wait_sent(2, WAIT))[-1].content or "")
        await play_turn(fake, message, select_id, value, takes)
        turns += 1
        assert turns <= MAX_TURNS
    assert turns == 16

    ending = next(m for m in public_messages(fake, "games") if "is over" in m.content)
    assert ending.attachments and ending.attachments[0].data.startswith(PNG)
    assert f"<@{user_id(fake, 'alice')}>" in ending.content
    db = store_of(toy_bot)
    await poll(
        lambda: not any(i.startswith(("sel:", "mv:")) for m in public_messages(fake, "games") for i in ids_of(m)),
        "the last controls to be removed",
    )
    game = db.game(gid)
    assert game["status"] == "finished"
    rules = games.rules("quadropolis")
    state = rules.setup(game["options"], 2, game["seed"])
    moves = db.moves(gid)
    assert len(moves) == game["version"]
    for move in moves:
        state = rules.apply(state, move.seat, move.move)
    assert rules.is_over(state)
    assert rules.result(state).to_json() == game["result"]
    assert rules.to_json(state) == db.snapshot_state(gid)
    assert {m.actor_xid for m in moves} == {user_id(fake, "alice"), None}
    assert db.integrity() == "ok"
