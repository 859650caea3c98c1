"""Settings from the environment or a ``.env`` file. Bad settings become one sentence."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_PATH = "data/bot.sqlite3"
DATA_DIR_DATABASE_NAME = "bot.sqlite3"
"""With ``DATA_DIR`` set (the container image sets it to its volume) and no ``DATABASE_PATH``."""
DATABASE_URL_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_AI_PAUSE_SECONDS = 2.0
MAX_AI_PAUSE_SECONDS = 3600
MAX_SHARD_COUNT = 4096
DEFAULT_POOL_SIZE = 10
DEFAULT_LEASE_SECONDS = 60
MIN_LEASE_SECONDS = 10
MAX_LEASE_SECONDS = 3600
MAX_POOL_SIZE = 100
DEFAULT_STOP_SECONDS = 20
MAX_STOP_SECONDS = 300
ENV_FILE = ".env"
KEYS: tuple[str, ...] = ("DISCORD_TOKEN", "DATA_DIR", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID",
                         "LOG_LEVEL", "AI_PAUSE_SECONDS", "SHARD_COUNT", "SHARD_IDS",
                         "DATABASE_POOL_SIZE", "LEASE_SECONDS", "STOP_SECONDS")
"""Every setting the bot reads (``.env.example`` documents each one; ``tests/test_deploy.py`` checks)."""


class SettingsError(Exception):
    """A setting is missing or malformed; ``str()`` is the sentence to print (catalogue ``cli.settings.*``)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        from bot.cli import LOCALE
        from bot.i18n import t

        return t(self.key, LOCALE, **self.params)


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: int
    ai_pause_seconds: float
    shard_count: int | None = None
    """SHARD_COUNT: the gateway's shards over every process (None: discord.py asks Discord)."""
    shard_ids: tuple[int, ...] | None = None
    """SHARD_IDS: the shards this process runs (None: all of them)."""
    database_url: str | None = None
    """``DATABASE_URL``: a PostgreSQL server (``postgresql://user:password@host:port/database``); when
    unset, the SQLite file ``database_path`` is the database."""
    pool_size: int = DEFAULT_POOL_SIZE
    """``DATABASE_POOL_SIZE``: PostgreSQL connections this process opens at most (each process its own)."""
    lease_seconds: int = DEFAULT_LEASE_SECONDS
    """``LEASE_SECONDS``: how long a claim on work (a reminder to send, a game's AI seats or untold moves)
    lasts unless renewed; a process that died is taken over this long after its last renewal."""
    stop_seconds: int = DEFAULT_STOP_SECONDS
    """``STOP_SECONDS``: on SIGTERM or SIGINT, how long the bot lets the moves in flight finish before it
    hands the rest over and exits (:mod:`bot.drain`)."""

    @property
    def database(self) -> str | Path:
        """What :meth:`bot.store.Store.open` opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines and # comments skipped; optional quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):]
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise SettingsError("cli.settings.env_line", path=path, line=number)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def load(environ: Mapping[str, str] | None = None, env_file: Path | None = None) -> Settings:
    """Settings from ``environ`` (default: the process environment) over the ``.env`` file."""
    env = dict(read_env_file(env_file or Path(ENV_FILE)))
    env.update(environ if environ is not None else os.environ)

    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError("cli.settings.no_token")

    db_path = database_path(env.get("DATABASE_PATH", "").strip(), env.get("DATA_DIR", "").strip())
    db_url = env.get("DATABASE_URL", "").strip() or None
    if db_url is not None and not db_url.startswith(DATABASE_URL_SCHEMES):
        raise SettingsError("cli.settings.db_url", scheme=db_url.partition(":")[0][:20])

    guild_text = env.get("DEV_GUILD_ID", "").strip()
    dev_guild: int | None = None
    if guild_text:
        if not (guild_text.isascii() and guild_text.isdigit() and len(guild_text) <= 20):
            raise SettingsError("cli.settings.guild", value=guild_text[:40])
        dev_guild = int(guild_text)

    level_name = (env.get("LOG_LEVEL", "").strip() or DEFAULT_LOG_LEVEL).upper()
    level = logging.getLevelName(level_name)
    if not isinstance(level, int):
        raise SettingsError("cli.settings.log_level", value=level_name[:40])

    pause_text = env.get("AI_PAUSE_SECONDS", "").strip()
    try:
        pause = float(pause_text) if pause_text else DEFAULT_AI_PAUSE_SECONDS
    except ValueError:
        raise SettingsError("cli.settings.pause", value=pause_text[:40]) from None
    if not 0 <= pause <= MAX_AI_PAUSE_SECONDS:
        raise SettingsError("cli.settings.pause_range", most=MAX_AI_PAUSE_SECONDS)

    shard_count, shard_ids = read_shards(env.get("SHARD_COUNT", ""), env.get("SHARD_IDS", ""))
    pool_text = env.get("DATABASE_POOL_SIZE", "").strip()
    if pool_text and not (_digits(pool_text) and 1 <= int(pool_text) <= MAX_POOL_SIZE):
        raise SettingsError("cli.settings.pool_size", value=pool_text[:40], most=MAX_POOL_SIZE)
    pool_size = int(pool_text) if pool_text else DEFAULT_POOL_SIZE
    lease_text = env.get("LEASE_SECONDS", "").strip()
    if lease_text and not (_digits(lease_text) and MIN_LEASE_SECONDS <= int(lease_text) <= MAX_LEASE_SECONDS):
        raise SettingsError("cli.settings.lease", value=lease_text[:40], least=MIN_LEASE_SECONDS,
                            most=MAX_LEASE_SECONDS)
    lease_seconds = int(lease_text) if lease_text else DEFAULT_LEASE_SECONDS
    stop_text = env.get("STOP_SECONDS", "").strip()
    if stop_text and not (_digits(stop_text) and 1 <= int(stop_text) <= MAX_STOP_SECONDS):
        raise SettingsError("cli.settings.stop_seconds", value=stop_text[:40], most=MAX_STOP_SECONDS)
    stop_seconds = int(stop_text) if stop_text else DEFAULT_STOP_SECONDS
    return Settings(token=token, database_path=db_path, dev_guild_id=dev_guild, log_level=level,
                    ai_pause_seconds=pause, shard_count=shard_count, shard_ids=shard_ids, database_url=db_url,
                    pool_size=pool_size, lease_seconds=lease_seconds, stop_seconds=stop_seconds)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 6


def read_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS (comma-separated): several processes split the gateway, each with
    the same count and its own ids. Neither: one process, discord.py decides the count."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    count: int | None = None
    if count_text:
        if not _digits(count_text) or not 1 <= int(count_text) <= MAX_SHARD_COUNT:
            raise SettingsError("cli.settings.shard_count", value=count_text[:40], most=MAX_SHARD_COUNT)
        count = int(count_text)
    if not ids_text:
        return count, None
    if count is None:
        raise SettingsError("cli.settings.shard_ids_alone")
    ids: list[int] = []
    for part in ids_text.split(","):
        part = part.strip()
        if not _digits(part) or int(part) >= count:
            raise SettingsError("cli.settings.shard_id", value=part[:40], high=count - 1)
        if int(part) in ids:
            raise SettingsError("cli.settings.shard_twice", value=part)
        ids.append(int(part))
    return count, tuple(ids)


def database_path(given: str, data_dir: str) -> Path:
    """Where the SQLite database lives. With ``DATA_DIR`` (the container's volume) a relative
    ``DATABASE_PATH`` is inside it and an absolute one must be, so whatever ``.env`` says every byte of
    data stays on the volume; without it, the path as given (default ``data/bot.sqlite3``)."""
    if not data_dir:
        return Path(given or DEFAULT_DATABASE_PATH)
    folder = Path(data_dir)
    path = folder / (given or DATA_DIR_DATABASE_NAME)
    inside = os.path.normpath(path)
    if not (Path(inside).is_relative_to(os.path.normpath(folder)) and Path(inside) != Path(os.path.normpath(folder))):
        raise SettingsError("cli.settings.db_outside_data", path=given, folder=folder)
    return Path(inside)


def check_database_path(path: Path) -> None:
    """Make sure the database folder exists and is writable, or say why not."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SettingsError("cli.settings.db_folder", folder=folder, problem=exc.strerror) from None
    if path.exists() and path.is_dir():
        raise SettingsError("cli.settings.db_is_folder", path=path)
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise SettingsError("cli.settings.db_unwritable", path=path)
