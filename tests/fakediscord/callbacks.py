"""REST routes of the fake Discord for the bot's answers to interactions: the interaction
callback (``POST /interactions/{id}/{token}/callback``) and the follow-up webhook
(``/webhooks/{application_id}/{token}``: send, get, edit, delete ``@original`` or a
follow-up).

They enforce what Discord enforces (interactions/receiving-and-responding.mdx): one
acknowledgement per interaction (else ``400 40060``), within ``interaction_timeout`` seconds
(3; else ``404 10062``, recorded ``late-ack``), of a callback type the interaction type
allows; follow-ups only after an acknowledgement and while the token lives (``token_ttl``,
15 minutes; else ``401 50027 Invalid Webhook Token``). Everything is noted on the
:class:`~.models.InteractionRecord` the driver waits on.

The first follow-up after a "thinking" defer (callback type 5) does not create a message:
it edits the loading message, and "the ephemeral flag will be ignored, and the value you
provided in the initial defer response will be preserved". A follow-up that asks for
another ephemerality than the defer's is noted ``ephemeral-ignored`` (``state.notes``);
when it asked to be ephemeral after a public defer (a private answer shown to everyone) it
is also an error unless ``FakeDiscord(strict_ephemeral=False)``.

Interaction responses and follow-ups are webhooks: the channel's permissions for the bot do
not apply to them (not SEND_MESSAGES, and not ATTACH_FILES or EMBED_LINKS either: Discord's
change log of 2022-06-29 says only MENTION_EVERYONE, SEND_TTS_MESSAGES and
USE_EXTERNAL_EMOJIS follow the bot's permissions there, "ATTACH_FILES and EMBED_LINKS ...
no longer the case"). The fake leaves them unrestricted.
"""

from __future__ import annotations

import time
from typing import Any

from tests.fakediscord.limits import check_autocomplete
from tests.fakediscord.models import EPHEMERAL, LOADING, InteractionRecord, Message
from tests.fakediscord.rest import ApiError, ApiRequest, RouteTable, limit_error
from tests.fakediscord.routes import BotMessages
from tests.fakediscord.state import State

# message flags an interaction response may set: EPHEMERAL, SUPPRESS_EMBEDS,
# SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2
RESPONSE_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15)
ALLOWED_CALLBACKS = {
    2: {4, 5, 9},  # application command: message, deferred message, modal
    3: {4, 5, 6, 7, 9},  # component: also deferred update, update message
    4: {8},  # autocomplete: choices
    5: {4, 5, 6, 7},  # modal submit
}


class Callbacks:
    """Handlers of the interaction callback and follow-up webhook routes (see :meth:`table`)."""

    def __init__(self, state: State, messages: BotMessages) -> None:
        self.state = state
        self.messages = messages

    def table(self) -> RouteTable:
        r: RouteTable = {}
        wh = "/webhooks/{webhook_id}/{webhook_token}"
        r["POST", "/interactions/{interaction_id}/{interaction_token}/callback"] = self._callback
        r["POST", wh] = self._execute_webhook
        for mid in ("@original", "{message_id}"):
            r["GET", f"{wh}/messages/{mid}"] = self._get_webhook_message
            r["PATCH", f"{wh}/messages/{mid}"] = self._edit_webhook_message
            r["DELETE", f"{wh}/messages/{mid}"] = self._delete_webhook_message
        return r

    def _interaction_for(self, req: ApiRequest, *, webhook: bool) -> InteractionRecord:
        state = self.state
        if webhook:
            if int(req.params["webhook_id"]) != state.application_id:
                raise ApiError(404, 10015, "Unknown Webhook", record="unknown-webhook")
            rec = state.by_token.get(req.params["webhook_token"])
            if rec is None:
                raise ApiError(401, 50027, "Invalid Webhook Token", record="unknown-webhook")
            age = time.monotonic() - rec.created
            if age > state.token_ttl:
                raise ApiError(
                    401,
                    50027,
                    f"Invalid Webhook Token (the interaction token expired: {age:.0f} s > "
                    f"{state.token_ttl:g} s)",
                    record="expired-token",
                )
            return rec
        rec = state.interactions.get(int(req.params["interaction_id"]))
        if rec is None or rec.token != req.params["interaction_token"]:
            raise ApiError(404, 10062, "Unknown interaction", record="unknown-interaction")
        return rec

    # ------------------------------------------------------------------ callback
    async def _callback(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=False)
        try:
            return await self._callback_inner(req, rec)
        finally:
            await rec._notify()

    async def _callback_inner(self, req: ApiRequest, rec: InteractionRecord) -> Any:
        if rec.callback_type is not None:
            raise ApiError(
                400, 40060, "Interaction has already been acknowledged.", record="double-ack"
            )
        elapsed = time.monotonic() - rec.created
        timeout = self.state.interaction_timeout
        if elapsed > timeout:
            raise ApiError(
                404,
                10062,
                f"Unknown interaction (answered after {elapsed:.2f}s > {timeout}s)",
                record="late-ack",
            )
        body = req.json or {}
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS[rec.type]:
            raise ApiError(
                400,
                40043,
                f"Interaction callback type {kind} is invalid for interaction type {rec.type}",
                record="bad-callback",
            )
        messages = self.messages
        message: Message | None = None
        if kind == 4:
            messages.check_limits(req, data, create=True, prefix=("data",))
            flags = (data.get("flags") or 0) & RESPONSE_FLAGS
            message = messages.create(req, rec.channel, data, flags=flags, interaction=rec)
            rec.original = message
        elif kind == 5:
            flags = ((data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = messages.create(req, rec.channel, {}, flags=flags, interaction=rec)
            rec.original = message
        elif kind in (6, 7):
            source = self._component_message(rec)
            if kind == 7:
                messages.check_limits(req, data, create=False, prefix=("data",))
                messages.edit(req, source, data)
                rec._original_edited = True
            rec.original = source
            message = source
        elif kind == 8:
            problems = check_autocomplete(data)
            if problems:
                raise limit_error(problems)
            rec.choices = list(data.get("choices") or [])
        elif kind == 9:
            rec.modal = data
        rec.callback_type = kind
        rec.callback_payload = body
        if not req.flag("with_response"):
            return None
        resource: dict[str, Any] = {"type": kind}
        if message is not None and kind != 6:
            resource["message"] = message.to_api()
        return {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "activity_instance_id": None,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": resource,
        }

    def _component_message(self, rec: InteractionRecord) -> Message:
        raw = rec.payload.get("message")
        if raw is None:
            raise ApiError(
                400, 40043, "No message to update for this interaction", record="bad-callback"
            )
        return self.state.messages[int(raw["id"])]

    # ------------------------------------------------------------------ follow-up webhook
    async def _execute_webhook(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        messages = self.messages
        try:
            if rec.callback_type is None or rec.callback_type in (8, 9):
                raise ApiError(
                    404,
                    10015,
                    "Unknown Webhook (interaction not acknowledged)",
                    record="early-followup",
                )
            payload = req.json or {}
            messages.check_limits(req, payload, create=True)
            original = rec.original
            if (
                rec.callback_type == 5
                and original is not None
                and original.loading
                and not rec._original_edited
            ):
                # the first follow-up after a "thinking" defer replaces the loading message
                # and keeps the defer's ephemerality, whatever the follow-up asked
                self._ephemeral_ignored(req, rec, original, payload)
                original.flags &= ~LOADING
                messages.edit(req, original, payload)
                rec._original_edited = True
                if not original.ephemeral:
                    messages.announce(original, rec.channel)
                msg = original
            else:
                flags = (payload.get("flags") or 0) & RESPONSE_FLAGS
                msg = messages.create(
                    req, rec.channel, payload, flags=flags, interaction=rec, webhook=True
                )
            rec.followups.append(msg)
            return msg.to_api() if req.flag("wait") else None
        finally:
            await rec._notify()

    def _ephemeral_ignored(
        self, req: ApiRequest, rec: InteractionRecord, original: Message, payload: dict
    ) -> None:
        asked = bool((payload.get("flags") or 0) & EPHEMERAL)
        if asked == original.ephemeral:
            return
        name = (rec.payload.get("data") or {}).get("name") or (rec.payload.get("data") or {}).get(
            "custom_id"
        )
        if asked:
            text = (
                f"interaction {name!r}: the first follow-up after a public defer asked to be "
                "ephemeral; Discord ignores the flag and shows it to everyone (defer "
                "ephemerally, or edit @original)"
            )
        else:
            text = (
                f"interaction {name!r}: the first follow-up after an ephemeral defer asked to "
                "be public; Discord ignores that and keeps it ephemeral"
            )
        self.state.note(
            "ephemeral-ignored",
            text,
            error=asked and self.state.strict_ephemeral,
            method=req.method,
            path=req.path,
        )

    def _webhook_message(self, req: ApiRequest, rec: InteractionRecord) -> Message:
        mid = req.path.rsplit("/", 1)[-1]
        if mid == "@original":
            if rec.original is None or rec.original.deleted:
                raise ApiError(404, 10008, "Unknown Message", record="unknown-entity")
            return rec.original
        msg = self.state.messages.get(int(mid))
        if msg is None or msg.deleted or (msg is not rec.original and msg not in rec.followups):
            raise ApiError(404, 10008, "Unknown Message", record="unknown-entity")
        return msg

    async def _get_webhook_message(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        return self._webhook_message(req, rec).to_api()

    async def _edit_webhook_message(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        try:
            msg = self._webhook_message(req, rec)
            payload = req.json or {}
            self.messages.check_limits(req, payload, create=False)
            was_loading = msg.loading
            msg.flags &= ~LOADING
            self.messages.edit(req, msg, payload)
            if was_loading and not msg.ephemeral:
                self.messages.announce(msg, rec.channel)
            if msg is rec.original:
                rec._original_edited = True
            return msg.to_api()
        finally:
            await rec._notify()

    async def _delete_webhook_message(self, req: ApiRequest) -> Any:
        rec = self._interaction_for(req, webhook=True)
        self.messages.delete(self._webhook_message(req, rec))
        await rec._notify()
        return None
