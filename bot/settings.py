"""Settings from the environment or a ``.env`` file. Bad settings become one sentence."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_PATH = "data/bot.sqlite3"
DATABASE_URL_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_AI_PAUSE_SECONDS = 2.0
MAX_AI_PAUSE_SECONDS = 3600
ENV_FILE = ".env"


class SettingsError(Exception):
    """A setting is missing or malformed; ``str()`` is the sentence to print (catalogue ``cli.settings.*``)."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        from bot.i18n import t

        return t(self.key, "en", **self.params)


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: int
    ai_pause_seconds: float
    database_url: str | None = None
    """``DATABASE_URL``: a PostgreSQL server (``postgresql://user:password@host:port/database``); when
    unset, the SQLite file ``database_path`` is the database."""

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

    db_path = Path(env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)
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

    return Settings(token=token, database_path=db_path, dev_guild_id=dev_guild, log_level=level,
                    ai_pause_seconds=pause, database_url=db_url)


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
