"""The terminal front-end of ``python -m bot local GAME``: a game played on the same service, store, turn
flow and pictures as on Discord.

Each game's pictures are written to their own folder (``out/<game>-<id>/``). Humans type the number
of a move; AI seats play by themselves. ``--lang`` picks the language (a folder of ``bot/locales``:
:func:`bot.i18n.languages`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot import cli, errors, export, games, labels, store
from bot.i18n import error_text, t
from bot.local.choices import distinct
from bot.local.pages import PAGE as PAGE
from bot.local.pages import PAGE_HOST as PAGE_HOST
from bot.local.pages import PageFlow as PageFlow
from bot.local.pages import PageSource as PageSource
from bot.local.pages import check_port as check_port
from bot.local.pages import start_pages as start_pages
from bot.local.stdin import Quit as Quit
from bot.local.stdin import StandardInput as StandardInput
from bot.service import GameInfo, MoveOutcome, Service
from bot.turnflow import TurnFlow
from bot.web.links import Links
from bot.web.server import WebServer
from render import pictures

LOCAL_USER_BASE = 1
TERMINAL = "terminal"
"""The origin of every move played here: each one is shown as it happens."""
DEFAULT_DB = "data/local.sqlite3"
CLEAR_SCREEN = "\033[H\033[2J\033[3J"
"""Cursor home, clear the screen and its scroll-back (ANSI/VT100, which every terminal in use reads)."""


class Terminal:
    """The terminal's :class:`~bot.turnflow.Announcer`: prints what happened, writes the pictures."""

    def __init__(self, service: Service, out_root: Path, locale: str) -> None:
        self.service = service
        self.out_root = out_root
        self.locale = locale
        self.count = 0
        self.folder: Path | None = None
        self.flow: TurnFlow | None = None
        self.web: WebServer | None = None
        self.web_links = Links("", b"")
        """The page's links (``--web``)."""
        self.interactive = sys.stdin is not None and sys.stdin.isatty()
        """Whether a person types at this terminal (hot-seat hands wait for Enter and a cleared screen)."""
        self.page_moved = asyncio.Event()
        """Set when a move was made on the page (``--web``): the prompt shown gives way to the game's next step."""
        self.lines: StandardInput | None = None
        """``--web``: standard input read line by line in a thread, so a prompt can give way to the page."""
        self.prompting = False
        """A prompt waits on its line (``--web``): what the page's move prints starts a new line."""

    def folder_for(self, kind: str, game_id: int | str) -> Path:
        self.folder = self.out_root / f"{kind}-{game_id}"
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder

    def picture(self, kind: str, view: games.View, seat: int | None, names: list[str], end: bool = False) -> None:
        renderer = pictures.get(kind)
        if renderer is None or self.folder is None:
            return
        if end:
            data = renderer.render_end(view, names, locale=self.locale)
        elif seat is None:
            data = renderer.render_board(view, names, locale=self.locale)
        else:
            data = renderer.render_turn(view, seat, names, locale=self.locale)
        self.count += 1
        path = self.folder / f"{self.count:04d}{'-end' if end else ''}.png"
        path.write_bytes(data)
        print(f"  {t('local.picture', self.locale, path=path)}")

    # -- the Announcer ----------------------------------------------------------------------------
    async def acknowledge(self, origin: Any, outcome: MoveOutcome) -> None:
        """The move as the channel tells it (:meth:`bot.games.Game.tell`: a whole turn in one line where
        the game tells it so)."""
        key, params = outcome.summary
        snap = (
            outcome.snapshot
            if outcome.snapshot is not None
            else await self.service.snapshot(outcome.info.id, outcome.version)
        )
        names = [s.name for s in outcome.info.seats]
        self.leave_prompt()
        for line in games.get(outcome.info.game.kind).tell(key, params, snap.view(None), self.locale, names):
            print(line)

    async def next_step(self, origin: Any, game_id: int) -> None:
        return None  # the loop asks for the next choice anyway

    async def announce(
        self, game_id: int, outcome: MoveOutcome | None, locale: str, *, repost: bool = False
    ) -> str | None:
        info = outcome.info if outcome is not None else await self.service.info(game_id)
        snap = (
            outcome.snapshot
            if outcome is not None and outcome.snapshot is not None
            else await self.service.snapshot(game_id)
        )
        names = [s.name for s in info.seats]
        view = snap.view(None)
        if (outcome is not None and outcome.finished) or info.game.status == "finished":
            info = await self.service.info(game_id)
            self.picture(info.game.kind, view, None, names, end=True)
            assert self.flow is not None
            print("\n" + "\n".join(self.flow.result_lines(info, self.locale)))
            await self.save_export(info)
        else:
            acting = outcome.seat if outcome is not None and outcome.seat >= 0 else None
            self.picture(info.game.kind, view, acting, names)
        return None

    async def save_export(self, info: GameInfo) -> None:
        """A finished game's export (the format of ``/game export``) beside its pictures, ``game.json``: what
        ``python -m bot analyse`` weighs and ``--replay`` tells."""
        if self.folder is None:
            return
        path = self.folder / "game.json"
        data = export.write(info.game, info.seats, await self.service.move_rows(info.id))
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        print(t("local.exported", self.locale, path=path))

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        return None

    # -- input ---------------------------------------------------------------------------------------
    async def ask(self, prompt: str, options: list[str]) -> int | None:
        """:meth:`choose`. While the pages are served (``--web``) the event loop goes on serving them, and
        a move made on the page meanwhile (:attr:`page_moved`) ends the prompt: None, the game goes on."""
        if self.lines is None:
            return self.choose(prompt, options)
        self.show_options(options)
        while True:
            print(t("local.prompt", self.locale, prompt=prompt, last=len(options)) + " ", end="", flush=True)
            self.prompting = True
            raw = await self.lines.next_line(self.page_moved)
            if raw is None:
                self.leave_prompt()  # the page moved (and said so on a line of its own)
                return None
            self.prompting = False
            index = self.read_choice(raw, len(options))
            if index is not None:
                return index

    async def hand_over(self, player: str) -> None:
        """Hot-seat at one terminal: before a hand is shown, the screen is passed on. At a terminal, the
        player presses Enter when only they look, and the screen is cleared (the last player's choices
        with it); with input from a file or a pipe nobody looks, and nothing waits."""
        if not self.interactive:
            return
        if self.lines is None:
            self.wait_for_enter(t("local.hand_over", self.locale, player=player))
        else:
            print(t("local.hand_over", self.locale, player=player) + " ", end="", flush=True)
            self.check_quit(await self.lines.next_line(None) or "")
        print(CLEAR_SCREEN, end="", flush=True)

    def wait_for_enter(self, prompt: str) -> None:
        try:
            raw = input(prompt + " ")
        except EOFError:
            raise Quit(end_of_input=True) from None
        self.check_quit(raw)

    @staticmethod
    def check_quit(raw: str) -> None:
        if raw.strip().lower() in ("q", "quit", "exit"):
            raise Quit(end_of_input=False)

    async def keep_page(self) -> None:
        """``--web`` after the last move: the page stays up, showing the result and the story, until the
        player presses Enter (or the input ends)."""
        assert self.lines is not None
        print(t("local.web_stays", self.locale) + " ", end="", flush=True)
        try:
            self.check_quit(await self.lines.next_line(None) or "")
        except Quit as stop:
            if stop.end_of_input:
                print()  # the cursor was left on the prompt's line

    def leave_prompt(self) -> None:
        """A move made on the page while a prompt waits: what follows starts a new line."""
        if self.prompting:
            print()
            self.prompting = False

    def show_options(self, options: list[str]) -> None:
        for i, text in enumerate(options, start=1):
            print(f"  {i:3d}. {text}")

    def read_choice(self, raw: str, last: int) -> int | None:
        """The index a typed line names (a Quit for ``q``), or None after saying to type a number."""
        raw = raw.strip()
        self.check_quit(raw)
        if raw.isdigit() and 1 <= int(raw) <= last:
            return int(raw) - 1
        print("  " + t("local.type_a_number", self.locale))
        return None

    def choose(self, prompt: str, options: list[str]) -> int:
        self.show_options(options)
        while True:
            try:
                raw = input(t("local.prompt", self.locale, prompt=prompt, last=len(options)) + " ")
            except EOFError:
                raise Quit(end_of_input=True) from None
            index = self.read_choice(raw, len(options))
            if index is not None:
                return index


async def resumed(service: Service, game_id: int) -> Any:
    """A terminal game of this database that is still being played (``--resume ID``), or a UsageError."""
    try:
        info = await service.info(game_id)
    except errors.GameError:
        raise cli.UsageError("cli.local.resume_unknown", game=game_id) from None
    if info.game.guild_xid is not None:
        raise cli.UsageError("cli.local.resume_discord", game=game_id)
    if info.game.status != "active":
        raise cli.UsageError("cli.local.resume_over", game=game_id)
    return info


async def play(args: argparse.Namespace, checked: tuple[str, dict[str, Any], int, int] | None) -> int:
    """Play a new game (``checked``: game, options, players and AI seats, from
    :func:`bot.local.args.check_arguments`) or go on with ``--resume ID`` (``checked`` None)."""
    locale = args.lang
    if checked is not None:
        kind, opts, players, ai = checked
        humans = players - ai
    db = await store.Store.open(args.db)
    service = Service(db)
    term = Terminal(service, Path(args.out), locale)
    flow = TurnFlow(service, term, auto_ai=False)
    term.flow = flow
    try:
        if args.web:  # before any game is made: a busy port changes nothing
            await start_pages(term, db, service, args.web_port, flow)
        if args.resume is not None:
            info = await resumed(service, args.resume)
            kind, locale = info.game.kind, info.game.locale
            term.locale = locale
            humans = sum(1 for s in info.seats if not s.is_ai)
            term.count = len(list(term.folder_for(kind, info.id).glob("*.png")))  # the pictures go on
            print(
                t(
                    "local.resumed",
                    locale,
                    title=t(games.get(kind).title_key, locale),
                    game=info.id,
                    players=", ".join(s.name for s in info.seats),
                )
            )
        else:
            host = LOCAL_USER_BASE
            player = t("local.player", locale, n=1)
            info = await service.create_game(
                guild_xid=None,
                channel_xid=None,
                kind=kind,
                options=opts,
                host_xid=host,
                host_name=player,
                ai_seats=ai,
                ai_level=args.level,
                locale=locale,
            )
            for i in range(1, humans):
                await service.join(info.id, host + i, t("local.player", locale, n=i + 1))
            info = await service.start(info.id, host)
            term.folder_for(kind, info.id)
            print(
                t(
                    "local.started",
                    locale,
                    title=t(games.get(kind).title_key, locale),
                    game=info.id,
                    players=", ".join(s.name for s in info.seats),
                )
            )
        await flow.publish(info.id, None, locale)
        if term.web is not None:
            print(t("web.local.address", locale, url=term.web_links.game(info.id, locale)))
            # The terminal's own seat on the board: a single-use sign-in link (issue 38).
            raw = await term.web.auth.sessions.link_token(LOCAL_USER_BASE, info.id)  # type: ignore[union-attr]
            print(t("web.local.signin", locale, url=f"{term.web_links.base_url}/signin/{raw}?lang={locale}"))
        try:
            await play_on(service, flow, term, info.id, kind, humans, locale)
            if term.web is not None:
                await term.keep_page()
        except Quit as stop:
            db_option = "" if args.db == DEFAULT_DB else f" --db {args.db}"
            again = f"python -m bot local --resume {info.id}{db_option}"
            # After the end of input the cursor is still on the prompt's line: the sentence starts a new one.
            print(
                ("\n" if stop.end_of_input else "") + t("local.quit", locale, game=info.id, db=args.db, command=again)
            )
        return 0
    finally:
        if term.web is not None:
            await term.web.stop()
        await db.close()


async def play_on(
    service: Service, flow: TurnFlow, term: Terminal, game_id: int, kind: str, humans: int, locale: str
) -> None:
    """The game's loop until it ends (or :class:`Quit`): AI seats move by themselves, humans choose."""
    info = await service.info(game_id)
    ai_owes_a_move = True
    shown: int | None = None
    """The seat whose hand the screen shows (hot-seat: another seat's hand waits for the screen to clear)."""
    while True:
        await flow.watch_timer(info.id)
        await flow.run_timers()  # a timer ran out (a game played against the clock)
        info = await service.info(info.id)
        if info.game.status != "active":
            break
        humans_waiting = [s for s in info.seats if s.seat in info.awaiting and not s.is_ai]
        # When people and AI act at the same time, they take turns: one AI move per human move.
        if info.awaited_ai() and (not humans_waiting or ai_owes_a_move):
            ai_owes_a_move = False
            if await flow.ai_step(info.id, TERMINAL) is not None:
                continue
        if not humans_waiting:
            continue
        seat_row = humans_waiting[0]
        user = seat_row.user_xid
        term.page_moved.clear()  # a move on the page from now on ends this prompt
        assert user is not None
        _, seat, moves = await service.legal_moves(info.id, user)
        snap = await service.snapshot(info.id)
        names = [s.name for s in info.seats]
        game = games.get(kind)
        if humans > 1:
            if seat != shown and (game.turns.secret or game.private_note is not None):
                await term.hand_over(seat_row.name)  # the next player's hand is not for the last one's eyes
            shown = seat
            print("\n--- " + t("local.only_you", locale, player=seat_row.name) + " ---")
        private = snap.view(seat)
        term.picture(kind, private, seat, names)
        line = game.private_note(private, locale) if game.private_note is not None else None
        if line:
            print(line)  # what only this player may know, such as the tile just drawn
        offered = distinct(
            games.rules(kind),
            snap.state,
            seat,
            moves,
            [labels.move_label(kind, m, private, locale) for m in moves],
            locale,
        )
        index = await term.ask(t("local.your_move", locale, player=seat_row.name), [text for _, text in offered])
        ai_owes_a_move = True
        if index is None:
            continue  # the move was made on the page (and told there): the game's next step
        try:
            # The version the menu was made at: a move made meanwhile on the page (--web) makes it stale.
            out = await service.move(info.id, user, moves[offered[index][0]], expected_version=snap.version)
        except errors.GameError as exc:
            print(f"  {error_text(exc, locale)}")
            continue
        await flow.after_move(out, TERMINAL)
