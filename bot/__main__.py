"""``python -m bot``: run the bot; ``python -m bot local ...``: play in a terminal;
``python -m bot score GAME FILE``: score a physical game's city."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.settings import SettingsError, check_database_path, load


def run_bot(argv: list[str]) -> int:
    import discord

    from bot.app import create_bot

    try:
        settings = load()
        check_database_path(settings.database_path)
    except SettingsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(settings.log_level, logging.INFO))
    bot = create_bot(settings)

    async def runner() -> None:
        async with bot:
            await bot.start(settings.token)

    try:
        asyncio.run(runner())
    except discord.LoginFailure:
        print("error: Discord rejected DISCORD_TOKEN; copy the token again from the Developer Portal"
              " (Bot -> Reset Token).", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("error: the bot asked for a privileged intent it was not granted.", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot reach Discord or open the database: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "score":
        from bot.score import main as score_main

        return score_main(args[1:])
    if args and args[0] == "local":
        from bot.local import main as local_main

        return local_main(args[1:])
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    return run_bot(args)


if __name__ == "__main__":
    raise SystemExit(main())
