"""Quadropolis' way from taps to a move (:mod:`bot.web.boardpaths`): a site tile, then the architect and side, then a
square of the city or Discard."""

from __future__ import annotations

from bot.i18n import resolve, t
from bot.rules.quadropolis.tiles import slot_target
from bot.web.boardsteps import Ask, Move, Pick, button


def quadropolis(move: Move, ask: Ask) -> list[list[Pick]]:
    kind = move.get("kind")
    if kind == "take":
        row, col = (n + 1 for n in slot_target(str(move["slot"]), int(move["architect"])))  # 1-based, as drawn
        square = ask.view["site"]["squares"][row - 1][col - 1]
        if square.get("state") == "tile":
            what = str(resolve(square["tile"]["label"], ask.locale))
        elif square.get("state") == "face_down":
            what = t("quadropolis.ui.face_down", ask.locale)
        else:
            what = t("quadropolis.ui.empty", ask.locale)
        site = Pick(
            f"site:{row},{col}",
            t("quadropolis.board.site", ask.locale, row=row, column=col, what=what),
            t("quadropolis.board.take", ask.locale),
            f"site:{row},{col}",
        )
        which = Pick(
            f"take:{move['architect']}:{move['slot']}",
            ask.label(move),
            t("quadropolis.board.architect", ask.locale),
            marks=(f"slot:{move['slot']}",),
        )
        return [[site, which]]
    prompt = t("quadropolis.board.build", ask.locale)
    if kind == "build":
        pending = ask.view.get("pending") or {}
        tile = pending.get("tile") or {}
        name = str(resolve(tile.get("label", "?"), ask.locale))
        text = t("quadropolis.board.build_on", ask.locale, tile=name, square=ask.label(move))
        return [
            [
                Pick(
                    f"square:{move['square']}:{move.get('floor', 1)}",
                    text,
                    prompt,
                    f"square:{move['square']}",
                    says=text,
                )
            ]
        ]
    return [[button(move, ask, prompt)]]
