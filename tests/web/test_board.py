"""The board as a place to tap (issue 38): the seat's picture and its choice tree (bot/web/board.py).

For seeded positions of every game and variant: the tree's leaves are exactly the seat's legal moves, every
region an option names was drawn on the picture, every target is at least 44 x 44 CSS px on a 390 px wide
phone (in its step's zoom), and recording the regions changes no pixel."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot import games, store
from bot.games.base import sample_state
from bot.i18n import languages
from bot.service.model import GameInfo
from bot.web import board
from render import pictures

GAMES = [
    ("quadropolis", {"mode": "classic"}, 2),
    ("quadropolis", {"mode": "expert"}, 3),
    ("btc", {"mode": "standard"}, 3),
    ("btc", {"mode": "two_player"}, 2),
    ("btc", {"mode": "solo_full"}, 1),
    ("btc", {"mode": "solo_simple"}, 1),
    ("urbanpanic", {"variant": "basic"}, 2),
    ("urbanpanic", {"variant": "advanced"}, 3),
    ("urbanpanic", {"variant": "party"}, 3),
]
DEPTHS = (0, 1, 3, 8, 17, 30)
BUTTON_PICKS = ("button", "take", "action", "swap", "spy")
"""The ids of options that are buttons by design (a move, an architect and side, an action, a spy's tile)."""


def info_of(kind: str, options: dict[str, Any], seats: int) -> GameInfo:
    game = store.GameRow(
        1, None, None, kind, options, 1, "active", 0, None, 0, 0, 0, None, None, None, None, None, None
    )
    return GameInfo(game, tuple(store.SeatRow(1, i, 100 + i, None, f"Player {i}", False, 0) for i in range(seats)))


def positions(kind: str, options: dict[str, Any], seats: int, seeds: tuple[int, ...] = (11,)) -> list[tuple[Any, int]]:
    rules = games.rules(kind)
    normal = rules.normalise_options(options)
    found = []
    for seed in seeds:
        for depth in DEPTHS:
            state = sample_state(rules, normal, seats, seed + depth, depth)
            if not rules.is_over(state):
                found += [(state, seat) for seat in sorted(rules.awaiting(state)) if seat >= 0]
    return found


def options_of(step: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every (step, option) of a tree."""
    found = []
    for option in step["options"]:
        found.append((step, option))
        if "next" in option:
            found += options_of(option["next"])
    return found


@pytest.mark.parametrize(("kind", "options", "seats"), GAMES, ids=lambda v: str(v))
def test_the_leaves_are_the_legal_moves_and_every_target_is_large_enough(
    kind: str, options: dict[str, Any], seats: int
) -> None:
    rules = games.rules(kind)
    info = info_of(kind, rules.normalise_options(options), seats)
    checked = 0
    for state, seat in positions(kind, options, seats, (11, 41)):
        data = board.play_data(info, seat, state, "en")
        json.dumps(data)  # JSON-able
        legal = sorted(json.dumps(m, sort_keys=True) for m in rules.legal_moves(state, seat))
        leaves = [json.dumps(m, sort_keys=True) for m in board.leaves(data["root"])]
        assert sorted(set(leaves)) == sorted(set(legal)), (kind, seat)
        regions = {r["id"]: r["box"] for r in data["regions"]}
        for r in data["regions"]:
            assert r["label"].strip()
            x0, y0, x1, y1 = r["box"]
            assert 0 <= x0 < x1 <= data["width"] and 0 <= y0 < y1 <= data["height"], r
        for step, option in options_of(data["root"]):
            assert option["label"].strip() and step["prompt"].strip()
            assert all(m in regions for m in option["marks"]), option
            if option["region"] is None:
                assert option["id"].split(":")[0] in BUTTON_PICKS, f"{option['id']} fell back to a button"
                continue
            box = regions[option["region"]]
            scale = board.scale_of(step["zoom"], data["width"])
            assert min(box[2] - box[0], box[3] - box[1]) * scale >= board.TARGET, (option["id"], step["zoom"])
            if step["zoom"]:
                zx0, zy0, zx1, zy1 = step["zoom"]
                assert zx0 <= box[0] and box[2] <= zx1 and zy0 <= box[1] and box[3] <= zy1
            if "move" in option:
                assert option["sentence"].strip() and "{" not in option["sentence"]
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(("kind", "options", "seats"), GAMES[::3], ids=lambda v: str(v))
def test_the_picture_is_the_turn_picture_of_the_seats_own_view(kind: str, options: dict[str, Any], seats: int) -> None:
    game = games.get(kind)
    info = info_of(kind, game.rules.normalise_options(options), seats)
    for state, seat in positions(kind, options, seats)[:3]:
        plain = pictures.get(kind).render_turn(
            game.rules.view(state, seat),
            seat,  # type: ignore[union-attr]
            [info.name(i) for i in range(seats)],
            locale="en",
        )
        assert board.play_picture(info, seat, state, "en") == plain
        data = board.play_data(info, seat, state, "en")
        assert (data["width"], data["height"]) == board.png_size(plain)


def test_quadropolis_steps_take_a_tile_on_the_site_then_an_architect_then_a_square() -> None:
    info = info_of("quadropolis", {"mode": "classic"}, 2)
    rules = games.rules("quadropolis")
    state = rules.setup(rules.normalise_options({}), 2, 5)
    seat = min(rules.awaiting(state))
    data = board.play_data(info, seat, state, "en")
    first = data["root"]
    assert first["zoom"] is not None  # the site is enlarged on a phone
    assert {o["region"].split(":")[0] for o in first["options"]} == {"site"}
    squares = rules.view(state, seat)["site"]["squares"]

    def holds_tile(option: dict[str, Any]) -> bool:
        row, column = (int(n) for n in option["id"].split(":")[1].split(","))
        return bool(squares[row - 1][column - 1].get("state") == "tile")

    second = next(o for o in first["options"] if holds_tile(o))["next"]
    assert all(o["region"] is None and any(m.startswith("slot:") for m in o["marks"]) for o in second["options"])
    move = second["options"][0]["move"]
    state = rules.apply(state, seat, move)
    build = board.play_data(info, seat, state, "en")["root"]
    kinds = {o["move"]["kind"] for o in build["options"]}
    assert kinds == {"build", "discard"}
    assert all(o["region"].startswith("square:") for o in build["options"] if o["move"]["kind"] == "build")


def test_btc_two_tiles_are_kept_whichever_is_tapped_first() -> None:
    info = info_of("btc", {"mode": "standard"}, 3)
    rules = games.rules("btc")
    state = rules.setup(rules.normalise_options({}), 3, 5)
    data = board.play_data(info, 0, state, "en")
    first = {o["id"]: o for o in data["root"]["options"]}
    hand = sorted(int(k.split(":")[1]) for k in first)
    a, b = hand[0], hand[-1]
    via_a = {o["id"]: o for o in first[f"tile:{a}"]["next"]["options"]}[f"tile:{b}"]["move"]
    via_b = {o["id"]: o for o in first[f"tile:{b}"]["next"]["options"]}[f"tile:{a}"]["move"]
    assert via_a == via_b == {"kind": "choose", "tiles": [a, b]}
    others = {t["id"] for p, _ in [(1, 0), (2, 0)] for t in rules.view(state, p)["you"]["hand"]}  # type: ignore[index]
    assert not {r["id"] for r in data["regions"]} & {f"tile:{i}" for i in others}  # no one else's hand


@pytest.mark.parametrize("locale", languages())
def test_every_text_is_in_the_pages_language(locale: str) -> None:
    info = info_of("urbanpanic", {"variant": "advanced"}, 3)
    rules = games.rules("urbanpanic")
    state, seat = max(positions("urbanpanic", {"variant": "advanced"}, 3), key=lambda p: len(rules.legal_moves(*p)))
    data = board.play_data(info, seat, state, locale)
    english = board.play_data(info, seat, state, "en")
    for name in board.TEXTS:
        assert data["texts"][name].strip()
        assert locale == "en" or data["texts"][name] != english["texts"][name], name
    said = [step["prompt"] for step, _ in options_of(data["root"])]
    said += [option.get(k, "") for _, option in options_of(data["root"]) for k in ("label", "sentence")]
    said += [r["label"] for r in data["regions"]]
    assert len(said) > 20 and all("{" not in text and "}" not in text for text in said)
    assert locale == "en" or data["root"]["prompt"] != english["root"]["prompt"]


def test_a_game_without_pictures_is_played_with_buttons() -> None:
    rules = games.rules("toy")
    info = info_of("toy", rules.normalise_options({}), 2)
    state = rules.setup(rules.normalise_options({}), 2, 3)
    seat = min(rules.awaiting(state))
    data = board.play_data(info, seat, state, "en")
    assert board.play_picture(info, seat, state, "en") == b"" and (data["width"], data["height"]) == (0, 0)
    legal = rules.legal_moves(state, seat)
    assert sorted(map(json.dumps, board.leaves(data["root"]))) == sorted(map(json.dumps, legal))
    assert all(o["region"] is None and o["label"] for _, o in options_of(data["root"]))
