"""Languages come from the folders of ``bot/locales`` (:func:`bot.i18n.languages`): a made-up language folder
appears in the terminal's ``--lang``, in ``/game new language:`` and in the slash commands' translations, with
no code edit. It is made in a temporary copy of the locales folder (every real language linked in, one new
one added), in a child process, so the import-time command tree sees it as a bot starting up would."""

from __future__ import annotations

import json
import textwrap

from bot import i18n
from tests.cli.helpers import environment, run_process

PROBE = textwrap.dedent("""
    import asyncio, json, shutil, sys, tempfile
    from pathlib import Path

    from bot import i18n

    real, root = i18n.LOCALES_DIR, Path(tempfile.mkdtemp(prefix="locales-"))
    for folder in real.iterdir():
        (root / folder.name).symlink_to(folder)
    new = root / "fr"
    new.mkdir()
    for path in (real / "en").glob("*.json"):
        shutil.copy(path, new / path.name)
    commands = json.loads((new / "commands.json").read_text(encoding="utf-8"))
    commands["cmd.game.description"] = "Lancer, rejoindre et gérer des parties"
    commands["cmd.game.new.name"] = "nouvelle"
    (new / "commands.json").write_text(json.dumps(commands, ensure_ascii=False), encoding="utf-8")
    (new / "cli.json").write_text((real / "en" / "cli.json").read_text(encoding="utf-8").replace(
        "language of the game", "langue de la partie"), encoding="utf-8")
    i18n.LOCALES_DIR = root

    import discord
    from discord import app_commands

    from bot import local
    from cogs.game import GameCog
    from cogs.translator import CatalogueTranslator

    out = {"languages": list(i18n.languages())}
    parser = local.parser()
    out["lang"] = parser.parse_args(["btc", "--lang", "fr"]).lang
    out["lang_help"] = parser.format_help()
    new_command = next(c for c in GameCog.game.commands if c.name == "new")
    language = next(p for p in new_command.parameters if p.name == "language")
    out["choices"] = {c.value: c.name for c in language.choices}

    async def payload():
        tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
        return await GameCog.game.get_translated_payload(tree, CatalogueTranslator())

    game = asyncio.run(payload())
    new_payload = next(o for o in game["options"] if o["name"] == "new")
    out["description"] = game.get("description_localizations", {})
    out["new_name"] = new_payload.get("name_localizations", {})
    shutil.rmtree(root)
    print(json.dumps(out, ensure_ascii=False))
""")


def test_a_new_language_folder_is_a_new_language_everywhere() -> None:
    ran = run_process("-c", PROBE, env=environment())
    assert ran.status == 0, ran.err[-3000:]
    got = json.loads(ran.out.splitlines()[-1])
    assert got["languages"] == ["en", "es", "fr", "hu", "pl", "ru"]
    assert got["lang"] == "fr" and "fr" in got["lang_help"]  # python -m bot local --lang fr
    assert got["choices"]["fr"] == "Français"  # /game new language:
    assert got["choices"]["hu"] == "Magyar" and got["choices"]["en"] == "English"
    assert got["description"]["fr"] == "Lancer, rejoindre et gérer des parties"  # the command translations
    assert got["new_name"]["fr"] == "nouvelle"
    assert got["description"]["hu"] == i18n.t("cmd.game.description", "hu")


def test_the_languages_are_the_folders() -> None:
    folders = sorted(p.name for p in i18n.LOCALES_DIR.iterdir() if p.is_dir())
    assert sorted(i18n.languages()) == folders and i18n.languages()[0] == "en"
