"""``python -m bot local --replay FILE``: an exported game (:mod:`bot.export` reads and checks it) told move
by move in the terminal, with the seats' names, and drawn into its picture folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot import cli, errors, export, games
from bot.i18n import error_text, t
from bot.local.terminal import Terminal
from bot.results import ranking_lines
from bot.rules import core

check_claims = export.check_claims


def read_export(path: str) -> tuple[Any, Any, list[str], int, export.Moves, dict[str, Any]]:
    """:func:`bot.export.read` of the file ``path`` (``-``: standard input), a bad one a UsageError."""
    text = cli.read_input(path)
    try:
        return export.read(text, path)
    except export.BadExport as exc:
        raise cli.UsageError(exc.key, **exc.params) from None


def replay(path: str, out: str, locale: str = "en") -> int:
    """Write the pictures of an exported game (``python -m bot local --replay FILE``)."""
    return cli.run(lambda: replay_command(path, out, locale))


def replay_command(path: str, out: str, locale: str = "en") -> int:
    try:
        return _replay(path, out, locale)
    except export.BadExport as exc:
        raise cli.UsageError(exc.key, **exc.params) from None


def _replay(path: str, out: str, locale: str) -> int:
    try:
        rules, state, names, _, moves, claims = read_export(path)
    except errors.GameError as exc:
        raise export.BadExport("cli.replay.rules", path=path, problem=error_text(exc, locale)) from None
    except export.UNFORESEEN:
        raise export.BadExport("cli.replay.not_an_export", path=path) from None
    export.check_claims(path, rules, state, moves, claims)
    term = Terminal(None, Path(out), locale)  # type: ignore[arg-type]  # pictures only: no service
    kind = rules.kind

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    try:
        term.folder_for(kind, Path(path).stem)
        term.picture(kind, rules.view(state, None), None, names)
        for number, (seat, move) in enumerate(moves, start=1):
            if seat != core.SYSTEM_SEAT and seat not in rules.awaiting(state):
                raise export.BadExport("cli.replay.not_their_turn", number=number, seat=seat + 1)
            try:
                before = state
                state = rules.apply(state, seat, move)
                key, params = rules.describe(before, seat, move, state)
            except errors.GameError as exc:
                raise export.BadExport("cli.replay.illegal", number=number, problem=error_text(exc, locale)) from None
            except export.UNFORESEEN:
                raise export.BadExport("cli.replay.move", number=number) from None
            # Told as a live game and /game replay tell it (bot.service.named): every seat by its name.
            told_params = {"player": name(seat) if seat >= 0 else "-", **core.name_seats(dict(params), name)}
            print("\n".join(games.get(kind).tell(key, told_params, rules.view(state, None), locale, names)))
            term.picture(kind, rules.view(state, None), seat if seat >= 0 else None, names)
        if rules.is_over(state):
            term.picture(kind, rules.view(state, None), None, names, end=True)
            # The result as the moves make it (the ranking's own title names a game id; a file has a path).
            ranking = ranking_lines(0, rules.result(state).to_json(), locale, lambda seat: names[seat], names)
            print("\n" + "\n".join([t("local.replay_over", locale, path=path), *ranking[1:]]))
        else:
            print("\n" + t("local.replay_unfinished", locale, path=path, moves=len(moves)))
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise export.BadExport("cli.replay.cannot_write", out=out, problem=exc.strerror or str(exc)) from None
    return 0
