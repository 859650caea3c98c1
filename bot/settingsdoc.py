"""The table of settings (:data:`bot.settings.TABLE`) written out: ``python -m bot --help``'s lines, the
README's table, ``.env.example``, and the ``python -m bot settings`` command that prints them."""

from __future__ import annotations

from bot.settings import COMPOSE_ONLY, TABLE, Setting

HELP_WIDTH = 110
NO_BREAK = "\u00a0"
"""Joins the words of one fact while ``--help`` folds its lines (never printed: spaces again after)."""
"""``--help``'s lines are folded at this many characters."""


def facts(setting: Setting, locale: str, *, default: bool = True) -> list[str]:
    """What a setting's help adds to its sentence: required or its default, its range, secret."""
    from bot.i18n import t

    out: list[str] = []
    if setting.required and default:
        out.append(t("cli.setting.required", locale))
    elif setting.default and default:
        out.append(t("cli.setting.default", locale, value=setting.default))
    if setting.low is not None and setting.high is not None:
        key = "cli.setting.range_number" if setting.kind == "number" else "cli.setting.range"
        out.append(t(key, locale, low=setting.low, high=setting.high))
    if setting.secret:
        out.append(t("cli.setting.secret", locale))
    return out


def describe(setting: Setting, locale: str, *, whole_facts: bool = False) -> str:
    """The setting's help in one sentence, with its facts in brackets (``whole_facts``: each fact's spaces
    made no-break, so a folded line never splits one, such as a range "from 10 to 3600")."""
    from bot.i18n import t

    extra = [fact.replace(" ", NO_BREAK) if whole_facts else fact for fact in facts(setting, locale)]
    return t(setting.help_key, locale) + (f" ({'; '.join(extra)})" if extra else "")


def help_lines(locale: str) -> str:
    """Every setting, one per line, as ``python -m bot --help`` lists them."""
    import textwrap

    width = max(len(s.name) for s in TABLE) + 2
    return "\n".join(
        textwrap.fill(
            describe(s, locale, whole_facts=True),
            HELP_WIDTH,
            initial_indent=f"  {s.name.ljust(width)}",
            subsequent_indent=" " * (width + 2),
            break_on_hyphens=False,
            break_long_words=False,
        ).replace(NO_BREAK, " ")
        for s in TABLE
    )


def markdown(locale: str = "en") -> str:
    """The README's settings table (``python -m bot settings --markdown``, in English as the README is)."""
    from bot.i18n import t

    head = [
        t("cli.setting.column.name", locale),
        t("cli.setting.column.default", locale),
        t("cli.setting.column.meaning", locale),
    ]
    rows = [f"| {' | '.join(head)} |", "|---|---|---|"]
    for s in TABLE:
        default = (
            t("cli.setting.required", locale)
            if s.required
            else (f"`{s.default}`" if s.default else t("cli.setting.empty", locale))
        )
        meaning = t(s.help_key, locale)
        extra = facts(s, locale, default=False)
        rows.append(f"| `{s.name}` | {default} | {meaning}{' (' + '; '.join(extra) + ')' if extra else ''} |")
    return "\n".join(rows)


def env_example(locale: str = "en") -> str:
    """``.env.example`` (``python -m bot settings --env``, in English as the file is): every setting with
    its help, set or shown commented out."""
    import textwrap

    from bot.i18n import t

    lines = [f"# {line}" for line in t("cli.setting.env_header", locale).splitlines()]
    for s in (*TABLE, *COMPOSE_ONLY):
        lines.append("")
        lines += textwrap.wrap(
            describe(s, locale),
            108,
            initial_indent="# ",
            subsequent_indent="# ",
            break_on_hyphens=False,
            break_long_words=False,
        )
        value = s.example or (s.default if not s.secret else "")
        lines.append(f"{s.name}={value}" if s.active else f"# {s.name}={value}")
    return "\n".join(lines) + "\n"


def command(argv: list[str]) -> int:
    """``python -m bot settings [--markdown | --env]``: the table of settings, as ``--help`` lists it,
    as the README's table or as ``.env.example``."""
    from bot import cli

    parser = cli.Parser("python -m bot settings", cli.say("cli.setting.description"))
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--markdown", action="store_true", help=cli.say("cli.setting.markdown"))
    form.add_argument("--env", action="store_true", help=cli.say("cli.setting.env"))
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown())
    elif args.env:
        print(env_example(), end="")
    else:
        print(help_lines(cli.LOCALE))
    return cli.EXIT_OK
