"""``python -m bot local GAME``: play a game in a terminal on the same service, store, turn flow and pictures.

Each game's pictures are written to their own folder (``out/<game>-<id>/``). Humans type the number
of a move; AI seats play by themselves. ``--replay FILE`` loads a game exported with ``/game export``
and writes its pictures. ``--lang`` picks the language (a folder of ``bot/locales``: :func:`bot.i18n.languages`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import cli, errors, games, labels, store
from bot.cli import say
from bot.dbtext import database_sentence
from bot.i18n import error_text, languages, normalise_locale, t
from bot.results import ranking_lines
from bot.rules import core, jsonin
from bot.service import MoveOutcome, Service
from bot.turnflow import TurnFlow
from bot.web.links import Links, signing_key
from bot.web.server import WebServer
from render import pictures

LOCAL_USER_BASE = 1
TERMINAL = "terminal"
"""The origin of every move played here: each one is shown as it happens."""
DEFAULT_DB = "data/local.sqlite3"


class Quit(Exception):
    """The player typed ``q`` or closed the input: the game stays saved, to go on with ``--resume``."""

    def __init__(self, end_of_input: bool) -> None:
        super().__init__("quit")
        self.end_of_input = end_of_input


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

    def folder_for(self, kind: str, game_id: int | str) -> Path:
        self.folder = self.out_root / f"{kind}-{game_id}"
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.folder

    def picture(self, kind: str, view: games.View, seat: int | None, names: list[str],
                end: bool = False) -> None:
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
        snap = outcome.snapshot if outcome.snapshot is not None \
            else await self.service.snapshot(outcome.info.id, outcome.version)
        names = [s.name for s in outcome.info.seats]
        for line in games.get(outcome.info.game.kind).tell(key, params, snap.view(None), self.locale, names):
            print(line)

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

    async def show_status(self, game_id: int, locale: str, outcome: MoveOutcome | None = None) -> None:
        return None

    # -- input ------------------------------------------------------------------------------------
    async def ask(self, prompt: str, options: list[str]) -> int:
        """:meth:`choose`; while the pages are served (``--web``) the typing waits in a thread, so the
        event loop goes on serving them."""
        if self.web is None:
            return self.choose(prompt, options)
        return await asyncio.to_thread(self.choose, prompt, options)

    def choose(self, prompt: str, options: list[str]) -> int:
        for i, text in enumerate(options, start=1):
            print(f"  {i:3d}. {text}")
        while True:
            try:
                raw = input(t("local.prompt", self.locale, prompt=prompt, last=len(options)) + " ").strip()
            except EOFError:
                raise Quit(end_of_input=True) from None
            if raw.lower() in ("q", "quit", "exit"):
                raise Quit(end_of_input=False)
            if raw.isdigit() and 1 <= int(raw) <= len(options):
                return int(raw) - 1
            print("  " + t("local.type_a_number", self.locale))


def check_arguments(args: argparse.Namespace) -> tuple[str, dict[str, Any], int, int]:
    """(game, options, players, AI seats) from the command line, or UsageError naming the option to fix."""
    kind = games.resolve(args.game or "")
    if kind is None:
        raise cli.UsageError("cli.local.unknown_game", game=args.game, games=", ".join(games.available()))
    rules = games.rules(kind)
    options: dict[str, Any] = {}
    if args.mode and rules.option_specs:
        options[rules.option_specs[0].name] = args.mode
    if args.difficulty is not None:
        options["difficulty"] = str(args.difficulty)
    if args.solo:
        options["mode"] = args.solo
    for pair in args.option:
        name, sep, value = str(pair).partition("=")
        if not sep or not name.strip() or not value.strip():
            raise cli.UsageError("cli.local.bad_option", option=cli.short(pair))
        options[name.strip().lower()] = value.strip()
    opts = rules.normalise_options(options)
    low, high = rules.seat_range(opts)
    players = args.players if args.players is not None else low
    if not low <= players <= high:
        spec = rules.option_specs[0] if rules.option_specs else None
        fitting = [c for c in spec.choices if rules.seat_range({**opts, spec.name: c})[0] <= players
                   <= rules.seat_range({**opts, spec.name: c})[1]] if spec is not None and players >= 0 else []
        exactly = "_exactly" if low == high else ""
        if fitting and spec is not None:
            raise cli.UsageError(f"cli.local.players_other_mode{exactly}", low=low, high=high, players=players,
                                 mode=fitting[0], option=spec.name)
        raise cli.UsageError(f"cli.local.players{exactly}", low=low, high=high, players=players)
    if not 0 <= args.ai <= players:
        raise cli.UsageError("cli.local.ai_count", ai=args.ai, players=players)
    if args.level is not None and rules.ai_levels and args.level not in rules.ai_levels:
        raise cli.UsageError("cli.local.level", level=args.level, levels=", ".join(rules.ai_levels))
    if players - args.ai < 1:
        raise cli.UsageError("cli.local.no_human")
    return kind, opts, players, args.ai


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


async def play(args: argparse.Namespace) -> int:
    locale = args.lang
    if args.resume is None:
        kind, opts, players, ai = check_arguments(args)
        humans = players - ai
    db = await store.Store.open(args.db)
    service = Service(db)
    term = Terminal(service, Path(args.out), locale)
    flow = TurnFlow(service, term, auto_ai=False)
    term.flow = flow
    try:
        if args.resume is not None:
            info = await resumed(service, args.resume)
            kind, locale = info.game.kind, info.game.locale
            term.locale = locale
            humans = sum(1 for s in info.seats if not s.is_ai)
            term.count = len(list(term.folder_for(kind, info.id).glob("*.png")))  # the pictures go on
            print(t("local.resumed", locale, title=t(games.get(kind).title_key, locale), game=info.id,
                    players=", ".join(s.name for s in info.seats)))
        else:
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
        if args.web:
            await serve_pages(term, db, service, info.id, args.web_port, locale)
        try:
            await play_on(service, flow, term, info.id, kind, humans, locale)
        except Quit as stop:
            db_option = "" if args.db == DEFAULT_DB else f" --db {args.db}"
            again = f"python -m bot local --resume {info.id}{db_option}"
            # After the end of input the cursor is still on the prompt's line: the sentence starts a new one.
            print(("\n" if stop.end_of_input else "") + t("local.quit", locale, game=info.id, db=args.db,
                                                           command=again))
        return 0
    finally:
        if term.web is not None:
            await term.web.stop()
        await db.close()


@dataclass(frozen=True)
class PageSource:
    """What the game page reads (:class:`bot.web.context.Source`): the terminal's own service and store."""

    service: Service
    store: store.Store


async def serve_pages(term: Terminal, db: store.Store, service: Service, game_id: int, port: int,
                      locale: str) -> None:
    """``--web``: serve the game's page on this machine while the game is played, and print its address."""
    secret = await signing_key("", db)
    server = WebServer(PageSource(service, db), Links("", secret), host="127.0.0.1", port=port)
    try:
        await server.start()
    except OSError as exc:
        await server.stop()
        raise cli.UsageError("cli.local.web_port_busy", port=port, problem=exc.strerror or str(exc)) from None
    term.web = server
    address = f"http://127.0.0.1:{server.port}"
    print(t("web.local.address", locale, url=Links(address, secret).game(game_id, locale)))


async def play_on(service: Service, flow: TurnFlow, term: Terminal, game_id: int, kind: str, humans: int,
                  locale: str) -> None:
    """The game's loop until it ends (or :class:`Quit`): AI seats move by themselves, humans choose."""
    info = await service.info(game_id)
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
        note = games.get(kind).private_note
        line = note(private, locale) if note is not None else None
        if line:
            print(line)  # what only this player may know, such as the tile just drawn
        index = await term.ask(t("local.your_move", locale, player=seat_row.name),
                            [labels.move_label(kind, m, private, locale) for m in moves])
        ai_owes_a_move = True
        try:
            out = await service.move(info.id, user, moves[index])
        except errors.GameError as exc:
            print(f"  {error_text(exc, locale)}")
            continue
        await flow.after_move(out, TERMINAL)


MAX_MOVES = 20_000
"""Far more moves than the longest game has (a seven-player game has a few hundred)."""
MAX_NAME = 100
EXPORT_FORMAT = "citybuilders-game/1"


class BadExport(cli.UsageError):
    """The export file cannot be replayed; the sentence names the file and the problem."""


def _export_field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadExport("cli.replay.field", field=name)
    return value


def read_export(path: str) -> tuple[Any, Any, list[str], int, list[tuple[int, dict[str, Any]]], dict[str, Any]]:
    """(rules, state at the start, seat names, seed, [(seat, move)], claims) of an export, every field checked;
    the claims are what it says of the game's end ("status", "result", "seats"), for :func:`check_claims`."""
    text = cli.read_input(path)
    try:
        data = jsonin.loads(text)
    except jsonin.JsonLimit as exc:
        raise BadExport(exc.key, **exc.params) from None
    except ValueError as exc:
        raise BadExport("cli.replay.not_json", path=path, line=getattr(exc, "lineno", 1),
                        problem=getattr(exc, "msg", str(exc))) from None
    if not isinstance(data, dict):
        raise BadExport("cli.replay.not_object", path=path)
    if data.get("format", EXPORT_FORMAT) != EXPORT_FORMAT:
        raise BadExport("cli.replay.format", path=path, format=EXPORT_FORMAT)
    kind = games.resolve(_export_field(data, "game", str))
    if kind is None:
        raise BadExport("cli.local.unknown_game", game=data["game"], games=", ".join(games.available()))
    rules = games.rules(kind)
    options = _export_field(data, "options", dict)
    seed = _export_field(data, "seed", int)
    if not 0 <= seed < 2 ** 63:
        raise BadExport("cli.replay.field", field="seed")
    seats = _export_field(data, "seats", list)
    names: list[str] = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or not isinstance(seat.get("name", ""), str):
            raise BadExport("cli.replay.seat", seat=i + 1)
        names.append(str(seat.get("name") or f"Seat {i + 1}")[:MAX_NAME])
    opts = rules.normalise_options(options)
    low, high = rules.seat_range(opts)
    if not low <= len(names) <= high:
        raise BadExport("cli.replay.seats", count=len(names), low=low, high=high)
    moves_in = data.get("moves", [])
    if not isinstance(moves_in, list) or len(moves_in) > MAX_MOVES:
        raise BadExport("cli.replay.field", field="moves")
    moves: list[tuple[int, dict[str, Any]]] = []
    for number, m in enumerate(moves_in, start=1):
        seat = m.get("seat") if isinstance(m, dict) else None
        move = m.get("move") if isinstance(m, dict) else None
        if (not isinstance(seat, int) or isinstance(seat, bool) or not -1 <= seat < len(names)
                or not isinstance(move, dict)):
            raise BadExport("cli.replay.move", number=number)
        moves.append((seat, move))
    claims = {key: data[key] for key in ("status", "result", "seats") if key in data}
    return rules, rules.setup(opts, len(names), seed), names, seed, moves, claims


UNFORESEEN = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError)
"""What rules code may raise on a move no legal game contains (it trusts the service's checks)."""


def check_claims(path: str, rules: Any, state: Any, moves: list[tuple[int, dict[str, Any]]],
                 claims: dict[str, Any]) -> None:
    """What an export says of its game (seats in order, status, result) is what its moves produce;
    BadExport (one sentence, exit 2) if not, before any picture is written. A move that does not
    replay is left to the pictures' pass, which names it."""
    for place, seat in enumerate(claims.get("seats", [])):
        if seat.get("seat", place) != place:
            raise BadExport("cli.replay.claim_seats", path=path, place=place + 1, number=str(seat["seat"])[:20])
    for seat, move in moves:
        try:
            if seat != core.SYSTEM_SEAT and seat not in rules.awaiting(state):
                return
            state = rules.apply(state, seat, move)
        except (errors.GameError, *UNFORESEEN):
            return
    status, result = claims.get("status"), claims.get("result")
    if "status" in claims and not isinstance(status, str):
        raise BadExport("cli.replay.field", field="status")
    if result is not None and not isinstance(result, dict):
        raise BadExport("cli.replay.field", field="result")
    over = rules.is_over(state)
    if over:
        if status not in (None, "finished"):
            raise BadExport("cli.replay.claim_finished", path=path)
        if "result" in claims and _standings(result) != _standings(rules.result(state).to_json()):
            raise BadExport("cli.replay.claim_result", path=path)
        return
    # Unfinished by its moves: an abandoned game (no result), or one ended by resignation, whose
    # result is a forfeit that names exactly the seats the export marks as resigned.
    if result is None:
        if status == "finished":
            raise BadExport("cli.replay.claim_unfinished", path=path)
        return
    forfeit = _forfeit_seats(result)
    if forfeit is None:
        raise BadExport("cli.replay.claim_unfinished", path=path)
    resigned = [seat.get("resigned") is True for seat in claims.get("seats", [])]
    if forfeit != resigned or status not in (None, "finished"):
        raise BadExport("cli.replay.claim_result", path=path)


def _standings(result: Any) -> list[tuple[Any, Any, Any]] | None:
    """What a result says of each seat: (seat, total, rank). Only these are compared, so an export
    made by an earlier version (whose details named cities in English, say) still replays."""
    seats = result.get("seats") if isinstance(result, dict) else None
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        return None
    return [(s.get("seat"), s.get("total"), s.get("rank")) for s in seats]


def _forfeit_seats(result: dict[str, Any]) -> list[bool] | None:
    """Which seats a result ended by resignation marks as forfeit (None: not such a result)."""
    seats = result.get("seats")
    if result.get("decided_by") != "forfeit" or not isinstance(seats, list):
        return None
    return [isinstance(s, dict) and isinstance(s.get("details"), dict) and s["details"].get("forfeit") is True
            for s in seats]


def replay(path: str, out: str, locale: str = "en") -> int:
    """Write the pictures of an exported game (``python -m bot local --replay FILE``)."""
    return cli.run(lambda: replay_command(path, out, locale))


def replay_command(path: str, out: str, locale: str = "en") -> int:
    try:
        rules, state, names, _, moves, claims = read_export(path)
    except errors.GameError as exc:
        raise BadExport("cli.replay.rules", path=path, problem=error_text(exc, locale)) from None
    except UNFORESEEN:
        raise BadExport("cli.replay.not_an_export", path=path) from None
    check_claims(path, rules, state, moves, claims)
    term = Terminal(None, Path(out), locale)  # type: ignore[arg-type]  # pictures only: no service
    kind = rules.kind
    try:
        term.folder_for(kind, Path(path).stem)
        term.picture(kind, rules.view(state, None), None, names)
        for number, (seat, move) in enumerate(moves, start=1):
            if seat != core.SYSTEM_SEAT and seat not in rules.awaiting(state):
                raise BadExport("cli.replay.not_their_turn", number=number, seat=seat + 1)
            try:
                before = state
                state = rules.apply(state, seat, move)
                key, params = rules.describe(before, seat, move, state)
            except errors.GameError as exc:
                raise BadExport("cli.replay.illegal", number=number, problem=error_text(exc, locale)) from None
            except UNFORESEEN:
                raise BadExport("cli.replay.move", number=number) from None
            told = games.get(kind).tell(key, {"player": names[seat] if seat >= 0 else "—", **params},
                                        rules.view(state, None), locale, names)
            print("\n".join(told))
            term.picture(kind, rules.view(state, None), seat if seat >= 0 else None, names)
        if rules.is_over(state):
            term.picture(kind, rules.view(state, None), None, names, end=True)
            # The result as the moves make it (the ranking's own title names a game id; a file has a path).
            ranking = ranking_lines(0, rules.result(state).to_json(), locale, lambda seat: names[seat], names)
            print("\n" + "\n".join([t("local.replay_over", locale, path=path), *ranking[1:]]))
        else:
            print("\n" + t("local.replay_unfinished", locale, path=path, moves=len(moves)))
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise BadExport("cli.replay.cannot_write", out=out, problem=exc.strerror or str(exc)) from None
    return 0


def games_help() -> str:
    """One line per game: its modes with their player counts, and its AI levels (from the registry)."""
    lines = []
    for kind in games.available():
        rules = games.rules(kind)
        spec = rules.option_specs[0] if rules.option_specs else None
        modes = []
        for choice in spec.choices if spec is not None else ("",):
            low, high = rules.seat_range({spec.name: choice} if spec is not None else {})
            key = "cli.local.epilog_mode_fixed" if low == high else "cli.local.epilog_mode"
            modes.append(say(key, mode=choice, low=low, high=high).strip())
        lines.append(say("cli.local.epilog_game", kind=kind, title=t(games.get(kind).title_key, cli.LOCALE),
                         modes=", ".join(modes), levels=", ".join(rules.ai_levels) or "-"))
    return "\n".join(lines)


def parser() -> cli.Parser:
    first = games.available()[0]
    p = cli.Parser("python -m bot local", say("cli.local.description"),
                   say("cli.local.epilog", games=games_help(), example=first,
                       players=games.rules(first).seat_range({})[0]))
    p.add_argument("game", nargs="?", metavar="GAME", help=say("cli.local.game", games=", ".join(games.available())))
    p.add_argument("--mode", "--variant", dest="mode", metavar="MODE", help=say("cli.local.mode"))
    p.add_argument("--players", type=int, metavar="N", help=say("cli.local.players_help"))
    p.add_argument("--ai", type=int, default=0, metavar="N", help=say("cli.local.ai"))
    p.add_argument("--level", metavar="LEVEL", help=say("cli.local.level_help"))
    p.add_argument("--solo", nargs="?", const="solo_full", metavar="MODE", help=say("cli.local.solo"))
    p.add_argument("--difficulty", type=int, metavar="N", help=say("cli.local.difficulty"))
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help=say("cli.local.option"))
    p.add_argument("--lang", default=cli.LOCALE, type=normalise_locale, choices=languages(), metavar="LANG",
                   help=say("cli.local.lang", languages=", ".join(languages())))
    p.add_argument("--out", default="out", metavar="FOLDER", help=say("cli.local.out"))
    p.add_argument("--db", default=DEFAULT_DB, metavar="DB", help=say("cli.local.db"))
    p.add_argument("--replay", metavar="FILE", help=say("cli.local.replay"))
    p.add_argument("--resume", type=int, metavar="ID", help=say("cli.local.resume"))
    p.add_argument("--web", action="store_true", help=say("cli.local.web"))
    p.add_argument("--web-port", type=int, default=8080, metavar="PORT", help=say("cli.local.web_port"))
    return p


def command(argv: list[str]) -> int:
    """The ``local`` command (``UsageError`` for bad arguments; see :func:`bot.cli.run`)."""
    args = parser().parse_args(argv)
    if args.replay:
        if args.game or args.resume is not None:
            raise cli.UsageError("cli.local.replay_and_game")
        return replay_command(args.replay, args.out, args.lang)
    if not 0 <= args.web_port <= 65535:
        raise cli.UsageError("cli.local.web_port_range", port=args.web_port)
    if args.resume is not None and args.game:
        raise cli.UsageError("cli.local.resume_and_game")
    if not args.game and args.resume is None:
        raise cli.UsageError("cli.local.missing", games=", ".join(games.available()))
    try:
        return asyncio.run(play(args))
    except errors.GameError as exc:
        raise cli.UsageError("cli.local.refused", problem=error_text(exc, args.lang)) from None
    except store.DatabaseProblem as exc:
        # The whole sentence (a usage error's parameters are cut to one short line), naming --db.
        return cli.error(database_sentence(exc, args.db if store.is_url(args.db) else Path(args.db), "--db"))


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    return cli.run(lambda: command(args))
