"""Between Two Cities' way from taps to a move (:mod:`bot.web.boardpaths`): two tiles of the hand, the duplexes, a
tile then a square of either city."""

from __future__ import annotations

from typing import Any

from bot.games.btc import tile_names
from bot.i18n import t
from bot.web.boardsteps import Ask, Move, Pick, button


def btc(move: Move, ask: Ask) -> list[list[Pick]]:
    kind = move.get("kind")
    tiles = tile_names(ask.view, ask.locale)  # type: ignore[arg-type]

    def tile(number: Any, prompt: str) -> Pick:
        return Pick(f"tile:{number}", tiles.get(int(number), str(number)), t(prompt, ask.locale), f"tile:{number}")

    if kind == "choose" and "tiles" in move:
        a, b = move["tiles"]
        first, second = "btc.board.keep_first", "btc.board.keep_second"
        return [[tile(a, first), tile(b, second)], [tile(b, first), tile(a, second)]]
    if kind in ("choose", "assign"):
        picks = [tile(move["left"], "btc.board.left"), tile(move["right"], "btc.board.right")]
        if "auto" in move:
            picks.append(tile(move["auto"], "btc.board.auto"))
        return [picks]
    if kind in ("place", "turned"):
        me = (ask.view.get("players") or [])[ask.seat]
        side = "btc.render.left_city" if me.get("left_city") == move["city"] else "btc.render.right_city"
        region = f"city:{move['city']}:{move['cell']}"
        cell = Pick(
            region,
            t("btc.board.cell", ask.locale, city=t(side, ask.locale), cell=move["cell"]),
            t("btc.board.where", ask.locale),
            region,
        )
        return [[tile(move["tile"], "btc.board.which"), cell]]
    return [[button(move, ask, t("btc.board.which", ask.locale))]]
