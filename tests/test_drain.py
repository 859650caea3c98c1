"""The drain of a graceful stop (:mod:`bot.drain`): it waits for the requests it tracks, no longer than
its deadline or a second signal, and cancels what is left."""

from __future__ import annotations

import asyncio
import time

from bot.drain import Drain, StopReport


async def test_a_stop_waits_for_the_requests_in_flight() -> None:
    drain = Drain()
    done = asyncio.Event()
    request = drain.track(asyncio.ensure_future(done.wait()))
    drain.close()
    assert not drain.accepting and drain.in_flight == 1
    waiting = asyncio.ensure_future(drain.wait(time.monotonic() + 60))
    await asyncio.sleep(0.01)
    assert not waiting.done()  # the request is still running
    done.set()
    assert await waiting is True and request.done() and drain.in_flight == 0


async def test_the_wait_ends_at_its_deadline_or_a_second_signal_and_cancels_nothing() -> None:
    drain = Drain()
    never = drain.track(asyncio.ensure_future(asyncio.Event().wait()))
    assert await drain.wait(time.monotonic() + 0.05) is False and not never.done()
    waiting = asyncio.ensure_future(drain.wait(time.monotonic() + 60))
    await asyncio.sleep(0.01)
    drain.hurry()
    assert await asyncio.wait_for(waiting, 5) is False and not never.done()
    assert await drain.cancel_left() == 1 and never.cancelled()


async def test_the_wait_includes_the_other_work_given() -> None:
    drain = Drain()
    gate = asyncio.Event()
    ai = asyncio.ensure_future(gate.wait())
    waiting = asyncio.ensure_future(drain.wait(time.monotonic() + 60, [ai]))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    gate.set()
    assert await waiting is True


def test_the_report_says_what_was_finished_and_handed_over() -> None:
    report = StopReport(
        finished_requests=3,
        cut_requests=1,
        finished_work=2,
        handed_games=[7, 4],
        handed_claims=1,
        seconds=20.0,
        in_time=False,
    )
    done, handed = report.lines(leases=True)
    assert "finished 3 request(s)" in done and "1 request(s) still running were cut off" in done
    assert "another process" in handed and "games 4, 7" in handed and "1 claimed" in handed
    assert "the next start" in report.lines(leases=False)[1]
