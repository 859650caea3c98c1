"""Discord's documented limits on what a bot sends, as the fake enforces them.

Each limit is a named constant below with the name Discord's documentation gives it. Those marked
"(schema)" are also carried by Discord's OpenAPI description and are refused first by
:mod:`bot.testing.fakediscord.schema` (so the check here is a second line); the others are not in the
description and only this module enforces them:

- message content 2,000 characters (the description allows 4,000 on channel messages, a Nitro
  user's limit; a bot has 2,000);
- the 6,000-character total of a message's embeds;
- 5 action rows, and a select menu alone in its row (the description allows 40 top-level
  components and any mix in a row);
- 10 uploaded files per message (the description counts only ``attachments`` entries) and the
  upload size (answered 413 40005, as Discord does, not 50035);
- the 3-second interaction response window (enforced by the server on callbacks: 10062).

Refusals are :class:`bot.testing.fakediscord.schema.Problem` lists with the field path Discord reports.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bot.testing.fakediscord.schema import Problem

# ---- Messages ("Create Message" / "Message Resource") ------------------------------------------
MAX_CONTENT = 2000  # Create Message: content "up to 2000 characters"
MAX_EMBEDS = 10  # Create Message: embeds "up to 10 rich embeds" (schema)
# ---- Embeds ("Embed Limits") ----------------------------------------------------------------------
MAX_EMBED_TITLE = 256  # Embed Limits: title (schema)
MAX_EMBED_DESCRIPTION = 4096  # Embed Limits: description (schema)
MAX_EMBED_FIELDS = 25  # Embed Limits: fields "up to 25 field objects" (schema)
MAX_EMBED_FIELD_NAME = 256  # Embed Limits: field.name (schema)
MAX_EMBED_FIELD_VALUE = 1024  # Embed Limits: field.value (schema)
MAX_EMBED_FOOTER_TEXT = 2048  # Embed Limits: footer.text (schema)
MAX_EMBED_AUTHOR_NAME = 256  # Embed Limits: author.name (schema)
MAX_EMBED_TOTAL = 6000  # Embed Limits: "the combined sum of characters in all title, description,
#                         field.name, field.value, footer.text, and author.name fields across all
#                         embeds attached to a message must not exceed 6000 characters"
# ---- Allowed mentions ("Allowed Mentions Object") ----------------------------------------------
MAX_MENTION_USERS = 100  # Allowed Mentions Object: users "max size of 100" (schema)
MAX_MENTION_ROLES = 100  # Allowed Mentions Object: roles "max size of 100" (schema)
# ---- Components ("Component Reference") ----------------------------------------------------------
MAX_ACTION_ROWS = 5  # Action Row: "a message can have up to 5 Action Rows" (without IS_COMPONENTS_V2)
MAX_ROW_BUTTONS = 5  # Action Row: "up to 5 contextually grouped buttons" (schema)
SELECT_ALONE_IN_ROW = True  # Action Row: "a single select component" (nothing beside it)
MAX_V2_COMPONENTS = 40  # Component Reference: "up to 40 total components" with IS_COMPONENTS_V2 (schema)
MAX_SELECT_OPTIONS = 25  # String Select: options "max 25" (schema)
MAX_BUTTON_LABEL = 80  # Button: label "max 80 characters" (schema)
MAX_CUSTOM_ID = 100  # Component Reference, custom_id: "max 100 characters" (schema)
MAX_OPTION_LABEL = 100  # Select Option Structure: label "max 100 characters" (schema)
MAX_OPTION_VALUE = 100  # Select Option Structure: value "max 100 characters" (schema)
MAX_OPTION_DESCRIPTION = 100  # Select Option Structure: description "max 100 characters" (schema)
MAX_SELECT_PLACEHOLDER = 150  # String Select: placeholder "max 150 characters" (schema)
# ---- Autocomplete ("Interaction Response Object", autocomplete) ----------------------------------
MAX_CHOICES = 25  # Autocomplete: choices "max of 25 choices" (schema)
# ---- Interactions ("Receiving and Responding") ----------------------------------------------------
INTERACTION_RESPONSE_DEADLINE_S = 3.0  # Responding to an Interaction: "within 3 seconds", else 10062
INTERACTION_TOKEN_TTL_S = 15 * 60  # Interaction tokens "are valid for 15 minutes" (follow-ups, edits)
# ---- Uploads ("Uploading Files") -------------------------------------------------------------------
MAX_FILES = 10  # Uploading Files: "up to 10 files" per message
MAX_UPLOAD_BYTES = 10 * 1024 * 1024  # Uploading Files: a server without boosts (10 MiB); 413 40005

# Component types and the V2 flag (the values Discord's documentation gives them)
FLAG_COMPONENTS_V2 = 1 << 15
C_ROW, C_BUTTON, C_STRING_SELECT = 1, 2, 3
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
BUTTON_LINK, BUTTON_PREMIUM = 5, 6

Path = tuple[str | int, ...]


def _max_length(path: Path, limit: int) -> Problem:
    return Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _walk(components: Sequence[Any], path: Path) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    for i, comp in enumerate(components):
        if not isinstance(comp, Mapping):
            continue
        here = (*path, i)
        yield here, comp
        for key in ("components", "accessory"):
            inner = comp.get(key)
            if isinstance(inner, Mapping):
                yield from _walk([inner], (*here, key))
            elif isinstance(inner, list):
                yield from _walk(inner, (*here, key))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def embed_total(embeds: Sequence[Any]) -> int:
    """The characters that count towards :data:`MAX_EMBED_TOTAL` in a message's embeds."""
    total = 0
    for embed in embeds:
        if not isinstance(embed, Mapping):
            continue
        total += len(_text(embed.get("title"))) + len(_text(embed.get("description")))
        for fld in embed.get("fields") or []:
            if isinstance(fld, Mapping):
                total += len(_text(fld.get("name"))) + len(_text(fld.get("value")))
        for key, inner in (("footer", "text"), ("author", "name")):
            part = embed.get(key)
            if isinstance(part, Mapping):
                total += len(_text(part.get(inner)))
    return total


def embed_problems(embeds: Sequence[Any], path: Path) -> list[Problem]:
    """Each embed's own limits (all carried by the description too)."""
    problems: list[Problem] = []
    for i, embed in enumerate(embeds):
        if not isinstance(embed, Mapping):
            continue
        for key, limit in (("title", MAX_EMBED_TITLE), ("description", MAX_EMBED_DESCRIPTION)):
            if len(_text(embed.get(key))) > limit:
                problems.append(_max_length((*path, i, key), limit))
        listed = embed.get("fields")
        fields: list[Any] = listed if isinstance(listed, list) else []
        if len(fields) > MAX_EMBED_FIELDS:
            problems.append(_max_length((*path, i, "fields"), MAX_EMBED_FIELDS))
        for j, fld in enumerate(fields):
            if isinstance(fld, Mapping):
                for key, limit in (("name", MAX_EMBED_FIELD_NAME), ("value", MAX_EMBED_FIELD_VALUE)):
                    if len(_text(fld.get(key))) > limit:
                        problems.append(_max_length((*path, i, "fields", j, key), limit))
        for key, inner, limit in (("footer", "text", MAX_EMBED_FOOTER_TEXT), ("author", "name", MAX_EMBED_AUTHOR_NAME)):
            part = embed.get(key)
            if isinstance(part, Mapping) and len(_text(part.get(inner))) > limit:
                problems.append(_max_length((*path, i, key, inner), limit))
    return problems


def message_problems(
    payload: Mapping[str, Any], file_count: int = 0, *, creating: bool, prefix: Path = ()
) -> tuple[list[Problem], bool]:
    """What Discord refuses in a message body beyond (or besides) its OpenAPI description:
    (problems, empty), ``empty`` meaning "Cannot send an empty message" (50006) when ``creating``.

    ``file_count`` is the number of files the message will carry (uploads, plus kept attachments
    for an edit); ``prefix`` is where the message sits in the body (``("data",)`` in a callback).
    """
    problems: list[Problem] = []
    content = payload.get("content")
    given_flags, given_embeds, given_components = (payload.get(k) for k in ("flags", "embeds", "components"))
    flags: int = given_flags if isinstance(given_flags, int) else 0
    embeds: list[Any] = given_embeds if isinstance(given_embeds, list) else []
    components: list[Any] = given_components if isinstance(given_components, list) else []
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(_max_length((*prefix, "content"), MAX_CONTENT))
    mentions = payload.get("allowed_mentions")
    if isinstance(mentions, Mapping):
        for key, limit in (("users", MAX_MENTION_USERS), ("roles", MAX_MENTION_ROLES)):
            ids = mentions.get(key)
            if isinstance(ids, list) and len(ids) > limit:
                problems.append(_max_length((*prefix, "allowed_mentions", key), limit))
    if len(embeds) > MAX_EMBEDS:
        problems.append(_max_length((*prefix, "embeds"), MAX_EMBEDS))
    problems += embed_problems(embeds, (*prefix, "embeds"))
    if embed_total(embeds) > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                (*prefix, "embeds"), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
            )
        )
    problems += component_problems(components, v2=bool(flags & FLAG_COMPONENTS_V2), prefix=(*prefix, "components"))
    if flags & FLAG_COMPONENTS_V2 and (content or embeds):
        problems.append(
            Problem(
                (*prefix, "content"),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        )
    if file_count > MAX_FILES:
        problems.append(_max_length((*prefix, "attachments"), MAX_FILES))
    empty = creating and not (content or embeds or components or file_count or payload.get("sticker_ids"))
    return problems, empty


def component_problems(components: Sequence[Any], *, v2: bool, prefix: Path = ("components",)) -> list[Problem]:
    """Component rules: rows, a select alone in its row, ids, labels, options."""
    problems: list[Problem] = []
    if not v2:
        if len(components) > MAX_ACTION_ROWS:
            problems.append(_max_length(prefix, MAX_ACTION_ROWS))
        for i, row in enumerate(components):
            if not isinstance(row, Mapping) or row.get("type") != C_ROW:
                problems.append(
                    Problem(
                        (*prefix, i),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "Top-level components must be action rows without IS_COMPONENTS_V2.",
                    )
                )
                continue
            items = [c for c in row.get("components") or [] if isinstance(c, Mapping)]
            selects = [c for c in items if c.get("type") in SELECT_TYPES]
            if not items or len(items) > MAX_ROW_BUTTONS or (SELECT_ALONE_IN_ROW and selects and len(items) > 1):
                problems.append(
                    Problem(
                        (*prefix, i, "components"),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        f"An action row holds 1 to {MAX_ROW_BUTTONS} buttons, or one select menu alone.",
                    )
                )
    elif sum(1 for _ in _walk(components, prefix)) > MAX_V2_COMPONENTS:
        problems.append(_max_length(prefix, MAX_V2_COMPONENTS))
    seen: set[str] = set()
    for path, comp in _walk(components, prefix):
        ctype = comp.get("type")
        cid = comp.get("custom_id")
        if isinstance(cid, str):
            if len(cid) > MAX_CUSTOM_ID:
                problems.append(_max_length((*path, "custom_id"), MAX_CUSTOM_ID))
            if cid in seen:
                problems.append(
                    Problem(
                        (*path, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen.add(cid)
        if ctype == C_BUTTON:
            style = comp.get("style", 1)
            if len(_text(comp.get("label"))) > MAX_BUTTON_LABEL:
                problems.append(_max_length((*path, "label"), MAX_BUTTON_LABEL))
            if style == BUTTON_LINK and not comp.get("url"):
                problems.append(Problem((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required"))
            if style not in (BUTTON_LINK, BUTTON_PREMIUM) and not cid:
                problems.append(Problem((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required"))
        elif ctype in SELECT_TYPES and len(_text(comp.get("placeholder"))) > MAX_SELECT_PLACEHOLDER:
            problems.append(_max_length((*path, "placeholder"), MAX_SELECT_PLACEHOLDER))
        if ctype == C_STRING_SELECT:
            options = [o for o in comp.get("options") or [] if isinstance(o, Mapping)]
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                problems.append(
                    Problem(
                        (*path, "options"),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                    )
                )
            for j, option in enumerate(options):
                for key, limit in (
                    ("label", MAX_OPTION_LABEL),
                    ("value", MAX_OPTION_VALUE),
                    ("description", MAX_OPTION_DESCRIPTION),
                ):
                    if len(_text(option.get(key))) > limit:
                        problems.append(_max_length((*path, "options", j, key), limit))
            values = [o.get("value") for o in options]
            if len(set(map(str, values))) != len(values):
                problems.append(
                    Problem(
                        (*path, "options"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique."
                    )
                )
            max_values = comp.get("max_values", 1)
            if isinstance(max_values, int) and max_values > max(1, len(options)):
                problems.append(
                    Problem(
                        (*path, "max_values"),
                        "BASE_TYPE_MAX",
                        "max_values cannot be greater than the number of options.",
                    )
                )
    return problems


def choice_problems(choices: Sequence[Any]) -> list[Problem]:
    """Autocomplete answer rules (the path is inside the callback body)."""
    problems: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        problems.append(_max_length(("data", "choices"), MAX_CHOICES))
    for i, choice in enumerate(choices):
        if not isinstance(choice, Mapping):
            continue
        if not 1 <= len(str(choice.get("name", ""))) <= 100:
            problems.append(
                Problem(("data", "choices", i, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            )
        if "value" not in choice:
            problems.append(Problem(("data", "choices", i, "value"), "BASE_TYPE_REQUIRED", "This field is required"))
    return problems
