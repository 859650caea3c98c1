"""Settings from the environment or a ``.env`` file. Bad settings become one sentence. The table of every
setting and the settings put together are here; each value's reader is :mod:`bot.settingsread`, re-exported here."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.settingsread import _HOST as _HOST
from bot.settingsread import DATA_DIR_DATABASE_NAME as DATA_DIR_DATABASE_NAME
from bot.settingsread import DEFAULT_DATABASE_PATH as DEFAULT_DATABASE_PATH
from bot.settingsread import DEFAULT_WEB_HOST as DEFAULT_WEB_HOST
from bot.settingsread import DEFAULT_WEB_PORT as DEFAULT_WEB_PORT
from bot.settingsread import IMAGE_MARK as IMAGE_MARK
from bot.settingsread import IMAGE_VOLUME as IMAGE_VOLUME
from bot.settingsread import MAX_PORT as MAX_PORT
from bot.settingsread import MAX_SHARD_COUNT as MAX_SHARD_COUNT
from bot.settingsread import MAX_TRUSTED_PROXIES as MAX_TRUSTED_PROXIES
from bot.settingsread import MAX_WEB_BASE_URL as MAX_WEB_BASE_URL
from bot.settingsread import MAX_WEB_SECRET as MAX_WEB_SECRET
from bot.settingsread import MIN_WEB_SECRET as MIN_WEB_SECRET
from bot.settingsread import WEB_OFF as WEB_OFF
from bot.settingsread import WEB_URL_SCHEMES as WEB_URL_SCHEMES
from bot.settingsread import SettingsError as SettingsError
from bot.settingsread import _digits as _digits
from bot.settingsread import check_database_path as check_database_path
from bot.settingsread import check_image as check_image
from bot.settingsread import database_path as database_path
from bot.settingsread import read_activity as read_activity
from bot.settingsread import read_env_file as read_env_file
from bot.settingsread import read_oauth as read_oauth
from bot.settingsread import read_shards as read_shards
from bot.settingsread import read_trusted_proxies as read_trusted_proxies
from bot.settingsread import read_web_base_url as read_web_base_url
from bot.settingsread import read_web_host as read_web_host
from bot.settingsread import read_web_port as read_web_port
from bot.settingsread import read_web_secret as read_web_secret

DATABASE_URL_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_LOG_LEVEL = "INFO"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_AI_PAUSE_SECONDS = 2.0
MAX_AI_PAUSE_SECONDS = 3600
DEFAULT_POOL_SIZE = 10
DEFAULT_ANALYSIS_WORKERS = 1
MAX_ANALYSIS_WORKERS = 16
DEFAULT_LEASE_SECONDS = 60
MIN_LEASE_SECONDS = 10
MAX_LEASE_SECONDS = 3600
MAX_POOL_SIZE = 100
DEFAULT_STOP_SECONDS = 20
MAX_STOP_SECONDS = 300
ENV_FILE = ".env"


@dataclass(frozen=True)
class Setting:
    """One setting, declared once: ``--help``, the README's table and ``.env.example`` are made from
    :data:`TABLE` (:mod:`bot.settingsdoc`); its help is the catalogue's
    ``cli.setting.<name>`` in every language."""

    name: str
    kind: str
    """``text``, ``path``, ``url``, ``id``, ``choice``, ``number`` (seconds, a decimal), ``int`` or ``ids``."""
    default: str = ""
    """As shown (empty: none)."""
    low: int | None = None
    high: int | None = None
    secret: bool = False
    """Never printed back (the token; a URL that carries a password)."""
    required: bool = False
    example: str = ""
    """``.env.example``'s value for it (else the default)."""
    active: bool = False
    """Set in ``.env.example`` (``KEY=value``) rather than shown commented out (``# KEY=value``)."""

    @property
    def help_key(self) -> str:
        return f"cli.setting.{self.name.lower()}"


TABLE: tuple[Setting, ...] = (
    Setting("DISCORD_TOKEN", "text", secret=True, required=True, active=True),
    Setting("DATABASE_PATH", "path", DEFAULT_DATABASE_PATH),
    Setting("DATA_DIR", "path"),
    Setting("DATABASE_URL", "url", secret=True, example="postgresql://user:password@host:5432/database"),
    Setting("DEV_GUILD_ID", "id", active=True),
    Setting("LOG_LEVEL", "choice", DEFAULT_LOG_LEVEL, active=True),
    Setting("AI_PAUSE_SECONDS", "number", "2", 0, MAX_AI_PAUSE_SECONDS, active=True),
    Setting("SHARD_COUNT", "int", "", 1, MAX_SHARD_COUNT, example="2"),
    Setting("SHARD_IDS", "ids", "", example="0"),
    Setting("DATABASE_POOL_SIZE", "int", str(DEFAULT_POOL_SIZE), 1, MAX_POOL_SIZE),
    Setting("LEASE_SECONDS", "int", str(DEFAULT_LEASE_SECONDS), MIN_LEASE_SECONDS, MAX_LEASE_SECONDS),
    Setting("STOP_SECONDS", "int", str(DEFAULT_STOP_SECONDS), 1, MAX_STOP_SECONDS),
    Setting("WEB_PORT", "int", str(DEFAULT_WEB_PORT), 1, MAX_PORT),
    Setting("WEB_HOST", "text", DEFAULT_WEB_HOST),
    Setting("WEB_BASE_URL", "url", example="https://games.example.org"),
    Setting("WEB_SECRET", "text", secret=True),
    Setting("TRUSTED_PROXIES", "text", example="172.16.0.0/12"),
    Setting("DISCORD_CLIENT_ID", "id", example="1" * 18),
    Setting("DISCORD_CLIENT_SECRET", "text", secret=True),
    Setting("ACTIVITY", "choice", "off", example="on"),
    Setting("ANALYSIS_WORKERS", "int", str(DEFAULT_ANALYSIS_WORKERS), 0, MAX_ANALYSIS_WORKERS),
)
"""Every setting the bot reads, once (``.env.example``, the README's table and ``python -m bot --help``
are made from it; ``tests/test_deploy.py`` and ``tests/cli/test_settings.py`` check)."""
KEYS: tuple[str, ...] = tuple(setting.name for setting in TABLE)
BY_NAME = {setting.name: setting for setting in TABLE}
COMPOSE_ONLY: tuple[Setting, ...] = (Setting("POSTGRES_PASSWORD", "text", "citybot", secret=True),)
"""Read by ``compose.yaml``, not by the bot: ``.env.example`` shows them after the bot's own."""


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
    web_port: int | None = DEFAULT_WEB_PORT
    """``WEB_PORT``: the port of the game, league and player pages (None: ``off``, no pages)."""
    web_host: str = DEFAULT_WEB_HOST
    """``WEB_HOST``: the address the pages listen on (127.0.0.1: this machine only, behind a proxy)."""
    web_base_url: str = ""
    """``WEB_BASE_URL``: the public address links start with, no trailing slash (empty: no links posted)."""
    web_secret: str = ""
    trusted_proxies: tuple[str, ...] = ()
    """``TRUSTED_PROXIES``: the reverse proxies (addresses or CIDR ranges) whose ``X-Forwarded-For`` names
    the visitor, for the pages' per-address limits (empty: none, not even this machine)."""
    """``WEB_SECRET``: the key that signs links (empty: the one generated once and kept in the database,
    :func:`bot.store.web.secret`)."""
    discord_client_id: str = ""  # DISCORD_CLIENT_ID and _SECRET: "Sign in with Discord" (both, or no button)
    discord_client_secret: str = ""
    activity: bool = False
    """``ACTIVITY``: the board as a Discord Activity (issue 39), launched by "Play on the board" (off: the link)."""
    analysis_workers: int = DEFAULT_ANALYSIS_WORKERS
    """``ANALYSIS_WORKERS``: worker processes weighing finished games (issue 40; 0: this process weighs none)."""

    @property
    def database(self) -> str | Path:
        """What :meth:`bot.store.Store.open` opens: the PostgreSQL URL if set, else the SQLite file."""
        return self.database_url or self.database_path


def unknown_keys(path: Path) -> list[str]:
    """A sentence for each key of the ``.env`` file ``path`` that the bot does not read (a misspelt
    ``WEB_PROT``, ``DISCORD_TOKN``), naming the closest setting when one is close. Warnings, not errors:
    the bot starts (the file may hold another program's variables), but a misspelt setting is no longer
    ignored in silence. The environment is not checked: it holds every program's variables."""
    import difflib

    from bot.cli import LOCALE
    from bot.i18n import t

    known = [*KEYS, *(s.name for s in COMPOSE_ONLY), IMAGE_MARK]
    out = []
    for key in read_env_file(path):
        if key in known:
            continue
        guess = difflib.get_close_matches(key.upper(), known, n=1, cutoff=0.6)
        name = key[:60]
        if guess:
            out.append(t("cli.settings.unknown_key", LOCALE, path=path, key=name, guess=guess[0]))
        else:
            out.append(t("cli.settings.unknown_key_alone", LOCALE, path=path, key=name))
    return out


def load(environ: Mapping[str, str] | None = None, env_file: Path | None = None) -> Settings:
    """Settings from ``environ`` (default: the process environment) over the ``.env`` file."""
    env = dict(read_env_file(env_file or Path(ENV_FILE)))
    env.update(environ if environ is not None else os.environ)

    token = env.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError("cli.settings.no_token")

    check_image(env)
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
    if shard_count is not None and shard_ids is not None and len(shard_ids) < shard_count and db_url is None:
        # Some shards here, the others in other processes: they must share one database, and a SQLite
        # file admits one process (each would keep its own servers' games in its own file).
        raise SettingsError("cli.settings.shards_need_url", count=shard_count, ids=",".join(str(i) for i in shard_ids))
    pool_size = whole_number(env, "DATABASE_POOL_SIZE", "cli.settings.pool_size")
    lease_seconds = whole_number(env, "LEASE_SECONDS", "cli.settings.lease")
    stop_seconds = whole_number(env, "STOP_SECONDS", "cli.settings.whole_number")
    analysis_workers = whole_number(env, "ANALYSIS_WORKERS", "cli.settings.whole_number")
    web_port = read_web_port(env.get("WEB_PORT", ""))
    web_host = read_web_host(env.get("WEB_HOST", ""))
    web_base_url = read_web_base_url(env.get("WEB_BASE_URL", ""))
    web_secret = read_web_secret(env.get("WEB_SECRET", ""))
    trusted_proxies = read_trusted_proxies(env.get("TRUSTED_PROXIES", ""))
    oauth = read_oauth(env)
    activity = read_activity(env.get("ACTIVITY", ""))
    if activity and not (oauth["discord_client_id"] and web_base_url and web_port is not None):
        raise SettingsError("cli.settings.activity_needs")
    return Settings(
        token=token,
        database_path=db_path,
        dev_guild_id=dev_guild,
        log_level=level,
        ai_pause_seconds=pause,
        shard_count=shard_count,
        shard_ids=shard_ids,
        database_url=db_url,
        pool_size=pool_size,
        lease_seconds=lease_seconds,
        stop_seconds=stop_seconds,
        web_port=web_port,
        web_host=web_host,
        web_base_url=web_base_url,
        web_secret=web_secret,
        trusted_proxies=trusted_proxies,
        **oauth,
        activity=activity,
        analysis_workers=analysis_workers,
    )


def whole_number(env: Mapping[str, str], name: str, key: str) -> int:
    """A whole-number setting within its range in :data:`TABLE` (empty: its default), or the sentence
    ``key`` (parameters ``name``, ``value``, ``least``, ``most``)."""
    setting = BY_NAME[name]
    assert setting.kind == "int" and setting.low is not None and setting.high is not None
    text = env.get(name, "").strip()
    if not text:
        return int(setting.default)
    if not (_digits(text) and setting.low <= int(text) <= setting.high):
        raise SettingsError(key, name=name, value=text[:40], least=setting.low, most=setting.high)
    return int(text)
