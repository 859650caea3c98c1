"""The Activity's own page (issue 39), where Discord starts it (``/``): the SDK's build, ``activity.js`` and
``activity.css`` (files of the package, ``bot/web/static/activity/``), a line saying where the sign-in is, the
instance's participants, and the frame the game opens in. Every address in it is relative (Discord's proxy
may serve it under a path of its own); every text is the catalogue's, escaped, and the sentences the script
shows are in ``data-t-*`` attributes (no inline script)."""

from __future__ import annotations

import html

from aiohttp import web

from bot.i18n import t
from bot.web.context import WebContext

SAID = ("connecting", "signing_in", "refused", "failed", "outside", "no_game", "none", "you", "opening")
"""The sentences the script may show (``web.activity.<name>``)."""


def shell(ctx: WebContext, client_id: str, locale: str) -> web.Response:
    """The Activity's page in ``locale``."""
    said = " ".join(
        f'data-t-{name.replace("_", "-")}="{html.escape(t(f"web.activity.{name}", locale))}"' for name in SAID
    )
    title = html.escape(t("web.activity.title", locale))
    body = (
        f'<main id="activity" class="activity" data-client-id="{html.escape(client_id)}" '
        f'data-lang="{html.escape(locale)}" {said}>'
        f'<h1 class="activity-title">{title}</h1>'
        f'<p id="activity-status" role="status">{html.escape(t("web.activity.connecting", locale))}</p>'
        '<section id="activity-people" class="activity-people" aria-labelledby="activity-people-title" hidden>'
        f'<h2 id="activity-people-title">{html.escape(t("web.activity.people", locale))}</h2>'
        '<ul id="activity-people-list"></ul></section>'
        '<section id="activity-games" class="activity-games" aria-labelledby="activity-games-title" hidden>'
        f'<h2 id="activity-games-title">{html.escape(t("web.activity.games", locale))}</h2>'
        '<ul id="activity-games-list"></ul></section>'
        f'<iframe id="activity-game" class="activity-game" title="{html.escape(t("web.activity.board", locale))}" '
        "hidden></iframe>"
        "</main>"
    )
    text = (
        "<!doctype html>\n"
        f'<html lang="{html.escape(locale)}" dir="auto" class="activity-root"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>"
        '<link rel="stylesheet" href="static/web.css">'
        '<link rel="stylesheet" href="static/activity/activity.css">'
        '<script src="static/activity/discord-sdk.js" defer></script>'
        '<script src="static/activity/activity.js" defer></script>'
        f"</head><body>{body}</body></html>"
    )
    return ctx.respond(text.encode("utf-8"))
