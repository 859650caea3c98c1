"""``python -m bot local``'s command line: the parser, the checks of its arguments, and the command that
hands a checked game to the terminal (:mod:`bot.local.terminal`) or a file to the replay
(:mod:`bot.local.replay`)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from bot import cli, errors, games, store
from bot.cli import say
from bot.dbtext import database_sentence
from bot.i18n import error_text, languages, normalise_locale, t
from bot.local import replay, terminal
from bot.local.terminal import DEFAULT_DB


def check_arguments(args: argparse.Namespace) -> tuple[str, dict[str, Any], int, int]:
    """(game, options, players, AI seats) from the command line, or UsageError naming the option to fix."""
    kind = games.resolve(args.game or "")
    if kind is None:
        raise cli.UsageError("cli.local.unknown_game", game=args.game, games=", ".join(games.available()))
    rules = games.rules(kind)
    options: dict[str, Any] = {}
    if args.mode and rules.option_specs:
        options[rules.option_specs[0].name] = args.mode
    if args.difficulty is not None:
        options["difficulty"] = str(args.difficulty)
    if args.solo:
        options["mode"] = args.solo
    for pair in args.option:
        name, sep, value = str(pair).partition("=")
        if not sep or not name.strip() or not value.strip():
            raise cli.UsageError("cli.local.bad_option", option=cli.short(pair))
        options[name.strip().lower()] = value.strip()
    opts = rules.normalise_options(options)
    low, high = rules.seat_range(opts)
    players = args.players if args.players is not None else low
    if not low <= players <= high:
        spec = rules.option_specs[0] if rules.option_specs else None
        fitting = (
            [
                c
                for c in spec.choices
                if rules.seat_range({**opts, spec.name: c})[0] <= players <= rules.seat_range({**opts, spec.name: c})[1]
            ]
            if spec is not None and players >= 0
            else []
        )
        exactly = "_exactly" if low == high else ""
        if fitting and spec is not None:
            raise cli.UsageError(
                f"cli.local.players_other_mode{exactly}",
                low=low,
                high=high,
                players=players,
                mode=fitting[0],
                option=spec.name,
            )
        raise cli.UsageError(f"cli.local.players{exactly}", low=low, high=high, players=players)
    if not 0 <= args.ai <= players:
        raise cli.UsageError("cli.local.ai_count", ai=args.ai, players=players)
    if args.level is not None and rules.ai_levels and args.level not in rules.ai_levels:
        raise cli.UsageError("cli.local.level", level=args.level, levels=", ".join(rules.ai_levels))
    if players - args.ai < 1:
        raise cli.UsageError("cli.local.no_human")
    return kind, opts, players, args.ai


def games_help() -> str:
    """One line per game: its modes with their player counts, and its AI levels (from the registry)."""
    lines = []
    for kind in games.available():
        rules = games.rules(kind)
        spec = rules.option_specs[0] if rules.option_specs else None
        modes = []
        for choice in spec.choices if spec is not None else ("",):
            low, high = rules.seat_range({spec.name: choice} if spec is not None else {})
            key = "cli.local.epilog_mode_fixed" if low == high else "cli.local.epilog_mode"
            modes.append(say(key, mode=choice, low=low, high=high).strip())
        lines.append(
            say(
                "cli.local.epilog_game",
                kind=kind,
                title=t(games.get(kind).title_key, cli.LOCALE),
                modes=", ".join(modes),
                levels=", ".join(rules.ai_levels) or "-",
            )
        )
    return "\n".join(lines)


def parser() -> cli.Parser:
    first = games.available()[0]
    p = cli.Parser(
        "python -m bot local",
        say("cli.local.description"),
        say("cli.local.epilog", games=games_help(), example=first, players=games.rules(first).seat_range({})[0]),
    )
    p.add_argument("game", nargs="?", metavar="GAME", help=say("cli.local.game", games=", ".join(games.available())))
    p.add_argument("--mode", "--variant", dest="mode", metavar="MODE", help=say("cli.local.mode"))
    p.add_argument("--players", type=int, metavar="N", help=say("cli.local.players_help"))
    p.add_argument("--ai", type=int, default=0, metavar="N", help=say("cli.local.ai"))
    p.add_argument("--level", metavar="LEVEL", help=say("cli.local.level_help"))
    p.add_argument("--solo", nargs="?", const="solo_full", metavar="MODE", help=say("cli.local.solo"))
    p.add_argument("--difficulty", type=int, metavar="N", help=say("cli.local.difficulty"))
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=say("cli.local.option"))
    p.add_argument(
        "--lang",
        default=cli.LOCALE,
        type=normalise_locale,
        choices=languages(),
        metavar="LANG",
        help=say("cli.local.lang", languages=", ".join(languages()), default=cli.LOCALE),
    )
    p.add_argument("--out", default="out", metavar="FOLDER", help=say("cli.local.out"))
    p.add_argument("--db", default=DEFAULT_DB, metavar="DB", help=say("cli.local.db"))
    p.add_argument("--replay", metavar="FILE", help=say("cli.local.replay"))
    p.add_argument("--resume", type=int, metavar="ID", help=say("cli.local.resume"))
    p.add_argument("--web", action="store_true", help=say("cli.local.web"))
    p.add_argument("--web-port", type=int, default=8080, metavar="PORT", help=say("cli.local.web_port"))
    return p


def command(argv: list[str]) -> int:
    """The ``local`` command (``UsageError`` for bad arguments; see :func:`bot.cli.run`)."""
    args = parser().parse_args(argv)
    if args.replay:
        if args.game or args.resume is not None:
            raise cli.UsageError("cli.local.replay_and_game")
        return replay.replay_command(args.replay, args.out, args.lang)
    if not 0 <= args.web_port <= 65535:
        raise cli.UsageError("cli.local.web_port_range", port=args.web_port)
    if args.resume is not None and args.game:
        raise cli.UsageError("cli.local.resume_and_game")
    if not args.game and args.resume is None:
        raise cli.UsageError("cli.local.missing", games=", ".join(games.available()))
    try:
        checked = check_arguments(args) if args.resume is None else None
        if args.web:
            terminal.check_port(args.web_port)
        return asyncio.run(terminal.play(args, checked))
    except errors.GameError as exc:
        raise cli.UsageError("cli.local.refused", problem=error_text(exc, args.lang)) from None
    except store.DatabaseProblem as exc:
        # The whole sentence (a usage error's parameters are cut to one short line), naming --db.
        return cli.error(database_sentence(exc, args.db if store.is_url(args.db) else Path(args.db), "--db"))


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return cli.run(lambda: command(args))
