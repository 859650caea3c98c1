"""The fake Discord's Activities (issue 39): the ``LAUNCH_ACTIVITY`` interaction callback (type 12), the
instances it starts, and ``GET /applications/{id}/activity-instances/{instance_id}`` (bot token), which the bot
asks to learn where an instance runs and who is in it.

Checked against the vendored OpenAPI description: a launch's callback body is the description's
``LaunchActivityInteractionCallbackRequest`` (the REST router validates every request body), its answer with
``with_response`` a ``LaunchActivityInteractionCallbackResponse``, and an instance's answer an
``EmbeddedActivityInstance``; both answers are validated here before they are sent.

``refusal``: set it to make Discord refuse the next launches (:data:`REFUSALS`: in a DM, or for an application
whose Activities are not enabled); the launch is then recorded as refused and no instance starts.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from bot.testing.fakediscord import payloads as P
from bot.testing.fakediscord import schema as S

CB_LAUNCH_ACTIVITY = P.CB_LAUNCH_ACTIVITY

REFUSALS: dict[str, tuple[int, int, str]] = {
    "dm": (400, 50035, "Invalid Form Body: activities cannot be launched in this channel"),
    "disabled": (400, 50035, "Invalid Form Body: this application has no Activity enabled"),
}
"""Discord's refusals of a launch the tests can ask for, as (status, code, message)."""


def schema_problems(name: str, body: Any) -> list[str]:
    """What the OpenAPI description's schema ``name`` finds wrong in an answer."""
    schema = {"$ref": f"#/components/schemas/{name}"}
    validator = S.DiscordValidator(S._compiler().node(schema), registry=S._registry())
    return [error.message for error in validator.iter_errors(S.normalise(body))]


@dataclass
class FakeInstance:
    """An Activity's instance: where it runs and who has it open."""

    id: str
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)

    def payload(self, application_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {"id": f"{'gc' if self.guild_id else 'pc'}-{self.channel_id}"}
        if self.guild_id is not None:
            location.update(kind="gc", channel_id=str(self.channel_id), guild_id=str(self.guild_id))
        else:
            location.update(kind="pc", channel_id=str(self.channel_id))
        return {
            "application_id": str(application_id),
            "instance_id": self.id,
            "launch_id": f"{self.id}-launch",
            "location": location,
            "users": [str(u) for u in self.users],
        }


@dataclass
class FakeActivities:
    """The instances the fake started, and the launches it was asked for (``launches``: interaction ids)."""

    world: P.World
    instances: dict[str, FakeInstance] = field(default_factory=dict)
    launches: list[int] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)
    refusal: tuple[int, int, str] | None = None
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def launch(self, inter: P.FakeInteraction) -> FakeInstance | None:
        """A launch asked by an interaction's answer: the instance of its channel (the user joins it), or
        None when Discord refuses it (:attr:`refusal`)."""
        if self.refusal is not None:
            self.refused.append(inter.id)
            return None
        self.launches.append(inter.id)
        for instance in self.instances.values():
            if instance.channel_id == inter.channel_id:
                break
        else:
            ident = f"i-{next(self._ids)}-{'gc' if inter.guild_id else 'pc'}-{inter.channel_id}"
            instance = FakeInstance(ident, inter.channel_id, inter.guild_id)
            self.instances[ident] = instance
        self.join(instance.id, inter.user_id)
        return instance

    def join(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id not in users:
            users.append(user_id)

    def leave(self, instance_id: str, user_id: int) -> None:
        users = self.instances[instance_id].users
        if user_id in users:
            users.remove(user_id)

    def answer(self, interaction: dict[str, Any], instance: FakeInstance) -> dict[str, Any]:
        """The callback's answer ``with_response``: the interaction and the instance it launched."""
        body = {
            "interaction": interaction,
            "resource": {"type": CB_LAUNCH_ACTIVITY, "activity_instance": {"id": instance.id}},
        }
        problems = schema_problems("InteractionCallbackResponse", body)
        assert not problems, problems  # the fake answers what Discord's description allows
        return body

    def instance_payload(self, instance_id: str) -> dict[str, Any] | None:
        """``GET /applications/{id}/activity-instances/{instance_id}``'s answer (None: 404, unknown)."""
        instance = self.instances.get(instance_id)
        if instance is None:
            return None
        body = instance.payload(self.world.application_id)
        problems = schema_problems("EmbeddedActivityInstance", body)
        assert not problems, problems
        return body
