"""Request bodies checked against Discord's published OpenAPI description, as Discord checks them.

The description is vendored in ``openapi/openapi.json`` (see ``openapi/README.md``). For a request
``METHOD /path`` the fake finds the description's path template that matches (the most literal one
when several do, so ``/thread-members/@me`` wins over ``/thread-members/{user_id}``) and, when that
operation has a ``requestBody``, validates the JSON body (or the ``payload_json`` part of a multipart
body) against its ``application/json`` schema with a Draft 2020-12 validator (:mod:`jsonschema`);
``$ref`` cycles are resolved inside the document through a :mod:`referencing` registry.

Two normalisations mirror what the real API accepts although the description is stricter
(the notes that came with Discord's published description): a snowflake (``"format": "snowflake"``) may be a
non-negative integer as well as a decimal string, and ``default_member_permissions`` may be a decimal string.
``format`` is otherwise an annotation (Draft 2020-12's default): Discord's URL checks are not
reproduced.

Speed: the document is parsed once per process and compiled once into an equivalent form that is
cheap to check (see :func:`compiled`): ``$ref`` inlined (cycles stay references), a union of
object schemas told apart by a required ``type`` checked only against the branch the body names
(keyword ``x-union``), a ``oneOf`` of ``const`` values as an ``enum``, a nullable union as
``x-nullable``. Each operation's validator is built once and cached.

A refusal is a list of :class:`Problem` (field path, Discord error code, sentence); :func:`form_errors`
turns problems into Discord's nested ``errors`` object of a 400 Invalid Form Body (50035).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

OPENAPI_PATH = Path(__file__).resolve().parent / "openapi" / "openapi.json"
BASE_URI = "urn:discord:openapi"
SCHEMAS_PREFIX = "#/components/schemas/"
JSON_CONTENT = "application/json"
MAX_ERROR_VALUE = 40  # characters of an offending value quoted in an error sentence
BODY_METHODS = ("post", "put", "patch", "delete")
NULL_SCHEMA = {"type": "null"}
ANNOTATIONS = frozenset({"title", "description", "format"})


@dataclass(frozen=True)
class Problem:
    """One thing Discord refuses in a body: where (path of keys/indexes), its code and sentence."""

    path: tuple[str | int, ...]
    code: str
    message: str

    @property
    def dotted(self) -> str:
        """The path as ``embeds.0.description`` (``_`` for the whole body)."""
        return ".".join(str(p) for p in self.path) or "_"


def form_errors(problems: Iterable[Problem]) -> dict[str, Any]:
    """Discord's nested ``errors`` object: ``{"embeds": {"0": {"title": {"_errors": [...]}}}}``."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for key in problem.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return tree


def error_paths(errors: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The dotted paths of a nested ``errors`` object (``["embeds.0.title", ...]``), for tests."""
    out: list[str] = []
    for key, value in errors.items():
        if key == "_errors":
            out.append(prefix or "_")
        elif isinstance(value, Mapping):
            out.extend(error_paths(value, f"{prefix}.{key}" if prefix else key))
    return out


# --------------------------------------------------------------------------------------------------
# The description, loaded and compiled once per process
# --------------------------------------------------------------------------------------------------


@functools.cache
def spec() -> dict[str, Any]:
    """The parsed OpenAPI document (once per process)."""
    with OPENAPI_PATH.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


class _Compiler:
    """Turns the description's schemas into equivalent ones that are cheap to check."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.schemas: Mapping[str, Any] = document["components"]["schemas"]
        self.done: dict[str, Any] = {}
        self.stack: list[str] = []
        self.memo_ids = 0

    def named(self, name: str) -> Any:
        if name in self.done:
            return self.done[name]
        if name in self.stack:  # a cycle: stays a reference (resolved through the registry)
            return {"$ref": BASE_URI + SCHEMAS_PREFIX + name}
        self.stack.append(name)
        try:
            result = self.node(self.schemas[name])
        finally:
            self.stack.pop()
        self.done[name] = result
        return result

    def original(self, node: Any) -> Any:
        """``node`` with local references followed (for reading a branch's discriminator)."""
        for _ in range(32):
            ref = node.get("$ref") if isinstance(node, dict) else None
            if not (isinstance(ref, str) and ref.startswith(SCHEMAS_PREFIX)):
                break
            node = self.schemas[ref[len(SCHEMAS_PREFIX) :]]
        return node

    def node(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.node(x) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMAS_PREFIX):
            target = self.named(ref[len(SCHEMAS_PREFIX) :])
            siblings = {k: v for k, v in node.items() if k != "$ref"}
            if not siblings:
                return target
            out = self.node(siblings)
            out.setdefault("allOf", []).append(target)
            return out
        out = {k: self.node(v) for k, v in node.items()}
        for keyword in ("oneOf", "anyOf"):
            if isinstance(node.get(keyword), list):
                self.union(out, keyword, node[keyword])
        if isinstance(out.get("items"), dict):  # array items: an item seen valid before is not checked again
            self.memo_ids += 1
            out["items"] = {"x-memo": {"id": self.memo_ids, "schema": out["items"]}}
        return out

    def union(self, out: dict[str, Any], keyword: str, originals: list[Any]) -> None:
        branches = out[keyword]
        consts = [b.get("const") for b in branches if isinstance(b, dict) and set(b) - ANNOTATIONS == {"const"}]
        if len(consts) == len(branches) and len({json.dumps(c) for c in consts}) == len(consts):
            del out[keyword]  # a oneOf of distinct consts is an enum
            out["enum"] = consts
            return
        pairs = [(b, o) for b, o in zip(branches, originals) if o != NULL_SCHEMA]
        nullable = len(pairs) < len(branches)
        plain = self.discriminated(pairs)
        if plain is None and len(pairs) == 1:
            plain = pairs[0][0]
        if plain is None and nullable and pairs:
            plain = {keyword: [b for b, _ in pairs]}
        if plain is None:
            return
        del out[keyword]
        if nullable:
            plain = {"x-nullable": plain}
        out.setdefault("allOf", []).append(plain)

    def discriminated(self, pairs: list[tuple[Any, Any]]) -> dict[str, Any] | None:
        """``x-union`` for object branches told apart by a required ``type`` of disjoint values."""
        if len(pairs) < 2:
            return None
        by: dict[str, Any] = {}
        values: list[Any] = []
        for compiled, original in pairs:
            branch = self.original(original)
            if not isinstance(branch, dict) or "type" not in (branch.get("required") or ()):
                return None
            spec_ = (branch.get("properties") or {}).get("type")
            if not isinstance(spec_, dict) or not ("enum" in spec_ or "const" in spec_):
                return None
            for value in spec_["enum"] if "enum" in spec_ else [spec_["const"]]:
                key = json.dumps(value)
                if key in by:
                    return None
                by[key] = compiled
                values.append(value)
        return {"x-union": {"by": by, "values": values}}


@functools.cache
def _compiler() -> _Compiler:
    compiler = _Compiler(spec())
    for name in compiler.schemas:
        compiler.named(name)
    return compiler


@functools.cache
def _registry() -> referencing.Registry[Any]:
    document = {"components": {"schemas": _compiler().done}}
    resource = referencing.Resource.from_contents(document, default_specification=referencing.jsonschema.DRAFT202012)
    registry: referencing.Registry[Any] = referencing.Registry().with_resource(BASE_URI, resource)
    return registry


def compiled(method: str, template: str) -> Any | None:
    """The compiled JSON request-body schema of ``method template``; None when it takes none."""
    operation = spec()["paths"].get(template, {}).get(method.lower())
    if not isinstance(operation, dict):
        return None
    content = (operation.get("requestBody") or {}).get("content") or {}
    if JSON_CONTENT not in content:
        return None
    return _compiler().node(content[JSON_CONTENT]["schema"])


def _type(validator: Any, types: Any, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    # Discord accepts snowflakes as integers too (discord.py sends allowed_mentions.users and
    # attachments[].id as integers), although the description types them as strings.
    if (
        schema.get("format") == "snowflake"
        and isinstance(instance, int)
        and not isinstance(instance, bool)
        and instance >= 0
    ):
        return
    yield from _DRAFT_TYPE(validator, types, instance, schema)


def _union(validator: Any, union: Mapping[str, Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not isinstance(instance, dict):
        yield ValidationError(f"{instance!r} is not an object", validator="type", validator_value="object")
        return
    if "type" not in instance:
        yield ValidationError("'type' is required", validator="required", validator_value=["type"])
        return
    branch = union["by"].get(json.dumps(instance["type"]))
    if branch is None:
        yield ValidationError(
            "unknown type", validator="enum", validator_value=union["values"], instance=instance["type"], path=["type"]
        )
        return
    yield from validator.descend(instance, branch)


def _nullable(validator: Any, inner: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if instance is not None:
        yield from validator.descend(instance, inner)


_SEEN_VALID: set[tuple[int, str]] = set()
MAX_SEEN_VALID = 50_000


def _memo(validator: Any, memo: Mapping[str, Any], instance: Any, schema: Any) -> Iterator[ValidationError]:
    # Checking is a pure function of (schema, instance): an instance once found valid against this
    # schema is valid again. Only successes are remembered, so every refusal is computed afresh. The
    # key is the instance's repr: for decoded JSON (dicts, lists, strings, numbers, booleans, None) equal
    # reprs mean equal values of the same types (True is not 1, 1.0 is not 1), and repr takes about half
    # the time of a sorted json.dumps (the same value with its keys in another order is checked again).
    key = (memo["id"], repr(instance))
    if key in _SEEN_VALID:
        return
    failed = False
    for error in validator.descend(instance, memo["schema"]):
        failed = True
        yield error
    if not failed:
        if len(_SEEN_VALID) >= MAX_SEEN_VALID:
            _SEEN_VALID.clear()
        _SEEN_VALID.add(key)


_DRAFT_TYPE = Draft202012Validator.VALIDATORS["type"]
DiscordValidator = jsonschema.validators.extend(
    Draft202012Validator, validators={"type": _type, "x-union": _union, "x-nullable": _nullable, "x-memo": _memo}
)


@dataclass(frozen=True)
class _Template:
    path: str
    segments: tuple[str | None, ...]  # None = a {parameter}
    literals: int


@functools.cache
def _templates() -> tuple[_Template, ...]:
    out = []
    for path in spec()["paths"]:
        segments = tuple(None if s.startswith("{") else s for s in path.strip("/").split("/"))
        out.append(_Template(path, segments, sum(s is not None for s in segments)))
    return tuple(out)


@functools.cache
def _literals() -> frozenset[str]:
    """Every literal segment of the description's paths."""
    return frozenset(s for t in _templates() for s in t.segments if s is not None)


def spec_path(path: str) -> str | None:
    """The description's path template for a request path (``/channels/1/messages`` ->
    ``/channels/{channel_id}/messages``), the most literal one when several match; None if none."""
    # A segment no template spells (an id, a token) can only fill a parameter: the answer depends on
    # the path's shape alone, so it is cached by shape (ids would defeat a cache keyed by path).
    literals = _literals()
    return _spec_path_of_shape(tuple(p if p in literals else None for p in path.strip("/").split("/")))


@functools.lru_cache(maxsize=1024)
def _spec_path_of_shape(parts: tuple[str | None, ...]) -> str | None:
    best: _Template | None = None
    for template in _templates():
        if len(template.segments) != len(parts):
            continue
        fits = all(s is None or s == p for s, p in zip(template.segments, parts))
        if fits and (best is None or template.literals > best.literals):
            best = template
    return None if best is None else best.path


@functools.lru_cache(maxsize=256)
def validator_for(method: str, template: str) -> Any | None:
    """The cached validator of ``method template``'s JSON request body; None when it takes none."""
    schema = compiled(method, template)
    return None if schema is None else DiscordValidator(schema, registry=_registry())


def warm() -> None:
    """Build every validator now (the first request then pays nothing)."""
    for template in _templates():
        for method in BODY_METHODS:
            validator_for(method, template.path)


# --------------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------------


def normalise(body: Any) -> Any:
    """A copy of ``body`` with ``default_member_permissions`` decimal strings as integers (discord.py
    sends the string, which Discord accepts although the description types it as an integer)."""
    if isinstance(body, list):
        return [normalise(item) for item in body]
    if isinstance(body, dict):
        out = {k: normalise(v) for k, v in body.items()}
        value = out.get("default_member_permissions")
        if isinstance(value, str) and value.isdecimal():
            out["default_member_permissions"] = int(value)
        return out
    return body


STATS = {"bodies": 0, "seconds": 0.0}
"""Bodies validated in this process and the time it took (to see the cost of strictness)."""


def validate(method: str, path: str, body: Any) -> list[Problem]:
    """What Discord's description refuses in ``body`` sent as ``method path``; [] when valid (or
    when the route takes no body or is not in the description)."""
    started = time.perf_counter()
    try:
        return _validate(method, path, body)
    finally:
        STATS["bodies"] += 1
        STATS["seconds"] += time.perf_counter() - started


def _validate(method: str, path: str, body: Any) -> list[Problem]:
    template = spec_path(path)
    if template is None:
        return []
    validator = validator_for(method, template)
    if validator is None:
        return []
    problems: dict[tuple[str | int, ...], Problem] = {}
    for error in validator.iter_errors(normalise(body)):
        for problem in _problems(error):
            problems.setdefault(problem.path, problem)
    return sorted(problems.values(), key=lambda p: [str(k) for k in p.path])


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors that say what is wrong: inside a union no branch accepted, those of the branch
    that came closest (fewest errors, then deepest)."""
    if str(error.validator) not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    best = min(branches.values(), key=lambda errs: (len(errs), -max(len(e.absolute_path) for e in errs)))
    return [leaf for sub in best for leaf in _leaves(sub)]


def _problems(error: ValidationError) -> list[Problem]:
    out = []
    for leaf in _leaves(error):
        path = tuple(leaf.absolute_path)
        keyword = str(leaf.validator)
        if keyword == "required":
            instance = leaf.instance if isinstance(leaf.instance, dict) else {}
            out += [
                Problem((*path, name), "BASE_TYPE_REQUIRED", "This field is required")
                for name in leaf.validator_value
                if name not in instance
            ]
        else:
            out.append(Problem(path, *_sentence(keyword, leaf.validator_value, leaf.instance)))
    return out


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= MAX_ERROR_VALUE else text[: MAX_ERROR_VALUE - 1] + "…"


def _sentence(keyword: str, value: Any, instance: Any) -> tuple[str, str]:
    """(Discord error code, sentence) for a failed JSON-schema keyword, worded as Discord does."""
    if keyword in ("maxLength", "maxItems", "maxProperties"):
        return "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
    if keyword in ("minLength", "minItems", "minProperties"):
        return "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
    if keyword in ("maximum", "exclusiveMaximum"):
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
    if keyword in ("minimum", "exclusiveMinimum"):
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
    if keyword in ("enum", "const"):
        allowed = value if keyword == "enum" else [value]
        return "ENUM_TYPE_COERCE", f"Value {_short(instance)} is not a valid enum value (one of {_short(allowed)})."
    if keyword == "type":
        wanted = value if isinstance(value, str) else " or ".join(str(v) for v in value)
        return "BASE_TYPE_INVALID", f"Value {_short(instance)} must be of type {wanted}."
    if keyword == "pattern":
        return "STRING_TYPE_REGEX", f"Value {_short(instance)} does not match {value}."
    if keyword == "uniqueItems":
        return "ARRAY_ITEMS_NOT_UNIQUE", "The items must be unique."
    if keyword in ("oneOf", "anyOf"):
        return "UNION_TYPE_CHOICES", f"Value {_short(instance)} matches none of the allowed forms."
    return "INVALID", f"Invalid value ({keyword})."


def describe(problems: Sequence[Problem]) -> str:
    """One line per problem (for reports and assertion messages)."""
    return "; ".join(f"{p.dotted}: {p.message} [{p.code}]" for p in problems)
