"""Urban Panic's rules, declared once: rules, labels, turns, how a move is told, calculator, story."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.base import Game, Step, StoryStyle, TurnStyle, View
from bot.i18n import t, t_or
from bot.rules.urbanpanic import calculator, scoring
from bot.rules.urbanpanic.rules import RULES
from bot.rules.urbanpanic.tiles import tile_term
from bot.rules.urbanpanic.viewtypes import UpAction, UpView


def label(move: Mapping[str, Any], view: UpView, locale: str) -> str | None:
    """A move's label; tiles in the players' notation (:func:`tile_term`), plots by their names."""
    kind = move.get("kind")
    if kind == "architect":
        slot = int(move["slot"])
        board = view.get("main_board")
        slots = (board.get("slots") if board else None) or []
        tile = slots[slot - 1] if 0 < slot <= len(slots) else None
        return t("urbanpanic.ui.architect", locale, tile=tile_term(tile) if tile else "?", slot=slot)
    if kind == "planner":
        return t("urbanpanic.ui.planner", locale, tile=tile_term(move["tile"]), plot=move["plot"])
    if kind == "engineer_board":
        return t("urbanpanic.ui.engineer_board", locale, plot=move["plot"], other=move["other"])
    if kind == "engineer_reserve":
        return t("urbanpanic.ui.engineer_reserve", locale, tile=tile_term(move["tile"]), plot=move["plot"])
    if kind == "spy":
        victim = int(move["victim"])
        return t(
            "urbanpanic.ui.spy",
            locale,
            tile=tile_term(move["tile"]),
            plot=move["plot"],
            victim=t("urbanpanic.ui.seat", locale, n=victim + 1),
        )
    if kind in ("mayor", "end_turn", "draw", "drop"):
        return t(f"urbanpanic.ui.{kind}", locale)
    if kind == "take":
        return t("urbanpanic.ui.take", locale, tile=tile_term(move["tile"]))
    if kind == "place":
        return str(move["plot"])
    return None


# -- how a move is told: a whole turn in one line ---------------------------------------------------
def seat_name(seat: int, names: list[str] | None, locale: str) -> str:
    """A seat's name, or "seat N" when the names are not known."""
    if names and 0 <= seat < len(names):
        return names[seat]
    return t("urbanpanic.ui.seat", locale, n=seat + 1)


def action_text(entry: UpAction, names: list[str] | None, locale: str) -> str:
    """One action of a turn's log, tiles in the players' notation (the log keeps codes)."""
    kind = str(entry.get("kind"))
    params: dict[str, Any] = {k: v for k, v in entry.items() if k != "kind"}
    for key in ("tile", "other_tile", "removed"):
        if key in params:
            params[key] = tile_term(params[key])
    if kind == "spy":
        params["victim"] = seat_name(int(entry["victim"]), names, locale)
    return t_or(f"urbanpanic.ui.log.{kind}", kind, locale, **params)


def actions_text(entries: list[UpAction], names: list[str] | None, locale: str) -> str:
    return ", ".join(action_text(e, names, locale) for e in entries)


def turn_sentence(player: str, actions: list[UpAction], names: list[str] | None, locale: str) -> str:
    """One line for a whole turn: "alice's turn: took housing ↑↓ (slot 2), built housing ↑↓ on B3."."""
    if not actions:
        return t("urbanpanic.ui.turn.passed", locale, player=player)
    return t("urbanpanic.ui.turn.summary", locale, player=player, actions=actions_text(actions, names, locale))


def tell(key: str, params: dict[str, Any], view: UpView, names: list[str] | None, locale: str) -> list[str]:
    """An END_TURN is told as the whole turn in one line, read from the public view's ``previous_turn``
    (and "game over" when it ended the game); anything else is the rules' own sentence."""
    if key.startswith("urbanpanic.move.end_turn") and (turn := view.get("previous_turn")):
        player = str(params.get("player") or seat_name(int(turn["seat"]), names, locale))
        lines = [turn_sentence(player, turn["actions"], names, locale)]
        if view.get("over"):
            lines.append(t("urbanpanic.ui.game_over", locale))
        return lines
    return [t(key, locale, **params)]


class Turns(TurnStyle[UpView]):
    """Turn games: every action until End turn is a step, the awaited player's buttons are public.

    Party: hands are private (everyone opens their own choices); every move is quiet except the one
    that fills the first city: the hourglass starts and the channel is told.
    """

    def public_choices(self, view: UpView) -> bool:
        return view.get("variant") != "party"

    def within_turn(
        self, acting_seat: int, awaiting: frozenset[int], newly_awaited: frozenset[int], view: UpView
    ) -> bool:
        if view.get("over"):
            return False
        if view.get("variant") == "party":
            party = view.get("party")
            started = view.get("first_finisher") == acting_seat and bool(party.get("timer_running") if party else None)
            return not started
        return bool(view.get("current") == acting_seat)


class Story(StoryStyle):
    """A point after each END_TURN; in the party game after every round of placements (one tile a player).

    The score is the spec's scoring of the boards as they stand (empty plots count against it until
    they are built on), goals and the finisher's bonus included, computed from the public view.
    """

    def places(self, view: View) -> list[str | None]:
        return [None] * int(view["seats"])

    def scores(self, view: View) -> list[int]:
        boards = [
            [None if cell is None or cell.get("centre") else str(cell["tile"]) for row in p["grid"] for cell in row]
            for p in view["players"]
        ]
        tracks = [[int(x) for x in p["tracks"]] for p in view["players"]]
        goals = [str(g["id"]) for g in view.get("goals") or []]
        table = scoring.score_table(
            boards, tracks, goals, view.get("first_finisher"), finisher_bonus=view.get("variant") == "party"
        )
        return list(table.totals)

    def axis(self, view: View) -> str:
        return "round" if view.get("variant") == "party" else "turn"

    def checkpoint(self, step: Step) -> bool:
        if step.options.get("variant") != "party":
            return super().checkpoint(step)
        before, after = step.before, step.after
        if after.get("over"):
            return not before.get("over")
        seats = max(1, int(after["seats"]))

        def built(v: View) -> int:
            return sum(int(p["tiles"]) for p in v["players"])

        return built(after) // seats > built(before) // seats


def hand_note(view: UpView, locale: str) -> str | None:
    """The tile in the viewer's hand (the party game: the one they drew or took), for the terminal player:
    the place buttons name only plots, since a hand is private."""
    viewer = view.get("viewer")
    hand = view["players"][viewer].get("hand") if viewer is not None else None
    if not isinstance(hand, str) or hand == "hidden":
        return None
    return t("urbanpanic.ui.prompt.hand", locale, tile=tile_term(hand))


GAME: Game[UpView] = Game(
    kind="urbanpanic",
    rules=RULES,
    aliases=("urban-panic", "urban panic", "up"),
    labeller=label,
    turns=Turns(),
    calculator=calculator.score_text,
    story=Story(),
    private_note=hand_note,
    teller=tell,
)
