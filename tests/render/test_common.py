"""The shared drawing foundation: fonts, palette, glyphs, markers, layout helpers, PNG encoding."""

from __future__ import annotations

import io
import itertools
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from render import common as c

GAMES = ("quadropolis", "btc", "urbanpanic")
NAMES = "Ödön Łukasz Жанна ő ű ś ż ć ń Ђ ї"
MISSING = "中"  # not in DejaVu Sans: renders as the .notdef box ("tofu")


def _keys(game: str) -> list[str]:
    return [k for k in c.GLYPHS if k.startswith(game + ".")]


def _diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0..255."""
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / 3


def test_fonts_and_licence_ship_in_the_repo() -> None:
    """Both DejaVu TTFs and the licence are in render/fonts and load by size, cached."""
    assert c.FONT_REGULAR.is_file() and c.FONT_BOLD.is_file()
    licence = (c.FONTS_DIR / "LICENSE.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence
    assert c.font(20) is c.font(20)
    assert c.font(20, True) is not c.font(20)
    assert c.font(30).size == 30


def test_missing_character_reference_is_really_tofu() -> None:
    """Two different missing characters draw the same .notdef box (so the tofu check below is sound)."""
    f = c.font(40)
    assert bytes(f.getmask(MISSING)) == bytes(f.getmask("\ue000"))


@pytest.mark.parametrize("bold", [False, True])
def test_non_latin_names_render_with_real_glyphs(bold: bool) -> None:
    """Hungarian, Polish and Cyrillic letters have their own glyphs, never the missing-glyph box."""
    f = c.font(40, bold)
    tofu = bytes(f.getmask(MISSING))
    for ch in NAMES.replace(" ", ""):
        mask = f.getmask(ch)
        assert bytes(mask) != tofu, f"{ch!r} renders as tofu"
        assert mask.getbbox() is not None, f"{ch!r} renders as nothing"
    # accents matter: ő differs from o and from ö
    assert len({bytes(f.getmask(ch)) for ch in "oöő"}) == 3


def test_every_game_kind_has_a_letter_and_colour() -> None:
    """Each glyph has a one-letter mark and a palette colour; every game's letters are distinct per kind."""
    for game in GAMES:
        keys = _keys(game)
        assert keys
        marks = [c.GLYPHS[k].letter + c.GLYPHS[k].suffix for k in keys]
        assert len(set(marks)) == len(marks), f"{game}: two kinds share a letter"
        for k in keys:
            assert c.GLYPHS[k].colour in (*c.OKABE_ITO, c.STONE)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("size", [40, 96])
def test_glyphs_of_a_game_are_pairwise_distinct(game: str, size: int) -> None:
    """No two kinds of one game give identical pixels in their box, at a small and a large size."""
    images = {k: c.glyph_image(k, size) for k in _keys(game)}
    for a, b in itertools.combinations(images, 2):
        assert images[a].tobytes() != images[b].tobytes(), f"{a} and {b} look identical"
        assert _diff(images[a], images[b]) > 2.0, f"{a} and {b} are nearly identical"


@pytest.mark.parametrize("game", GAMES)
def test_glyph_shapes_differ_without_colour_or_letter(game: str) -> None:
    """Colour-blind safety: in greyscale and without the letter, every pair of kinds still differs visibly."""
    size = 64
    grey = {k: c.glyph_image(k, size, letter=False).convert("LA") for k in _keys(game)}
    for a, b in itertools.combinations(grey, 2):
        if c.GLYPHS[a].painter is c.GLYPHS[b].painter:
            continue  # same shape on purpose only across games; never within one (checked below)
        assert _diff(grey[a].convert("RGB"), grey[b].convert("RGB")) > 3.0, f"{a} vs {b}"
    painters = [c.GLYPHS[k].painter for k in _keys(game)]
    assert len(set(painters)) == len(painters), f"{game}: two kinds share a shape"


def test_concepts_look_the_same_across_games() -> None:
    """Shops, factories, parks, offices and homes keep one colour and one shape in every game."""
    same = [
        ("quadropolis.shop", "btc.shop"),
        ("quadropolis.factory", "btc.factory"),
        ("btc.factory", "urbanpanic.factory"),
        ("quadropolis.park", "btc.park"),
        ("btc.park", "urbanpanic.park"),
        ("quadropolis.office", "btc.office"),
        ("btc.office", "urbanpanic.offices"),
        ("btc.house", "urbanpanic.housing"),
    ]
    for a, b in same:
        assert c.GLYPHS[a].painter is c.GLYPHS[b].painter
        assert c.GLYPHS[a].colour == c.GLYPHS[b].colour


def test_glyph_key_accepts_the_rules_spellings() -> None:
    """Manifest codes, one-letter codes and American spellings map to the registry."""
    assert c.glyph_key("quadropolis", "HARBOR") == "quadropolis.harbour"
    assert c.glyph_key("quadropolis", "PUBLIC") == "quadropolis.public"
    assert c.glyph_key("btc", "TAVERN_DRINK") == "btc.tavern_drink"
    assert c.glyph_key("btc", "f") == "btc.tavern_food"
    assert c.glyph_key("btc", "F") == "btc.factory"
    assert c.glyph_key("urbanpanic", "PRK") == "urbanpanic.park"
    assert c.glyph_key("urbanpanic", "POW") == "urbanpanic.power"
    assert c.glyph("nope.nothing").letter == "?"


def test_glyph_is_drawn_into_its_box_only() -> None:
    """draw_glyph paints inside the box and leaves the rest of the image untouched."""
    img, _ = c.canvas(1000, 200)
    before = img.copy()
    c.draw_glyph(img, "btc.tavern_music", (100, 50, 180, 130))
    diff = ImageChops.difference(img, before).getbbox()
    assert diff is not None
    assert diff[0] >= 100 and diff[1] >= 50 and diff[2] <= 180 and diff[3] <= 130


def test_faded_glyph_differs_but_keeps_its_shape() -> None:
    """An inactive (faded) tile differs from the active one but its outline stays in place."""
    a = c.glyph_image("quadropolis.tower", 80)
    b = c.glyph_image("quadropolis.tower", 80, faded=True)
    assert a.tobytes() != b.tobytes()
    assert a.getbbox() == b.getbbox()


def test_player_styles_differ_in_shape_and_colour() -> None:
    """Seven seats: seven colours, seven marker shapes, seven marks; markers differ in greyscale."""
    styles = [c.player_style(i) for i in range(7)]
    assert len({s.colour for s in styles}) == 7
    assert len({s.shape for s in styles}) == 7
    assert len({s.mark for s in styles}) == 7
    grey = [c.marker_image(s.shape, 48, s.colour).convert("LA").tobytes() for s in styles]
    assert len(set(grey)) == 7
    assert c.player_style(7) == c.player_style(0)


def test_icons_draw() -> None:
    """Every icon draws something non-empty and distinct."""
    images = {name: c.icon_image(name, 40) for name in c.ICONS}
    for img in images.values():
        assert img.getbbox() is not None
    shapes = {c.ICONS[n][0] for n in c.ICONS}
    assert len({images[n].tobytes() for n in c.ICONS}) >= len(shapes)


def test_fit_text_shrinks_then_ellipsizes() -> None:
    """A long name is shrunk to the minimum size, then cut with an ellipsis to fit."""
    text, f = c.fit_text("Ödön Łukasz Жанна " * 5, 200, 30, True, 14)
    assert f.size == 14
    assert text.endswith("…")
    assert c.text_width(text, f) <= 200
    short, f2 = c.fit_text("Bo", 200, 30)
    assert short == "Bo" and f2.size == 30


def test_player_banner_stays_in_its_box() -> None:
    """A banner with a very long name and an 'active' label draws nothing outside its box."""
    img, _ = c.canvas(1000, 120)
    before = img.copy()
    box = (50, 20, 650, 80)
    c.player_banner(img, box, 4, "Ödön Łukasz Жанна the Magnificent Builder of Cities", "42 points", True)
    bbox = ImageChops.difference(img, before).getbbox()
    assert bbox is not None
    assert bbox[0] >= box[0] and bbox[1] >= box[1] and bbox[2] <= box[2] + 1 and bbox[3] <= box[3] + 1
    # the active frame is in the highlight colour
    assert img.getpixel((box[0] + 30, box[1] + 1)) == c.HIGHLIGHT


def test_labelled_grid_geometry_and_labels() -> None:
    """Cells are laid out row by row with gaps; labels are drawn left of and above the cells."""
    img, draw = c.canvas(1000, 600)
    geo = c.labelled_grid(draw, (10, 10), 4, 5, 100, gap=6, label_space=30)
    assert geo.cell_box(0, 0) == (40, 40, 140, 140)
    assert geo.cell_box(1, 2) == (40 + 2 * 106, 40 + 106, 40 + 2 * 106 + 100, 40 + 106 + 100)
    assert geo.box == (40, 40, 40 + 4 * 106 + 100, 40 + 3 * 106 + 100)
    # something drawn in the label gutter (column label "1" above cell 0,0; row label "A")
    gutter_top = img.crop((40, 10, 140, 40))
    gutter_left = img.crop((10, 40, 40, 140))
    assert ImageStat.Stat(gutter_top).extrema[0][0] < 200
    assert ImageStat.Stat(gutter_left).extrema[0][0] < 200
    assert c.row_letters(3) == ["A", "B", "C"] and c.col_numbers(2) == ["1", "2"]


def test_badge_and_icon_count() -> None:
    """Badges and icon counts draw and return their extent."""
    img, draw = c.canvas(1000, 100)
    box = c.badge(draw, (100, 50), "12", 24)
    assert box[0] < 100 < box[2]
    end = c.icon_count(img, "inhabitant", (300, 30), 7, 32)
    assert end > 332


def test_legend_wraps() -> None:
    """A legend wider than its space wraps onto more lines."""
    img, _ = c.canvas(1000, 400)
    entries = [(k, c.GLYPHS[k].name) for k in _keys("quadropolis")]
    one = c.legend(img, (10, 10), entries, 2000)
    many = c.legend(img, (10, 10), entries, 400)
    assert many > one


def test_title_bar_and_canvas_minimum_width() -> None:
    """The canvas is never narrower than 1000 px; the title bar fills the top band."""
    img, draw = c.canvas(500, 100)
    assert img.width == c.MIN_WIDTH
    h = c.title_bar(draw, img.width, "Ödön's city", "round 2")
    assert img.getpixel((5, h // 2)) == c.INK


def test_png_bytes_small_and_faithful() -> None:
    """A busy 1200 px image encodes to a valid PNG under 400 KB that looks like the original."""
    img, draw = c.canvas(1200, 1400)
    keys = list(c.GLYPHS)
    for i in range(12 * 14):
        x, y = 10 + (i % 12) * 98, 10 + (i // 12) * 98
        c.draw_glyph(img, keys[i % len(keys)], (x, y, x + 92, y + 92))
        draw.text((x + 50, y + 60), NAMES[: i % 12], font=c.font(14), fill=c.INK)
    data = c.png_bytes(img)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < 400_000
    back = Image.open(io.BytesIO(data))
    assert back.size == (1200, 1400)
    assert _diff(back.convert("RGB"), img) < 3.0
    true_colour = c.png_bytes(img, colours=0)
    assert Image.open(io.BytesIO(true_colour)).mode == "RGB"


def test_colour_helpers() -> None:
    """mix/tint/shade move towards white and black; text_on picks a readable ink."""
    assert c.tint(c.BLUE, 1.0) == c.WHITE
    assert c.shade(c.BLUE, 1.0) == c.BLACK
    assert c.text_on(c.YELLOW) == c.INK
    assert c.text_on(c.BLUE) == c.WHITE
    assert c.luminance(c.WHITE) > 0.99 and c.luminance(c.BLACK) < 0.01
    with pytest.raises(ValueError):
        c.shape_polygon("blob", (0, 0, 10, 10))
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    assert draw is not None


def test_pictures_keep_their_colours_through_the_palette() -> None:
    """The PNG every picture becomes keeps each colour of the colour-blind-safe palette; a one-pixel
    line in a design colour is never lost (the palette is chosen from a sample of the pixels plus the
    design colours), and a two-pixel line of a colour used nowhere else comes out close to it."""
    colours = (*c.OKABE_ITO, c.INK, c.BACKGROUND, c.PANEL_EDGE, c.HIGHLIGHT, c.EMPTY_CELL)
    img = Image.new("RGB", (1200, 900), c.BACKGROUND)
    draw = ImageDraw.Draw(img)
    for i, colour in enumerate(colours):
        draw.rectangle((20 + 80 * i, 20, 90 + 80 * i, 200), fill=colour)
    c.draw_text(draw, (20, 300), "Ödön Łukasz Жанна 123", c.font(40, True), fill=c.INK)
    draw.line((0, 601, 1199, 601), fill=c.GRID_LINE, width=1)  # a row the palette's sample skips
    draw.line((701, 0, 701, 899), fill=c.VERMILLION, width=1)  # a column it skips
    rare = (123, 45, 200)
    draw.rectangle((0, 700, 1199, 701), fill=rare)
    back = Image.open(io.BytesIO(c.png_bytes(img))).convert("RGB")

    def off(xy: tuple[int, int], colour: tuple[int, int, int]) -> int:
        kept = back.getpixel(xy)
        assert isinstance(kept, tuple)
        return max(abs(a - b) for a, b in zip(kept, colour))

    for i, colour in enumerate(colours):  # the octree's bins may move a near-grey by a step or two
        assert off((55 + 80 * i, 110), colour) <= 2, colour
    assert off((300, 601), c.GRID_LINE) <= 2 and off((701, 800), c.VERMILLION) <= 2
    assert off((600, 700), rare) <= 24 and off((600, 701), rare) <= 24
    mean = ImageStat.Stat(ImageChops.difference(img, back)).mean
    assert max(mean) < 1.0, mean


def test_kept_text_masks_draw_exactly_what_freetype_draws() -> None:
    """Text drawn twice with the kept masks (and at a fractional position) is pixel for pixel what a
    plain FreeType font draws."""
    from PIL import ImageFont

    plain = ImageFont.truetype(str(c.FONT_BOLD), 33)
    kept = c.font(33, True)
    images = []
    for fnt in (plain, kept, kept):
        img = Image.new("RGB", (500, 120), c.BACKGROUND)
        draw = ImageDraw.Draw(img)
        c.draw_text(draw, (10.4, 20.7), "Łódź — Жанна", fnt, fill=c.BLUE, outline=c.WHITE)
        c.draw_text(draw, (250, 100), "11 ★", fnt, fill=c.INK, anchor="mm")
        images.append(img)
    assert c.text_width("Łódź — Жанна", kept) == c.text_width("Łódź — Жанна", plain)
    for img in images[1:]:
        assert ImageChops.difference(images[0], img).getbbox() is None


# ---------------------------------------------------------------------------------------------
# Shortening at word boundaries, and the pen's recorder
# ---------------------------------------------------------------------------------------------


def test_ellipsize_keeps_whole_words() -> None:
    """A shortened text ends after a whole word with "…"; a character cut only for a word wider than the box."""
    fnt = c.font(20)
    text = "dupleks: sklep i tawerna (napoje)"
    for width in range(c.text_width("dupleks…", fnt), c.text_width(text, fnt)):
        short = c.ellipsize(text, fnt, width)
        assert c.text_width(short, fnt) <= width and short.endswith("…")
        kept = short[:-1]
        assert text.startswith(kept) and text[len(kept)] in " :", (width, short)
    assert c.ellipsize(text, fnt, c.text_width("dupleks: sklep i…", fnt)) == "dupleks: sklep i…"
    assert c.ellipsize(text, fnt, c.text_width("dupleks: sklep i tawerna…", fnt) - 1) == "dupleks: sklep i…"
    assert c.ellipsize(text, fnt, c.text_width("dupleks…", fnt) - 1).startswith("duplek")  # one word too wide
    assert c.ellipsize(text, fnt, 10_000) == text
    assert c.ellipsize("Bob", fnt, 2) == "…"


def test_recording_is_off_by_default_and_records_inside_its_block() -> None:
    """Outside ``record_text`` nothing is kept; inside, each string on a picture with its box, size and marks."""
    img, draw = c.canvas(1000, 200)
    c.draw_text(draw, (10, 10), "unseen", c.font(20))
    with c.record_text() as drawn:
        img, draw = c.canvas(1000, 200)
        c.draw_text(draw, (10, 10), "Score 12", c.font(20))
        c.draw_text(draw, (500, 100), "Ann", c.font(30, True), anchor="mm")
        c.draw_text(draw, (10, 150), "quiet", c.font(18, True), key=False)
        line, fnt = c.fit_text("Cyd the Great Builder of Cities", 200, 24, True, 20)
        c.draw_text(draw, (10, 60), line, fnt)
        c.glyph_image("btc.shop", 64)  # a sprite's letter is not the picture's text
        scratch = Image.new("RGB", (300, 100))
        c.draw_text(ImageDraw.Draw(scratch), (0, 0), "scratch", c.font(20))
    c.draw_text(draw, (10, 10), "after", c.font(20))
    texts = drawn.on(img)
    assert [d.text for d in texts] == ["Score 12", "Ann", "quiet", line]
    score, ann, quiet, cut = texts
    assert score.size == 20 and not score.key and not score.bold and not score.shortened
    assert ann.key and ann.bold and abs((ann.box[0] + ann.box[2]) / 2 - 500) <= 2
    assert ann.box[1] < 100 < ann.box[3]
    assert not quiet.key  # the caller's mark beats the bold default
    assert cut.shortened and not cut.mid_word and cut.full == "Cyd the Great Builder of Cities"
    assert cut.text.endswith("…") and cut.box[2] - cut.box[0] <= 200 + 1
    bbox = ImageDraw.Draw(Image.new("RGB", (1, 1))).textbbox((10, 10), "Score 12", font=c.font(20))
    assert score.box == tuple(int(v) for v in bbox)
    plain, _ = c.canvas(1000, 10)
    assert c.SURFACE not in plain.info  # without the recorder a picture is not even tagged


def test_recorded_boxes_follow_crops_stacks_and_the_png() -> None:
    """A crop keeps its picture's strings; a stack moves them down; the encoded picture's are ``picture()``."""
    with c.record_text() as drawn:
        top, d1 = c.canvas(1000, 300)
        c.draw_text(d1, (20, 20), "Ann 12", c.font(20))
        top = top.crop((0, 0, 1000, 100))
        bottom, d2 = c.canvas(1000, 100)
        c.draw_text(d2, (20, 20), "Ann 12", c.font(20))
        both = c.stack_vertical([top, bottom], gap=10)
        c.png_bytes(both)
    texts = drawn.picture()
    assert len(texts) == 2 and texts == drawn.on(both)
    first, second = (d.box for d in texts)
    assert second == (first[0], first[1] + 110, first[2], first[3] + 110)
    assert drawn.on(top) == [] and drawn.on(bottom) == []


def test_the_pen_does_no_recording_work_when_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no recorder the pen only draws: the recorder is never asked to measure or keep anything (its
    cost is measured in the bench, not timed here, where a busy machine would make it flaky)."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("recorded while off")

    monkeypatch.setattr(c.TextRecorder, "add", refuse)
    _, draw = c.canvas(1000, 100)
    c.draw_text(draw, (10, 10), "Score 12", c.font(20))
    with pytest.raises(AssertionError), c.record_text():
        c.draw_text(draw, (10, 10), "Score 12", c.font(20))
