"""``python -m bot local GAME``: play a game in a terminal on the same service, store, turn flow and pictures.

Each game's pictures are written to their own folder (``out/<game>-<id>/``). Humans type the number
of a move; AI seats play by themselves. ``--replay FILE`` loads a game exported with ``/game export``
and writes its pictures. ``--lang`` picks the language (en, hu, es, ru, pl).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot import errors, games, labels, store
from bot.i18n import error_text, normalise_locale, t
from bot.service import MoveOutcome, Service
from bot.turnflow import TurnFlow

LOCAL_USER_BASE = 1
LANGUAGES = ("en", "hu", "es", "ru", "pl")
TERMINAL = "terminal"
"""The origin of every move played here: each one is shown as it happens."""


class Terminal:
    """The terminal's :class:`~bot.turnflow.Announcer`: prints what happened, writes the pictures."""

    def __init__(self, service: Service, out_root: Path, locale: str) -> None:
        self.service = service
        self.out_root = out_root
        self.locale = locale
        self.count = 0
        self.folder: Path | None = None
        self.flow: TurnFlow | None = None

    def folder_for(self, kind: str, game_id: int | str) -> Path:
        self.folder = self.out_root / f"{kind}-{game_id}"
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder

    def picture(self, kind: str, view: games.View, seat: int | None, names: list[str],
                end: bool = False) -> None:
        renderer = games.get(kind).renderer
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
        key, params = outcome.summary
        print(t(key, self.locale, **params))

    async def next_step(self, origin: Any, game_id: int) -> None:
        return None  # the loop asks for the next choice anyway

    async def announce(self, game_id: int, outcome: MoveOutcome | None, locale: str, *,
                       repost: bool = False) -> str | None:
        info = outcome.info if outcome is not None else await self.service.info(game_id)
        snap = outcome.snapshot if outcome is not None and outcome.snapshot is not None \
            else await self.service.snapshot(game_id)
        names = [s.name for s in info.seats]
        view = snap.view(None)
        if (outcome is not None and outcome.finished) or info.game.status == "finished":
            info = await self.service.info(game_id)
            self.picture(info.game.kind, view, None, names, end=True)
            assert self.flow is not None
            print("\n" + "\n".join(self.flow.result_lines(info, self.locale)))
        else:
            acting = outcome.seat if outcome is not None and outcome.seat >= 0 else None
            self.picture(info.game.kind, view, acting, names)
        return None

    async def show_status(self, game_id: int, locale: str) -> None:
        return None

    # -- input ------------------------------------------------------------------------------------
    def choose(self, prompt: str, options: list[str]) -> int:
        for i, text in enumerate(options, start=1):
            print(f"  {i:3d}. {text}")
        while True:
            try:
                raw = input(t("local.prompt", self.locale, prompt=prompt, last=len(options)) + " ").strip()
            except EOFError:
                raise SystemExit(0) from None
            if raw.lower() in ("q", "quit", "exit"):
                raise SystemExit(0)
            if raw.isdigit() and 1 <= int(raw) <= len(options):
                return int(raw) - 1
            print("  " + t("local.type_a_number", self.locale))


async def play(args: argparse.Namespace) -> int:
    locale = args.lang
    kind = games.resolve(args.game or "")
    if kind is None:
        print(f"error: {t('local.unknown_game', locale, game=args.game, games=', '.join(games.available()))}",
              file=sys.stderr)
        return 2
    rules = games.rules(kind)
    options: dict[str, Any] = {}
    if args.mode and rules.option_specs:
        options[rules.option_specs[0].name] = args.mode
    if args.difficulty is not None:
        options["difficulty"] = str(args.difficulty)
    if args.solo:
        options["mode"] = args.solo
    opts = rules.normalise_options(options)
    low, high = rules.seat_range(opts)
    players = args.players if args.players is not None else low
    if not low <= players <= high:
        print(f"error: {t('error.seat_count', locale, low=low, high=high)}", file=sys.stderr)
        return 2
    ai = min(args.ai, players)
    humans = players - ai
    if not humans:
        print(f"error: {t('local.no_human', locale)}", file=sys.stderr)
        return 2
    db = await store.Store.open(args.db)
    service = Service(db)
    term = Terminal(service, Path(args.out), locale)
    flow = TurnFlow(service, term, auto_ai=False)
    term.flow = flow
    try:
        host = LOCAL_USER_BASE
        player = t("local.player", locale, n=1)
        info = await service.create_game(guild_xid=None, channel_xid=None, kind=kind, options=opts,
                                         host_xid=host, host_name=player, ai_seats=ai,
                                         ai_level=args.level, locale=locale)
        for i in range(1, humans):
            await service.join(info.id, host + i, t("local.player", locale, n=i + 1))
        info = await service.start(info.id, host)
        term.folder_for(kind, info.id)
        print(t("local.started", locale, title=t(games.get(kind).title_key, locale), game=info.id,
                players=", ".join(s.name for s in info.seats)))
        await flow.publish(info.id, None, locale)
        ai_owes_a_move = True
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
            assert user is not None
            _, seat, moves = await service.legal_moves(info.id, user)
            snap = await service.snapshot(info.id)
            names = [s.name for s in info.seats]
            if humans > 1:
                print("\n--- " + t("local.only_you", locale, player=seat_row.name) + " ---")
            private = snap.view(seat)
            term.picture(kind, private, seat, names)
            index = term.choose(t("local.your_move", locale, player=seat_row.name),
                                [labels.move_label(kind, m, private, locale) for m in moves])
            ai_owes_a_move = True
            try:
                out = await service.move(info.id, user, moves[index])
            except errors.GameError as exc:
                print(f"  {error_text(exc, locale)}")
                continue
            await flow.after_move(out, TERMINAL)
        return 0
    finally:
        await db.close()


def replay(path: str, out: str, locale: str = "en") -> int:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        rules = games.rules(data["game"])
        state = rules.setup(data["options"], len(data["seats"]), int(data["seed"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: {t('local.not_an_export', locale, path=path, problem=str(exc)[:200])}", file=sys.stderr)
        return 2
    except errors.GameError as exc:
        print(f"error: {error_text(exc, locale)}", file=sys.stderr)
        return 2
    term = Terminal(None, Path(out), locale)  # type: ignore[arg-type]  # pictures only: no service
    term.folder_for(str(data["game"]), Path(path).stem)
    kind = rules.kind
    names = [str(s.get("name", f"Seat {i + 1}")) for i, s in enumerate(data["seats"])]
    term.picture(kind, rules.view(state, None), None, names)
    for m in data.get("moves", []):
        try:
            before = state
            state = rules.apply(state, int(m["seat"]), m["move"])
        except errors.GameError as exc:
            print(f"error: {t('local.no_replay', locale, version=m.get('version'), problem=error_text(exc, locale))}",
                  file=sys.stderr)
            return 2
        key, params = rules.describe(before, int(m["seat"]), m["move"], state)
        name = data["seats"][m["seat"]]["name"] if m["seat"] >= 0 else "—"
        print(t(key, locale, **{"player": name, **params}))
        term.picture(kind, rules.view(state, None), int(m["seat"]) if m["seat"] >= 0 else None, names)
    if rules.is_over(state):
        term.picture(kind, rules.view(state, None), None, names, end=True)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot local", description=__doc__)
    parser.add_argument("game", nargs="?", help=", ".join(games.available()))
    parser.add_argument("--mode", "--variant", dest="mode", help="the game's mode or variant")
    parser.add_argument("--players", type=int, help="number of seats")
    parser.add_argument("--ai", type=int, default=0, help="how many of the seats the AI plays")
    parser.add_argument("--level", help="AI level")
    parser.add_argument("--solo", nargs="?", const="solo_full", help="play solo against the game's automatic opponents")
    parser.add_argument("--difficulty", type=int, help="solo difficulty, where the game has one (1-7)")
    parser.add_argument("--lang", default="en", type=normalise_locale, choices=LANGUAGES,
                        help="language of the game (default: en)")
    parser.add_argument("--out", default="out", help="folder for the pictures, one folder per game (default: out)")
    parser.add_argument("--db", default="data/local.sqlite3",
                        help="database file (default: data/local.sqlite3)")
    parser.add_argument("--replay", help="a game exported with /game export: write its pictures")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay, args.out, args.lang)
    if not args.game:
        parser.print_usage(sys.stderr)
        return 2
    try:
        return asyncio.run(play(args))
    except errors.GameError as exc:
        print(f"error: {error_text(exc, args.lang)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
