"""``local --web``: the game's page served beside the terminal, whose seat may play on it (issue 38)."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass
from typing import Any, Protocol

from bot import cli, store
from bot.community.sessions import Sessions
from bot.local.stdin import StandardInput
from bot.service import MoveOutcome, Service
from bot.store.sessions import SessionStore
from bot.turnflow import TurnFlow
from bot.web.links import Links, signing_key
from bot.web.server import WebServer


class Terminal(Protocol):
    """What the page needs of the terminal (:class:`bot.local.terminal.Terminal`)."""

    page_moved: asyncio.Event
    web: WebServer | None
    lines: StandardInput | None
    web_links: Links


PAGE = "page"
"""The origin of a move made on the page (``--web``): the terminal tells it as it tells its own."""
PAGE_HOST = "127.0.0.1"
"""``--web`` serves this machine only."""


@dataclass(frozen=True)
class PageSource:
    """What the game page reads (:class:`bot.web.context.Source`): the terminal's own service and store, the
    sessions of its sign-in link and the terminal's turn flow (a move made on the page is told here too)."""

    service: Service
    store: store.Store
    sessions: Sessions
    flow: PageFlow


class PageFlow:
    """The turn flow as the page's move door sees it: a move made on the page is told at the terminal as
    its own moves are (the origin :data:`PAGE`), and the terminal's prompt gives way to the game's next step."""

    def __init__(self, flow: TurnFlow, term: Terminal) -> None:
        self.flow = flow
        self.term = term

    async def after_move(self, outcome: MoveOutcome, origin: Any = None) -> str | None:
        try:
            return await self.flow.after_move(outcome, PAGE if origin is None else origin)
        finally:
            self.term.page_moved.set()


def check_port(port: int) -> None:
    """``--web --web-port PORT``: a UsageError, before anything is made, if something listens there."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will: only a listener counts
        try:
            probe.bind((PAGE_HOST, port))
        except OSError as exc:
            raise cli.UsageError("cli.local.web_port_busy", port=port, problem=exc.strerror or str(exc)) from None


async def start_pages(term: Terminal, db: store.Store, service: Service, port: int, flow: TurnFlow) -> None:
    """``--web``: serve the game pages on this machine (the address and the terminal seat's sign-in link are
    printed once the game exists)."""
    secret = await signing_key("", db)
    server = WebServer(
        PageSource(service, db, Sessions(service, SessionStore(db)), PageFlow(flow, term)),
        Links("", secret),
        host=PAGE_HOST,
        port=port,
    )
    try:
        await server.start()
    except OSError as exc:
        await server.stop()
        raise cli.UsageError("cli.local.web_port_busy", port=port, problem=exc.strerror or str(exc)) from None
    term.web = server
    term.lines = StandardInput(asyncio.get_running_loop())
    term.web_links = Links(f"http://{PAGE_HOST}:{server.port}", secret)
