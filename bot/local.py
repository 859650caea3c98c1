"""``python -m bot local GAME``: play a game in a terminal on the same service, store and pictures.

Each turn's picture is written to a folder (default ``out/``). Humans type the number of a move;
AI seats play by themselves. ``--replay FILE`` loads a game exported as JSON and writes its pictures.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from bot import errors, games, labels, store
from bot.i18n import error_text, t
from bot.service import Service

RENDER_MODULES = {"quadropolis": "render.quadropolis", "btc": "render.btc", "urbanpanic": "render.urbanpanic"}
GAME_ALIASES = {"btc": "btc", "between-two-cities": "btc", "quadropolis": "quadropolis",
                "urbanpanic": "urbanpanic", "urban-panic": "urbanpanic"}
LOCAL_USER_BASE = 1


def renderer(kind: str) -> Any | None:
    try:
        return importlib.import_module(RENDER_MODULES.get(kind, "render._none"))
    except ModuleNotFoundError:
        return None


class Terminal:
    """Reads choices from stdin, prints to stdout."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def picture(self, kind: str, view: dict[str, Any], seat: int | None, names: list[str],
                end: bool = False) -> None:
        mod = renderer(kind)
        if mod is None:
            return
        if end:
            data = mod.render_end(view, names)
        elif seat is None and hasattr(mod, "render_board"):
            data = mod.render_board(view, names)
        else:
            data = mod.render_turn(view, seat, names)
        if data is None:
            return
        self.count += 1
        path = self.out_dir / f"{self.count:04d}{'-end' if end else ''}.png"
        path.write_bytes(data)
        print(f"  picture: {path}")

    def choose(self, prompt: str, options: list[str]) -> int:
        for i, text in enumerate(options, start=1):
            print(f"  {i:3d}. {text}")
        while True:
            try:
                raw = input(f"{prompt} [1-{len(options)}, q to quit]: ").strip()
            except EOFError:
                raise SystemExit(0) from None
            if raw.lower() in ("q", "quit", "exit"):
                raise SystemExit(0)
            if raw.isdigit() and 1 <= int(raw) <= len(options):
                return int(raw) - 1
            print("  Type one of the numbers above.")


async def play(args: argparse.Namespace) -> int:
    kind = GAME_ALIASES.get(args.game, args.game)
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
        print(f"error: {t('error.seat_count', 'en', low=low, high=high)}", file=sys.stderr)
        return 2
    ai = min(args.ai, players)
    db = await store.Store.open(args.db)
    service = Service(db)
    term = Terminal(Path(args.out))
    try:
        host = LOCAL_USER_BASE
        humans = players - ai
        if not humans:
            print("error: at least one human player is needed (use --ai below --players).", file=sys.stderr)
            return 2
        info = await service.create_game(guild_xid=None, channel_xid=None, kind=kind, options=opts,
                                         host_xid=host, host_name="Player 1", ai_seats=ai,
                                         ai_level=args.level)
        for i in range(1, humans):
            await service.join(info.id, host + i, f"Player {i + 1}")
        info = await service.start(info.id, host)
        print(f"{t(rules.title_key, 'en')}: game #{info.id}, seats: "
              + ", ".join(s.name for s in info.seats))
        names = [s.name for s in info.seats]
        snap = await service.snapshot(info.id)
        term.picture(kind, snap.view(None), None, names)
        ai_owes_a_move = True
        while True:
            tick = await service.system_tick(info.id)  # a timer ran out (Urban Panic's party)
            if tick is not None:
                print(t(tick.summary[0], "en", **tick.summary[1]))
            info = await service.info(info.id)
            if info.game.status != "active":
                break
            humans_waiting = [s for s in info.seats if s.seat in info.awaiting and not s.is_ai]
            # When people and AI act at the same time, they take turns: one AI move per human move.
            if info.awaited_ai() and (not humans_waiting or ai_owes_a_move):
                ai_out = await service.play_ai(info.id)
                ai_owes_a_move = False
                if ai_out is not None:
                    print(t(ai_out.summary[0], "en", **ai_out.summary[1]))
                    if ai_out.seat not in ai_out.info.awaiting:
                        term.picture(kind, (await service.snapshot(info.id)).view(None), ai_out.seat, names)
                    continue
            seat_row = humans_waiting[0]
            user = seat_row.user_xid
            assert user is not None
            _, seat, moves = await service.legal_moves(info.id, user)
            snap = await service.snapshot(info.id)
            if humans > 1:
                print(f"\n--- {seat_row.name}: only you should look now ---")
            term.picture(kind, snap.view(seat), seat, names)
            private = snap.view(seat)
            index = term.choose(f"{seat_row.name}, your move",
                                [labels.move_label(kind, m, private) for m in moves])
            ai_owes_a_move = True
            try:
                out = await service.move(info.id, user, moves[index])
            except errors.GameError as exc:
                print(f"  {error_text(exc)}")
                continue
            print(t(out.summary[0], "en", **out.summary[1]))
        info = await service.info(info.id)
        snap = await service.snapshot(info.id)
        term.picture(kind, snap.view(None), None, names, end=True)
        result = info.game.result or {}
        print("\nFinal ranking:")
        rows = [(s["rank"], info.name(s["seat"]), s["total"], s.get("breakdown") or {})
                for s in result.get("seats", [])]
        for other in (result.get("details") or {}).get("automas") or []:  # Between Two Cities solo
            rows.append((other["rank"], str(other.get("name", "Automa")), other["total"], other.get("breakdown") or {}))
        for rank, name, total, breakdown in sorted(rows, key=lambda r: (r[0], r[1])):
            parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in breakdown.items())
            print(f"  {rank}. {name}: {total} points" + (f"  ({parts})" if parts else ""))
        decided = result.get("decided_by", "score")
        if decided != "score":
            print(f"  Decided by {t(decided, 'en')}.")
        return 0
    finally:
        await db.close()


def replay(path: str, out: str) -> int:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        rules = games.rules(data["game"])
        state = rules.setup(data["options"], len(data["seats"]), int(data["seed"]))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        print(f"error: {path} is not a game export ({exc}).", file=sys.stderr)
        return 2
    except errors.GameError as exc:
        print(f"error: {error_text(exc)}", file=sys.stderr)
        return 2
    term = Terminal(Path(out))
    names = [str(s.get("name", f"Seat {i + 1}")) for i, s in enumerate(data["seats"])]
    term.picture(data["game"], rules.view(state, None), None, names)
    for m in data.get("moves", []):
        try:
            before = state
            state = rules.apply(state, int(m["seat"]), m["move"])
        except errors.GameError as exc:
            print(f"error: move {m.get('version')} does not replay: {error_text(exc)}", file=sys.stderr)
            return 2
        key, params = rules.describe(before, int(m["seat"]), m["move"], state)
        name = data["seats"][m["seat"]]["name"] if m["seat"] >= 0 else "—"
        print(t(key, "en", **{"player": name, **params}))
        term.picture(data["game"], rules.view(state, None), int(m["seat"]) if m["seat"] >= 0 else None, names)
    if rules.is_over(state):
        term.picture(data["game"], rules.view(state, None), None, names, end=True)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot local", description=__doc__)
    parser.add_argument("game", nargs="?", help="quadropolis, btc or urbanpanic")
    parser.add_argument("--mode", "--variant", dest="mode", help="the game's mode or variant")
    parser.add_argument("--players", type=int, help="number of seats")
    parser.add_argument("--ai", type=int, default=0, help="how many of the seats the AI plays")
    parser.add_argument("--level", help="AI level")
    parser.add_argument("--solo", nargs="?", const="solo_full", help="(btc) play solo against the Automas")
    parser.add_argument("--difficulty", type=int, help="(btc solo) difficulty 1-7")
    parser.add_argument("--out", default="out", help="folder for the pictures (default: out)")
    parser.add_argument("--db", default="data/local.sqlite3",
                        help="database file (default: data/local.sqlite3)")
    parser.add_argument("--replay", help="a game exported with /game export: write its pictures")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay, args.out)
    if not args.game:
        parser.print_usage(sys.stderr)
        return 2
    try:
        return asyncio.run(play(args))
    except errors.GameError as exc:
        print(f"error: {error_text(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
