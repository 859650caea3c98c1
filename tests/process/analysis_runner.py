"""A process that weighs the after-game analysis queue and nothing else, for tests/process/test_analysis.py:
``python -m tests.process.analysis_runner DATABASE BOOT LEASE_MS``. It runs the bot's own passes
(:meth:`bot.community.analyses.Analyses.run_pass`, one worker process, one sample), prints ``kept <game>`` for
each game whose analysis it kept, and exits once no game is queued or claimed (or after a minute and a half)."""

from __future__ import annotations

import asyncio
import sys
import time

from bot.composition import compose
from bot.service import Service
from bot.store import Store

GIVE_UP_SECONDS = 90.0


async def main(database: str, boot: str, lease_ms: int) -> None:
    db = await Store.open(database)
    db.lease_ms = lease_ms
    app = compose(Service(db), boot=boot)
    app.analyses.samples = 1
    print("ready", flush=True)
    started = time.monotonic()
    try:
        while time.monotonic() - started < GIVE_UP_SECONDS:
            for game in await app.analyses.run_pass():
                print(f"kept {game}", flush=True)
            if not [r for r in await app.analyses.db.all() if r.status in ("queued", "claimed")]:
                return
            await asyncio.sleep(0.1)
    finally:
        app.analyses.close()
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
