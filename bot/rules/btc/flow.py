"""The flow of a Between Two Cities game: stages start and end, choices are revealed, the solo Automas play
(section 10), and the game advances until someone must act."""

from __future__ import annotations

from typing import Any

from bot.rules import core
from bot.rules.btc import automa
from bot.rules.btc import tiles as T
from bot.rules.btc.state import FREE, BtcState, Pending
from bot.rules.btc.table import (
    AUTOMACITY,
    HAND_DUPLEXES,
    HAND_SINGLES,
    LEFT_CITY,
    RIGHT_CITY,
    SIMPLE_HAND,
    SOLO_FULL,
    SOLO_SIMPLE,
    STAGES,
    _draw,
    _place_loose,
    cities_of,
    factory_counts,
    giver,
    is_solo,
    stage_of,
)

# ---------------------------------------------------------------------------------------------
# Flow
# ---------------------------------------------------------------------------------------------


def _start_stage(state: BtcState) -> None:
    stage = stage_of(state)
    state.step = 0
    if state.mode == SOLO_SIMPLE:
        _start_simple_repetition(state)
    elif state.mode == SOLO_FULL:
        if stage.duplex:
            state.players[0].hand = _draw(state, True, HAND_DUPLEXES)
            state.phase = "assign"
        else:
            for p in state.players:
                p.hand = _draw(state, False, HAND_SINGLES)
            _automa_turn(state)
    else:
        for p in state.players:
            p.hand = _draw(state, stage.duplex, HAND_DUPLEXES if stage.duplex else HAND_SINGLES)


def _next_stage(state: BtcState) -> None:
    state.stage += 1
    if state.stage >= len(STAGES[state.mode]):
        state.step = 0
        campaign = is_solo(state) and state.options.get("campaign", "off") != "off"
        state.phase = "bonus" if campaign else "over"
        return
    _start_stage(state)


def _reveal(state: BtcState) -> None:
    """Every choice is in and every tile placed: flip the choices together, pass the hands."""
    stage = stage_of(state)
    outgoing = [p.outgoing for p in state.players]
    for i, p in enumerate(state.players):
        if stage.duplex:
            left, right = cities_of(state, i)
            p.pending = [Pending(p.choice[0], left), Pending(p.choice[1], right)]
            state.discard.extend(p.outgoing)
        else:
            p.pending = [Pending(t, FREE) for t in p.choice]
            incoming = outgoing[giver(state, i, stage.passing)]
            if len(incoming) > 1:
                p.hand = sorted(incoming)
            else:
                state.discard.extend(incoming)
    for p in state.players:
        p.choice, p.outgoing, p.placed, p.waits = [], [], [], []
    state.reveals += 1
    state.step += 1


def advance(state: BtcState) -> None:
    """Run everything that happens without a decision: reveals, passing, dealing, the Automas."""
    if is_solo(state):
        while state.phase == "place" and not state.players[0].pending:
            _finish_solo_unit(state)
        return
    while state.phase == "play":
        players = state.players
        if all(p.choice for p in players) and not any(p.pending for p in players):
            _reveal(state)
        elif not any(p.hand or p.choice or p.pending for p in players):
            _next_stage(state)
        else:
            return


# -- solo -------------------------------------------------------------------------------------


def _start_simple_repetition(state: BtcState) -> None:
    """Simple mode steps 1-2: a random tile for each city, then three tiles for you (10.4)."""
    duplex = stage_of(state).duplex
    human = state.players[0]
    for city in (LEFT_CITY, AUTOMACITY, RIGHT_CITY):
        (tile,) = _draw(state, duplex, 1)
        if city == AUTOMACITY:
            _place_loose(state.cities[AUTOMACITY], state, tile)
        else:
            human.pending.append(Pending(tile, city))
    human.hand = _draw(state, duplex, SIMPLE_HAND)
    state.phase = "assign"


def _draw_card(state: BtcState) -> str:
    if not state.deck:  # D-20: only with a replaced deck of fewer than 12 cards
        state.deck = core.shuffled(state.used_cards, state.seed, "btc", "reshuffle", len(state.automa_log))
        state.used_cards = []
    card = state.deck.pop(0)
    state.used_cards.append(card)
    return card


def _automa_turn(state: BtcState) -> None:
    """Steps 1-3 of both Automas, one step at a time, Autommaso first (10.5, D-14)."""
    entries: list[dict[str, Any]] = []
    stage = stage_of(state)
    for who in (1, 2):
        drawn = _draw_card(state)
        entries.append({"round": stage.round, "turn": state.step + 1, "automa": who, "card": drawn})
    for entry, shared in zip(entries, (LEFT_CITY, RIGHT_CITY), strict=True):
        hand = state.players[entry["automa"]].hand
        card = T.AUTOMA_CARD_BY_ID[entry["card"]]
        tile, symbol = automa.choose(
            hand, state.tiles, card.shared, state.cities[shared], shared, factory_counts(state)
        )
        hand.remove(tile)
        state.players[0].pending.append(Pending(tile, shared))
        entry.update(shared=tile, shared_tile=state.tiles[tile], shared_by=symbol, shared_city=shared)
    for entry in entries:
        hand = state.players[entry["automa"]].hand
        card = T.AUTOMA_CARD_BY_ID[entry["card"]]
        city = state.cities[AUTOMACITY]
        tile, symbol = automa.choose(hand, state.tiles, card.automacity, city, AUTOMACITY, factory_counts(state))
        hand.remove(tile)
        _place_loose(city, state, tile)
        entry.update(automacity=tile, automacity_tile=state.tiles[tile], automacity_by=symbol)
    state.automa_log.extend(entries)
    state.phase = "assign"


def _finish_solo_unit(state: BtcState) -> None:
    """Everything assigned is placed: pass hands / start the next turn, repetition or round."""
    stage = stage_of(state)
    state.reveals += 1
    if state.mode == SOLO_SIMPLE:
        state.step += 1
        if state.step < stage.units:
            _start_simple_repetition(state)
        else:
            _next_stage(state)
        return
    if stage.duplex:
        _next_stage(state)
        return
    hands = [p.hand for p in state.players]
    for i, p in enumerate(state.players):
        p.hand = sorted(hands[giver(state, i, stage.passing)])
    if all(len(p.hand) <= 1 for p in state.players):
        for p in state.players:
            state.discard.extend(p.hand)
            p.hand = []
        _next_stage(state)
    else:
        state.step += 1
        _automa_turn(state)
