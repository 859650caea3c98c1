"""Settings from the environment or a ``.env`` file. Bad settings become one sentence."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_PATH = "data/bot.sqlite3"
DATA_DIR_DATABASE_NAME = "bot.sqlite3"
"""With ``DATA_DIR`` set (the container image sets it to its volume) and no ``DATABASE_PATH``."""
DATABASE_URL_SCHEMES = ("postgresql://", "postgres://")
DEFAULT_LOG_LEVEL = "INFO"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
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
DEFAULT_WEB_PORT = 8080
MAX_PORT = 65535
WEB_OFF = "off"
DEFAULT_WEB_HOST = "127.0.0.1"
WEB_URL_SCHEMES = ("http://", "https://")
MAX_WEB_BASE_URL = 200
"""Long enough for any public address, short enough that a link (with its path and token) stays far
below Discord's 512 characters for a URL button."""
MAX_TRUSTED_PROXIES = 64
"""Addresses or ranges in ``TRUSTED_PROXIES`` at most."""
MIN_WEB_SECRET = 16
MAX_WEB_SECRET = 512
ENV_FILE = ".env"
IMAGE_MARK = "BOT_IN_IMAGE"
"""Set (to 1) by the Dockerfile: the bot runs in its container image, whose data must stay on
:data:`IMAGE_VOLUME` whatever an ``--env-file`` says."""
IMAGE_VOLUME = "/data"
"""The image's volume (its ``VOLUME`` and ``DATA_DIR``; ``tests/test_deploy.py`` holds them equal)."""


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
)
"""Every setting the bot reads, once (``.env.example``, the README's table and ``python -m bot --help``
are made from it; ``tests/test_deploy.py`` and ``tests/cli/test_settings.py`` check)."""
KEYS: tuple[str, ...] = tuple(setting.name for setting in TABLE)
BY_NAME = {setting.name: setting for setting in TABLE}
COMPOSE_ONLY: tuple[Setting, ...] = (Setting("POSTGRES_PASSWORD", "text", "citybot", secret=True),)
"""Read by ``compose.yaml``, not by the bot: ``.env.example`` shows them after the bot's own."""


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
            line = line[len("export ") :]
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise SettingsError("cli.settings.env_line", path=path, line=number)
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values


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
    web_port = read_web_port(env.get("WEB_PORT", ""))
    web_host = read_web_host(env.get("WEB_HOST", ""))
    web_base_url = read_web_base_url(env.get("WEB_BASE_URL", ""))
    web_secret = read_web_secret(env.get("WEB_SECRET", ""))
    trusted_proxies = read_trusted_proxies(env.get("TRUSTED_PROXIES", ""))
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
        **read_oauth(env),
    )


def read_oauth(env: Mapping[str, str]) -> dict[str, str]:
    """``DISCORD_CLIENT_ID`` (the application's id, digits) and ``DISCORD_CLIENT_SECRET``: both, or neither."""
    cid, secret = env.get("DISCORD_CLIENT_ID", "").strip(), env.get("DISCORD_CLIENT_SECRET", "").strip()
    if bool(cid) != bool(secret) or not (cid.isdigit() or not cid) or len(secret) > 200:
        raise SettingsError("cli.settings.discord_oauth_pair")
    return {"discord_client_id": cid, "discord_client_secret": secret}


def read_web_port(text: str) -> int | None:
    """``WEB_PORT``: a port from 1 to 65535, or ``off`` (None: no pages); empty: the default."""
    text = text.strip()
    if not text:
        return DEFAULT_WEB_PORT
    if text.lower() == WEB_OFF:
        return None
    if not (_digits(text) and 1 <= int(text) <= MAX_PORT):
        raise SettingsError("cli.settings.web_port", value=text[:40], most=MAX_PORT)
    return int(text)


_HOST = re.compile(r"[A-Za-z0-9._:-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]")


def read_web_host(text: str) -> str:
    """``WEB_HOST``: a host name or an IPv4/IPv6 address to listen on; empty: the default."""
    text = text.strip()
    if not text:
        return DEFAULT_WEB_HOST
    if not _HOST.fullmatch(text):
        raise SettingsError("cli.settings.web_host", value=text[:40])
    return text.strip("[]")


def read_web_base_url(text: str) -> str:
    """``WEB_BASE_URL``: empty (no links), or ``http(s)://host[:port][/path]`` with no query, fragment,
    password or space; kept without its trailing slash."""
    from urllib.parse import urlsplit

    text = text.strip()
    if not text:
        return ""
    try:
        parts = urlsplit(text)
        port_ok = parts.port is None or 1 <= parts.port <= MAX_PORT
    except ValueError:
        parts, port_ok = None, False
    if (
        parts is None
        or not port_ok
        or not text.lower().startswith(WEB_URL_SCHEMES)
        or not parts.hostname
        or parts.query
        or parts.fragment
        or "?" in text
        or "#" in text
        or parts.username is not None
        or not text.isascii()
        or any(c.isspace() or ord(c) < 32 for c in text)
        or len(text) > MAX_WEB_BASE_URL
    ):
        raise SettingsError("cli.settings.web_base_url", value=text[:60], most=MAX_WEB_BASE_URL)
    return text.rstrip("/")


def read_web_secret(text: str) -> str:
    """``WEB_SECRET``: empty (the database keeps a generated one), or at least :data:`MIN_WEB_SECRET`
    characters, so a link cannot be forged by guessing the key. Never printed back."""
    text = text.strip()
    if text and not MIN_WEB_SECRET <= len(text) <= MAX_WEB_SECRET:
        raise SettingsError("cli.settings.web_secret", least=MIN_WEB_SECRET, most=MAX_WEB_SECRET)
    return text


def read_trusted_proxies(text: str) -> tuple[str, ...]:
    """``TRUSTED_PROXIES``: addresses or CIDR ranges (``10.0.0.2``, ``172.16.0.0/12``, ``::1``) separated by
    commas or spaces, at most :data:`MAX_TRUSTED_PROXIES`; empty: none. Kept in their normal spelling."""
    import ipaddress

    out = []
    parts = [part for part in re.split(r"[\s,]+", text.strip()) if part]
    for part in parts:
        try:
            out.append(str(ipaddress.ip_network(part, strict=False)))
        except ValueError:
            raise SettingsError("cli.settings.trusted_proxies", value=part[:50]) from None
    if len(out) > MAX_TRUSTED_PROXIES:
        raise SettingsError("cli.settings.trusted_proxies_many", most=MAX_TRUSTED_PROXIES)
    return tuple(out)


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


def check_image(env: Mapping[str, str]) -> None:
    """In the container image (:data:`IMAGE_MARK`), ``DATA_DIR`` must be the image's volume: an
    ``--env-file`` line moving it elsewhere (or emptying it) would put the database inside the container,
    lost when the container is replaced."""
    if not env.get(IMAGE_MARK, "").strip():
        return
    given = env.get("DATA_DIR", "").strip()
    if os.path.normpath(given or ".") != IMAGE_VOLUME:
        raise SettingsError("cli.settings.data_dir_image", value=given, volume=IMAGE_VOLUME)


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
    if Path(inside) == Path(os.path.normpath(folder)):
        raise SettingsError("cli.settings.db_is_data_dir", path=given, folder=folder)
    if not Path(inside).is_relative_to(os.path.normpath(folder)):
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
