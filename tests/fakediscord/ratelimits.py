"""Discord's rate limits as it sends them (topics/rate-limits.mdx), and the fake's counters.

- **Per-route buckets.** A bucket is a route (method and path template; some routes share
  one) plus its *major parameter*: ``channel_id``, ``guild_id``, or ``webhook_id`` and
  ``webhook_token`` (the interaction callback: its interaction id). Every answer carries
  ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After`` and ``-Bucket``; a
  request beyond the bucket is answered ``429 {message, retry_after, global: false}`` with
  ``Retry-After`` and ``X-RateLimit-Scope: user``. Discord publishes no per-route numbers
  ("should not be hard coded"): :data:`DEFAULT_BUCKETS` holds the fake's choices, the ones
  Discord is commonly seen to send (5 per 5 s for a channel's messages, 5 per 2 s for a
  webhook, 1 per 0.25 s for reactions); :data:`DEFAULT_BUCKET` is for any other route.
- **The global limit**: 50 requests a second per bot token, except the interaction
  endpoints (the callback, and the follow-up webhook routes with the interaction's token),
  which "are not bound to the application's Global Rate Limit". Beyond it:
  ``429 {global: true}`` with ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``.
- **The invalid request limit** ("Cloudflare ban"): 10,000 answers of 401, 403 or 429
  (not a 429 of scope ``shared``, which the fake never sends) in 10 minutes get the client
  restricted: for :attr:`RateLimiter.ban_duration` seconds (Discord: "temporarily"; the
  fake's choice: an hour) everything is answered 429 without Discord's ``Via`` header (as
  Cloudflare does; discord.py then raises instead of retrying), and the error
  ``cloudflare-ban`` is recorded.

Every 429 the fake sends is kept in :attr:`RateLimiter.hits`; every request's time is kept
by route in :attr:`RateLimiter.traffic` (see :meth:`RateLimiter.per_second` and
:meth:`RateLimiter.peak_per_second` for a benchmark).

``scale`` multiplies every bucket's window and the global window (1.0: real time; 0.1
makes a 5 s bucket 0.5 s long, for tests that would otherwise wait). The invalid request
window (10 minutes) and the ban are not scaled.
"""

from __future__ import annotations

import bisect
import math
import time
import zlib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

GLOBAL_LIMIT = 50
"""Requests a second per bot token (Rate Limits: Global Rate Limit)."""
GLOBAL_WINDOW = 1.0
INVALID_LIMIT = 10_000
"""401/403/429 answers in :data:`INVALID_WINDOW` that get a client banned."""
INVALID_WINDOW = 600.0
BAN_DURATION = 3600.0
"""Not published by Discord ("temporarily restricted"): the fake's choice."""

INVALID_STATUSES = (401, 403, 429)
GRACE = 0.01
"""Seconds before a bucket's reset at which a request already counts in the next window:
a client that sleeps ``X-RateLimit-Reset-After`` may wake a little early (asyncio runs a
timer up to its clock resolution early), which Discord's own clock would not notice."""


@dataclass(frozen=True)
class Bucket:
    """A route's limit: ``limit`` requests per ``per`` seconds, for each major parameter."""

    name: str
    limit: int
    per: float


_CH = "/channels/{channel_id}"
_WH = "/webhooks/{webhook_id}/{webhook_token}"

DEFAULT_BUCKET = Bucket("default", 10, 1.0)
"""Any route not in :data:`DEFAULT_BUCKETS` (a choice: Discord publishes none)."""

DEFAULT_BUCKETS: dict[tuple[str, str], Bucket] = {
    ("POST", _CH + "/messages"): Bucket("message-create", 5, 5.0),
    ("PATCH", _CH + "/messages/{message_id}"): Bucket("message-edit", 5, 5.0),
    ("DELETE", _CH + "/messages/{message_id}"): Bucket("message-delete", 5, 1.0),
    ("GET", _CH + "/messages"): Bucket("messages-read", 5, 1.0),
    ("GET", _CH + "/messages/{message_id}"): Bucket("messages-read", 5, 1.0),
    ("GET", _CH + "/pins"): Bucket("pins-read", 5, 1.0),
    ("GET", _CH + "/messages/pins"): Bucket("pins-read", 5, 1.0),
    ("PUT", _CH + "/pins/{message_id}"): Bucket("pins", 5, 5.0),
    ("DELETE", _CH + "/pins/{message_id}"): Bucket("pins", 5, 5.0),
    ("PUT", _CH + "/messages/pins/{message_id}"): Bucket("pins", 5, 5.0),
    ("DELETE", _CH + "/messages/pins/{message_id}"): Bucket("pins", 5, 5.0),
    ("PUT", _CH + "/messages/{message_id}/reactions/{emoji_name}/@me"): Bucket(
        "reactions", 1, 0.25
    ),
    ("DELETE", _CH + "/messages/{message_id}/reactions/{emoji_name}/@me"): Bucket(
        "reactions", 1, 0.25
    ),
    ("POST", _CH + "/typing"): Bucket("typing", 5, 5.0),
    ("POST", "/users/@me/channels"): Bucket("dm-create", 5, 1.0),
    ("POST", _WH): Bucket("webhook", 5, 2.0),
    ("GET", _WH + "/messages/@original"): Bucket("webhook-message", 5, 2.0),
    ("PATCH", _WH + "/messages/@original"): Bucket("webhook-message", 5, 2.0),
    ("DELETE", _WH + "/messages/@original"): Bucket("webhook-message", 5, 2.0),
    ("GET", _WH + "/messages/{message_id}"): Bucket("webhook-message", 5, 2.0),
    ("PATCH", _WH + "/messages/{message_id}"): Bucket("webhook-message", 5, 2.0),
    ("DELETE", _WH + "/messages/{message_id}"): Bucket("webhook-message", 5, 2.0),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"): Bucket(
        "interaction-callback", 5, 1.0
    ),
}
"""The fake's per-route buckets (Discord does not publish them; see the module docstring)."""


def is_interaction_route(template: str) -> bool:
    """Interaction endpoints: not bound to the global rate limit (Receiving and Responding)."""
    return template.startswith(("/interactions/", "/webhooks/{webhook_id}/{webhook_token}"))


def major_parameter(template: str, params: Mapping[str, str]) -> str:
    """The top-level resource of a path (channel, guild, webhook + token, interaction)."""
    if template.startswith("/interactions/"):
        return "interaction:" + params.get("interaction_id", "")
    if template.startswith("/webhooks/"):
        return "webhook:{}:{}".format(params.get("webhook_id", ""), params.get("webhook_token", ""))
    for key in ("channel_id", "guild_id"):
        if key in params:
            return f"{key}:{params[key]}"
    return ""


@dataclass
class RateLimitHit:
    """One 429 the fake sent."""

    at: float
    """``time.monotonic()`` of the request."""
    method: str
    path: str
    route: str
    """``"METHOD /template"``."""
    scope: str
    """``user`` (a route's bucket), ``global``, ``injected`` (a test's RateLimitRule) or
    ``cloudflare`` (banned)."""
    retry_after: float
    bucket: str = ""


@dataclass
class _Window:
    start: float
    count: int = 0


@dataclass
class Verdict:
    """What the rate limiter says of one request: headers to send, and a 429 if refused."""

    headers: dict[str, str] = field(default_factory=dict)
    refuse: dict[str, Any] | None = None
    """The JSON body of the 429 (None: go on)."""
    status: int = 429
    banned: bool = False


class RateLimiter:
    """Buckets, the global limit and the invalid-request counter of one fake Discord."""

    def __init__(
        self,
        *,
        enabled: bool = True,
        scale: float = 1.0,
        buckets: Mapping[tuple[str, str], Bucket] | None = None,
        default_bucket: Bucket = DEFAULT_BUCKET,
        global_limit: int | None = GLOBAL_LIMIT,
        invalid_limit: int | None = INVALID_LIMIT,
        ban_duration: float = BAN_DURATION,
    ) -> None:
        self.enabled = enabled
        """Per-route buckets and the global limit (False: no 429 but the injected ones)."""
        self.scale = scale
        self.buckets: dict[tuple[str, str], Bucket] = dict(DEFAULT_BUCKETS)
        if buckets:
            self.buckets.update(buckets)
        self.default_bucket = default_bucket
        self.global_limit = global_limit
        self.invalid_limit = invalid_limit
        self.ban_duration = ban_duration
        self.banned_until: float | None = None
        self.hits: list[RateLimitHit] = []
        self.traffic: dict[str, list[float]] = {}
        """``"METHOD /template"`` -> ``time.monotonic()`` of each request, in order."""
        self.invalid: deque[float] = deque()
        """Times of the 401/403/429 answers of the last :data:`INVALID_WINDOW` seconds."""
        self.invalid_total = 0
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global: deque[float] = deque()

    # ------------------------------------------------------------------ the limits
    def bucket_of(self, method: str, template: str) -> Bucket:
        return self.buckets.get((method, template), self.default_bucket)

    def check(
        self, method: str, path: str, template: str | None, params: Mapping[str, str]
    ) -> Verdict:
        """Count a request and say whether it may go on (and the headers to send)."""
        now = time.monotonic()
        route = f"{method} {template or path}"
        self.traffic.setdefault(route, []).append(now)
        verdict = Verdict()
        if self.banned_until is not None:
            if now < self.banned_until:
                self._hit(now, method, path, route, "cloudflare", self.banned_until - now)
                verdict.refuse = {}
                verdict.banned = True
                return verdict
            self.banned_until = None
        if template is None or not self.enabled:
            return verdict
        if self.global_limit is not None and not is_interaction_route(template):
            window = GLOBAL_WINDOW * self.scale
            while self._global and self._global[0] <= now - window:
                self._global.popleft()
            if len(self._global) >= self.global_limit:
                retry = self._global[0] + window - now
                self._hit(now, method, path, route, "global", retry)
                verdict.refuse = {
                    "message": "You are being rate limited.",
                    "retry_after": round(retry, 3),
                    "global": True,
                }
                verdict.headers = {
                    "Retry-After": str(max(1, math.ceil(retry))),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                }
                return verdict
        bucket = self.bucket_of(method, template)
        per = bucket.per * self.scale
        key = (bucket.name, major_parameter(template, params))
        win = self._windows.get(key)
        if win is None or now >= win.start + per - GRACE:
            win = self._windows[key] = _Window(now)
        reset_after = math.ceil((win.start + per - now) * 1000) / 1000
        bucket_hash = f"{zlib.crc32(bucket.name.encode()):08x}"
        if win.count >= bucket.limit:
            self._hit(now, method, path, route, "user", reset_after, bucket.name)
            verdict.refuse = {
                "message": "You are being rate limited.",
                "retry_after": round(reset_after, 3),
                "global": False,
            }
            verdict.headers = {
                "Retry-After": str(max(1, math.ceil(reset_after))),
                "X-RateLimit-Scope": "user",
            }
        else:
            win.count += 1
            if self.global_limit is not None and not is_interaction_route(template):
                self._global.append(now)
        verdict.headers.update(
            {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": str(bucket.limit - win.count),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": bucket_hash,
            }
        )
        return verdict

    def _hit(
        self,
        now: float,
        method: str,
        path: str,
        route: str,
        scope: str,
        retry: float,
        bucket: str = "",
    ) -> None:
        self.hits.append(RateLimitHit(now, method, path, route, scope, retry, bucket))

    def injected(self, method: str, path: str, template: str | None, retry: float) -> None:
        """Note a 429 of a test's :class:`~.rest.RateLimitRule`."""
        now = time.monotonic()
        self._hit(now, method, path, f"{method} {template or path}", "injected", retry)

    def answered(self, status: int, *, shared: bool = False) -> bool:
        """Count an answer toward the invalid request limit; True when it starts a ban."""
        if status not in INVALID_STATUSES or (status == 429 and shared):
            return False
        now = time.monotonic()
        self.invalid_total += 1
        self.invalid.append(now)
        while self.invalid and self.invalid[0] <= now - INVALID_WINDOW:
            self.invalid.popleft()
        if (
            self.invalid_limit is not None
            and self.banned_until is None
            and len(self.invalid) >= self.invalid_limit
        ):
            self.banned_until = now + self.ban_duration
            return True
        return False

    # ------------------------------------------------------------------ traffic
    def requests(self, route: str | None = None) -> list[float]:
        """Times of the requests of ``route`` (``"METHOD /template"``; None: every route)."""
        if route is not None:
            return list(self.traffic.get(route, []))
        return sorted(t for times in self.traffic.values() for t in times)

    def per_second(self, *, since: float | None = None) -> dict[str, float]:
        """Mean requests a second by route, over the span from ``since`` (default: the first
        request of any route) to now."""
        everything = self.requests()
        if not everything:
            return {}
        start = since if since is not None else everything[0]
        span = max(time.monotonic() - start, 1e-9)
        return {
            route: sum(1 for t in times if t >= start) / span
            for route, times in sorted(self.traffic.items())
        }

    def peak_per_second(self, route: str | None = None, *, window: float = 1.0) -> int:
        """The most requests (of ``route``, or of all) in any ``window`` seconds."""
        times = self.requests(route)
        best = 0
        for i, t in enumerate(times):
            j = bisect.bisect_left(times, t + window, lo=i)
            best = max(best, j - i)
        return best
