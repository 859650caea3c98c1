"""Each game's way from taps to a move (issue 38): for one legal move, the picks that lead to it, each a
region of the seat's picture (``render.common.mark_region``'s ids) or a button, with its label and the
question of the step it is picked in. :mod:`bot.web.board` joins every move's picks into one tree.

A move may have several ways (two tiles of a hand are kept whichever is tapped first). The picks of
one step are told apart by their ``key``; two moves never share all their keys (the tests check that
the tree's leaves are exactly the seat's legal moves)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import labels
from bot.games import View
from bot.games.btc import tile_names
from bot.games.quadropolis import slot_target
from bot.i18n import resolve, t
from bot.rules.urbanpanic.tiles import tile_term

Move = dict[str, Any]


@dataclass(frozen=True)
class Pick:
    """One choice on the way to a move: a tap on ``region`` (None: a button), named ``label`` for screen
    readers and on the button, asked by ``prompt``; ``marks``: regions lit while it is chosen."""

    key: str
    label: str
    prompt: str
    region: str | None = None
    marks: tuple[str, ...] = ()
    says: str = ""
    """The move's sentence when this pick ends it, where the move's label is too short to tell it."""


@dataclass(frozen=True)
class Ask:
    """What a game's ways read besides the move: the seat's own view, the seat, the language, the names."""

    kind: str
    view: View
    seat: int
    locale: str
    names: Sequence[str]

    def label(self, move: Move) -> str:
        return labels.move_label(self.kind, move, self.view, self.locale, limit=200)


Ways = Callable[[Move, Ask], list[list[Pick]]]


def button(move: Move, ask: Ask, prompt: str) -> Pick:
    """A move that has no place on the picture: one button, its label the move's."""
    return Pick("button:" + ",".join(f"{k}={move[k]}" for k in sorted(move)), ask.label(move), prompt)


# -- Quadropolis -------------------------------------------------------------------------------------------
def quadropolis(move: Move, ask: Ask) -> list[list[Pick]]:
    kind = move.get("kind")
    if kind == "take":
        row, col = slot_target(str(move["slot"]), int(move["architect"]))
        square = ask.view["site"]["squares"][row - 1][col - 1]
        if square.get("state") == "tile":
            what = str(resolve(square["tile"]["label"], ask.locale))
        elif square.get("state") == "face_down":
            what = t("quadropolis.ui.face_down", ask.locale)
        else:
            what = t("quadropolis.ui.empty", ask.locale)
        site = Pick(f"site:{row},{col}", t("web.board.qp.site", ask.locale, row=row, column=col, what=what),
                    t("web.board.qp.take", ask.locale), f"site:{row},{col}")
        which = Pick(f"take:{move['architect']}:{move['slot']}", ask.label(move),
                     t("web.board.qp.architect", ask.locale), marks=(f"slot:{move['slot']}",))
        return [[site, which]]
    prompt = t("web.board.qp.build", ask.locale)
    if kind == "build":
        pending = ask.view.get("pending") or {}
        tile = pending.get("tile") or {}
        name = str(resolve(tile.get("label", "?"), ask.locale))
        text = t("web.board.qp.build_on", ask.locale, tile=name, square=ask.label(move))
        return [[Pick(f"square:{move['square']}:{move.get('floor', 1)}", text, prompt, f"square:{move['square']}",
                      says=text)]]
    return [[button(move, ask, prompt)]]


# -- Between Two Cities ------------------------------------------------------------------------------------
def btc(move: Move, ask: Ask) -> list[list[Pick]]:
    kind = move.get("kind")
    tiles = tile_names(ask.view, ask.locale)  # type: ignore[arg-type]

    def tile(number: Any, prompt: str) -> Pick:
        return Pick(f"tile:{number}", tiles.get(int(number), str(number)), t(prompt, ask.locale), f"tile:{number}")

    if kind == "choose" and "tiles" in move:
        a, b = move["tiles"]
        first, second = "web.board.btc.keep_first", "web.board.btc.keep_second"
        return [[tile(a, first), tile(b, second)], [tile(b, first), tile(a, second)]]
    if kind in ("choose", "assign"):
        picks = [tile(move["left"], "web.board.btc.left"), tile(move["right"], "web.board.btc.right")]
        if "auto" in move:
            picks.append(tile(move["auto"], "web.board.btc.auto"))
        return [picks]
    if kind in ("place", "turned"):
        me = (ask.view.get("players") or [])[ask.seat]
        side = "btc.render.left_city" if me.get("left_city") == move["city"] else "btc.render.right_city"
        region = f"city:{move['city']}:{move['cell']}"
        cell = Pick(region, t("web.board.btc.cell", ask.locale, city=t(side, ask.locale), cell=move["cell"]),
                    t("web.board.btc.where", ask.locale), region)
        return [[tile(move["tile"], "web.board.btc.which"), cell]]
    return [[button(move, ask, t("web.board.btc.which", ask.locale))]]


# -- Urban Panic -------------------------------------------------------------------------------------------
def _plot(plot: str, ask: Ask, prompt: str, text: str | None = None) -> Pick:
    return Pick(f"plot:{plot}", text or t("web.board.up.plot", ask.locale, plot=plot), prompt, f"plot:{plot}")


def urbanpanic(move: Move, ask: Ask) -> list[list[Pick]]:
    kind = move.get("kind")
    locale = ask.locale
    me = (ask.view.get("players") or [])[ask.seat]
    reserve = [str(code) for code in me.get("reserve") or []]
    first = t("web.board.up.action", locale)

    def step(name: str, text: str) -> Pick:
        return Pick(f"action:{name}", text, first)

    def own(code: str, prompt: str) -> Pick:
        k = reserve.index(code) if code in reserve else 0
        return Pick(f"reserve:{k}", t("urbanpanic.ui.pick_tile", locale, tile=tile_term(code)), prompt, f"reserve:{k}")

    if kind == "architect":
        return [[step("architect", t("web.board.up.architect", locale)),
                 Pick(f"board:{move['slot']}", ask.label(move), t("web.board.up.take", locale),
                      f"board:{move['slot']}")]]
    if kind == "planner":
        code = str(move["tile"])
        return [[step("planner", t("urbanpanic.ui.step.planner", locale)),
                 own(code, t("urbanpanic.ui.ask.planner_tile", locale)),
                 _plot(move["plot"], ask, t("urbanpanic.ui.ask.planner_plot", locale, tile=tile_term(code)),
                       ask.label(move))]]
    if kind == "engineer_board":
        which = Pick("swap:board", t("urbanpanic.ui.pick_swap_board", locale), t("urbanpanic.ui.ask.engineer", locale))
        return [[step("engineer", t("urbanpanic.ui.step.engineer", locale)), which,
                 _plot(move["plot"], ask, t("urbanpanic.ui.ask.swap_first", locale)),
                 _plot(move["other"], ask, t("web.board.up.swap_with", locale, plot=move["plot"]), ask.label(move))]]
    if kind == "engineer_reserve":
        code = str(move["tile"])
        which = Pick(f"swap:{code}", t("urbanpanic.ui.pick_swap_reserve", locale, tile=tile_term(code)),
                     t("urbanpanic.ui.ask.engineer", locale), marks=(f"reserve:{reserve.index(code)}",)
                     if code in reserve else ())
        return [[step("engineer", t("urbanpanic.ui.step.engineer", locale)), which,
                 _plot(move["plot"], ask, t("urbanpanic.ui.ask.swap_reserve", locale, tile=tile_term(code)),
                       ask.label(move))]]
    if kind == "spy":
        code, victim = str(move["tile"]), int(move["victim"])
        name = ask.names[victim] if 0 <= victim < len(ask.names) else str(victim)
        which = Pick(f"spy:{victim}:{code}", t("urbanpanic.ui.pick_spy", locale, tile=tile_term(code), victim=name),
                     t("urbanpanic.ui.ask.spy_tile", locale))
        return [[step("spy", t("urbanpanic.ui.step.spy", locale)), which,
                 _plot(move["plot"], ask, t("urbanpanic.ui.ask.spy_plot", locale, tile=tile_term(code)),
                       ask.label(move))]]
    if kind == "place":  # the party game: the tile in hand onto an empty plot
        hand = me.get("hand")
        text = t("urbanpanic.ui.planner", locale, tile=tile_term(str(hand)), plot=move["plot"]) if hand else None
        pick = _plot(move["plot"], ask, t("web.board.up.party", locale), text)
        return [[Pick(pick.key, pick.label, pick.prompt, pick.region, says=text or "")]]
    if kind == "take":
        table = [str(code) for code in ((ask.view.get("party") or {}).get("open_table") or [])]
        k = table.index(str(move["tile"])) if str(move["tile"]) in table else 0
        return [[Pick(f"table:{k}", ask.label(move), t("web.board.up.party", locale), f"table:{k}")]]
    if kind in ("draw", "drop"):
        return [[button(move, ask, t("web.board.up.party", locale))]]
    return [[button(move, ask, first)]]


WAYS: dict[str, Ways] = {"quadropolis": quadropolis, "btc": btc, "urbanpanic": urbanpanic}


def ways(kind: str, move: Move, ask: Ask) -> list[list[Pick]]:
    """The ways to ``move``: the game's own, else one button (a game without a board to tap)."""
    game = WAYS.get(kind)
    return game(move, ask) if game is not None else [[button(move, ask, t("web.board.choose", ask.locale))]]
