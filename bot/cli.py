"""What every command-line entry point shares: one-sentence errors, exit statuses, a closed pipe,
bounded input files, and the logging set-up of the bot process.

Exit statuses: 0 done; 2 the user's input or set-up is wrong (one sentence on standard error,
starting with ``error:``, saying what to fix); 1 the bot stopped for a reason outside the user's
control; 141 the reader of standard output went away (``... | head -1``), as the shell reports for
any tool killed by SIGPIPE. No entry point prints a traceback for any of these.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, NoReturn

from bot.i18n import languages, t
from bot.rules import jsonin


def terminal_locale(environ: Mapping[str, str]) -> str:
    """The terminal's language from POSIX's ``LC_ALL``, ``LC_MESSAGES`` then ``LANG`` (the first one
    set wins: ``hu_HU.UTF-8`` -> ``hu``); English for ``C``, ``POSIX`` or a language the bot lacks."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "").strip()
        if value:
            language = value.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
            return language if language in languages() else "en"
    return "en"


LOCALE = terminal_locale(os.environ)
"""The terminal's language, for usage errors, help and settings sentences (``local --lang`` chooses
the game's own language separately)."""
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PIPE = 141
MAX_INPUT_BYTES = jsonin.MAX_CHARS
MAX_ECHO = 120
"""Text quoted in an error sentence (the user's own text included) is cut to this many characters."""


class UsageError(Exception):
    """Bad input or set-up: ``key``/``params`` are the sentence (a ``cli.*`` message)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def short(value: object, most: int = MAX_ECHO) -> str:
    """``value`` as text on one line, cut to ``most`` characters (control characters escaped)."""
    text = str(value)
    if len(text) > most:
        text = text[: most - 1] + "…"
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def short_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters of a sentence made safe to print: numbers kept, text shortened to one line."""
    return {k: v if isinstance(v, int | float) and not isinstance(v, bool) else short(v) for k, v in params.items()}


def say(key: str, /, **params: Any) -> str:
    """The catalogue's text for ``key`` in the terminal's language."""
    return t(key, LOCALE, **params)


def error(sentence: str, stream: IO[str] | None = None) -> int:
    """Print ``error: <sentence>`` on standard error (the prefix in the terminal's language); returns the
    usage exit status (2)."""
    print(f"{say('cli.error_prefix')}: {sentence}", file=stream or sys.stderr)
    return EXIT_USAGE


def warn(sentence: str, stream: IO[str] | None = None) -> None:
    """Print ``warning: <sentence>`` on standard error (the prefix in the terminal's language): something
    worth fixing that does not stop the command."""
    print(f"{say('cli.warning_prefix')}: {sentence}", file=stream or sys.stderr)


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help with its ``usage:`` in the terminal's language (argparse's own words are English)."""

    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, prefix if prefix is not None else say("cli.argparse.usage") + " ")


class Parser(argparse.ArgumentParser):
    """argparse with the catalogue's words (its headings and ``usage:`` too): a bad option is one sentence
    pointing to ``--help``."""

    def __init__(self, prog: str, description: str, epilog: str | None = None) -> None:
        super().__init__(
            prog=prog,
            description=description,
            epilog=epilog,
            add_help=False,
            allow_abbrev=False,
            formatter_class=HelpFormatter,
        )
        # argparse's two default headings, in the terminal's language.
        self._positionals.title = say("cli.argparse.positional")
        self._optionals.title = say("cli.argparse.options")
        self.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS, help=say("cli.help.help"))

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: None = None
    ) -> argparse.Namespace:
        """Unknown options are named first (before any missing argument), then argparse parses."""
        words = list(sys.argv[1:] if args is None else args)
        for word in words:
            if word == "--":
                break
            name = word.split("=", 1)[0]
            known = name in self._option_string_actions
            if word.startswith("-") and word != "-" and not _is_number(word) and not known:
                raise UsageError("cli.unknown_option", prog=self.prog, option=name)
        return super().parse_args(words)

    def error(self, message: str) -> NoReturn:
        raise UsageError("cli.bad_arguments", prog=self.prog, problem=message)

    def _print_message(self, message: str, file: Any = None) -> None:
        # argparse swallows write errors; here a closed pipe reaches :func:`run` like any other output.
        if message:
            (file or sys.stdout).write(message)


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def run(main: Callable[[], int]) -> int:
    """Run an entry point: UsageError becomes its sentence and 2; a closed standard output ends
    quietly with 141; output that cannot be encoded is escaped instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")
    try:
        try:
            status = main()
        except UsageError as exc:
            status = error(say(exc.key, **short_params(exc.params)))
        except KeyboardInterrupt:
            status = 130
        except SystemExit as exc:  # argparse's --help, and ``q`` in the local game
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else EXIT_USAGE)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_PIPE


def _silence_stdout() -> None:
    """After a closed pipe: point standard output at /dev/null so Python's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture)
        pass


def read_input(path: str) -> str:
    """The text of ``path`` (``-`` for standard input), at most 1 MiB of UTF-8; UsageError if not."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                raw = handle.read(MAX_INPUT_BYTES + 1)
    except IsADirectoryError:
        raise UsageError("cli.file.is_folder", path=path) from None
    except OSError as exc:
        raise UsageError("cli.file.unreadable", path=path, problem=exc.strerror or str(exc)) from None
    name = say("cli.file.stdin") if path == "-" else path
    if len(raw) > MAX_INPUT_BYTES:
        raise UsageError("cli.file.too_big", path=name, most=MAX_INPUT_BYTES // 1024)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError("cli.file.not_utf8", path=name) from None


def choices_text(items: Sequence[str]) -> str:
    return ", ".join(items)


# -- logging ------------------------------------------------------------------------------------

QUIET_LOGGERS = {"discord": logging.INFO, "aiosqlite": logging.INFO}
"""Loggers kept at INFO or above whatever LOG_LEVEL says: discord.py's DEBUG dumps gateway payloads,
and aiosqlite's DEBUG writes every SQL statement with its values (hands included)."""


def setup_logging(level: int) -> None:
    """The bot process's logging: one line per record on standard error, at ``level``; the loggers
    of :data:`QUIET_LOGGERS` never below their floor, so no statement values or hands reach the log."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for name, floor in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(max(level, floor))


def silence_voice_warnings() -> None:
    """discord.py warns once, when the client is made, that PyNaCl and davey (voice) are missing.
    The bot never speaks: it clears those one-time flags before making its client."""
    try:
        from discord.voice_client import VoiceClient
    except ImportError:  # pragma: no cover - a discord.py without voice support
        return
    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(VoiceClient, flag):
            setattr(VoiceClient, flag, False)
