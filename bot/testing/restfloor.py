"""What one REST request costs discord.py itself: the floor under the bot's CPU per move.

Run by the load bench (:func:`bot.benches.load.measure_floor`) as a child process against the fake
Discord: ``python -m bot.testing.restfloor URL TOKEN CHANNEL COUNT``. It logs in with discord.py's own
client (no bot code, no database, no gateway), posts one message, then edits it ``COUNT`` times and posts
``COUNT`` more, 50 requests in flight at a time as under load, and prints its own CPU time per request
as JSON. The bot sends each of its requests through the same client, so ``requests_per_move`` times this
figure is CPU the bot spends per move whatever its own code does.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable

IN_FLIGHT = 50


async def measure(url: str, token: str, channel_xid: int, count: int) -> dict[str, float]:
    import discord

    from bot.testing.fakediscord import launch

    launch.configure(url)
    launch.guard_network()
    client = discord.Client(intents=discord.Intents.none())
    await client.login(token)
    try:
        channel = client.get_partial_messageable(channel_xid)
        first = await channel.send("floor")
        message = channel.get_partial_message(first.id)
        gate = asyncio.Semaphore(IN_FLIGHT)

        async def edit(i: int) -> None:
            async with gate:
                await message.edit(content=f"edit {i}")

        async def post(i: int) -> None:
            async with gate:
                await channel.send(f"post {i}")

        out: dict[str, float] = {}
        for name, one in (("edit", edit), ("post", post)):
            out[f"{name}_cpu_ms_per_request"] = round(await _cpu_ms_each(one, count), 3)
        return out
    finally:
        await client.close()


async def _cpu_ms_each(one: Callable[[int], Awaitable[None]], count: int) -> float:
    start = time.process_time()
    await asyncio.gather(*(one(i) for i in range(count)))
    return 1000 * (time.process_time() - start) / count


def main(argv: list[str] | None = None) -> int:
    url, token, channel, count = (argv if argv is not None else sys.argv[1:])[:4]
    print(json.dumps(asyncio.run(measure(url, token, int(channel), int(count)))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
