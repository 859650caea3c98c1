"""Run the real bot process against the fake Discord.

    FAKE_DISCORD_URL=http://127.0.0.1:PORT python -m bot.testing.fakediscord.launch

points ``discord.http.Route.BASE`` (REST, interaction callbacks, webhooks) and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` at the fake, refuses any connection to a
non-loopback address, then runs the entry point ``FAKE_DISCORD_ENTRY`` (default
``bot.__main__:main``; the stand-in bot is ``bot.testing.fakediscord.standin:main``) and exits with its
return value. The bot's own code is unchanged; it reads DISCORD_TOKEN, DATABASE_PATH,
DEV_GUILD_ID and LOG_LEVEL from the environment as usual.
"""

from __future__ import annotations

import errno
import importlib
import ipaddress
import os
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

DEFAULT_ENTRY = "bot.__main__:main"
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def _is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def configure(url: str) -> Callable[[], None]:
    """Point discord.py at the fake at ``url`` (``http://127.0.0.1:PORT``); returns an undo.

    Usable in-process too (the lead's in-process tests): ``undo = configure(fake.url)``.
    """
    import discord.gateway
    import discord.http
    import yarl

    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname or not _is_loopback(parts.hostname):
        raise ValueError(f"the fake Discord must be on loopback http, got {url!r}")
    base = f"{parts.scheme}://{parts.netloc}"
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = f"{base}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://{parts.netloc}/gateway")

    def undo() -> None:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    return undo


def guard_network() -> None:
    """Make every IPv4/IPv6 connect and name lookup outside loopback fail (this process only)."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(str(address[0])):
            raise OSError(errno.ENETUNREACH, f"fake-discord launcher: blocked connection to {address[0]}")

    def connect(self: socket.socket, address: Any) -> None:
        check(self, address)
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        check(self, address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if name is not None and not _is_loopback(str(name)):
            raise socket.gaierror(socket.EAI_NONAME, f"fake-discord launcher: blocked lookup of {name}")
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]
    socket.getaddrinfo = getaddrinfo


def load_entry(spec: str) -> Callable[[], Any]:
    module_name, _, func_name = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, func_name or "main")  # type: ignore[no-any-return]


def main() -> int:
    url = os.environ.get("FAKE_DISCORD_URL")
    if not url:
        raise SystemExit("FAKE_DISCORD_URL is not set (e.g. http://127.0.0.1:PORT)")
    guard_network()
    configure(url)
    entry = load_entry(os.environ.get("FAKE_DISCORD_ENTRY") or DEFAULT_ENTRY)
    result = entry()
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
