"""Each setting's value read and checked (re-exported by :mod:`bot.settings`, which holds the table of every
setting and puts them together): the sentence a bad one becomes (:class:`SettingsError`), the ``.env``
file, the shards, the database's place and the container image's volume, the web pages' settings and
Sign in with Discord's pair, with the limits they are held to."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_PATH = "data/bot.sqlite3"
DATA_DIR_DATABASE_NAME = "bot.sqlite3"
"""With ``DATA_DIR`` set (the container image sets it to its volume) and no ``DATABASE_PATH``."""
MAX_SHARD_COUNT = 4096
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
IMAGE_MARK = "BOT_IN_IMAGE"
"""Set (to 1) by the Dockerfile: the bot runs in its container image, whose data must stay on
:data:`IMAGE_VOLUME` whatever an ``--env-file`` says."""
IMAGE_VOLUME = "/data"
"""The image's volume (its ``VOLUME`` and ``DATA_DIR``; ``tests/test_deploy.py`` holds them equal)."""


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


def read_oauth(env: Mapping[str, str]) -> dict[str, str]:
    """``DISCORD_CLIENT_ID`` (the application's id, digits) and ``DISCORD_CLIENT_SECRET``: both, or neither."""
    cid, secret = env.get("DISCORD_CLIENT_ID", "").strip(), env.get("DISCORD_CLIENT_SECRET", "").strip()
    if bool(cid) != bool(secret) or not (cid.isdigit() or not cid) or len(secret) > 200:
        raise SettingsError("cli.settings.discord_oauth_pair")
    return {"discord_client_id": cid, "discord_client_secret": secret}


def read_activity(text: str) -> bool:
    """``ACTIVITY`` (issue 39): ``on`` or ``off`` (empty: off), the board as a Discord Activity."""
    value = text.strip().lower()
    if value not in ("", "on", WEB_OFF):
        raise SettingsError("cli.settings.activity", value=text.strip()[:40])
    return value == "on"


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
