"""cogs/limits.py: texts cut with "…", lists ended with "and N more", typed text quoted short,
mentions in chunks Discord accepts."""

from __future__ import annotations

import discord

from cogs import limits


def test_cut_and_quote() -> None:
    assert limits.cut("short", 10) == "short"
    assert limits.cut("x" * 2500, limits.CONTENT) == "x" * 1999 + "…"
    typed = "  Europe/\n" + "B" * 2500
    quoted = limits.quote(typed)
    assert quoted == "Europe/…"  # the whole first word, not the start of the second
    quoted = limits.quote("B" * 2500)
    assert len(quoted) == limits.QUOTE and quoted.endswith("…") and "\n" not in quoted


def test_cut_ends_at_a_word_boundary() -> None:
    """A cut text keeps whole words and ends in "…"; a word is cut only when it alone is longer than the limit."""
    text = "dupleks: sklep i tawerna (napoje)"
    for limit in range(len("dupleks…"), len(text)):
        short = limits.cut(text, limit)
        assert len(short) <= limit and short.endswith("…")
        kept = short[:-1]
        assert text.startswith(kept) and text[len(kept)] in " :", (limit, short)
    assert limits.cut(text, 28) == "dupleks: sklep i tawerna…"
    assert limits.cut(text, 24) == "dupleks: sklep i…"
    assert limits.cut("one two three", 9) == "one two…"
    assert limits.cut("line one\nline two", 14) == "line one\nline…"
    assert limits.cut("Ödönłukaszжанна and more", 8) == "Ödönłuk…"  # one word longer than the limit
    assert limits.cut("abc", 1) == "…" and limits.cut("abc", 0) == ""


def test_lines_fit_with_and_n_more() -> None:
    lines = [f"#{i} " + "y" * 300 for i in range(30)]
    text = limits.lines_text(lines, "en")
    assert len(text) <= limits.EMBED_DESCRIPTION
    shown = text.splitlines()
    assert shown[0] == lines[0] and shown[-1] == f"…and {30 - (len(shown) - 1)} more"
    assert limits.lines_text(lines[:3], "en") == "\n".join(lines[:3])
    assert limits.lines_text([f"#{i}" for i in range(30)], "en", rows=25).splitlines()[-1] == "…and 5 more"
    assert limits.lines_text(["z" * 9000], "en").startswith("z") and len(limits.lines_text(["z" * 9000], "en")) <= 4096


def test_mention_chunks_stay_within_discord_limits() -> None:
    users = [10**18 + i for i in range(250)]
    chunks = limits.mention_chunks(users + users[:5], prefix="Following:")
    assert [u for _, ids in chunks for u in ids] == users  # each once, in order
    for text, ids in chunks:
        assert len(ids) <= limits.MENTION_IDS and len(text) <= limits.CONTENT and text.startswith("Following:")
        assert all(f"<@{u}>" in text for u in ids)


def test_embeds_fit_the_totals() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    embed.add_field(name="n", value="v" * 1500)
    embed.set_footer(text="f" * 2100)
    fitted = limits.fit_embed(embed)
    assert len(fitted.title or "") <= limits.EMBED_TITLE
    assert len(fitted.description or "") <= limits.EMBED_DESCRIPTION
    assert len(fitted.fields[0].value or "") <= limits.EMBED_FIELD_VALUE
    assert limits.embed_size(fitted) <= limits.EMBED_TOTAL


def test_pages() -> None:
    items = list(range(1000))
    rows, page, pages = limits.page_of(items, 99)
    assert (page, pages, list(rows)) == (40, 40, list(range(975, 1000)))
    assert limits.page_of([], 3)[1:] == (1, 1)
