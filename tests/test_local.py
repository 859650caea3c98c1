"""The terminal front-end: any game in any language, on the shared turn flow, one picture folder per game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import analyse, export, local
from bot.i18n import t


def play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, str]:
    answers = iter(["1"] * 400)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    code = local.main([*argv, "--db", str(tmp_path / "local.sqlite3"), "--out", str(tmp_path / "out")])
    return code, capsys.readouterr().out


def test_quadropolis_plays_to_the_end_in_hungarian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`local quadropolis --players 2 --ai 1 --lang hu`: the whole game, its menus and its ranking in Hungarian."""
    code, out = play(
        tmp_path, monkeypatch, capsys, "quadropolis", "--players", "2", "--ai", "1", "--lang", "hu", "--level", "random"
    )
    assert code == 0
    assert t("end.title", "hu", game=1) in out
    assert t("quadropolis.ui.discard", "hu") in out
    assert t("quadropolis.ui.discard", "en") not in out
    assert t("local.player", "hu", n=1) in out
    assert "picture:" not in out  # the terminal's own words are translated too


def test_every_game_ends_with_the_discord_ranking_and_its_own_picture_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each game writes its pictures into its own folder and ends with the same ranking text as Discord,
    the Automas ranked with the players in solo, and never a bare "Decided by" tie-break id."""
    for argv in (
        ["btc", "--players", "3", "--ai", "2"],
        ["btc", "--solo", "--difficulty", "3"],
        ["urbanpanic", "--variant", "basic", "--players", "2", "--ai", "1"],
    ):
        code, out = play(tmp_path, monkeypatch, capsys, *argv, "--level", "random")
        assert code == 0, out
        ranking = out.split(" is over!")[-1]
        assert "1. " in ranking
        assert "Decided by Tie" not in out and "Decided by The" not in out
        if "--solo" in argv:
            assert "Automa" in ranking
    folders = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert folders == ["btc-1", "btc-2", "urbanpanic-3"], folders
    assert all(any(p.iterdir()) for p in (tmp_path / "out").iterdir())


def test_an_unknown_game_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game that does not exist is named, with the games that do."""
    code = local.main(["chess", "--db", str(tmp_path / "x.sqlite3"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and "chess" in err and "quadropolis" in err and "Traceback" not in err


def test_more_options_reach_the_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--option NAME=VALUE` sets any of the game's options; a bad one is a sentence naming the fix."""
    code = local.main(
        [
            "urbanpanic",
            "--variant",
            "party",
            "--option",
            "party_minutes=banana",
            "--players",
            "2",
            "--ai",
            "1",
            "--db",
            str(tmp_path / "o.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "banana" in err and "Traceback" not in err
    code = local.main(["urbanpanic", "--option", "party_minutes", "--db", str(tmp_path / "o.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2 and "NAME=VALUE" in err


def quit_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: list[str], *argv: str
) -> tuple[int, str]:
    """Play with these answers, then the end of input (as a closed terminal or ``< file`` gives)."""
    given = iter(answers)

    def answer(prompt: str = "") -> str:  # as a terminal shows it: the typed answer and its Enter echoed
        print(prompt, end="")
        try:
            value = next(given)
        except StopIteration:
            raise EOFError from None
        print(value)
        return value

    monkeypatch.setattr("builtins.input", answer)
    code = local.main([*argv, "--db", str(tmp_path / "local.sqlite3"), "--out", str(tmp_path / "out")])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("answers, end_of_input", [(["1", "q"], False), (["1"], True)])
def test_quitting_says_how_to_resume_and_resume_goes_on(
    answers: list[str],
    end_of_input: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = quit_after(
        tmp_path, monkeypatch, capsys, answers, "quadropolis", "--players", "2", "--ai", "1", "--level", "random"
    )
    db = str(tmp_path / "local.sqlite3")
    command = f"python -m bot local --resume 1 --db {db}"
    last = out.rstrip("\n").split("\n")[-1]
    assert code == 0 and last == t("local.quit", "en", game=1, db=db, command=command)
    assert out.endswith("\n")
    if end_of_input:  # the prompt's line is ended before the sentence
        assert out.rstrip("\n").split("\n")[-2].endswith("q to quit]: ")
    pictures = len(list((tmp_path / "out" / "quadropolis-1").glob("*.png")))
    code, out = play(tmp_path, monkeypatch, capsys, "--resume", "1")
    assert code == 0 and out.startswith("Quadropolis: game #1 goes on. Seats: Player 1, ")
    assert t("end.title", "en", game=1) in out  # played on to the end
    after = sorted(p.name for p in (tmp_path / "out" / "quadropolis-1").glob("*.png"))
    assert len(after) > pictures and after[:pictures] == [f"{n:04d}.png" for n in range(1, pictures + 1)]


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--resume", "7"], "there is no game 7"),
        (["btc", "--resume", "1"], "--resume takes the game from the database"),
    ],
)
def test_resume_refusals_are_one_sentence(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = local.main([*argv, "--db", str(tmp_path / "r.sqlite3"), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and says in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_finished_game_is_not_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = play(tmp_path, monkeypatch, capsys, "btc", "--solo", "--level", "random")
    assert code == 0
    code = local.main(["--resume", "1", "--db", str(tmp_path / "local.sqlite3")])
    assert code == 2 and "game 1 is not being played any more" in capsys.readouterr().err


def test_a_mode_for_exactly_one_player_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["btc", "--solo", "--players", "3"], ["btc", "--mode", "solo_simple", "--players", "2"]):
        code = local.main([*argv, "--db", str(tmp_path / "p.sqlite3")])
        err = capsys.readouterr().err
        assert code == 2 and "this mode is for exactly one player" in err, err
        assert "1 to 1" not in err
    for lang, count in (("pl", 1), ("ru", 1), ("hu", 1), ("es", 1)):
        text = t("cli.local.players_exactly", lang, low=count, high=count, players=3)
        assert "{" not in text and "3" in text


def test_replay_prints_the_result_at_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = Path(__file__).resolve().parents[1] / "docs" / "examples" / "sample-export.json"
    assert local.main(["--replay", str(sample), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.rstrip("\n").split("\n")
    over = out.index(t("local.replay_over", "en", path=str(sample)))
    ranking = out[over + 1 :]
    assert ranking and ranking[0].startswith("1. ") and all(line[0].isdigit() for line in ranking[:2])


def test_replay_of_an_unfinished_game_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    sample = Path(__file__).resolve().parents[1] / "docs" / "examples" / "sample-export.json"
    data = json.loads(sample.read_text(encoding="utf-8"))
    data["moves"] = data["moves"][:5]
    data.pop("result", None)
    data["status"] = "active"
    short = tmp_path / "short.json"
    short.write_text(json.dumps(data), encoding="utf-8")
    assert local.main(["--replay", str(short), "--out", str(tmp_path / "out")]) == 0
    last = capsys.readouterr().out.rstrip("\n").split("\n")[-1]
    assert last == t("local.replay_unfinished", "en", path=str(short), moves=5)


def test_urban_panic_tells_the_terminal_player_the_tile_they_drew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The party game's place buttons name only plots: the player is told what is in their hand."""
    code, out = quit_after(
        tmp_path,
        monkeypatch,
        capsys,
        ["1", "1", "1"],
        "urbanpanic",
        "--variant",
        "party",
        "--players",
        "2",
        "--ai",
        "1",
        "--level",
        "random",
    )
    assert code == 0
    held = [line for line in out.splitlines() if line.startswith("You hold ")]
    assert held, out[-2000:]
    assert "Build it on an empty plot" in held[0] and "{" not in held[0]


def test_a_database_in_use_is_one_whole_sentence_naming_db(tmp_path: Path) -> None:
    from bot import store
    from tests.cli.helpers import one_sentence, run_process

    db = tmp_path / "busy.sqlite3"
    store.lock_database(db)  # this process holds it, as a running bot would
    try:
        ran = run_process("-m", "bot", "local", "btc", "--solo", "--db", str(db), cwd=tmp_path, stdin="")
    finally:
        store.unlock_database(db)
    sentence = one_sentence(ran.err)
    assert ran.status == 2 and sentence.endswith("or give this one its own --db.")
    assert "DATABASE_PATH" not in sentence and "…" not in sentence


# -- local --replay checks what an export claims ---------------------------------------------------


def solo_export(moves: int | None = None) -> dict[str, object]:
    """A finished solo game of Between Two Cities as /game export writes it (status, result, seats),
    its moves cut to the first ``moves`` when given."""
    from bot import games

    rules = games.rules("btc")
    opts = rules.normalise_options({"mode": "solo_simple"})
    seed = 31
    state = rules.setup(opts, 1, seed)
    log = []
    while not rules.is_over(state):
        move = rules.ai_move(state, 0, "greedy", seed + len(log))
        state = rules.apply(state, 0, move)
        log.append({"version": len(log) + 1, "seat": 0, "move": move, "at": 1_718_100_000_000})
    assert len(log) > 6
    return {
        "format": "citybuilders-game/1",
        "id": 7,
        "game": "btc",
        "options": opts,
        "seed": seed,
        "status": "finished",
        "seats": [{"seat": 0, "name": "Ana", "ai": None, "resigned": False}],
        "moves": log[:moves] if moves is not None else log,
        "result": rules.result(state).to_json(),
        "created_at": 1,
        "started_at": 1,
        "finished_at": 2,
    }


def replay_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: object) -> tuple[int, str, Path]:
    import json

    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    code = local.main(["--replay", str(path), "--out", str(out)])
    return code, capsys.readouterr().err, out


@pytest.mark.parametrize("lang", ["en", "hu", "es", "ru", "pl"])
def test_a_cut_export_that_says_finished_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    """A finished solo game whose moves stop after move 6 but which still says "finished" with its result:
    one sentence in the terminal's language, exit 2, and no picture written."""
    from bot import cli

    monkeypatch.setattr(cli, "LOCALE", lang)
    code, err, out = replay_file(tmp_path, capsys, solo_export(moves=6))
    assert code == 2
    prefix = t("cli.error_prefix", lang)  # "error:" in the terminal's language
    assert err == f"{prefix}: {t('cli.replay.claim_unfinished', lang, path=tmp_path / 'game.json')}\n"
    assert not out.exists()


def test_what_an_export_claims_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole export replays (exit 0); a changed result, an end it says did not happen and seats out of
    order are each one sentence and exit 2; a cut export that says it was abandoned replays."""
    path = tmp_path / "game.json"
    whole = solo_export()
    assert replay_file(tmp_path, capsys, whole)[0] == 0
    result = dict(whole["result"])  # type: ignore[arg-type]
    result["decided_by"] = "score"
    result["seats"] = [{**seat, "total": seat["total"] + 1} for seat in result["seats"]]
    cases = {
        "cli.replay.claim_result": {**whole, "result": result},
        "cli.replay.claim_finished": {**whole, "status": "abandoned"},
        "cli.replay.claim_seats": {**whole, "seats": [{"seat": 3, "name": "Ana", "resigned": False}]},
        "cli.replay.claim_unfinished": {**solo_export(moves=6), "status": "abandoned"},
    }
    for key, data in cases.items():
        code, err, _ = replay_file(tmp_path, capsys, data)
        params = {"place": 1, "number": "3"} if key == "cli.replay.claim_seats" else {}
        assert (code, err) == (2, f"error: {t(key, 'en', path=path, **params)}\n"), key
    abandoned = {**solo_export(moves=6), "status": "abandoned", "result": None}
    assert replay_file(tmp_path, capsys, abandoned)[0] == 0


def test_an_export_ended_by_resignation_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game given up after move 6: its forfeit result names exactly the seats marked as resigned."""
    from bot.service import forfeit_result

    given_up = {
        **solo_export(moves=6),
        "result": forfeit_result(1, []),
        "seats": [{"seat": 0, "name": "Ana", "ai": "greedy", "resigned": True}],
    }
    assert replay_file(tmp_path, capsys, given_up)[0] == 0
    not_resigned = {**given_up, "seats": [{"seat": 0, "name": "Ana", "ai": None, "resigned": False}]}
    code, err, _ = replay_file(tmp_path, capsys, not_resigned)
    assert (code, err) == (2, f"error: {t('cli.replay.claim_result', 'en', path=tmp_path / 'game.json')}\n")


def test_web_serves_a_page_that_follows_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`local quadropolis --ai 1 --web`: the page's address is printed and the page follows the moves
    (the typing waits in a thread, so the page is served meanwhile)."""
    import re
    import urllib.request

    seen: list[int] = []
    out: list[str] = []

    def answer(prompt: str = "") -> str:
        out.append(capsys.readouterr().out)
        url = re.search(r"http://127\.0\.0\.1:\d+/g/1/\S+", "".join(out))
        assert url is not None, "".join(out)
        with urllib.request.urlopen(url[0], timeout=10) as r:
            seen.append(int(re.search(rb'data-version="(\d+)"', r.read())[1]))  # type: ignore[index]
        if len(seen) == 3:
            raise EOFError
        return "1"

    monkeypatch.setattr("builtins.input", answer)
    code = local.main(
        [
            "quadropolis",
            "--ai",
            "1",
            "--level",
            "random",
            "--web",
            "--web-port",
            "0",
            "--db",
            str(tmp_path / "local.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert code == 0
    assert t("web.local.address", "en", url="http://127.0.0.1:").split("http")[0] in "".join(out)
    assert seen[0] < seen[1] < seen[2], seen


def test_a_web_port_out_of_range_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = local.main(["quadropolis", "--ai", "1", "--web", "--web-port", "70000", "--db", str(tmp_path / "l.db")])
    assert code == 2
    assert t("cli.local.web_port_range", "en", port=70000) in capsys.readouterr().err


async def channel_told(db: Path) -> list[str]:
    """What the Discord presenter (cogs) posts about each END_TURN of game 1 in ``db``: the lines a turn
    post opens with, told from the public view after the move, with the seats' names."""
    from bot import games, store
    from bot.service import Service, named
    from cogs.games.urbanpanic import PRESENTER

    opened = await store.Store.open(db)
    try:
        service = Service(opened)
        info = await service.info(1)
        rules = games.rules(info.game.kind)
        names = [s.name for s in info.seats]
        lines: list[str] = []
        for row in await opened.moves(1):
            if row.move.get("kind") != "end_turn":
                continue
            before = (await service.snapshot(1, row.version - 1)).state
            after = await service.snapshot(1, row.version)
            key, params = rules.describe(before, row.seat, row.move, after.state)
            lines += PRESENTER.summary_lines(key, named(info, row.seat, params), after.view(None), "en", names)
        return lines
    finally:
        await opened.close()


def test_urban_panic_turns_are_told_as_the_channel_tells_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An Urban Panic END_TURN is printed as the channel's turn post tells it (the whole turn in one line,
    :meth:`bot.games.Game.tell`), never as the rules' bare "… ended the turn."."""
    import asyncio

    answers = ["1", "1", "1", "1", "1", "1"]
    code, out = quit_after(
        tmp_path,
        monkeypatch,
        capsys,
        answers,
        "urbanpanic",
        "--variant",
        "basic",
        "--players",
        "2",
        "--ai",
        "1",
        "--level",
        "random",
    )
    assert code == 0
    told = asyncio.run(channel_told(tmp_path / "local.sqlite3"))
    assert told and all("'s turn: " in line or "without an action" in line for line in told), told
    printed = out.splitlines()
    assert all(line in printed for line in told), (told, out)
    assert not [line for line in printed if line.endswith(" ended the turn.")], out


def menus(out: str) -> list[list[str]]:
    """The menus the terminal printed: each a list of its numbered lines' labels."""
    import re

    found: list[list[str]] = []
    current: list[str] = []
    for line in out.splitlines():
        item = re.match(r"^ +(\d+)\. (.*)$", line)
        if item is None:
            if current:
                found.append(current)
            current = []
            continue
        if item[1] == "1" and current:
            found.append(current)
            current = []
        current.append(item[2])
    if current:
        found.append(current)
    return found


def test_between_two_cities_offers_each_choice_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand with two parks or four factories: "Keep park + shop" once, not once per copy of the park
    (the copies differ only in their number); no menu of the whole game shows one label twice, and a hand
    with alike tiles offers fewer lines than the moves the rules list."""
    from bot import games

    code, out = play(tmp_path, monkeypatch, capsys, "btc", "--players", "3", "--ai", "2", "--level", "random")
    assert code == 0
    shown = menus(out)
    assert len(shown) > 10
    assert all(len(menu) == len(set(menu)) for menu in shown), [m for m in shown if len(m) != len(set(m))][:2]
    # The choices it merges are the same in effect: the player's view after each is the same, copies aside.
    from bot.local import choices

    rules = games.rules("btc")
    state = rules.setup(rules.normalise_options({}), 3, 11)
    moves = rules.legal_moves(state, 0)
    hand = [tile["kind"] for tile in rules.view(state, 0)["you"]["hand"]]
    assert len(set(hand)) < len(hand)  # this seed's first hand holds alike tiles
    from bot.labels import move_label

    offered = choices.distinct(
        rules, state, 0, moves, [move_label("btc", m, rules.view(state, 0)) for m in moves], "en"
    )
    assert len(offered) < len(moves)
    effects = [choices.effect(rules, state, 0, m) for m in moves]
    assert len({effects[i] for i, _ in offered}) == len(offered) == len(set(effects))


def test_hot_seat_hands_wait_for_enter_and_a_cleared_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two people at one terminal, hidden hands: before the next player's hand is shown, the terminal asks
    to pass it on and waits for Enter, then clears the screen, so no screenful shows two players' hands."""
    import sys

    class Keyboard:
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Keyboard())
    passes: list[str] = []
    moves = iter(["1"] * 12)

    def answer(prompt: str = "") -> str:
        print(prompt, end="")
        if prompt.startswith(t("local.hand_over", "en", player="Player 1").split("Player 1")[0]):
            passes.append(prompt)
            print()
            return ""
        try:
            value = next(moves)
        except StopIteration:
            raise EOFError from None
        print(value)
        return value

    monkeypatch.setattr("builtins.input", answer)
    code = local.main(
        [
            "btc",
            "--players",
            "3",
            "--ai",
            "1",
            "--level",
            "random",
            "--db",
            str(tmp_path / "local.sqlite3"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    header = t("local.only_you", "en", player="{}")
    screens = out.split("\033[2J")  # the terminal's code to clear the screen
    players = [{p for p in ("Player 1", "Player 2") if header.format(p) in screen} for screen in screens]
    assert len(passes) >= 2 and len(screens) == len(passes) + 1
    assert all(len(seen) <= 1 for seen in players), players
    assert {"Player 1", "Player 2"} <= set().union(*players)
    for screen in screens[1:]:  # each hand is shown on a screen of its own, right after the pass
        assert header.split("{}")[1] in screen


def test_choices_that_look_alike_but_differ_are_numbered() -> None:
    """Two moves with one label whose effects differ stay two lines, told apart by a number; moves equal in
    effect (their copies aside) are one line; moves with their own labels are left as they are."""
    from bot.local.choices import distinct

    class Rules:
        def apply(self, state: dict[str, int], seat: int, move: dict[str, int]) -> dict[str, object]:
            return {"hand": [{"id": move["tile"], "kind": move["kind_of"]}], "cell": move["cell"]}

        def view(self, state: dict[str, object], seat: int) -> dict[str, object]:
            return state

    moves = [
        {"tile": 1, "kind_of": 5, "cell": 1},
        {"tile": 2, "kind_of": 5, "cell": 1},
        {"tile": 3, "kind_of": 5, "cell": 2},
        {"tile": 4, "kind_of": 6, "cell": 1},
    ]
    labels = ["Keep park", "Keep park", "Keep park", "Keep shop"]
    assert distinct(Rules(), {}, 0, moves, labels, "en") == [
        (0, t("local.choice_variant", "en", label="Keep park", n=1)),
        (2, t("local.choice_variant", "en", label="Keep park", n=2)),
        (3, "Keep shop"),
    ]


def test_a_finished_game_is_saved_as_an_export_that_the_analysis_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A solo game played to its end in the terminal leaves ``game.json`` beside its pictures, said in the
    player's language; it is a whole export (its moves replay to its result), which ``python -m bot analyse``
    weighs: a player can have a game played here analysed without Discord."""
    code, out = play(tmp_path, monkeypatch, capsys, "btc", "--solo", "--lang", "pl", "--level", "random")
    assert code == 0, out
    path = tmp_path / "out" / "btc-1" / "game.json"
    assert t("local.exported", "pl", path=path) in out
    rules, state, names, _, moves, claims = export.read(path.read_text(encoding="utf-8"), str(path))
    assert names == [t("local.player", "pl", n=1)] and len(moves) > 30 and claims["status"] == "finished"
    export.check_claims(str(path), rules, state, moves, claims)  # its moves replay to the result it claims
    assert analyse.main([str(path), "--samples", "1", "--lang", "en"]) == 0
    assert "accuracy" in capsys.readouterr().out
