"""The correspondence clock (issue 41), pure: banks computed from committed timestamps, with exact numbers."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.community.clock import Correction, Gift, History, Move, Pause, TimeControl, Turn, clocks
from bot.rules.btc.rules import RULES as BTC
from bot.rules.quadropolis.rules import RULES as QUAD
from tests.quadropolis.helpers import new_game

H = 3_600_000
DAY = 24 * H
T0 = 1_800_000_000_000
STANDARD = TimeControl(3 * DAY, DAY, 7 * DAY)
"""The issue's example: 3 days, plus 1 day a turn, at most 7 days."""


def history(*entries: tuple[int, int | None, set[int]], start: int = T0, **extra: object) -> History:
    """Moves from ``(at, seat, awaited after)``; the first entry is the start (seat None)."""
    turns: list[Turn] = []
    moves: list[Move] = []
    before: frozenset[int] | None = None
    for version, (at, seat, after) in enumerate(entries):
        if seat is not None:
            moves.append(Move(seat, version, at))
        if frozenset(after) != before:
            turns.append(Turn(version, at, frozenset(after)))
            before = frozenset(after)
    return History(start=start, turns=tuple(turns), moves=tuple(moves), **extra)  # type: ignore[arg-type]


def test_a_full_bank_before_anyone_plays_and_the_awaited_seat_spends_alone() -> None:
    h = history((T0, None, {0}))
    at = T0 + 5 * H
    c = clocks(STANDARD, h, range(2), at)
    assert c[0].bank_ms == 3 * DAY - 5 * H and c[0].running
    assert c[0].expires_at(at) == T0 + 3 * DAY
    assert c[1].bank_ms == 3 * DAY and not c[1].running and c[1].expires_at(at) is None


def test_a_finished_turn_adds_the_increment_and_a_step_adds_nothing() -> None:
    # Seat 0 takes (a step: still awaited), then builds 2 hours after its turn began; seat 1 is awaited then.
    h = history((T0, None, {0}), (T0 + H, 0, {0}), (T0 + 2 * H, 0, {1}))
    c = clocks(STANDARD, h, range(2), T0 + 2 * H)
    assert c[0].bank_ms == 3 * DAY - 2 * H + DAY
    assert not c[0].running and c[1].running and c[1].bank_ms == 3 * DAY


def test_the_cap_bounds_what_increments_bring() -> None:
    # Seat 0 answers in one hour every time: 72h, 95h, 118h, 141h, 164h, then the cap (168h) from the 5th turn.
    entries: list[tuple[int, int | None, set[int]]] = [(T0, None, {0})]
    at = T0
    for turn in range(12):
        seat = turn % 2
        at += H if seat == 0 else 2 * H
        entries.append((at, seat, {1 - seat}))
    c = clocks(STANDARD, history(*entries), range(2), at)
    assert c[0].bank_ms == 7 * DAY
    # Seat 1 spends 2 hours a turn: 72h, 94h, 116h, 138h, 160h, then the cap too.
    assert c[1].bank_ms == 7 * DAY
    after_three = clocks(STANDARD, history(*entries[:7]), range(2), T0 + 9 * H)
    assert after_three[0].bank_ms == (72 - 1 + 24 - 1 + 24 - 1 + 24) * H
    assert after_three[1].bank_ms == (72 - 2 + 24 - 2 + 24 - 2 + 24) * H


def test_a_bank_never_goes_below_zero_and_remembers_when_it_ran_out() -> None:
    h = history((T0, None, {0}))
    c = clocks(STANDARD, h, range(2), T0 + 4 * DAY)
    assert c[0].bank_ms == 0 and not c[0].running
    assert c[0].ran_out_at == T0 + 3 * DAY and c[0].expires_at(T0 + 4 * DAY) == T0 + 3 * DAY


def test_a_move_committed_one_millisecond_before_the_bank_runs_out_counts() -> None:
    last = T0 + 3 * DAY - 1
    c = clocks(STANDARD, history((T0, None, {0}), (last, 0, {1})), range(2), T0 + 5 * DAY)
    assert c[0].ran_out_at is None
    assert c[0].bank_ms == 1 + DAY  # 1 ms left, then the day a finished turn adds
    # One millisecond later, and the bank had run out before the move.
    late = clocks(STANDARD, history((T0, None, {0}), (last + 1, 0, {1})), range(2), T0 + 5 * DAY)
    assert late[0].bank_ms == DAY and late[0].ran_out_at is None  # the AI's or a late move refills it
    before = clocks(STANDARD, history((T0, None, {0})), range(2), last + 1)
    assert before[0].ran_out_at == last + 1


def test_a_simultaneous_draft_spends_every_awaited_seat_at_once() -> None:
    """Between Two Cities' draft: all seats choose at once; each spends its own bank until it chose."""
    state = BTC.setup({}, 3, 7)
    assert BTC.awaiting(state) == frozenset({0, 1, 2})
    entries: list[tuple[int, int | None, set[int]]] = [(T0, None, set(BTC.awaiting(state)))]
    # Seat 2 chooses after 1 hour, seat 0 after 5 hours, seat 1 after 30 hours: the round then starts again.
    for seat, at in ((2, T0 + H), (0, T0 + 5 * H), (1, T0 + 30 * H)):
        move = BTC.legal_moves(state, seat)[0]
        state = BTC.apply(state, seat, move)
        entries.append((at, seat, set(BTC.awaiting(state))))
    assert entries[1][2] == {0, 1} and entries[2][2] == {1}
    assert entries[3][2] == {0, 1, 2}
    c = clocks(STANDARD, history(*entries), range(3), T0 + 32 * H)
    # Each finished its pick (+1 day) and spends again since the next round began (2 hours ago).
    assert c[2].bank_ms == (72 - 1 + 24) * H - 2 * H
    assert c[0].bank_ms == (72 - 5 + 24) * H - 2 * H
    assert c[1].bank_ms == (72 - 30 + 24) * H - 2 * H
    assert all(c[n].running for n in range(3))
    # Between the first and the second choice two seats spent at once, and the third did not.
    mid = clocks(STANDARD, history(*entries[:2]), range(3), T0 + 3 * H)
    assert (mid[0].bank_ms, mid[1].bank_ms, mid[2].bank_ms) == ((72 - 3) * H, (72 - 3) * H, (72 - 1 + 24) * H)


def test_a_vacation_in_the_middle_of_a_bank_stops_it() -> None:
    h = history((T0, None, {0}), pauses=(Pause(0, T0 + 10 * H, T0 + 58 * H),))
    c = clocks(STANDARD, h, range(2), T0 + 60 * H)
    assert c[0].bank_ms == (72 - 12) * H  # 10 hours before the vacation, 2 after it
    during = clocks(STANDARD, h, range(2), T0 + 30 * H)
    assert during[0].bank_ms == 62 * H and not during[0].running and during[0].expires_at(T0 + 30 * H) is None
    ongoing = History(h.start, h.turns, h.moves, (Pause(0, T0 + 10 * H),))
    assert clocks(STANDARD, ongoing, range(2), T0 + 300 * H)[0].bank_ms == 62 * H
    # Time the bot was down counts for nobody.
    down = History(h.start, h.turns, h.moves, (Pause(None, T0 + H, T0 + 3 * H),))
    assert clocks(STANDARD, down, range(2), T0 + 4 * H)[0].bank_ms == 70 * H


def test_given_time_is_added_beyond_the_cap_and_refills_a_bank_that_ran_out() -> None:
    h = history((T0, None, {0}), gifts=(Gift(0, T0 + 80 * H, 10 * H),))
    c = clocks(STANDARD, h, range(2), T0 + 82 * H)
    assert c[0].bank_ms == 8 * H and c[0].ran_out_at is None and c[0].running
    full = history((T0, None, {1}), gifts=(Gift(0, T0, 200 * H),))
    assert clocks(STANDARD, full, range(2), T0 + H)[0].bank_ms == (72 + 200) * H


def test_a_correction_adds_or_takes_time_exactly_and_empties_a_bank_at_its_instant() -> None:
    """A moderator adds 5 hours to the running seat 10 hours in, beyond the cap like a gift; later takes 2
    hours from the resting seat, which is not running and keeps the rest; taking more than a bank holds
    empties it then, and the bank ran out at that very instant (the timeout policy's moment)."""
    h = history((T0, None, {0}), corrections=(Correction(0, T0 + 10 * H, 5 * H), Correction(1, T0 + 11 * H, -2 * H)))
    c = clocks(STANDARD, h, range(2), T0 + 12 * H)
    assert c[0].bank_ms == 72 * H - 12 * H + 5 * H and c[0].running
    assert c[1].bank_ms == 70 * H and not c[1].running and c[1].ran_out_at is None
    capped = history((T0, None, {1}), corrections=(Correction(0, T0, 100 * H),))
    assert clocks(STANDARD, capped, range(2), T0 + H)[0].bank_ms == 172 * H
    emptied = history((T0, None, {0}), corrections=(Correction(0, T0 + 3 * H, -80 * H),))
    c = clocks(STANDARD, emptied, range(2), T0 + 5 * H)
    assert c[0].bank_ms == 0 and c[0].ran_out_at == T0 + 3 * H and c[0].expires_at(T0 + 5 * H) == T0 + 3 * H
    refilled = history(
        (T0, None, {0}), corrections=(Correction(0, T0 + 3 * H, -80 * H), Correction(0, T0 + 4 * H, 6 * H))
    )
    c = clocks(STANDARD, refilled, range(2), T0 + 5 * H)
    assert c[0].bank_ms == 5 * H and c[0].ran_out_at is None and c[0].running


def test_a_paused_game_freezes_every_bank() -> None:
    h = history((T0, None, {0}), frozen_at=T0 + 5 * H)
    c = clocks(STANDARD, h, range(2), T0 + 50 * H)
    assert c[0].bank_ms == 67 * H and not c[0].running


def play_quadropolis(seconds: dict[int, int], seed: int = 3) -> tuple[list[tuple[int, int | None, set[int]]], int]:
    """A whole two-player Quadropolis game (random legal moves): each seat takes its number of seconds
    for every move. Returns the entries and the finished turns of seat 0."""
    rnd = random.Random(seed)
    state = new_game("classic", 2, seed)
    at = T0
    entries: list[tuple[int, int | None, set[int]]] = [(at, None, set(QUAD.awaiting(state)))]
    while not QUAD.is_over(state):
        (seat,) = QUAD.awaiting(state)
        moves = QUAD.legal_moves(state, seat)
        state = QUAD.apply(state, seat, moves[rnd.randrange(len(moves))])
        at += seconds[seat] * 1000
        entries.append((at, seat, set(QUAD.awaiting(state))))
    return entries, at


def reference(control: TimeControl, entries: list[tuple[int, int | None, set[int]]]) -> dict[int, int]:
    """The same banks, turn by turn, the plainest way: what each turn took, then the increment, capped."""
    bank = {0: control.bank_ms, 1: control.bank_ms}
    began = entries[0][0]
    awaited = entries[0][2]
    for at, seat, after in entries[1:]:
        assert seat is not None and awaited == {seat}
        bank[seat] = max(0, bank[seat] - (at - began))
        began = at
        if after != awaited:
            bank[seat] = min(bank[seat] + control.increment_ms, control.cap_ms)
            awaited = after
    return bank


def test_a_whole_quadropolis_game() -> None:
    """Seat 0 takes 2 hours for every move, seat 1 20 hours; 3 days + 1 day a turn, at most 7 days."""
    entries, end = play_quadropolis({0: 2 * 3600, 1: 20 * 3600})
    c = clocks(STANDARD, history(*entries), range(2), end)
    assert {n: c[n].bank_ms for n in (0, 1)} == reference(STANDARD, entries)
    turns = [0, 0]
    for (_, seat, after), (_, _, before) in zip(entries[1:], entries, strict=False):
        if after != before:
            assert seat is not None
            turns[seat] += 1
    moves = [sum(1 for _, seat, _ in entries[1:] if seat == n) for n in (0, 1)]
    assert (moves, turns) == ([25, 26], [16, 16])  # 51 moves: takes (steps) and builds (turns)
    # Seat 0 spends 2 hours a move and gains a day a turn: it reaches the cap and ends there, 168 hours.
    assert c[0].bank_ms == 168 * H
    # Seat 1 spends 26 x 20 = 520 hours for 16 x 24 = 384: its bank ran out on the way (72 + 384 - 520 < 0)
    # and was never below zero; its last finished turn brought it back to one day.
    assert c[1].bank_ms == 24 * H
    on_the_way = [
        clocks(STANDARD, history(*entries[:i]), range(2), at - 1)[1] for i, (at, _, _) in enumerate(entries) if i
    ]
    assert any(s.ran_out_at is not None and s.bank_ms == 0 for s in on_the_way)
    assert not c[0].running and not c[1].running  # nobody is awaited once the game is over


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(1, 100 * H), st.booleans()), max_size=30),
    st.integers(0, 5 * DAY),
    st.integers(0, 2 * DAY),
)
def test_properties(steps: list[tuple[int, int, bool]], bank: int, increment: int) -> None:
    """Whatever the history: no bank below zero or (without gifts) above its start and the cap; a bank
    never grows while its seat only waits; later instants never show more time for a running seat."""
    control = TimeControl(bank, increment, max(bank, 7 * DAY))
    entries: list[tuple[int, int | None, set[int]]] = [(T0, None, {0})]
    at, awaited = T0, 0
    for seat_hint, took, ends in steps:
        del seat_hint
        at += took
        after = {1 - awaited} if ends else {awaited}
        entries.append((at, awaited, after))
        awaited = min(after)
    h = history(*entries)
    c = clocks(control, h, range(2), at)
    for n in (0, 1):
        assert 0 <= c[n].bank_ms <= max(control.bank_ms, control.cap_ms)
    later = clocks(control, h, range(2), at + H)
    for n in (0, 1):
        assert later[n].bank_ms <= c[n].bank_ms
        if not c[n].running:
            assert later[n].bank_ms == c[n].bank_ms
