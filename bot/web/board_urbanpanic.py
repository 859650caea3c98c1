"""Urban Panic's way from taps to a move (:mod:`bot.web.boardpaths`): the action, then the main board's slot, the
reserve tile, the plots, the spy's tile; the party game's plots and open table."""

from __future__ import annotations

from bot.i18n import t
from bot.rules.urbanpanic.tiles import tile_term
from bot.web.boardsteps import Ask, Move, Pick, button


def _plot(plot: str, ask: Ask, prompt: str, text: str | None = None) -> Pick:
    return Pick(f"plot:{plot}", text or t("urbanpanic.board.plot", ask.locale, plot=plot), prompt, f"plot:{plot}")


def urbanpanic(move: Move, ask: Ask) -> list[list[Pick]]:
    kind = move.get("kind")
    locale = ask.locale
    me = (ask.view.get("players") or [])[ask.seat]
    reserve = [str(code) for code in me.get("reserve") or []]
    first = t("urbanpanic.board.action", locale)

    def step(name: str, text: str) -> Pick:
        return Pick(f"action:{name}", text, first)

    def own(code: str, prompt: str) -> Pick:
        k = reserve.index(code) if code in reserve else 0
        return Pick(f"reserve:{k}", t("urbanpanic.ui.pick_tile", locale, tile=tile_term(code)), prompt, f"reserve:{k}")

    if kind == "architect":
        return [
            [
                step("architect", t("urbanpanic.board.architect", locale)),
                Pick(
                    f"board:{move['slot']}",
                    ask.label(move),
                    t("urbanpanic.board.take", locale),
                    f"board:{move['slot']}",
                ),
            ]
        ]
    if kind == "planner":
        code = str(move["tile"])
        return [
            [
                step("planner", t("urbanpanic.ui.step.planner", locale)),
                own(code, t("urbanpanic.ui.ask.planner_tile", locale)),
                _plot(
                    move["plot"],
                    ask,
                    t("urbanpanic.ui.ask.planner_plot", locale, tile=tile_term(code)),
                    ask.label(move),
                ),
            ]
        ]
    if kind == "engineer_board":
        which = Pick("swap:board", t("urbanpanic.ui.pick_swap_board", locale), t("urbanpanic.ui.ask.engineer", locale))
        return [
            [
                step("engineer", t("urbanpanic.ui.step.engineer", locale)),
                which,
                _plot(move["plot"], ask, t("urbanpanic.ui.ask.swap_first", locale)),
                _plot(move["other"], ask, t("urbanpanic.board.swap_with", locale, plot=move["plot"]), ask.label(move)),
            ]
        ]
    if kind == "engineer_reserve":
        code = str(move["tile"])
        which = Pick(
            f"swap:{code}",
            t("urbanpanic.ui.pick_swap_reserve", locale, tile=tile_term(code)),
            t("urbanpanic.ui.ask.engineer", locale),
            marks=(f"reserve:{reserve.index(code)}",) if code in reserve else (),
        )
        return [
            [
                step("engineer", t("urbanpanic.ui.step.engineer", locale)),
                which,
                _plot(
                    move["plot"],
                    ask,
                    t("urbanpanic.ui.ask.swap_reserve", locale, tile=tile_term(code)),
                    ask.label(move),
                ),
            ]
        ]
    if kind == "spy":
        code, victim = str(move["tile"]), int(move["victim"])
        name = ask.names[victim] if 0 <= victim < len(ask.names) else str(victim)
        which = Pick(
            f"spy:{victim}:{code}",
            t("urbanpanic.ui.pick_spy", locale, tile=tile_term(code), victim=name),
            t("urbanpanic.ui.ask.spy_tile", locale),
        )
        return [
            [
                step("spy", t("urbanpanic.ui.step.spy", locale)),
                which,
                _plot(
                    move["plot"], ask, t("urbanpanic.ui.ask.spy_plot", locale, tile=tile_term(code)), ask.label(move)
                ),
            ]
        ]
    if kind == "place":  # the party game: the tile in hand onto an empty plot
        hand = me.get("hand")
        text = t("urbanpanic.ui.planner", locale, tile=tile_term(str(hand)), plot=move["plot"]) if hand else None
        pick = _plot(move["plot"], ask, t("urbanpanic.board.party", locale), text)
        return [[Pick(pick.key, pick.label, pick.prompt, pick.region, says=text or "")]]
    if kind == "take":
        table = [str(code) for code in ((ask.view.get("party") or {}).get("open_table") or [])]
        k = table.index(str(move["tile"])) if str(move["tile"]) in table else 0
        return [[Pick(f"table:{k}", ask.label(move), t("urbanpanic.board.party", locale), f"table:{k}")]]
    if kind in ("draw", "drop"):
        return [[button(move, ask, t("urbanpanic.board.party", locale))]]
    return [[button(move, ask, first)]]
