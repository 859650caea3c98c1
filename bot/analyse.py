"""``python -m bot analyse FILE``: a finished game's analysis (:mod:`bot.analysis`) printed in the terminal.

FILE is an export (``/game export``; :mod:`bot.export` reads and checks it, ``-`` for standard input). Printed in
the terminal's language (``--lang`` to choose another): each player's accuracy, average loss and misses, the
turning points, then every weighed move with its loss and the best move in the game's own words. A bad file is
one sentence and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from babel.numbers import format_decimal

from bot import analysis, cli, errors, export, games, labels
from bot.analysis import summary
from bot.cli import say
from bot.i18n import error_text, languages, normalise_locale, t
from bot.rules import core, jsonin

PROG = "python -m bot analyse"
MOST_SAMPLES = 64
"""More samples than this would take hours; the command refuses them in one sentence."""
LABEL_LIMIT = 200


def parser() -> cli.Parser:
    p = cli.Parser(PROG, say("analysis.cli.description"), say("analysis.cli.epilog"))
    p.add_argument("file", metavar="FILE", help=say("analysis.cli.file"))
    p.add_argument(
        "--samples",
        type=int,
        default=analysis.DEFAULT_BUDGET.samples,
        metavar="N",
        help=say("analysis.cli.samples", default=analysis.DEFAULT_BUDGET.samples),
    )
    p.add_argument(
        "--lang",
        default=cli.LOCALE,
        type=normalise_locale,
        choices=languages(),
        metavar="LANG",
        help=say("cli.local.lang", languages=", ".join(languages()), default=cli.LOCALE),
    )
    p.add_argument("--json", action="store_true", help=say("analysis.cli.json"))
    return p


def read(path: str) -> tuple[str, dict[str, Any], list[str], int, export.Moves]:
    """(kind, options, names, seed, moves) of a finished game's export; UsageError (one sentence) if not."""
    text = cli.read_input(path)
    try:
        rules, state, names, seed, moves, claims = export.read(text, path)
        export.check_claims(path, rules, state, moves, claims)
        options = rules.normalise_options(jsonin.loads(text)["options"])
    except export.BadExport as exc:
        raise cli.UsageError(exc.key, **exc.params) from None
    except errors.GameError as exc:
        raise cli.UsageError("cli.replay.rules", path=path, problem=error_text(exc, cli.LOCALE)) from None
    except export.UNFORESEEN:
        raise cli.UsageError("cli.replay.not_an_export", path=path) from None
    for number, (seat, move) in enumerate(moves, start=1):
        if seat != core.SYSTEM_SEAT and seat not in rules.awaiting(state):
            raise cli.UsageError("cli.replay.not_their_turn", number=number, seat=seat + 1)
        try:
            state = rules.apply(state, seat, move)
        except errors.GameError as exc:
            raise cli.UsageError("cli.replay.illegal", number=number, problem=error_text(exc, cli.LOCALE)) from None
        except export.UNFORESEEN:
            raise cli.UsageError("cli.replay.move", number=number) from None
    if not rules.is_over(state):
        raise cli.UsageError("analysis.cli.unfinished", path=path)
    return rules.kind, options, names, seed, moves


def command(argv: list[str]) -> int:
    """The ``analyse`` command (``UsageError`` for bad arguments; see :func:`bot.cli.run`)."""
    if not argv:
        raise cli.UsageError("analysis.cli.missing")
    args = parser().parse_args(argv)
    if not 1 <= args.samples <= MOST_SAMPLES:
        raise cli.UsageError("analysis.cli.bad_samples", most=MOST_SAMPLES)
    kind, options, names, seed, moves = read(args.file)
    result = analysis.analyse(kind, options, len(names), seed, moves, analysis.Budget(samples=args.samples))
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        return cli.EXIT_OK
    print("\n".join(report(result, kind, options, names, seed, moves, args.lang)))
    return cli.EXIT_OK


def number(value: float, locale: str, signed: bool = False) -> str:
    """``value`` with one decimal in the language's own way (``+4.2``; Hungarian ``+4,2``)."""
    return format_decimal(value, format="+#,##0.0;-#,##0.0" if signed else "#,##0.0", locale=locale)


def report(
    result: analysis.GameAnalysis,
    kind: str,
    options: dict[str, Any],
    names: list[str],
    seed: int,
    moves: export.Moves,
    locale: str,
) -> list[str]:
    """The analysis as lines of text in ``locale``."""
    rules = games.rules(kind)
    limits = summary.thresholds(rules)

    def name(seat: int) -> str:
        return cli.short(names[seat], 40) if 0 <= seat < len(names) else "?"

    lines = [
        t("analysis.title", locale, game=t(games.get(kind).title_key, locale), players=len(names)),
        t("analysis.method", locale, samples=result.budget.samples),
        t(
            "analysis.thresholds",
            locale,
            small=number(limits["small"], locale),
            medium=number(limits["medium"], locale),
            large=number(limits["large"], locale),
        ),
        "",
    ]
    for p in result.players:
        lines.append(
            t(
                "analysis.player",
                locale,
                name=name(p.seat),
                accuracy=number(p.accuracy, locale),
                loss=number(p.average_loss, locale),
                decisions=p.decisions,
                small=p.misses["small"],
                medium=p.misses["medium"],
                large=p.misses["large"],
            )
        )
    if result.turning_points:
        lines += ["", t("analysis.turning_title", locale)]
        for point in result.turning_points:
            lines.append(
                t(
                    "analysis.turning",
                    locale,
                    number=point.number,
                    name=name(point.seat),
                    before=number(point.before, locale, signed=True),
                    after=number(point.after, locale, signed=True),
                )
            )
    lines += ["", t("analysis.moves_title", locale)]
    weighed = {m.number: m for m in result.moves}
    state = rules.setup(options, len(names), seed)
    for index, (seat, move) in enumerate(moves, start=1):
        m = weighed.get(index)
        if m is not None:
            view = rules.view(state, seat)
            played = labels.move_label(kind, m.move, view, locale, LABEL_LIMIT)
            if m.loss <= 0:
                lines.append(t("analysis.move_best", locale, number=index, name=name(seat), move=played))
            else:
                lines.append(
                    t(
                        "analysis.move_loss",
                        locale,
                        number=index,
                        name=name(seat),
                        move=played,
                        loss=number(m.loss, locale),
                        best=labels.move_label(kind, m.best_move, view, locale, LABEL_LIMIT),
                        expected=number(m.best, locale, signed=True),
                    )
                )
        state = rules.apply(state, seat, move)
    return lines


def main(argv: list[str] | None = None) -> int:
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    return cli.run(lambda: command(args))
