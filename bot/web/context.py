"""What every page of the web side shares (:class:`WebContext`): the composition root's objects, the links,
the picture cache, the language of a request and the HTML shell with its headers.

Every page is built from public information only; the caller escapes every text it puts in HTML
(``html.escape``); the shell adds none of its own beyond catalogue texts, which it escapes too.
"""

from __future__ import annotations

import html
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from aiohttp import web

from bot.i18n import language_name, languages, normalise_locale, t
from bot.service import Service
from bot.store import Store
from bot.web.links import Links

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""No inline script or style: the page's script and style are files of the package (``/static/...``)."""

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "screen-wake-lock",
        "sync-xhr",
        "usb",
        "xr-spatial-tracking",
    )
)
"""The page uses none of the browser's powerful features: each is denied to it and to any frame."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": PERMISSIONS_POLICY,
}
"""On every answer, errors and redirects too (:func:`bot.web.guard.add_headers`)."""

PICTURE_CACHE_BYTES = 64 * 1024 * 1024
"""The pictures kept in memory at most (least recently used first out)."""


class Source(Protocol):
    """What the pages read: the composition root's :class:`bot.composition.App` (the terminal passes its
    own service and store)."""

    @property
    def service(self) -> Service: ...

    @property
    def store(self) -> Store: ...


K = TypeVar("K")
T = TypeVar("T")


class LRU(Generic[K, T]):
    """At most ``size`` items, the least recently used out first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, T] = OrderedDict()

    def get(self, key: K) -> T | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: K, value: T) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class PictureCache:
    """PNG bytes by key, bounded by their total size (least recently used out first)."""

    def __init__(self, limit: int = PICTURE_CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: tuple[Any, ...], data: bytes) -> None:
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old)
        self._items[key] = data
        self.size += len(data)
        while self.size > self.limit and len(self._items) > 1:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)


@dataclass
class WebContext:
    """The pages' shared objects and helpers (built once by :class:`bot.web.server.WebServer`)."""

    app: Any
    """The composition root's ``App`` (league and player pages read its features); a :class:`Source` at least."""
    links: Links
    pictures: PictureCache = field(default_factory=PictureCache)
    languages: tuple[str, ...] = field(default_factory=languages)
    """The languages, read once (:func:`bot.i18n.languages` looks at the folders)."""
    language_names: dict[str, str] = field(default_factory=lambda: {c: language_name(c) for c in languages()})

    @property
    def service(self) -> Service:
        return self.app.service  # type: ignore[no-any-return]

    @property
    def secret(self) -> bytes:
        return self.links.secret

    def locale(self, request: web.Request, default: str = "en") -> str:
        """The page's language: ``?lang=`` when it names a language the bot speaks (``ru``, ``ru-RU``,
        ``ru_RU``, ``RU``: Russian), else ``default``."""
        asked = request.query.get("lang", "")
        if asked:
            code = normalise_locale(asked[:16].replace("_", "-").strip())
            if code in self.languages:
                return code
        return default if default in self.languages else "en"

    def page(self, title: str, body_html: str, locale: str, *, head_extra: str = "", status: int = 200) -> web.Response:
        """The HTML shell around a page's body (already escaped by the caller), with the security headers."""
        return self.respond(self.html(title, body_html, locale, head_extra=head_extra), status=status)

    @staticmethod
    def respond(text: bytes, status: int = 200) -> web.Response:
        """A page made by :meth:`html` (the security headers are added to every answer by the server)."""
        return web.Response(
            body=text, status=status, content_type="text/html", charset="utf-8", headers={"Cache-Control": "no-store"}
        )

    @staticmethod
    def html(title: str, body_html: str, locale: str, *, head_extra: str = "") -> bytes:
        """The HTML shell around a page's body (already escaped by the caller), as bytes."""
        text = (
            "<!doctype html>\n"
            f'<html lang="{html.escape(locale)}" dir="auto"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title>"
            '<link rel="stylesheet" href="/static/web.css">'
            f"{head_extra}</head><body>{body_html}"
            f"<footer><p>{html.escape(t('web.footer', locale))}</p></footer></body></html>"
        )
        return text.encode("utf-8")

    def not_found(self, locale: str) -> web.Response:
        """A bad or expired link: a friendly page in the language, status 404."""
        body = (
            f"<main><h1>{html.escape(t('web.not_found.title', locale))}</h1>"
            f"<p>{html.escape(t('web.not_found.text', locale))}</p></main>"
        )
        return self.page(t("web.not_found.title", locale), body, locale, status=404)

    def language_links(self, locale: str, path: str, extra: dict[str, str] | None = None) -> str:
        """The language switch: one link per language (the current one marked), as HTML."""
        items = []
        for code in self.languages:
            query = "&".join(f"{k}={html.escape(v)}" for k, v in {**(extra or {}), "lang": code}.items())
            label, lang = html.escape(self.language_names.get(code, code)), html.escape(code)
            if code == locale:
                items.append(f'<li><strong aria-current="true" lang="{lang}">{label}</strong></li>')
            else:
                href = f"{html.escape(path)}?{query}"
                items.append(f'<li><a href="{href}" hreflang="{lang}" lang="{lang}">{label}</a></li>')
        return (
            f'<nav class="langs" aria-label="{html.escape(t("web.languages", locale))}"><ul>'
            + "".join(items)
            + "</ul></nav>"
        )
