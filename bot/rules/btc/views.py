"""What a seat may see, and public one-line summaries of moves (spec D-1, D-12).

Secrets: a seat's hand and its committed-but-unrevealed choice are shown only to that seat; the
tiles it handed on disappear from its view at the commit (D-1); discarded tiles, the bag, the
duplex stack and the Automa deck order are shown to nobody. Everything else is public: the cities,
revealed tiles still to be placed, who has committed, how many tiles every hand holds, and in solo
games the Automas' face-up hands and the Automa cards drawn.
"""

from __future__ import annotations

from typing import Any, cast

from bot.rules import core
from bot.rules.btc import engine as E
from bot.rules.btc import geometry as G
from bot.rules.btc import scoring
from bot.rules.btc import tiles as T
from bot.rules.btc.state import FREE, BtcState, City
from bot.rules.btc.viewtypes import (
    BtcAutomaStep,
    BtcCampaignSummary,
    BtcCell,
    BtcCity,
    BtcIncoming,
    BtcPlaceTile,
    BtcPlayer,
    BtcResult,
    BtcSupply,
    BtcTile,
    BtcView,
    BtcYou,
    Mode,
    Orientation,
    Part,
    Phase,
)


def tile_info(state: BtcState, tile: int) -> BtcTile:
    """A tile a viewer may see: ``{"id", "kind", "faces", "orientation", "name"}``."""
    kind = E.kind_of(state, tile)
    return {
        "id": tile,
        "kind": kind.id,
        "faces": list(kind.faces),
        "orientation": cast(Orientation | None, kind.orientation),
        "name": E.tile_name(state, tile),
    }


def _cells(state: BtcState, city: City) -> dict[str, BtcCell]:
    by_tile: dict[int, list[core.Cell]] = {}
    for cell, (_, tile, half) in city.cells.items():
        if half:
            by_tile.setdefault(tile, []).append(cell)
    out: dict[str, BtcCell] = {}
    for cell, (code, tile, half) in sorted(city.cells.items()):
        face = T.FACES[code]
        other = [x for x in by_tile.get(tile, []) if x != cell]
        out[core.cell_name(cell)] = {
            "face": code,
            "type": face.type,
            "token": face.token,
            "tile": tile,
            "half": half,
            "duplex": state.tiles[tile] if half else None,
            "other": core.cell_name(other[0]) if other else None,
        }
    return out


def _rows(city: City) -> tuple[list[str], str | None]:
    """The city in the spec's notation on the 4 x 4 window starting at its top-left occupied
    row and column, and that window's top-left frame cell (None while the city is empty)."""
    box = G.bounds(city.cells)
    if box is None:
        return [], None
    r0, c0 = box[0], box[2]
    rows = [
        " ".join(T.FACES[city.cells[(r, c)][0]].token if (r, c) in city.cells else "." for c in range(c0, c0 + G.SIDE))
        for r in range(r0, r0 + G.SIDE)
    ]
    return rows, core.cell_name((r0, c0))


def _city(state: BtcState, index: int, scores: dict[str, int], counts: list[int]) -> BtcCity:
    city = state.cities[index]
    incoming: list[BtcIncoming] = [
        {**tile_info(state, x.tile), "from": player}
        for player, p in enumerate(state.players)
        for x in p.pending
        if x.city == index
    ]
    out: BtcCity = {
        "city": index,
        "name": E.city_term(city.name),
        "builders": list(city.builders),
        "grid": city.grid,
        "size": city.size(),
        "buildings": scoring.type_counts(city.faces()),
        "factories": counts[index],
        "per_factory": scoring.per_factory(counts[index], counts),
        "scores": dict(scores),
        "modifier": E.modifier(state, index),
        "total": scoring.total(scores) + E.modifier(state, index),
        "incoming": incoming,
    }
    if city.grid:
        rows, origin = _rows(city)
        out["cells"] = _cells(state, city)
        out["rows"] = rows
        out["origin"] = origin
        out["open"] = (
            [core.cell_name(a) for a in G.anchors(city.cells.keys(), G.SINGLE_SHAPE)]
            if city.size() < G.SIDE * G.SIDE
            else []
        )
    else:
        out["loose"] = [{"face": code, "tile": tile, "half": half} for code, tile, half in city.loose]
    return out


def _to_place(state: BtcState, player: int) -> list[BtcPlaceTile]:
    return [
        {**tile_info(state, x.tile), "city": None if x.city == FREE else x.city} for x in state.players[player].pending
    ]


def _player(state: BtcState, index: int) -> BtcPlayer:
    p = state.players[index]
    left, right = E.cities_of(state, index)
    solo = E.is_solo(state)
    out: BtcPlayer = {
        "player": index,
        "seat": index if index < state.seats else None,
        "automa": E.automa_term(index) if solo and index > 0 else None,
        "left_city": left,
        "right_city": right,
        "hand_size": len(p.hand),
        "committed": bool(p.choice),
        "passing": len(p.outgoing),
        "to_place": _to_place(state, index),
        "placed_cities": list(p.placed),
        "you_first": list(p.waits),
    }
    if state.mode == E.STANDARD:
        pos = state.order.index(index)
        n = len(state.order)
        out["position"] = pos
        out["left_neighbour"] = state.order[(pos + 1) % n]
        out["right_neighbour"] = state.order[(pos - 1) % n]
    if solo and index > 0:
        out["hand"] = [tile_info(state, t) for t in p.hand]  # solo hands lie face up (D-12)
    return out


def _turn(state: BtcState) -> int:
    """The turn (solo: turn, batch or repetition) being played in this round: while revealed
    tiles wait to be placed, their turn; otherwise the next one to choose."""
    placing = any(p.pending for p in state.players)
    return state.step if placing and not E.is_solo(state) else state.step + 1


def _you(state: BtcState, seat: int | None) -> BtcYou | None:
    """The viewer's own secrets (hand, committed choice) and tiles to place; None for a spectator
    or a seat that is not in the game."""
    if seat is None or not 0 <= seat < state.seats:
        return None
    p = state.players[seat]
    return {
        "seat": seat,
        "hand": [tile_info(state, t) for t in p.hand],
        "choice": [tile_info(state, t) for t in p.choice],
        "to_place": _to_place(state, seat),
        "can_choose": E.can_choose(state, seat),
    }


def _supply(state: BtcState) -> BtcSupply:
    """How many single and duplex tiles are left to draw, and how many were discarded (counts only)."""
    return {
        "singles": len(T.SINGLE_POOL) - state.next_single,
        "duplexes": len(state.tiles) - state.next_duplex,
        "discarded": len(state.discard),
    }


def _add_solo(state: BtcState, out: BtcView) -> None:
    """A solo game's additions to ``out``: the difficulty, in Solo Full the Automas' names, log and
    cards left, and in a campaign game its options, bonus choices and (at the end) summary."""
    out["difficulty"] = int(state.options.get("difficulty", "4"))
    if state.mode == E.SOLO_FULL:
        out["automa"] = {
            "names": [E.automa_term(i) for i in (1, 2)],
            "log": [cast(BtcAutomaStep, dict(e)) for e in state.automa_log],
            "cards_left": len(state.deck),
        }
    if state.options.get("campaign", "off") != "off":
        result = E.game_result(state)
        out["campaign"] = {
            "length": int(state.options["campaign"]),
            "game": int(state.options["campaign_game"]),
            "used_before": [E.LETTER_CATEGORY[x] for x in state.options["campaign_used"] if x in E.LETTER_CATEGORY],
            "bonus_choices": [[cat, c] for cat, c in E.bonus_choices(state)],
            "summary": cast(BtcCampaignSummary | None, result.seats[0].details.get("campaign")),
        }


def view(state: BtcState, seat: int | None) -> BtcView:
    """What ``seat`` (None: a spectator) may see. JSON shape::

        {"game": "btc", "mode", "round": 1-3, "part": "" | "a" | "b" (2-player half rounds),
         "turn": the turn being played in the round (tiles to place, else the next choice),
         "phase": "play" | "assign" | "place" | "bonus" | "over", "seat": the viewer or None,
         "awaiting": [seats],
         "players": [{"player", "seat" (None for an Automa), "automa" (its name or None),
                      "left_city", "right_city", "position", "left_neighbour", "right_neighbour"
                      (3-7 players), "hand_size", "committed", "passing" (tiles handed on, face
                      down), "to_place": [tile + "city" (None: the chooser decides)],
                      "placed_cities", "you_first": [cities], "hand" (Automas only, face up)}],
         "cities": [{"city", "name", "builders": [players], "grid": false for Automacity,
                     "size", "buildings": {type: n}, "factories", "per_factory",
                     "scores": {shops … houses}, "modifier" (Automacity's difficulty), "total",
                     "incoming": [revealed or assigned tiles bound for it, with "from"],
                     grid cities: "cells": {"D4": {"face", "type", "token", "tile", "half" (0
                     single, 1/2 first/second duplex face), "duplex" (its kind), "other" (the
                     other half's cell)}}, "rows": 4 strings in the spec's notation from
                     "origin" (top-left frame cell), "open": cells a single tile may go to;
                     Automacity: "loose": [{"face", "tile", "half"}]}],
         "you": None | {"seat", "hand": [tile], "choice": [tile] (committed, unrevealed),
                        "to_place": [tile + "city"], "can_choose"},
         "supply": {"singles", "duplexes", "discarded"},
         "automa": None | {"names", "log": [{"round", "turn", "automa", "card", "shared",
                   "shared_tile", "shared_by", "shared_city", "automacity", "automacity_tile",
                   "automacity_by"}], "cards_left"} (solo Full),
         "difficulty" (solo), "campaign" (solo campaign: options and, at the end, the summary),
         "result": None | Result JSON (with "decided_by") once the game is over}

    A tile is ``{"id", "kind", "faces", "orientation", "name"}``.
    """
    stage = E.stage_of(state)
    scores = E.city_scores(state)
    counts = E.factory_counts(state)
    out: BtcView = {
        "game": "btc",
        "mode": cast(Mode, state.mode),
        "round": stage.round,
        "part": cast(Part, stage.part),
        "turn": _turn(state),
        "phase": cast(Phase, state.phase),
        "seat": seat,
        "awaiting": sorted(E.awaited(state)),
        "players": [_player(state, i) for i in range(len(state.players))],
        "cities": [_city(state, i, scores[i], counts) for i in range(len(state.cities))],
        "you": _you(state, seat),
        "supply": _supply(state),
        "automa": None,
        "result": cast(BtcResult, E.game_result(state).to_json()) if state.phase == "over" else None,
    }
    if E.is_solo(state):
        _add_solo(state, out)
    return out


# ---------------------------------------------------------------------------------------------
# Summaries
# ---------------------------------------------------------------------------------------------


def _revealed(before: BtcState, after: BtcState) -> list[core.Term]:
    """The choices flipped by a reveal, as terms: "Ann: shop and park, Bob: …" (each seat a :func:`core.seat_ref`,
    named by the front-end)."""
    parts = []
    for i, p in enumerate(after.players):
        fixed = [x for x in p.pending if x.city != FREE]
        if fixed:
            names = [
                core.term("btc.reveal.for", tile=E.tile_name(after, x.tile), city=E.city_name(after, x.city))
                for x in fixed
            ]
        else:
            names = [E.tile_name(after, x.tile) for x in p.pending]
        both = core.term("btc.reveal.pair", a=names[0], b=names[1]) if len(names) == 2 else names[0]
        parts.append(core.term("btc.reveal.seat", player=core.seat_ref(i), tiles=both))
    return parts


def _card_number(card: str) -> str:
    """An Automa card as a player names it: its number ("R08" -> "8"), so no letter of the data's ids
    reaches a sentence in another script; an id without digits as it is."""
    digits = "".join(ch for ch in card if ch.isdigit()).lstrip("0")
    return digits or card


def _automa_steps(before: BtcState, after: BtcState) -> list[core.Term]:
    """What each Automa did, as terms: "Automarta (card 12) gives Left City a shop and builds a park in
    Automacity"."""
    return [
        core.term(
            "btc.automa.step",
            name=E.automa_term(e["automa"]),
            card=_card_number(str(e["card"])),
            city=E.city_name(after, e["shared_city"]),
            shared=E.tile_name(after, e["shared"]),
            built=E.tile_name(after, e["automacity"]),
            automacity=E.city_name(after, E.AUTOMACITY),
        )
        for e in after.automa_log[len(before.automa_log) :]
    ]


def describe(before: BtcState, seat: int, move: dict[str, Any], after: BtcState) -> tuple[str, dict[str, Any]]:
    """A public one-line summary. A commit says only who has chosen, unless it completes the
    reveal, which then lists every revealed choice."""
    kind = move.get("kind")
    revealed = after.reveals > before.reveals and not E.is_solo(after)
    if kind == "choose":
        if revealed:
            return "btc.move.chose_reveal", {"seat": seat, "choices": _revealed(before, after)}
        return "btc.move.chose", {"seat": seat}
    if kind in ("place", "turned"):
        params: dict[str, Any] = {
            "seat": seat,
            "tile": E.tile_name(after, int(move["tile"])),
            "city": E.city_name(after, int(move["city"])),
            "cell": str(move["cell"]).upper(),
        }
        turned = kind == "turned"
        if revealed:
            key = "btc.move.turned_reveal" if turned else "btc.move.place_reveal"
            return key, {**params, "choices": _revealed(before, after)}
        if len(after.automa_log) > len(before.automa_log):
            key = "btc.move.turned_automa" if turned else "btc.move.place_automa"
            return key, {**params, "automas": _automa_steps(before, after)}
        return ("btc.move.turned" if turned else "btc.move.place"), params
    if kind == "you_first":
        return "btc.move.you_first", {"seat": seat, "city": E.city_name(after, int(move["city"]))}
    if kind == "assign":
        params = {
            "seat": seat,
            "left": E.tile_name(after, int(move["left"])),
            "right": E.tile_name(after, int(move["right"])),
            "left_city": E.city_name(after, E.LEFT_CITY),
            "right_city": E.city_name(after, E.RIGHT_CITY),
        }
        if "auto" in move:
            return "btc.move.assign_simple", {
                **params,
                "auto": E.tile_name(after, int(move["auto"])),
                "automacity": E.city_name(after, E.AUTOMACITY),
            }
        return "btc.move.assign", params
    if kind == "bonus":
        summary = E.game_result(after).seats[0].details.get("campaign") or {}
        return "btc.move.bonus", {"seat": seat, "type": move["type"], "points": summary.get("bonus", 0)}
    return "move.generic", {"seat": seat, "kind": kind}
