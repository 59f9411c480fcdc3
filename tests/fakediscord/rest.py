"""The REST side of the fake Discord: the plumbing every HTTP request goes through.

A request below ``/api/v10`` is logged (``state.requests``), its body read (JSON, or
multipart with ``payload_json`` and files), matched against Discord's OpenAPI spec,
answered 429 if a test's rate-limit rule matches or Discord's rate limits say so
(:mod:`.ratelimits`: per-route buckets, the global limit, a ban after too many invalid
requests; every answer carries the bucket's ``X-RateLimit-*`` headers), 404/405 for an
unknown route, checked for the bot token
(except webhook and interaction routes), validated (query parameters, body schema) and
handed to the route's handler (:mod:`.routes`, :mod:`.callbacks`). An :class:`ApiError`
from any step becomes Discord's error answer, and recorded as a protocol error when it
is one. ``/attachments/...`` serves the files of messages and uploads (the CDN).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from tests.fakediscord.limits import Problem, errors_object
from tests.fakediscord.ratelimits import INVALID_WINDOW
from tests.fakediscord.spec import Operation, schema_problems
from tests.fakediscord.state import RequestLog, State

API_PREFIX = "/api/v10"


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class ApiRequest:
    method: str
    path: str
    query: Mapping[str, str]
    headers: Mapping[str, str]
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    multipart: bool = False
    op: Operation | None = None
    rate_limit_headers: dict[str, str] = field(default_factory=dict)

    @property
    def params(self) -> dict[str, str]:
        return self.op.path_params if self.op else {}

    def flag(self, name: str) -> bool:
        return str(self.query.get(name, "")).lower() in ("1", "true")


Handler = Callable[[ApiRequest], Awaitable[Any]]
RouteTable = dict[tuple[str, str], Handler]
"""Handlers by (method, path template of the spec)."""


class ApiError(Exception):
    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        record: str | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"code": code, "message": message}
        if errors:
            self.body["errors"] = errors
        self.record = record  # error kind to record, None = legitimate API answer


def limit_error(problems: list[Problem]) -> ApiError:
    """Discord's answer to a body beyond its documented limits (see :mod:`.limits`)."""
    if len(problems) == 1 and problems[0].code == "50006":
        return ApiError(400, 50006, "Cannot send an empty message", record="limits")
    return ApiError(
        400, 50035, "Invalid Form Body", errors=errors_object(problems), record="limits"
    )


@dataclass
class RateLimitRule:
    match: str | Callable[[ApiRequest], bool]
    times: int = 1
    retry_after: float = 0.05
    is_global: bool = False
    method: str | None = None
    hits: int = 0

    def matches(self, req: ApiRequest) -> bool:
        if self.hits >= self.times:
            return False
        if self.method and self.method.upper() != req.method:
            return False
        if callable(self.match):
            return bool(self.match(req))
        return self.match in f"{req.method} {req.path}"


def json_response(data: Any, status: int = 200, headers: Mapping[str, str] | None = None):
    # discord.py only parses JSON when the content type is exactly "application/json"
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


class RestApi:
    """The HTTP endpoints: the API below ``/api/v10`` (with ``routes``) and the CDN."""

    def __init__(self, state: State, routes: RouteTable) -> None:
        self.state = state
        self.routes = routes
        self.rate_limits: list[RateLimitRule] = []

    # ------------------------------------------------------------------ CDN
    async def cdn(self, request: web.Request) -> web.StreamResponse:
        aid = int(request.match_info["attachment"])
        for msg in self.state.messages.values():
            for att in msg.attachments:
                if att.id == aid:
                    return web.Response(body=att.data, content_type="application/octet-stream")
        if aid in self.state.uploads:
            return web.Response(
                body=self.state.uploads[aid].data, content_type="application/octet-stream"
            )
        return web.Response(status=404)

    # ------------------------------------------------------------------ API
    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        method = request.method.upper()
        req = ApiRequest(method, path, dict(request.query), request.headers)
        entry = RequestLog(method, path, None, dict(request.query), None, [])
        self.state.requests.append(entry)
        response: web.StreamResponse
        try:
            await self._read_body(request, req)
            entry.json = req.json
            entry.files = [(f.filename, len(f.data)) for f in req.files]
            result = await self._handle(req)
            entry.template = req.op.template if req.op else None
            if isinstance(result, web.StreamResponse):
                entry.status = result.status
                response = result
            elif result is None:
                entry.status = 204
                response = web.Response(status=204)
            else:
                entry.status, entry.response = 200, result
                response = json_response(result)
        except ApiError as err:
            entry.template = req.op.template if req.op else None
            entry.status, entry.response = err.status, err.body
            await self._reject_interaction(req, err)
            if err.record:
                self.state.record(
                    err.record,
                    err.body["message"],
                    method=method,
                    path=path,
                    status=err.status,
                    details=err.body.get("errors"),
                )
            response = json_response(err.body, err.status)
        finally:
            await self.state.notify()
        for name, value in req.rate_limit_headers.items():
            response.headers.setdefault(name, value)
        if self.state.ratelimiter.answered(entry.status):
            limiter = self.state.ratelimiter
            self.state.record(
                "cloudflare-ban",
                f"{len(limiter.invalid)} invalid requests (401, 403, 429) within "
                f"{int(INVALID_WINDOW)} s: Discord restricts the client for a while "
                f"(the fake: {limiter.ban_duration:.0f} s, every request answered 429)",
                method=method,
                path=path,
                status=entry.status,
            )
        return response

    async def _reject_interaction(self, req: ApiRequest, err: ApiError) -> None:
        token = req.params.get("interaction_token") or req.params.get("webhook_token")
        rec = self.state.by_token.get(token) if token else None
        if rec is None:
            return
        text = f"{err.status} {err.body}"
        if text not in rec.rejected:
            rec.rejected.append(text)
        await rec._notify()

    async def _read_body(self, request: web.Request, req: ApiRequest) -> None:
        ctype = request.content_type
        if ctype == "multipart/form-data":
            req.multipart = True
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                # discord.py's forms are flat: a part is never a multipart body itself
                assert isinstance(part, BodyPartReader)
                data = await part.read()
                name = part.name or ""
                if name == "payload_json":
                    req.json = _parse_json(bytes(data))
                elif part.filename is not None:
                    req.files.append(
                        UploadedFile(
                            name,
                            part.filename,
                            bytes(data),
                            part.headers.get("Content-Type"),
                        )
                    )
                else:
                    raise ApiError(
                        400, 50035, f"Unexpected form field {name!r}", record="invalid-body"
                    )
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                if ctype != "application/json":
                    raise ApiError(
                        400, 50035, f"Unsupported content type {ctype!r}", record="invalid-body"
                    )
                req.json = _parse_json(raw)

    async def _handle(self, req: ApiRequest) -> Any:
        op, path_known = self.state.spec.match(req.method, req.path)
        req.op = op
        template = op.template if op else None
        # rate limits come before validation, like on the real API
        for rule in self.rate_limits:
            if rule.matches(req):
                rule.hits += 1
                self.state.ratelimiter.injected(req.method, req.path, template, rule.retry_after)
                return _too_many_requests(rule)
        verdict = self.state.ratelimiter.check(req.method, req.path, template, req.params)
        req.rate_limit_headers = verdict.headers
        if verdict.banned:
            # Cloudflare answers, not Discord: no JSON, no "Via" (discord.py gives up)
            return web.Response(status=429, text="error code: 1015")
        if verdict.refuse is not None:
            return json_response(verdict.refuse, 429, {**verdict.headers, "Via": "1.1 google"})
        if op is None:
            if path_known:
                raise ApiError(405, 0, "405: Method Not Allowed", record="unknown-route")
            raise ApiError(404, 0, "404: Not Found", record="unknown-route")

        webhook_route = op.template.startswith(
            ("/webhooks/{webhook_id}/{webhook_token}", "/interactions/")
        )
        if not webhook_route and req.headers.get("Authorization") != f"Bot {self.state.token}":
            raise ApiError(401, 0, "401: Unauthorized", record="auth")

        problems = [
            Problem((name,), "PARAM_INVALID", msg) for name, msg in op.validate_params(req.query)
        ]
        if problems:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=errors_object(problems),
                record="invalid-params",
            )
        if req.json is not None:
            if not op.accepts_body:
                raise ApiError(400, 50035, "This route takes no body", record="invalid-body")
            schema_errors = op.validate_body(req.json, multipart=req.multipart)
            if schema_errors:
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors=errors_object(schema_problems(schema_errors)),
                    record="schema",
                )
        elif op.accepts_body and op.definition["requestBody"].get("required") and not req.files:
            raise ApiError(400, 50035, "Invalid Form Body (missing body)", record="invalid-body")

        handler = self.routes.get((req.method, op.template))
        if handler is None:
            raise ApiError(
                404,
                0,
                f"fake Discord does not implement {req.method} {op.template}",
                record="not-implemented",
            )
        return await handler(req)


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise ApiError(
            400, 50109, "The request body contains invalid JSON.", record="invalid-body"
        ) from None


def _too_many_requests(rule: RateLimitRule) -> web.Response:
    body = {
        "message": "You are being rate limited.",
        "retry_after": rule.retry_after,
        "global": rule.is_global,
    }
    headers = {
        "Retry-After": str(max(1, math.ceil(rule.retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + rule.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{rule.retry_after:.3f}",
        "X-RateLimit-Bucket": "fakebucket" + str(id(rule)),
        "X-RateLimit-Scope": "global" if rule.is_global else "user",
        # discord.py treats a 429 without "Via" as a Cloudflare ban and gives up
        "Via": "1.1 google",
    }
    if rule.is_global:
        headers["X-RateLimit-Global"] = "true"
    return json_response(body, 429, headers)
