"""A tiny stand-in bot used to prove the fake (until ``bot/__main__.py`` exists, and after).

It uses the same environment as the real bot (DISCORD_TOKEN, DATABASE_PATH, DEV_GUILD_ID,
LOG_LEVEL) and exercises every kind of Discord traffic the fake must support:

- ``/ping``: a PNG and a persistent button ``standin:ping`` (registered in ``setup_hook``, so a
  click on an old message still works after a restart). A click answers ``pong #N from pid P``,
  N counted in the SQLite file at DATABASE_PATH.
- ``/table game new game:<autocomplete> seats:<2-4>`` (a subcommand group): defers, then a
  follow-up with a select ``standin:color`` (answered by editing the message, type 7) and a button
  ``standin:rename`` that opens a modal ``standin:rename-modal`` (input ``name``).
- ``/post [member]``: ephemeral defer, a channel message with a PNG, a DM to the caller, a member
  fetch, then an edit of @original summarising what worked.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import struct
import zlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

GAMES = ("quadropolis", "between-two-cities", "urban-panic")


def tiny_png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    """A valid RGB PNG made with the standard library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + bytes(rgb) * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


def bump_counter(path: str) -> int:
    """Increment and return the click counter stored in the SQLite file."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE IF NOT EXISTS clicks (n INTEGER NOT NULL)")
        row = db.execute("SELECT n FROM clicks").fetchone()
        n = (row[0] if row else 0) + 1
        db.execute("DELETE FROM clicks")
        db.execute("INSERT INTO clicks (n) VALUES (?)", (n,))
    return int(n)


class PingView(discord.ui.View):
    """The persistent view: survives restarts because ``setup_hook`` re-adds it."""

    def __init__(self, db_path: str) -> None:
        super().__init__(timeout=None)
        self.db_path = db_path

    @discord.ui.button(label="Ping", style=discord.ButtonStyle.primary, custom_id="standin:ping")
    async def ping(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        n = await asyncio.to_thread(bump_counter, self.db_path)
        await interaction.response.send_message(f"pong #{n} from pid {os.getpid()}")


class RenameModal(discord.ui.Modal, title="Rename the table"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name", max_length=30)

    def __init__(self) -> None:
        super().__init__(custom_id="standin:rename-modal")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}", ephemeral=True)


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=600)

    @discord.ui.select(
        custom_id="standin:color",
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
    )
    async def color(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"color: {', '.join(select.values)}", view=self)

    @discord.ui.button(label="Rename", custom_id="standin:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(RenameModal())


def build_bot(db_path: str, guild_id: int | None) -> commands.Bot:
    """The stand-in bot (not started)."""
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    table = app_commands.Group(name="table", description="Tables")
    game = app_commands.Group(name="game", description="Games", parent=table)

    async def game_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g, value=g) for g in GAMES if current.lower() in g]

    @game.command(name="new", description="Open a table")
    @app_commands.describe(game="Which game", seats="How many seats")
    @app_commands.autocomplete(game=game_names)
    async def new(interaction: discord.Interaction, game: str, seats: app_commands.Range[int, 2, 4] = 2) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(f"table for {game} with {seats} seats", view=TableView())

    @app_commands.command(name="ping", description="Answer with a picture and a button")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "pong", file=discord.File(fp=_bytes_io(tiny_png()), filename="board.png"), view=PingView(db_path)
        )

    @app_commands.command(name="post", description="Post a picture in this channel and DM me")
    async def post(interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        results = []
        channel = interaction.channel
        try:
            assert isinstance(channel, discord.abc.Messageable)
            await channel.send("board", file=discord.File(fp=_bytes_io(tiny_png()), filename="post.png"))
            results.append("posted")
        except discord.Forbidden as exc:
            results.append(f"cannot post ({exc.code})")
        try:
            await interaction.user.send("hello in private")
            results.append("dm sent")
        except discord.Forbidden as exc:
            results.append(f"cannot dm ({exc.code})")
        if member is not None and interaction.guild is not None:
            fetched = await interaction.guild.fetch_member(member.id)
            results.append(f"fetched {fetched.name}")
        await interaction.edit_original_response(content="; ".join(results))

    bot.tree.add_command(table)
    bot.tree.add_command(ping)
    bot.tree.add_command(post)

    async def setup_hook() -> None:
        bot.add_view(PingView(db_path))
        if guild_id:
            target = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=target)
            bot.tree.clear_commands(guild=None)
            await bot.tree.sync(guild=target)
        else:
            await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


def _bytes_io(data: bytes) -> Any:
    import io

    return io.BytesIO(data)


def main() -> int:
    """Entry point with the real bot's environment contract."""
    token = os.environ["DISCORD_TOKEN"]
    db_path = os.environ.get("DATABASE_PATH", "standin.sqlite3")
    guild_id = int(os.environ["DEV_GUILD_ID"]) if os.environ.get("DEV_GUILD_ID") else None
    level = getattr(logging, os.environ.get("LOG_LEVEL", "INFO").upper(), logging.INFO)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = build_bot(db_path, guild_id)
    bot.run(token, log_handler=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
