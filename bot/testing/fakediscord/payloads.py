"""The fake Discord's world (plain data) and the payload factories built from it.

Nothing here does I/O: :mod:`bot.testing.fakediscord.server` owns the HTTP/gateway side and calls these
factories. Every factory returns a *complete* object of the shape discord.py 2.7 parses (see
this package's README.md for the fields whose absence crashes the client), so a payload
built here can go through the gateway or straight into ``ConnectionState.parse_interaction_create``.

Ids are snowflakes. The fixed world (application, users, guild, roles, channels) uses deterministic
ids so tests can name them; messages, interactions and attachments get time-based ids.
"""

from __future__ import annotations

import itertools
import mimetypes
import struct
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.testing.fakediscord import limits as L

# --------------------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------------------

DISCORD_EPOCH_MS = 1_420_070_400_000
WORLD_EPOCH_MS = 1_704_067_200_000  # 2024-01-01T00:00:00Z: when the fixed world "was created"
API_VERSION = 10
ATTACHMENT_SIZE_LIMIT = L.MAX_UPLOAD_BYTES  # sent to the bot as the interaction's attachment_size_limit
MAX_FILES = L.MAX_FILES
MAX_CONTENT = L.MAX_CONTENT
MAX_EMBEDS = L.MAX_EMBEDS
MAX_ROWS = L.MAX_ACTION_ROWS
MAX_ROW_ITEMS = L.MAX_ROW_BUTTONS
MAX_V2_COMPONENTS = L.MAX_V2_COMPONENTS
MAX_SELECT_OPTIONS = L.MAX_SELECT_OPTIONS
MAX_CHOICES = L.MAX_CHOICES
MAX_CUSTOM_ID = L.MAX_CUSTOM_ID
MAX_LABEL = L.MAX_BUTTON_LABEL
INTERACTION_DEADLINE_S = L.INTERACTION_RESPONSE_DEADLINE_S  # an interaction must be answered within this
INTERACTION_TOKEN_TTL_S = L.INTERACTION_TOKEN_TTL_S  # follow-ups and edits work this long after it
# (the limits themselves, with Discord's names for them, are in bot/testing/fakediscord/limits.py)

# Permission bits (https://discord.com/developers/docs/topics/permissions)
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)

# Message flags
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types
CH_TEXT = 0
CH_DM = 1
CH_CATEGORY = 4
CH_PUBLIC_THREAD = 11
CH_PRIVATE_THREAD = 12
THREAD_TYPES = (10, 11, 12)

# Interaction types
IT_PING = 1
IT_COMMAND = 2
IT_COMPONENT = 3
IT_AUTOCOMPLETE = 4
IT_MODAL_SUBMIT = 5

# Interaction callback types
CB_PONG = 1
CB_MESSAGE = 4
CB_DEFERRED_MESSAGE = 5
CB_DEFERRED_UPDATE = 6
CB_UPDATE = 7
CB_AUTOCOMPLETE = 8
CB_MODAL = 9
CB_LAUNCH_ACTIVITY = 12
CALLBACKS_ALLOWED: dict[int, frozenset[int]] = {
    IT_COMMAND: frozenset({CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL, CB_LAUNCH_ACTIVITY}),
    IT_COMPONENT: frozenset(
        {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL, CB_LAUNCH_ACTIVITY}
    ),
    IT_AUTOCOMPLETE: frozenset({CB_AUTOCOMPLETE}),
    IT_MODAL_SUBMIT: frozenset({CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE}),
}

# Application command option types
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11

# Component types
C_ROW = 1
C_BUTTON = 2
C_STRING_SELECT = 3
C_TEXT_INPUT = 4
C_USER_SELECT = 5
C_ROLE_SELECT = 6
C_MENTIONABLE_SELECT = 7
C_CHANNEL_SELECT = 8
C_SECTION = 9
C_TEXT_DISPLAY = 10
C_CONTAINER = 17
C_LABEL = 18
SELECT_TYPES = (C_STRING_SELECT, C_USER_SELECT, C_ROLE_SELECT, C_MENTIONABLE_SELECT, C_CHANNEL_SELECT)
BUTTON_LINK = 5
BUTTON_PREMIUM = 6

# Gateway intents
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = {
    "members": INTENT_GUILD_MEMBERS,
    "presences": INTENT_GUILD_PRESENCES,
    "message_content": INTENT_MESSAGE_CONTENT,
}


class PayloadError(ValueError):
    """A test asked for something the real Discord client could not send (unknown option, ...)."""


# --------------------------------------------------------------------------------------------------
# Snowflakes and time
# --------------------------------------------------------------------------------------------------


def snowflake(ms: int, increment: int = 0) -> int:
    """A snowflake for a Unix time in milliseconds (worker/process bits left at zero)."""
    return ((ms - DISCORD_EPOCH_MS) << 22) | (increment & 0xFFF)


def fixed_id(n: int) -> int:
    """The n-th deterministic id of the fixed world."""
    return snowflake(WORLD_EPOCH_MS, n)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a guild's events go to: Discord's rule ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def snowflake_ms(value: int) -> int:
    """The Unix time in milliseconds encoded in a snowflake."""
    return (value >> 22) + DISCORD_EPOCH_MS


def iso(ms: int) -> str:
    """ISO-8601 UTC timestamp for a Unix time in milliseconds."""
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat()


class SnowflakeGen:
    """Strictly increasing, time-based snowflakes."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        value = max(snowflake(int(time.time() * 1000)), self._last + 1)
        self._last = value
        return value


# --------------------------------------------------------------------------------------------------
# The world
# --------------------------------------------------------------------------------------------------


@dataclass
class FakeUser:
    """A Discord user; ``roles`` is None when the user is not a member of the guild."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    roles: list[int] | None = field(default_factory=list)
    nick: str | None = None
    accepts_dms: bool = True
    locale: str = "en-US"
    joined_ms: int = WORLD_EPOCH_MS

    @property
    def key(self) -> str:
        """The name tests use for this user (lower-case username)."""
        return self.username.lower()

    @property
    def is_member(self) -> bool:
        return self.roles is not None


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int
    managed: bool = False
    bot_id: int | None = None
    color: int = 0


@dataclass
class FakeChannel:
    """A guild channel (text, category, thread) or a DM channel (``guild_id`` None)."""

    id: int
    name: str
    type: int = CH_TEXT
    position: int = 0
    guild_id: int | None = None
    parent_id: int | None = None
    topic: str | None = None
    overwrites: list[dict[str, Any]] = field(default_factory=list)
    owner_id: int | None = None  # threads
    recipient_id: int | None = None  # DM channels
    last_message_id: int | None = None
    archived: bool = False  # threads: see FakeDiscord.archive_thread
    locked: bool = False  # threads: only Manage Threads can unarchive a locked thread

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class FakeMessage:
    """A message the bot (or the fake) created. ``edits`` keeps every earlier version (payloads)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_type: int | None = None
    interaction_name: str | None = None
    message_reference: dict[str, Any] | None = None
    edited_ms: int | None = None
    deleted: bool = False
    edits: list[dict[str, Any]] = field(default_factory=list)
    nonce: str | None = None
    """The nonce it was created with (``enforce_nonce``: a second post with it returns this message)."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def custom_ids(self) -> list[str]:
        """Every custom_id in the message's components, depth first."""
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def file(self, filename: str) -> FakeAttachment:
        for attachment in self.attachments:
            if attachment.filename == filename:
                return attachment
        raise KeyError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")


@dataclass
class FakeInteraction:
    """An interaction the fake created and the bot may answer."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    payload: dict[str, Any]
    created: float  # time.monotonic()
    message_id: int | None = None  # component / modal-from-component source message
    command_name: str | None = None
    acknowledged: bool = False
    callback_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None  # the modal the bot opened (callback type 9)
    choices: list[dict[str, Any]] | None = None  # autocomplete answer (callback type 8)


@dataclass
class World:
    """Everything the fake knows: application, bot user, its guilds, users, channels, messages...

    ``guild_id`` is the main guild; :meth:`add_guild` adds more (every user is a member of each with
    the same roles, each guild has its own @everyone role and channels), to test shards."""

    application_id: int
    application_name: str
    bot_id: int
    owner_id: int
    guild_id: int
    guild_name: str
    token: str
    users: dict[int, FakeUser] = field(default_factory=dict)
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    messages: dict[int, FakeMessage] = field(default_factory=dict)
    interactions: dict[int, FakeInteraction] = field(default_factory=dict)
    attachments: dict[int, FakeAttachment] = field(default_factory=dict)
    # scope (None = global, else guild id) -> registered commands as Discord returns them
    commands: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    command_ids: dict[tuple[int | None, str, int], int] = field(default_factory=dict)
    dm_channels: dict[int, int] = field(default_factory=dict)  # user id -> DM channel id
    allowed_intents: set[str] = field(default_factory=lambda: set(PRIVILEGED_INTENTS))
    base_url: str = "http://127.0.0.1:0"
    default_channel: str = "games"
    guild_locale: str = "en-US"
    """The server's preferred locale (community servers choose it; interactions carry it as ``guild_locale``)."""
    extra_guilds: dict[int, str] = field(default_factory=dict)
    """Guilds besides the main one: id -> name (see :meth:`add_guild`)."""
    new_id: SnowflakeGen = field(default_factory=SnowflakeGen)
    _fixed: Iterator[int] = field(default_factory=lambda: itertools.count(100))

    # ---- lookups -------------------------------------------------------------------------------

    @property
    def bot(self) -> FakeUser:
        return self.users[self.bot_id]

    def user(self, ref: FakeUser | str | int) -> FakeUser:
        """A user by object, id, or name (lower-case username); KeyError naming the known ones."""
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            found = self.users.get(int(ref))
            if found is not None:
                return found
        else:
            for user in self.users.values():
                if user.key == ref.lower():
                    return user
        raise KeyError(f"unknown user {ref!r}; known: {sorted(u.key for u in self.users.values())}")

    def channel(self, ref: FakeChannel | str | int) -> FakeChannel:
        """A channel by object, id or name; KeyError naming the known ones."""
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            found = self.channels.get(int(ref))
            if found is not None:
                return found
        else:
            for channel in self.channels.values():
                if channel.name == ref and channel.guild_id is not None:
                    return channel
        names = sorted(c.name for c in self.channels.values() if c.guild_id is not None)
        raise KeyError(f"unknown channel {ref!r}; known: {names}")

    def role(self, ref: FakeRole | str | int) -> FakeRole:
        if isinstance(ref, FakeRole):
            return ref
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            found = self.roles.get(int(ref))
            if found is not None:
                return found
        else:
            for role in self.roles.values():
                if role.name.lower() == ref.lower():
                    return role
        raise KeyError(f"unknown role {ref!r}; known: {sorted(r.name for r in self.roles.values())}")

    def members(self) -> list[FakeUser]:
        return [u for u in self.users.values() if u.is_member]

    @property
    def guild_ids(self) -> list[int]:
        """Every guild the bot is in, the main one first."""
        return [self.guild_id, *self.extra_guilds]

    def guild_name_of(self, guild_id: int) -> str:
        return self.guild_name if guild_id == self.guild_id else self.extra_guilds[guild_id]

    def guild_roles(self, guild_id: int) -> list[FakeRole]:
        """A guild's roles: its own @everyone (id = the guild's id) and the shared ones."""
        everyone = self.roles[guild_id]
        shared = [r for r in self.roles.values() if r.id not in self.guild_ids]
        return [everyone, *sorted(shared, key=lambda r: r.position)]

    def guild_channels(self, guild_id: int | None = None) -> list[FakeChannel]:
        """A guild's channels (threads aside); without ``guild_id``, the main guild's."""
        wanted = self.guild_id if guild_id is None else guild_id
        return [c for c in self.channels.values() if c.guild_id == wanted and not c.is_thread]

    def threads(self, guild_id: int | None = None) -> list[FakeChannel]:
        wanted = self.guild_id if guild_id is None else guild_id
        return [c for c in self.channels.values() if c.is_thread and c.guild_id == wanted]

    # ---- building the world --------------------------------------------------------------------

    def add_user(
        self,
        username: str,
        *,
        roles: Sequence[str | int] | None = (),
        bot: bool = False,
        accepts_dms: bool = True,
        global_name: str | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        """Add a user; ``roles=None`` makes a user who is not in the guild."""
        role_ids = None if roles is None else [self.role(r).id for r in roles]
        user = FakeUser(
            id=next(self._fixed_ids()),
            username=username,
            global_name=global_name or username.capitalize(),
            bot=bot,
            roles=role_ids,
            accepts_dms=accepts_dms,
            locale=locale,
        )
        self.users[user.id] = user
        return user

    def add_role(self, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(id=next(self._fixed_ids()), name=name, permissions=permissions, position=len(self.roles))
        self.roles[role.id] = role
        return role

    def add_channel(
        self,
        name: str,
        *,
        type: int = CH_TEXT,
        parent: str | int | None = None,
        attach_files: bool = True,
        overwrites: Sequence[dict[str, Any]] = (),
        guild_id: int | None = None,
    ) -> FakeChannel:
        """Add a guild channel (to the main guild, or ``guild_id``); ``attach_files=False`` denies
        Attach Files to @everyone there."""
        guild = self.guild_id if guild_id is None else guild_id
        parent_id = self.channel(parent).id if parent is not None else None
        rules = list(overwrites)
        if not attach_files:
            rules.append({"id": guild, "type": 0, "allow": 0, "deny": ATTACH_FILES})
        channel = FakeChannel(
            id=next(self._fixed_ids()),
            name=name,
            type=type,
            position=len(self.guild_channels(guild)),
            guild_id=guild,
            parent_id=parent_id,
            overwrites=rules,
        )
        if channel.is_thread:
            channel.owner_id = self.bot_id
        self.channels[channel.id] = channel
        return channel

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> int:
        """Add a guild (every member of the main guild is a member of it, with the same roles; its
        @everyone has the main one's permissions). ``shard=(id, count)``: its id is chosen so that
        Discord's rule sends its events to that shard. Returns its id."""
        ms = WORLD_EPOCH_MS + 1
        guild_id = snowflake(ms, next(self._fixed))
        while shard is not None and shard_of(guild_id, shard[1]) != shard[0]:
            ms += 1
            guild_id = snowflake(ms, guild_id & 0xFFF)
        self.extra_guilds[guild_id] = name
        main = self.roles[self.guild_id]
        self.roles[guild_id] = FakeRole(id=guild_id, name="@everyone", permissions=main.permissions, position=0)
        return guild_id

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and a user (created on first use)."""
        channel_id = self.dm_channels.get(user.id)
        if channel_id is None:
            channel = FakeChannel(id=next(self._fixed_ids()), name="", type=CH_DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            self.dm_channels[user.id] = channel.id
            return channel
        return self.channels[channel_id]

    def _fixed_ids(self) -> Iterator[int]:
        while True:
            yield fixed_id(next(self._fixed))

    # ---- permissions ---------------------------------------------------------------------------

    def base_permissions(self, user: FakeUser, guild_id: int | None = None) -> int:
        if user.id == self.owner_id:
            return ALL_PERMISSIONS
        if not user.is_member:
            return 0
        perms = self.roles[self.guild_id if guild_id is None else guild_id].permissions
        for role_id in user.roles or ():
            perms |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def channel_permissions(self, user: FakeUser, channel: FakeChannel) -> int:
        """The user's permissions in a channel, overwrites applied (threads use their parent's)."""
        if channel.guild_id is None:
            return VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | EMBED_LINKS | ATTACH_FILES
        perms = self.base_permissions(user, channel.guild_id)
        if perms & ADMINISTRATOR or perms == ALL_PERMISSIONS:
            return ALL_PERMISSIONS
        source = self.channels[channel.parent_id] if channel.is_thread and channel.parent_id else channel
        by_id = {int(o["id"]): o for o in source.overwrites}
        everyone = by_id.get(channel.guild_id)
        if everyone is not None:
            perms = (perms & ~int(everyone["deny"])) | int(everyone["allow"])
        allow = deny = 0
        for role_id in user.roles or ():
            rule = by_id.get(role_id)
            if rule is not None and int(rule.get("type", 0)) == 0:
                allow |= int(rule["allow"])
                deny |= int(rule["deny"])
        perms = (perms & ~deny) | allow
        member_rule = by_id.get(user.id)
        if member_rule is not None and int(member_rule.get("type", 0)) == 1:
            perms = (perms & ~int(member_rule["deny"])) | int(member_rule["allow"])
        return perms


def default_world(token: str = "fake-bot-token") -> World:
    """The standard test world.

    Users (by key): ``olive`` (guild owner, application owner), ``mona`` (role Moderator: Manage
    Server), ``alice``, ``bob``, ``carol``, ``dave`` (role Player), ``quinn`` (Player, DMs closed),
    ``stranger`` (not in the guild) and the bot ``citybuilders``. Channels: category ``Games``,
    ``general``, ``games`` (the default for interactions), ``no-files`` (Attach Files denied to
    @everyone) and the public thread ``table-1`` under ``games``.
    """
    app_id = fixed_id(1)
    guild_id = fixed_id(2)
    world = World(
        application_id=app_id,
        application_name="CityBuilders",
        bot_id=app_id,  # modern applications: bot user id == application id
        owner_id=0,
        guild_id=guild_id,
        guild_name="City Hall",
        token=token,
    )
    world.roles[guild_id] = FakeRole(id=guild_id, name="@everyone", permissions=EVERYONE_PERMISSIONS, position=0)
    moderator = world.add_role("Moderator", MANAGE_GUILD | MANAGE_MESSAGES | MANAGE_THREADS)
    world.add_role("Player", 0)
    bot_role = world.add_role("CityBuilders", EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS)
    bot_role.managed = True
    bot_role.bot_id = app_id
    world.users[app_id] = FakeUser(id=app_id, username="CityBuilders", global_name=None, bot=True, roles=[bot_role.id])
    owner = world.add_user("olive", roles=())
    world.owner_id = owner.id
    world.add_user("mona", roles=[moderator.id])
    for name in ("alice", "bob", "carol", "dave"):
        world.add_user(name, roles=["Player"])
    world.add_user("quinn", roles=["Player"], accepts_dms=False)
    world.add_user("stranger", roles=None)
    category = world.add_channel("Games", type=CH_CATEGORY)
    world.add_channel("general")
    world.add_channel("games", parent=category.id)
    world.add_channel("no-files", parent=category.id, attach_files=False)
    world.add_channel("table-1", type=CH_PUBLIC_THREAD, parent="games")
    return world


# --------------------------------------------------------------------------------------------------
# Entity payloads
# --------------------------------------------------------------------------------------------------


def user_payload(user: FakeUser) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.username,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": None,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "primary_guild": None,
        "collectibles": None,
    }


def client_user_payload(user: FakeUser) -> dict[str, Any]:
    """``GET /users/@me`` for the bot."""
    return {**user_payload(user), "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None, "bio": ""}


def member_payload(
    world: World, user: FakeUser, *, with_user: bool = True, permissions: int | None = None
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in user.roles or ()],
        "nick": user.nick,
        "avatar": None,
        "banner": None,
        "joined_at": iso(user.joined_ms),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role: FakeRole) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(role.id),
        "name": role.name,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }
    if role.bot_id is not None:
        data["tags"] = {"bot_id": str(role.bot_id)}
    return data


def channel_payload(world: World, channel: FakeChannel) -> dict[str, Any]:
    last = str(channel.last_message_id) if channel.last_message_id else None
    if channel.type == CH_DM:
        recipient = world.users[channel.recipient_id or 0]
        return {
            "id": str(channel.id),
            "type": CH_DM,
            "last_message_id": last,
            "flags": 0,
            "recipients": [user_payload(recipient)],
        }
    data: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "parent_id": str(channel.parent_id) if channel.parent_id else None,
        "flags": 0,
        "permission_overwrites": [
            {"id": str(o["id"]), "type": int(o.get("type", 0)), "allow": str(o["allow"]), "deny": str(o["deny"])}
            for o in channel.overwrites
        ],
    }
    if channel.type != CH_CATEGORY:
        data.update(
            topic=channel.topic,
            nsfw=False,
            rate_limit_per_user=0,
            last_message_id=last,
            last_pin_timestamp=None,
            default_auto_archive_duration=1440,
        )
    if channel.is_thread:
        created = iso(snowflake_ms(channel.id))
        count = sum(1 for m in world.messages.values() if m.channel_id == channel.id and not m.deleted)
        data.update(
            owner_id=str(channel.owner_id or world.bot_id),
            message_count=count,
            total_message_sent=count,
            member_count=1,
            thread_metadata={
                "archived": channel.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": created,
                "locked": channel.locked,
                "create_timestamp": created,
            },
        )
        data.pop("permission_overwrites")
    return data


def interaction_channel_payload(world: World, channel: FakeChannel, user: FakeUser) -> dict[str, Any]:
    """The ``channel`` object inside an interaction: the channel plus the user's permissions."""
    data = channel_payload(world, channel)
    data["permissions"] = str(world.channel_permissions(user, channel))
    return data


def guild_payload(world: World, *, with_members: bool = True, guild_id: int | None = None) -> dict[str, Any]:
    """A GUILD_CREATE / fetch-guild payload (of the main guild, or ``guild_id``). ``member_count``
    always counts every member; when ``with_members`` is false only the bot's own member is included
    (what Discord sends without the GUILD_MEMBERS intent)."""
    members = world.members() if with_members else [world.bot]
    gid = world.guild_id if guild_id is None else guild_id
    channels = world.guild_channels(gid)
    system = next((c for c in channels if c.name == "general"), None)
    return {
        "id": str(gid),
        "name": world.guild_name_of(gid),
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(world.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": world.guild_locale,
        "system_channel_id": str(system.id) if system is not None else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "features": [],
        "application_id": None,
        "roles": [role_payload(r) for r in world.guild_roles(gid)],
        "emojis": [],
        "stickers": [],
        "joined_at": iso(WORLD_EPOCH_MS),
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(world.members()),
        "voice_states": [],
        "members": [member_payload(world, m) for m in members],
        "channels": [channel_payload(world, c) for c in channels],
        "threads": [channel_payload(world, c) for c in world.threads(gid) if not c.archived],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def application_payload(world: World) -> dict[str, Any]:
    """``GET /oauth2/applications/@me``."""
    return {
        "id": str(world.application_id),
        "name": world.application_name,
        "icon": None,
        "description": "Fake application for tests",
        "summary": "",
        "type": None,
        "bot_public": False,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": 0,
        "owner": user_payload(world.users[world.owner_id]),
        "team": None,
        "bot": user_payload(world.bot),
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "approximate_guild_count": len(world.guild_ids),
        "tags": [],
        "integration_types_config": {"0": {}},
    }


def attachment_payload(attachment: FakeAttachment) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(attachment.id),
        "filename": attachment.filename,
        "size": attachment.size,
        "url": attachment.url,
        "proxy_url": attachment.url,
        "content_type": attachment.content_type,
        "description": attachment.description,
    }
    size = png_size(attachment.data)
    if size is not None:
        data["width"], data["height"] = size
    if attachment.ephemeral:
        data["ephemeral"] = True
    return data


def message_payload(world: World, message: FakeMessage) -> dict[str, Any]:
    author = world.users[message.author_id]
    data: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "type": message.type,
        "content": message.content,
        "author": user_payload(author),
        "attachments": [attachment_payload(a) for a in message.attachments],
        "embeds": message.embeds,
        "components": message.components,
        "mentions": [],
        "mention_roles": [],
        "mention_everyone": False,
        "pinned": False,
        "tts": False,
        "timestamp": iso(snowflake_ms(message.id)),
        "edited_timestamp": iso(message.edited_ms) if message.edited_ms else None,
        "flags": message.flags,
        "reactions": [],
    }
    if message.guild_id is not None:
        data["guild_id"] = str(message.guild_id)
    if message.webhook_id is not None:
        data["webhook_id"] = str(message.webhook_id)
    if message.application_id is not None:
        data["application_id"] = str(message.application_id)
    if message.interaction_id is not None and message.interaction_user_id is not None:
        user = world.users[message.interaction_user_id]
        data["interaction_metadata"] = {
            "id": str(message.interaction_id),
            "type": message.interaction_type or IT_COMMAND,
            "user": user_payload(user),
            "authorizing_integration_owners": {"0": str(world.guild_id)},
        }
        if message.interaction_name:
            data["interaction_metadata"]["name"] = message.interaction_name
    if message.message_reference is not None:
        data["message_reference"] = message.message_reference
    return data


def shard_guilds(world: World, shard: Sequence[int] | None) -> list[int]:
    """The guilds whose events go to a gateway session with this ``[shard_id, shard_count]``."""
    if shard is None:
        return world.guild_ids
    return [g for g in world.guild_ids if shard_of(g, int(shard[1])) == int(shard[0])]


def ready_payload(world: World, session_id: str, resume_url: str, shard: list[int] | None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "v": API_VERSION,
        "user": client_user_payload(world.bot),
        "guilds": [{"id": str(g), "unavailable": True} for g in shard_guilds(world, shard)],
        "session_id": session_id,
        "session_type": "normal",
        "resume_gateway_url": resume_url,
        "application": {"id": str(world.application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": [],
        "user_settings": {},
        "auth_session_id_hash": "",
    }
    if shard is not None:
        data["shard"] = shard
    return data


# --------------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------------


def registered_command(world: World, scope: int | None, command: Mapping[str, Any]) -> dict[str, Any]:
    """A command as Discord stores and returns it; ids are stable per (scope, name, type)."""
    ctype = int(command.get("type", 1))
    key = (scope, str(command["name"]), ctype)
    cmd_id = world.command_ids.get(key)
    if cmd_id is None:
        cmd_id = world.command_ids[key] = world.new_id()
    data: dict[str, Any] = {
        "description": "",
        "options": [],
        "default_member_permissions": None,
        "nsfw": False,
        "contexts": None,
        "integration_types": [0],
        **dict(command),
    }
    data.update(id=str(cmd_id), application_id=str(world.application_id), type=ctype, version=str(world.new_id()))
    if scope is not None:
        data["guild_id"] = str(scope)
    else:
        data.pop("guild_id", None)
    return data


def find_command(world: World, name: str, *, ctype: int = 1) -> tuple[int | None, dict[str, Any]]:
    """A registered command by name: guild commands of the fake's guild first, then global ones."""
    for scope in (world.guild_id, None):
        for command in world.commands.get(scope, []):
            if command["name"] == name and int(command.get("type", 1)) == ctype:
                return scope, command
    if not any(world.commands.values()):
        raise PayloadError("the bot has not registered any command (no PUT .../commands recorded): sync the tree first")
    names = sorted({c["name"] for cmds in world.commands.values() for c in cmds})
    raise PayloadError(f"no registered command {name!r}; registered: {names}")


def _option_spec(specs: Sequence[Mapping[str, Any]], name: str, where: str) -> Mapping[str, Any]:
    for spec in specs:
        if spec["name"] == name:
            return spec
    raise PayloadError(f"{where} has no option {name!r}; options: {[s['name'] for s in specs]}")


@dataclass
class Resolved:
    """The ``resolved`` block of an interaction, filled as option values are converted."""

    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    roles: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    attachments: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v}

    def add_user(self, world: World, user: FakeUser, channel: FakeChannel) -> None:
        self.users[str(user.id)] = user_payload(user)
        if user.is_member and channel.guild_id is not None:
            perms = world.channel_permissions(user, channel)
            self.members[str(user.id)] = member_payload(world, user, with_user=False, permissions=perms)

    def add_role(self, role: FakeRole) -> None:
        self.roles[str(role.id)] = role_payload(role)

    def add_channel(self, world: World, target: FakeChannel, user: FakeUser) -> None:
        data = interaction_channel_payload(world, target, user)
        self.channels[str(target.id)] = data


def _check_range(spec: Mapping[str, Any], value: Any, where: str) -> None:
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise PayloadError(f"{where}: {value!r} is not one of the choices {[c['value'] for c in choices]}")
    if isinstance(value, str):
        if "min_length" in spec and len(value) < int(spec["min_length"]):
            raise PayloadError(f"{where}: shorter than min_length {spec['min_length']}")
        if "max_length" in spec and len(value) > int(spec["max_length"]):
            raise PayloadError(f"{where}: longer than max_length {spec['max_length']}")
    elif isinstance(value, int | float):
        if spec.get("min_value") is not None and value < spec["min_value"]:
            raise PayloadError(f"{where}: below min_value {spec['min_value']}")
        if spec.get("max_value") is not None and value > spec["max_value"]:
            raise PayloadError(f"{where}: above max_value {spec['max_value']}")


def convert_option(
    world: World,
    spec: Mapping[str, Any],
    value: Any,
    *,
    resolved: Resolved | None,
    user: FakeUser,
    channel: FakeChannel,
    new_attachment: Any,
) -> Any:
    """The JSON ``value`` Discord would send for a Python value given to a slash option.

    Users/channels/roles may be given as names, ids or world objects; attachments as bytes or a
    ``(filename, bytes)`` tuple (``new_attachment(filename, data)`` stores them and returns a
    :class:`FakeAttachment`). ``resolved`` is None for autocomplete, which carries no resolved data.
    """
    otype = int(spec["type"])
    where = f"option {spec['name']!r}"
    if otype == OPT_STRING:
        if not isinstance(value, str):
            raise PayloadError(f"{where} is a string option, got {value!r}")
        _check_range(spec, value, where)
        return value
    if otype == OPT_INTEGER:
        if isinstance(value, bool) or not isinstance(value, int):
            raise PayloadError(f"{where} is an integer option, got {value!r}")
        _check_range(spec, value, where)
        return value
    if otype == OPT_NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PayloadError(f"{where} is a number option, got {value!r}")
        _check_range(spec, value, where)
        return value
    if otype == OPT_BOOLEAN:
        if not isinstance(value, bool):
            raise PayloadError(f"{where} is a boolean option, got {value!r}")
        return value
    if otype == OPT_USER:
        target = world.user(value)
        if resolved is not None:
            resolved.add_user(world, target, channel)
        return str(target.id)
    if otype == OPT_CHANNEL:
        target_channel = world.channel(value)
        allowed = spec.get("channel_types")
        if allowed and target_channel.type not in allowed:
            raise PayloadError(f"{where} accepts channel types {allowed}, not {target_channel.type}")
        if resolved is not None:
            resolved.add_channel(world, target_channel, user)
        return str(target_channel.id)
    if otype == OPT_ROLE:
        role = world.role(value)
        if resolved is not None:
            resolved.add_role(role)
        return str(role.id)
    if otype == OPT_MENTIONABLE:
        try:
            target = world.user(value)
        except KeyError:
            role = world.role(value)
            if resolved is not None:
                resolved.add_role(role)
            return str(role.id)
        if resolved is not None:
            resolved.add_user(world, target, channel)
        return str(target.id)
    if otype == OPT_ATTACHMENT:
        if isinstance(value, FakeAttachment):
            attachment = value
        elif isinstance(value, bytes | bytearray):
            attachment = new_attachment("file.bin", bytes(value))
        elif isinstance(value, tuple) and len(value) == 2:
            attachment = new_attachment(str(value[0]), bytes(value[1]))
        else:
            raise PayloadError(f"{where} is an attachment option: give bytes or (filename, bytes)")
        if resolved is not None:
            resolved.attachments[str(attachment.id)] = attachment_payload(attachment)
        return str(attachment.id)
    raise PayloadError(f"{where} has unsupported type {otype}")


def command_data(
    world: World,
    path: Sequence[str],
    values: Mapping[str, Any],
    *,
    user: FakeUser,
    channel: FakeChannel,
    new_attachment: Any,
    focused: str | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(data, command)`` for a slash command (or, with ``focused``, an autocomplete) interaction.

    ``path`` is the command name then any subcommand group and subcommand names. Everything is
    checked against what the bot registered: unknown options, missing required options, choices,
    ranges and incomplete subcommand paths raise :class:`PayloadError`.
    """
    if not path:
        raise PayloadError("give at least the command name")
    scope, command = find_command(world, path[0])
    resolved = None if focused is not None else Resolved()
    top: list[dict[str, Any]] = []
    current = top
    specs: list[dict[str, Any]] = list(command.get("options") or [])
    where = f"/{path[0]}"
    for name in path[1:]:
        spec = _option_spec(specs, name, where)
        if int(spec["type"]) not in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            raise PayloadError(f"{where} {name!r} is an option, not a subcommand; pass it as name=value")
        node: dict[str, Any] = {"type": int(spec["type"]), "name": name, "options": []}
        current.append(node)
        current = node["options"]
        specs = list(spec.get("options") or [])
        where = f"{where} {name}"
    subs = [s["name"] for s in specs if int(s["type"]) in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP)]
    if subs:
        raise PayloadError(f"{where} needs a subcommand: one of {subs}")
    for name in values:
        _option_spec(specs, name, where)
    if focused is not None and focused not in values:
        raise PayloadError(f"focused option {focused!r} has no value")
    for spec in specs:  # Discord sends options in declaration order
        name = spec["name"]
        if name not in values:
            if spec.get("required") and focused is None:
                raise PayloadError(f"{where}: required option {name!r} missing")
            continue
        if name == focused:
            if not spec.get("autocomplete"):
                raise PayloadError(f"{where}: option {name!r} has no autocomplete")
            current.append({"type": int(spec["type"]), "name": name, "value": str(values[name]), "focused": True})
            continue
        value = convert_option(
            world, spec, values[name], resolved=resolved, user=user, channel=channel, new_attachment=new_attachment
        )
        current.append({"type": int(spec["type"]), "name": name, "value": value})
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": int(command.get("type", 1)),
        "options": top,
    }
    if scope is not None:
        data["guild_id"] = str(scope)
    if resolved is not None and resolved.to_json():
        data["resolved"] = resolved.to_json()
    return data, command


def check_command_visible(world: World, command: Mapping[str, Any], user: FakeUser, channel: FakeChannel) -> None:
    """Refuse what the Discord client would not even offer: commands the user lacks permission
    for (``default_member_permissions``) or guild-only commands in a DM."""
    needed = command.get("default_member_permissions")
    if channel.guild_id is None:
        contexts = command.get("contexts")
        if (contexts is not None and 1 not in contexts) or command.get("guild_id"):
            raise PayloadError(f"/{command['name']} is not available in DMs")
        return
    if needed is not None:
        needed_bits = int(needed)
        perms = world.channel_permissions(user, channel)
        if needed_bits == 0 or (perms & needed_bits) != needed_bits:
            raise PayloadError(
                f"{user.key} cannot see /{command['name']} (default_member_permissions={needed}); "
                "pass force=True to send it anyway"
            )


# --------------------------------------------------------------------------------------------------
# Components
# --------------------------------------------------------------------------------------------------


def walk_components(components: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first (rows, sections, containers, labels and their children)."""
    stack: list[Any] = list(reversed(components))
    while stack:
        comp = stack.pop()
        yield comp
        children: list[Any] = []
        if comp.get("components"):
            children.extend(comp["components"])
        if comp.get("accessory"):
            children.append(comp["accessory"])
        if comp.get("component"):
            children.append(comp["component"])
        stack.extend(reversed(children))


def find_component(components: Sequence[Mapping[str, Any]], custom_id: str) -> dict[str, Any]:
    for comp in walk_components(components):
        if comp.get("custom_id") == custom_id:
            return comp
    known = [c["custom_id"] for c in walk_components(components) if "custom_id" in c]
    raise PayloadError(f"no component with custom_id {custom_id!r}; present: {known}")


def number_components(components: list[dict[str, Any]]) -> None:
    """Give every component without one a numeric ``id``, as Discord does when storing a message."""
    used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
    counter = itertools.count(1)
    for comp in walk_components(components):
        if "id" not in comp:
            n = next(counter)
            while n in used:
                n = next(counter)
            comp["id"] = n


def select_values(
    world: World, component: Mapping[str, Any], values: Sequence[Any], user: FakeUser, channel: FakeChannel
) -> tuple[list[str], dict[str, Any] | None]:
    """The ``values`` (and ``resolved`` for entity selects) a user picking ``values`` sends."""
    ctype = int(component["type"])
    lo = int(component.get("min_values", 1))
    hi = int(component.get("max_values", 1))
    if not lo <= len(values) <= hi:
        raise PayloadError(f"select {component.get('custom_id')!r} takes {lo}..{hi} values, got {len(values)}")
    if ctype == C_STRING_SELECT:
        offered = [o["value"] for o in component.get("options", [])]
        for value in values:
            if value not in offered:
                raise PayloadError(f"{value!r} is not an option of {component.get('custom_id')!r}: {offered}")
        return [str(v) for v in values], None
    resolved = Resolved()
    out: list[str] = []
    for value in values:
        if ctype == C_USER_SELECT or (ctype == C_MENTIONABLE_SELECT and _is_user(world, value)):
            target = world.user(value)
            resolved.add_user(world, target, channel)
            out.append(str(target.id))
        elif ctype in (C_ROLE_SELECT, C_MENTIONABLE_SELECT):
            role = world.role(value)
            resolved.add_role(role)
            out.append(str(role.id))
        elif ctype == C_CHANNEL_SELECT:
            target_channel = world.channel(value)
            resolved.add_channel(world, target_channel, user)
            out.append(str(target_channel.id))
        else:
            raise PayloadError(f"component type {ctype} is not a select")
    return out, resolved.to_json()


def _is_user(world: World, ref: Any) -> bool:
    try:
        world.user(ref)
    except KeyError:
        return False
    return True


def modal_submit_components(modal: Mapping[str, Any], values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The ``components`` of a modal submission, mirroring the modal the bot opened.

    ``values`` maps custom_id -> text (text inputs) or list of values (selects inside labels).
    Unknown custom_ids, a missing required text input and length limits raise PayloadError.
    """
    known: set[str] = set()

    def fill(comp: Mapping[str, Any]) -> dict[str, Any] | None:
        ctype = int(comp["type"])
        if ctype == C_ROW:
            inner = [x for x in (fill(c) for c in comp.get("components", [])) if x is not None]
            return {"type": C_ROW, "id": comp.get("id", 0), "components": inner}
        if ctype == C_LABEL:
            inner_comp = fill(comp["component"])
            return None if inner_comp is None else {"type": C_LABEL, "id": comp.get("id", 0), "component": inner_comp}
        custom_id = comp.get("custom_id")
        if custom_id is None:
            return None
        known.add(custom_id)
        if ctype == C_TEXT_INPUT:
            text = values.get(custom_id, comp.get("value") or "")
            if not isinstance(text, str):
                raise PayloadError(f"text input {custom_id!r} takes a string")
            if comp.get("required", True) and not text:
                raise PayloadError(f"text input {custom_id!r} is required")
            if text and len(text) < int(comp.get("min_length", 0)):
                raise PayloadError(f"text input {custom_id!r}: shorter than {comp['min_length']}")
            if len(text) > int(comp.get("max_length", 4000)):
                raise PayloadError(f"text input {custom_id!r}: longer than {comp['max_length']}")
            return {"type": C_TEXT_INPUT, "id": comp.get("id", 0), "custom_id": custom_id, "value": text}
        if ctype in SELECT_TYPES:
            chosen = values.get(custom_id, [])
            return {"type": ctype, "id": comp.get("id", 0), "custom_id": custom_id, "values": list(chosen)}
        return None

    out = [x for x in (fill(c) for c in modal.get("components", [])) if x is not None]
    unknown = set(values) - known
    if unknown:
        raise PayloadError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}; has {sorted(known)}")
    return out


# --------------------------------------------------------------------------------------------------
# Interactions
# --------------------------------------------------------------------------------------------------


def interaction_payload(
    world: World,
    *,
    interaction_id: int,
    token: str,
    itype: int,
    data: dict[str, Any],
    user: FakeUser,
    channel: FakeChannel,
    message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A complete INTERACTION_CREATE payload (guild or DM)."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(world.application_id),
        "type": itype,
        "token": token,
        "version": 1,
        "data": data,
        "locale": user.locale,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "app_permissions": str(world.channel_permissions(world.bot, channel)),
        "channel_id": str(channel.id),
        "channel": interaction_channel_payload(world, channel, user) if channel.guild_id else None,
    }
    if channel.guild_id is not None:
        payload.update(
            guild_id=str(channel.guild_id),
            guild={"id": str(channel.guild_id), "locale": world.guild_locale, "features": []},
            guild_locale=world.guild_locale,
            member=member_payload(world, user, permissions=world.channel_permissions(user, channel)),
            authorizing_integration_owners={"0": str(channel.guild_id)},
            context=0,
        )
    else:
        payload.update(
            user=user_payload(user),
            channel=channel_payload(world, channel),
            authorizing_integration_owners={"0": str(world.guild_id)},
            context=1,
        )
    if message is not None:
        payload["message"] = message
    return payload


# --------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of PNG bytes, or None when the data is not a PNG."""
    if len(data) >= 24 and data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


def guess_content_type(filename: str, data: bytes) -> str:
    if png_size(data) is not None:
        return "image/png"
    guessed, _ = mimetypes.guess_type(filename)
    return guessed or "application/octet-stream"
