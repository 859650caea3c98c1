"""Commands named in sentences become Discord command mentions (``</game new:123>``).

The catalogue's sentences name commands as typed in English (``/game new``). Discord shows a command
mention as a clickable pill in the reader's own language (the localised command name), so a Polish
player reads ``/gra nowa`` where the sentence says ``/game new``. The ids come from the command sync;
before it, or for a command Discord does not know, the text stays as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MENTION_LIMIT = 32
"""Most command mentions replaced in one text (a sentence names one or two)."""


class CommandLinks:
    """Known commands (qualified names) and the ids of their top-level commands."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._pattern: re.Pattern[str] | None = None

    def learn(self, top_level_ids: dict[str, int], qualified_names: Iterable[str]) -> None:
        """Remember the synced commands: ``{"game": id}`` and every qualified name (``"game new"``)."""
        self._ids = dict(top_level_ids)
        names = sorted({n for n in qualified_names if n.split()[0] in self._ids}, key=len, reverse=True)
        if not names:
            self._pattern = None
            return
        alternatives = "|".join(re.escape(n) for n in names)
        self._pattern = re.compile(rf"(?<![\w`</])/({alternatives})(?![\w-])")

    def link(self, text: str) -> str:
        """``text`` with each ``/command sub`` it names turned into a mention (not inside code spans)."""
        if self._pattern is None or "/" not in text:
            return text
        parts = text.split("`")
        for i in range(0, len(parts), 2):  # even parts are outside `code`
            parts[i] = self._pattern.sub(self._mention, parts[i], count=MENTION_LIMIT)
        return "`".join(parts)

    def _mention(self, match: re.Match[str]) -> str:
        name = match.group(1)
        return f"</{name}:{self._ids[name.split()[0]]}>"


LINKS = CommandLinks()
"""The bot's command links (one bot per process)."""
