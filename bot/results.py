"""A finished game's result as sentences: the ranking every front-end shows (Discord and the terminal)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.i18n import resolve, t

SCORE_IDS = ("score",)
"""``decided_by`` values meaning the score alone decided (a game may add its own, ``<game>.tiebreak.score``)."""


def decided_sentence(decided_by: str, locale: str = "en", score_ids: Sequence[str] = SCORE_IDS) -> str:
    """What separated the winner from the runner-up, as a sentence ("" when the score did).

    ``decided_by`` is a Result's: a score id, ``"shared"``, ``"forfeit"``, or a tie-break id that the
    rules' catalogue words as a whole sentence (``"<game>.tiebreak.<rule>"``); an id without a sentence is
    named in a generic one.
    """
    if not decided_by or decided_by in score_ids or decided_by.endswith(".tiebreak.score"):
        return ""
    if decided_by in ("shared", "forfeit"):
        return t(f"end.decided.{decided_by}", locale)
    sentence = t(decided_by, locale)
    if sentence != decided_by:
        return sentence
    rule = decided_by.rsplit(".", 1)[-1].replace("_", " ")
    return t("end.decided.rule", locale, rule=rule)


def ranking_lines(
    game_id: int, result: dict[str, Any] | None, locale: str, who: Callable[[int], str], everyone: Sequence[str]
) -> list[str]:
    """The end-of-game text: a title, one line per place (Automas ranked with the players), and the
    tie-break that decided, if any. ``who(seat)`` names a seat; ``everyone`` names all seats (for a
    game given up)."""
    result = result or {}
    lines = [t("end.title", locale, game=game_id)]
    details = result.get("details") or {}
    if details.get("gave_up"):
        lines.append(t("end.gave_up", locale, players=", ".join(everyone)))
        return lines
    entries = [(int(s["rank"]), 0, int(s["seat"]), who(int(s["seat"])), s["total"]) for s in result.get("seats", [])]
    # Opponents that are not seats (a solo game's automatic opponents) are ranked with the players.
    for i, other in enumerate(details.get("automas") or []):
        if isinstance(other, dict) and {"rank", "total"} <= other.keys():
            name = str(resolve(other.get("name", "Automa"), locale))
            entries.append((int(other["rank"]), 1, i, name, other["total"]))
    for rank, _, _, name, total in sorted(entries):
        lines.append(t("end.line", locale, rank=rank, player=name, total=total))
    sentence = decided_sentence(str(result.get("decided_by", "score")), locale)
    if sentence:
        lines.append(sentence)
    return lines
