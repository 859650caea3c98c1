"""Signed links to the web pages (``bot/web/links.py``): tokens are HMAC-SHA256 of the page under the key,
22 base64url characters; a changed id, kind, key or character fails verification; no base URL, no link."""

from __future__ import annotations

import base64
import hashlib
import hmac

import pytest

from bot.web import links
from bot.web.links import Links

KEY = b"k" * 32


def test_the_token_is_the_documented_hmac() -> None:
    mac = hmac.new(KEY, b"g:42", hashlib.sha256).digest()
    expected = base64.urlsafe_b64encode(mac).decode().rstrip("=")[:22]
    assert links.token(KEY, "g", "42") == expected
    assert len(expected) == 22 and "=" not in expected


def test_paths_carry_the_ids_and_their_token() -> None:
    assert links.path_game(KEY, 42) == f"/g/42/{links.token(KEY, 'g', '42')}"
    assert links.path_league(KEY, 7) == f"/l/7/{links.token(KEY, 'l', '7')}"
    assert links.path_player(KEY, 9, 101) == f"/p/9/101/{links.token(KEY, 'p', '9/101')}"


def test_verify_accepts_the_token_and_nothing_else() -> None:
    good = links.token(KEY, "g", "42")
    assert links.verify(KEY, "g", "42", good)
    assert not links.verify(KEY, "g", "43", good)  # another game
    assert not links.verify(KEY, "l", "42", good)  # another kind of page
    assert not links.verify(b"other-key" * 4, "g", "42", good)
    flipped = ("A" if good[0] != "A" else "B") + good[1:]
    assert not links.verify(KEY, "g", "42", flipped)
    for bad in ("", good[:-1], good + "x", "é" * 22, "../../etc/passwd"):
        assert not links.verify(KEY, "g", "42", bad)


def test_a_player_token_is_bound_to_its_server() -> None:
    token = links.token(KEY, "p", links.player_ident(9, 101))
    assert not links.verify(KEY, "p", links.player_ident(10, 101), token)
    assert not links.verify(KEY, "p", links.player_ident(9, 102), token)


def test_links_use_the_base_url_and_none_without_one() -> None:
    web = Links("https://games.example.org/", KEY)
    assert web.game(42) == "https://games.example.org" + links.path_game(KEY, 42)
    assert web.league(7, "hu") == "https://games.example.org" + links.path_league(KEY, 7) + "?lang=hu"
    assert web.player(9, 101) == "https://games.example.org" + links.path_player(KEY, 9, 101)
    off = Links("", KEY)
    assert (off.game(1), off.league(1), off.player(1, 2)) == (None, None, None)


def test_a_link_never_exceeds_discords_bound_for_a_url_button() -> None:
    biggest = Links("https://games.example.org/" + "x" * 170, KEY)
    url = biggest.player(2**63 - 1, 2**63 - 1, "hu")
    assert url is not None and len(url) <= links.MAX_URL
    assert Links("https://e.org/" + "x" * 600, KEY).game(1) is None


@pytest.mark.parametrize("configured", ["a-configured-secret-of-some-length"])
async def test_the_configured_secret_wins_over_the_stored_one(configured: str, tmp_path) -> None:
    from bot import store

    db = await store.Store.open(tmp_path / "bot.sqlite3")
    try:
        assert await links.signing_key(configured, db) == configured.encode()
        first = await links.signing_key("", db)
        assert len(first) == 32 and await links.signing_key("", db) == first  # made once, then kept
    finally:
        await db.close()
