"""Discord's OpenAPI spec: route matching and request validation, and schema errors told
the way Discord tells them (:func:`schema_problems`).

The spec (OpenAPI 3.1, i.e. JSON Schema 2020-12) is loaded once per process
(:func:`load_spec` is cached) and validators are compiled lazily per route. It is found
(:func:`find_spec`), in this order:

1. the file named by the ``DISCORD_OPENAPI_SPEC`` environment variable, when it is set
   (an explicit choice: if that file is missing, there is no spec);
2. ``../shared/discord-api-spec/openapi.json`` beside the repository (computed from this
   file's location);
3. a cached copy of the pinned version (:data:`SPEC_COMMIT` of ``discord/discord-api-spec``,
   checked by :data:`SPEC_SHA256`) in the user's cache directory, fetched from GitHub the
   first time (``DISCORD_OPENAPI_SPEC_FETCH=0`` forbids fetching).

Without any, the fake still runs: routes are matched with :data:`ROUTES_FILE` (the spec's
paths and methods, shipped with the fake) and only the schema validation of request bodies
and parameters is skipped, said once by a :class:`SpecUnavailableWarning`.

Deliberate deviations from the raw spec (the spec is stricter than the real API):

* ``SnowflakeType`` also accepts non-negative integers: Discord accepts
  snowflakes as JSON numbers and discord.py sends e.g. ``attachments[].id`` as
  ``0, 1, ...``.
* ``format`` keywords are annotations only (not asserted), as in the default
  2020-12 vocabulary.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import tempfile
import urllib.request
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.fakediscord.limits import Problem

log = logging.getLogger("fakediscord")

REPOSITORY_ROOT = Path(__file__).resolve().parents[2]
SIBLING_SPEC = REPOSITORY_ROOT.parent / "shared" / "discord-api-spec" / "openapi.json"
"""Where a checkout beside the repository keeps the spec (``../shared/...``)."""
SPEC_COMMIT = "74fda0fad044407ea280043a03ffc9bc64c4e49e"
"""The pinned commit of discord/discord-api-spec (2026-07-18, "Automated spec update")."""
SPEC_SHA256 = "8c1d0707ccdf8e380a86dfba04058820a66435c1b69d5ed82e04dd8c0520dd73"
"""sha256 of ``specs/openapi.json`` at :data:`SPEC_COMMIT`."""
VERDICTS_KEPT = 512
"""Bodies whose schema verdict a process keeps (`ApiSpec.body_errors`), the oldest dropped."""
SPEC_URL = (
    f"https://raw.githubusercontent.com/discord/discord-api-spec/{SPEC_COMMIT}/specs/openapi.json"
)
ROUTES_FILE = Path(__file__).with_name("routes.json")
"""The spec's routes (path template, method, request body), for matching without the spec."""
FETCH_TIMEOUT = 30.0
_URI = "urn:discord-openapi"
_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass
class Operation:
    """One (path template, method) of the spec."""

    template: str
    method: str
    path_params: dict[str, str]
    definition: dict[str, Any]
    path_item: dict[str, Any]
    _spec: ApiSpec = field(repr=False)

    @property
    def operation_id(self) -> str:
        return self.definition.get("operationId", "")

    def body_schema(self, multipart: bool) -> dict[str, Any] | None:
        content = (self.definition.get("requestBody") or {}).get("content") or {}
        kind = "multipart/form-data" if multipart else "application/json"
        media = content.get(kind) or content.get("application/json")
        return None if media is None else media.get("schema")

    @property
    def accepts_body(self) -> bool:
        return "requestBody" in self.definition

    def validate_body(self, body: Any, *, multipart: bool = False) -> list[ValidationError]:
        """Schema errors of a JSON body (``payload_json`` for multipart)."""
        return list(self._spec.body_errors(self.template, self.method, multipart, body))

    def validate_params(self, query: Mapping[str, str]) -> list[tuple[str, str]]:
        """Loose checks of path and query parameters: ``[(name, message), ...]``."""
        problems: list[tuple[str, str]] = []
        declared = list(self.path_item.get("parameters", [])) + list(
            self.definition.get("parameters", [])
        )
        for param in declared:
            name, where = param.get("name"), param.get("in")
            if where == "path":
                value = self.path_params.get(name)
            elif where == "query":
                value = query.get(name)
            else:
                continue
            if value is None:
                if param.get("required") and where == "query":
                    problems.append((name, "required query parameter missing"))
                continue
            schema = self._spec.resolve(param.get("schema") or {})
            msg = _check_scalar(value, schema, self._spec)
            if msg:
                problems.append((name, msg))
        return problems


def _check_scalar(value: str, schema: dict[str, Any], spec: ApiSpec) -> str | None:
    """Check a string coming from a URL against a (scalar) schema, loosely."""
    if "anyOf" in schema or "oneOf" in schema:
        options = [spec.resolve(s) for s in schema.get("anyOf", schema.get("oneOf", []))]
        msgs = [_check_scalar(value, s, spec) for s in options]
        return None if any(m is None for m in msgs) else msgs[0]
    types = schema.get("type")
    if isinstance(types, str):
        types = [types]
    types = [t for t in (types or []) if t != "null"]
    if not types:
        return None
    if "boolean" in types and value.lower() in ("true", "false", "1", "0"):
        return None
    if "integer" in types:
        try:
            num = int(value)
        except ValueError:
            pass
        else:
            lo, hi = schema.get("minimum"), schema.get("maximum")
            if (lo is not None and num < lo) or (hi is not None and num > hi):
                return f"{value!r} is out of range [{lo}, {hi}]"
            return None
    if "number" in types:
        try:
            float(value)
            return None
        except ValueError:
            pass
    if "string" in types:
        if "enum" in schema and value not in schema["enum"]:
            return f"{value!r} is not one of {schema['enum']}"
        pattern = schema.get("pattern")
        if pattern and Draft202012Validator({"type": "string", "pattern": pattern}).is_valid(value):
            return None
        if pattern:
            return f"{value!r} does not match {pattern!r}"
        return None
    return f"{value!r} is not of type {'/'.join(types)}"


def _absolutize(node: Any) -> Any:
    """Rewrite local ``#/...`` refs to absolute ones so any sub-schema can be a root."""
    if isinstance(node, dict):
        out = {k: _absolutize(v) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            out["$ref"] = _URI + ref
        return out
    if isinstance(node, list):
        return [_absolutize(v) for v in node]
    return node


class SpecUnavailableWarning(UserWarning):
    """Discord's OpenAPI spec could not be had: request bodies are not schema-validated."""


def cache_dir() -> Path:
    """The user's cache directory for the project (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "strategic-initiative"


def cached_spec_path() -> Path:
    return cache_dir() / f"discord-openapi-{SPEC_COMMIT[:12]}.json"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fetch_pinned(target: Path) -> str | None:
    """Download the pinned spec into ``target``; None, or why it failed."""
    if os.environ.get("DISCORD_OPENAPI_SPEC_FETCH", "1").lower() in ("0", "false", "no"):
        return "fetching is off (DISCORD_OPENAPI_SPEC_FETCH=0)"
    try:
        with urllib.request.urlopen(SPEC_URL, timeout=FETCH_TIMEOUT) as answer:  # noqa: S310
            data = answer.read()
    except OSError as exc:
        return f"cannot fetch {SPEC_URL}: {exc}"
    digest = hashlib.sha256(data).hexdigest()
    if digest != SPEC_SHA256:
        return f"{SPEC_URL} has sha256 {digest}, not the pinned {SPEC_SHA256}"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
            tmp.write(data)
        os.replace(tmp.name, target)
    except OSError as exc:
        return f"cannot write {target}: {exc}"
    return None


def find_spec(*, fetch: bool = True) -> tuple[Path | None, str]:
    """The spec's file, or None with the reason (see the module docstring for the order)."""
    named = os.environ.get("DISCORD_OPENAPI_SPEC")
    if named:
        path = Path(named)
        if path.is_file():
            return path, f"DISCORD_OPENAPI_SPEC={named}"
        return None, f"DISCORD_OPENAPI_SPEC names {named}, which does not exist"
    if SIBLING_SPEC.is_file():
        return SIBLING_SPEC, "../shared/discord-api-spec/openapi.json"
    cached = cached_spec_path()
    if cached.is_file():
        if _sha256(cached) == SPEC_SHA256:
            return cached, f"the cached pinned copy {cached}"
        cached.unlink(missing_ok=True)
    if not fetch:
        return None, "no spec beside the repository or in the cache"
    why = _fetch_pinned(cached)
    if why is None:
        return cached, f"the pinned copy fetched into {cached}"
    return None, f"no spec beside the repository or in the cache, and {why}"


def _routes_only() -> dict[str, Any]:
    """A spec skeleton from :data:`ROUTES_FILE`: paths, methods and whether a body is taken."""
    shipped = json.loads(ROUTES_FILE.read_text())
    paths: dict[str, Any] = {}
    for template, method, body in shipped["routes"]:
        op: dict[str, Any] = {}
        if body is not None:
            op["requestBody"] = {"required": body == "required"}
        paths.setdefault(template, {})[method] = op
    return {"paths": paths, "components": {"schemas": {}}, "info": {}}


def routes_of(raw: Mapping[str, Any]) -> list[list[Any]]:
    """What :data:`ROUTES_FILE` holds, from a spec: ``[template, method, body]`` each,
    ``body`` None (no body), ``"optional"`` or ``"required"``."""
    out: list[list[Any]] = []
    for template, item in raw["paths"].items():
        for method in _METHODS:
            if method in item:
                body = item[method].get("requestBody")
                kind = None if body is None else "required" if body.get("required") else "optional"
                out.append([template, method, kind])
    return out


class ApiSpec:
    """The loaded spec with a path-template router and cached validators.

    ``ApiSpec(None)`` (no spec file) matches routes from :data:`ROUTES_FILE` and validates
    nothing (``validating`` is False).
    """

    def __init__(self, path: Path | None, *, source: str = "") -> None:
        self.validating = path is not None
        self.source = source or (str(path) if path else "routes.json (no spec)")
        raw = json.loads(Path(path).read_text()) if path is not None else _routes_only()
        schemas = raw["components"]["schemas"]
        if "SnowflakeType" in schemas:
            snowflake = schemas["SnowflakeType"]
            schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
        self.raw: dict[str, Any] = _absolutize(raw)
        self.version = raw.get("info", {}).get("version")
        resource = Resource.from_contents(self.raw, default_specification=DRAFT202012)
        self._registry = Registry().with_resource(_URI, resource).crawl()
        self._resolver = self._registry.resolver()
        self._routes: list[tuple[tuple[str, ...], str, dict[str, Any]]] = []
        for template, item in self.raw["paths"].items():
            segments = tuple(template.strip("/").split("/"))
            self._routes.append((segments, template, item))
        # most literal segments first, so '@original' beats '{message_id}'
        self._routes.sort(key=lambda r: -sum(not s.startswith("{") for s in r[0]))
        self._validators: dict[tuple[str, str, bool], Draft202012Validator | None] = {}
        self._verdicts: dict[tuple[str, str, bool, str], tuple[ValidationError, ...]] = {}

    def resolve(self, schema: dict[str, Any]) -> dict[str, Any]:
        found: Any = schema  # what a $ref points at is any JSON (a schema: an object or a bool)
        while isinstance(found, dict) and "$ref" in found:
            found = self._resolver.lookup(found["$ref"]).contents
        return found

    def match(self, method: str, path: str) -> tuple[Operation | None, bool]:
        """Find the operation for ``path`` (relative to ``/api/v10``).

        Returns ``(operation, path_known)``; ``path_known`` tells a 405 from a 404.
        """
        parts = tuple(path.strip("/").split("/"))
        path_known = False
        for segments, template, item in self._routes:
            if len(segments) != len(parts):
                continue
            params: dict[str, str] = {}
            for seg, part in zip(segments, parts, strict=True):
                if seg.startswith("{") and seg.endswith("}"):
                    if not part:
                        break
                    params[seg[1:-1]] = part
                elif seg != part:
                    break
            else:
                path_known = True
                definition = item.get(method.lower())
                if definition is not None:
                    return Operation(template, method.lower(), params, definition, item, self), True
        return None, path_known

    def _validator(
        self, template: str, method: str, multipart: bool
    ) -> Draft202012Validator | None:
        key = (template, method, multipart)
        if key not in self._validators:
            op = self.raw["paths"][template][method]
            dummy = Operation(template, method, {}, op, self.raw["paths"][template], self)
            schema = dummy.body_schema(multipart)
            self._validators[key] = (
                None if schema is None else Draft202012Validator(schema, registry=self._registry)
            )
        return self._validators[key]

    def body_errors(
        self, template: str, method: str, multipart: bool, body: Any
    ) -> tuple[ValidationError, ...]:
        """Schema errors of a body, sorted by where they are. The verdict on a body is a
        function of its JSON alone, so it is kept by the body's canonical text: every bot a
        test process starts sends the same large command list when it syncs (validating it
        took about half a second each time), and the same body gets the same errors."""
        validator = self._validator(template, method, multipart)
        if validator is None:
            return ()
        try:
            key = (
                template,
                method,
                multipart,
                json.dumps(body, sort_keys=True, separators=(",", ":")),
            )
        except (TypeError, ValueError):  # not JSON text: nothing to key it by
            return self._errors(validator, body)
        found = self._verdicts.get(key)
        if found is None:
            found = self._errors(validator, body)
            if len(self._verdicts) >= VERDICTS_KEPT:
                self._verdicts.pop(next(iter(self._verdicts)))
            self._verdicts[key] = found
        return found

    @staticmethod
    def _errors(validator: Draft202012Validator, body: Any) -> tuple[ValidationError, ...]:
        return tuple(sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path)))

    def operations(self) -> Iterable[tuple[str, str]]:
        for template, item in self.raw["paths"].items():
            for method in _METHODS:
                if method in item:
                    yield template, method


@functools.cache
def load_spec(path: str | None = None) -> ApiSpec:
    """Load (once per process) and return the spec: ``path``, else :func:`find_spec`'s.

    Without one, the fake matches routes from :data:`ROUTES_FILE` and skips only the schema
    validation, and says so once (a :class:`SpecUnavailableWarning` and a log line).
    """
    if path:
        return ApiSpec(Path(path), source=path)
    found, how = find_spec()
    if found is None:
        message = (
            f"Discord's OpenAPI spec is unavailable ({how}): the fake Discord matches routes "
            f"from {ROUTES_FILE.name} and skips the schema validation of request bodies"
        )
        log.warning(message)
        warnings.warn(message, SpecUnavailableWarning, stacklevel=2)
    return ApiSpec(found, source=how)


# --------------------------------------------------------------------------- schema errors


def _is_discriminator_miss(err) -> bool:
    """Does this error say "wrong union branch" (root type, or the ``type`` field)?"""
    rel = list(err.relative_path)
    if not rel and err.validator == "type":
        return True
    return rel == ["type"] and err.validator in ("enum", "const", "type")


def _leaf_errors(err) -> list:
    """Descend into anyOf/oneOf errors, following the branch the payload meant."""
    if not err.context:
        return [err]
    branches: dict[Any, list] = {}
    for sub in err.context:
        branches.setdefault(sub.schema_path[0] if sub.schema_path else None, []).append(sub)
    chosen = min(
        branches.values(),
        key=lambda errs: (any(_is_discriminator_miss(e) for e in errs), len(errs)),
    )
    if all(_is_discriminator_miss(e) for e in chosen) and len(branches) > 1:
        return [err]  # no branch fits at all: report the union itself
    out: list = []
    for sub in chosen:
        out += _leaf_errors(sub)
    return out


def _discord_message(err) -> tuple[str, str]:
    """Discord-like error code and message for a schema violation."""
    value = err.validator_value
    match err.validator:
        case "maxLength" | "maxItems":
            return "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length. (schema)"
        case "minLength" | "minItems":
            return "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length. (schema)"
        case "maximum":
            return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}. (schema)"
        case "minimum":
            return (
                "NUMBER_TYPE_MIN",
                f"int value should be greater than or equal to {value}. (schema)",
            )
        case "required":
            return "BASE_TYPE_REQUIRED", f"This field is required: {err.message} (schema)"
        case "enum" | "const":
            return "BASE_TYPE_CHOICES", f"Value must be one of {value}. (schema)"
    msg = err.message if len(err.message) <= 200 else err.message[:200] + "..."
    return str(err.validator).upper(), f"{msg} (schema)"


def schema_problems(errors: Iterable[ValidationError]) -> list[Problem]:
    """Discord-style problems (paths into the body) for the schema errors of a body."""
    problems = []
    for err in errors:
        for leaf in _leaf_errors(err):
            code, msg = _discord_message(leaf)
            problems.append(Problem(tuple(leaf.absolute_path), code, msg))
    return problems
