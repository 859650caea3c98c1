"""PNG encoding: a palette chosen from a sample of the pixels plus the design colours, the palette PNG
written by :func:`palette_png`, and :class:`Pictures`, the one adapter from a game's picture functions
(view -> PIL image) to the renderer every front-end calls (view -> PNG bytes)."""

from __future__ import annotations

import io
import math
import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image

from bot.i18n import t, t_or
from render.colour import RGB
from render.layout import tile_sheet
from render.text import _RECORDER, SURFACE

PNG_COLOURS = 256
"""Images are quantised to a palette of this many colours before PNG encoding (small files)."""
PNG_LEVEL = 3
"""zlib level. On a 1200 x 1000 turn picture (measured): 3 takes 8 ms for 82 KB, 6 takes 20 ms
for 71 KB, 9 takes 85 ms for 65 KB; above 3 the time grows much faster than the file shrinks."""
PALETTE_PIXELS = 300_000
"""A taller picture (a phone's portrait layout) samples sparser, so the palette costs about what a 1200 x 1000
picture's does (:func:`palette_of`): a 1200 x 2755 board took 16 ms for its palette at every 2nd pixel."""
PALETTE_SAMPLE = 2
"""The palette is chosen from every ``PALETTE_SAMPLE``-th pixel of each row and column (exact colours, no
blending) plus a band of each design colour (:func:`design_colours`, so a one-pixel line of one of them is
never missed), then every pixel takes its nearest palette colour: about 8 ms instead of 21 ms for the
octree over the whole picture, and on our turn pictures about as close to the true colours (mean
difference about 1.1 of 255, against 1.04)."""

# ---------------------------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------------------------


DESIGN_SHARE = 0.01
"""Each design colour's share of the pixels the palette is chosen from (enough to win a palette entry)."""


def design_colours() -> tuple[RGB, ...]:
    """Every colour the renderers name (this module's and the games' module-level RGB constants, of
    the renderers loaded so far)."""
    import sys

    loaded = tuple(sorted(n for n in sys.modules if n == "render" or n.startswith("render.")))
    return _design_colours(loaded)


@lru_cache(maxsize=8)
def _design_colours(modules: tuple[str, ...]) -> tuple[RGB, ...]:
    import sys

    found: dict[RGB, None] = {}
    for name in modules:
        for key, value in vars(sys.modules[name]).items():
            if (
                key.isupper()
                and isinstance(value, tuple)
                and len(value) == 3
                and all(isinstance(v, int) and 0 <= v <= 255 for v in value)
            ):
                found[value] = None
    return tuple(found)


def palette_of(image: Image.Image, colours: int = PNG_COLOURS) -> Image.Image:
    """A palette image of at most ``colours`` colours for an RGB ``image`` (see :data:`PALETTE_SAMPLE`)."""
    step = max(PALETTE_SAMPLE, math.ceil(math.sqrt(image.width * image.height / PALETTE_PIXELS)))
    if min(image.size) < 64 * step:
        return image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    sample = image.resize((image.width // step, image.height // step), Image.Resampling.NEAREST)
    design = design_colours()
    # Under the sample, one band per design colour, each about DESIGN_SHARE of the sample's pixels.
    rows = max(1, math.ceil(sample.height * DESIGN_SHARE * len(design)))
    bands = Image.new("RGB", (len(design), 1))
    bands.putdata(list(design))
    canvas = Image.new("RGB", (sample.width, sample.height + rows))
    canvas.paste(sample, (0, 0))
    canvas.paste(bands.resize((sample.width, rows), Image.Resampling.NEAREST), (0, sample.height))
    return canvas.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, colours: int = PNG_COLOURS) -> bytes:
    """The image as PNG bytes: quantised to a ``colours`` palette (no dithering) and deflated.

    A 1200 px board comes out around 40-150 KB; pass ``colours=0`` for a true-colour PNG.
    """
    recorder = _RECORDER.get()
    if recorder is not None and image.info.get(SURFACE):
        recorder.encoded.append(image.info[SURFACE])
    img = image.convert("RGB") if image.mode not in ("RGB", "P") else image
    if colours and img.mode == "RGB":
        return palette_png(img.quantize(palette=palette_of(img, colours), dither=Image.Dither.NONE))
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=PNG_LEVEL)
    return buf.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(image: Image.Image) -> bytes:
    """A palette image (mode ``P``, no transparency) as PNG bytes, written here rather than by Pillow: every
    row unfiltered (filter 0), the rows deflated at :data:`PNG_LEVEL` in one zlib call. The same pixels
    and palette as Pillow's file and within 1 % of its size, about 10 % faster (measured: a 1200 x 2755
    board 8.2 ms instead of 9.2; an "Up" filter on every row made files 10-20 % larger and slower)."""
    width, height = image.size
    rows = Image.new("P", (width + 1, height), 0)  # column 0: each row's filter byte (0, none)
    rows.paste(image, (1, 0))
    palette = bytes((image.getpalette() or [0, 0, 0])[: 3 * 256])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, palette, deflate, no interlace
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", zlib.compress(rows.tobytes(), PNG_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


Picture = Callable[..., Image.Image]
"""A game's picture function: (view, [seat,] names, *, locale) -> PIL image."""


class Pictures:
    """A game's pictures as PNG bytes: the one adapter from a renderer's picture functions (view -> PIL image,
    in ``render/<kind>.py``) to the :class:`bot.games.base.Renderer` every front-end calls (view -> PNG
    bytes), bound to its game in :mod:`render.pictures`. ``more``: the game's other pictures by name
    (a player's ``city``), each drawn as ``render_<name>``; the tile sheet is every glyph the game's
    renderer registered, under the catalogue's ``tiles.title``."""

    def __init__(
        self,
        game: str,
        *,
        turn: Picture,
        board: Picture,
        end: Picture,
        more: Mapping[str, Picture] | None = None,
        titles: Mapping[str, Callable[[Any, str], str]] | None = None,
    ) -> None:
        self.game = game
        self.turn_image, self.board_image, self.end_image = turn, board, end
        self.more = dict(more or {})
        self.titles = dict(titles or {})

    def title(self, picture: str, view: Any, *, locale: str = "en") -> str:
        """The title the ``picture`` ("turn", "board", "end") draws for ``view`` (its turn counter; the end
        picture's final scores), as the web page's slider shows it; "" where the renderer names none."""
        title = self.titles.get(picture)
        if title is not None:
            return title(view, locale)
        return t_or(f"{self.game}.render.title.final_scores", "", locale) if picture == "end" else ""

    def render_turn(
        self, view: Any, acting_seat: int, names: Sequence[str] | None = None, *, locale: str = "en"
    ) -> bytes:
        """PNG of the game's turn picture."""
        return png_bytes(self.turn_image(view, acting_seat, names, locale=locale))

    def render_board(self, view: Any, names: Sequence[str] | None = None, *, locale: str = "en") -> bytes:
        """PNG of the game's board picture."""
        return png_bytes(self.board_image(view, names, locale=locale))

    def render_end(self, view: Any, names: Sequence[str] | None = None, *, locale: str = "en") -> bytes:
        """PNG of the game's end picture."""
        return png_bytes(self.end_image(view, names, locale=locale))

    def render_tiles(self, *, locale: str = "en") -> bytes:
        """Every building of the game as the pictures draw it (``/game tiles``), with the reader's badges."""
        title = t("tiles.title", locale, game=t(f"{self.game}.title", locale))
        return png_bytes(tile_sheet(self.game, title, locale))

    def __getattr__(self, name: str) -> Callable[..., bytes]:
        """``render_<name>`` for a picture of :attr:`more` (``render_city``)."""
        picture = (
            self.__dict__.get("more", {}).get(name.removeprefix("render_")) if name.startswith("render_") else None
        )
        if picture is None:
            raise AttributeError(name)

        def render(*args: Any, locale: str = "en") -> bytes:
            return png_bytes(picture(*args, locale=locale))

        render.__qualname__ = f"Pictures.{name}"
        return render
