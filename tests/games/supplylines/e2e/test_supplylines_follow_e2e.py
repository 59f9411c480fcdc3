"""Following a Supply Lines game together, through the real bot and the fake Discord: orders in
the usual Diplomacy notation, `/game info` naming who has not submitted and when the turn is
due, each turn's results in words beside the board in the game's channel, the reply to the last
submission naming the turn that resolved, and the reminder before a deadline (by DM, or a ping
in the channel for a player who chose that with `/notify mute:reminders`), never twice, and
never held by quiet hours past the deadline it warns of."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest

from tests.e2e.test_bot_e2e import env, eventually  # noqa: F401 - the fixture

__all__ = ["env"]


async def _ann_and_bob_play(env: SimpleNamespace, **options: int) -> int:
    """Alice creates a two-player Supply Lines game with `options`; she joins as Ann and Bob as
    Bob, which starts it. The game's number."""
    reply = await env.fake.invoke(
        env.alice,
        env.channel,
        "game create supply-lines",
        {"name": "Lines", "nations": 2, **options},
    )
    game = int(reply.text.split("(game ")[1].split(")")[0])
    await env.fake.invoke(env.alice, env.channel, "game join", {"name": "Ann"})
    await env.fake.invoke(env.bob, env.channel, "game join", {"name": "Bob"})
    return game


def _posted(fake, channel, text: str) -> list:
    return [m for m in fake.channel_messages(channel) if text in m.content]


async def test_players_follow_a_turn_game_in_its_channel(env) -> None:  # noqa: F811
    fake = env.fake
    game = await _ann_and_bob_play(env, turn_hours=6, days=10)

    # the game's length in turns, the deadline as a real time, who has not submitted
    info = await fake.invoke(env.alice, env.channel, "game info")
    assert "10 days: at least 40 turns of 6 hours" in info.text
    assert "<t:" in info.text and "day 1 06:00" not in info.text
    assert "Waiting for: Ann, Bob" in info.text

    # orders as Diplomacy players write them; support is refused with why
    added = await fake.invoke(env.alice, env.channel, "orders add", {"order": "A H1 - C1"})
    assert added.ephemeral and "Order kept: `H1 > C1`" in added.text
    support = await fake.invoke(env.bob, env.channel, "orders add", {"order": "A H2 S A H1 - C1"})
    assert support.ephemeral and "no support orders" in support.text
    await fake.invoke(env.bob, env.channel, "orders add", {"order": "H2-C4"})
    await fake.invoke(env.alice, env.channel, "orders submit")
    info = await fake.invoke(env.bob, env.channel, "game info")
    assert "Waiting for: Bob" in info.text and "Ann, Bob" not in info.text
    done = await fake.invoke(env.bob, env.channel, "orders submit")
    assert "Submitted: turn 1 has resolved" in done.text

    # the channel: the board and, beside it, what the turn did
    await eventually(lambda: _posted(fake, env.channel, "turn 1 has resolved"), timeout=10)
    post = _posted(fake, env.channel, "turn 1 has resolved")[0]
    assert post.attachments
    assert "Ann moved H1 > C1 (1 infantry)." in post.content
    assert "Bob moved H2 > C4 (1 infantry)." in post.content
    assert "Ann took C1." in post.content and "Bob took C4." in post.content

    # turn 2: Bob wants his reminders in the channel; Ann submits, Bob does not
    muted = await fake.invoke(env.bob, env.channel, "notify", {"mute": "reminders"})
    assert "muted: reminders" in muted.text
    await fake.invoke(env.alice, env.channel, "orders submit")
    await env.bot.service.advance(game, 20)  # 6-hour turns: an hour before the deadline
    await eventually(lambda: _posted(fake, env.channel, "Not submitted yet"), timeout=10)
    (reminder,) = _posted(fake, env.channel, "Not submitted yet")
    assert f"<@{env.bob.id}>" in reminder.content and "Ann" not in reminder.content
    assert "Turn 2's orders are due <t:" in reminder.content
    # the mention pings Bob (and nobody else)
    sent = [
        r.json
        for r in fake.requests
        if r.method == "POST"
        and isinstance(r.json, dict)
        and "Not submitted" in str(r.json.get("content"))
    ]
    assert len(sent) == 1
    assert [str(u) for u in sent[0]["allowed_mentions"]["users"]] == [str(env.bob.id)]
    # the deadline comes: the turn resolves; Bob chose the channel, so no reminder by DM
    await env.bot.service.advance(game, 4)
    await fake.wait_for_dm(env.bob, lambda m: "Orders for turn 3" in m.content, timeout=10)
    assert not any("Reminder" in m.content for m in fake.dms(env.bob))
    await eventually(lambda: _posted(fake, env.channel, "turn 2 has resolved"), timeout=10)
    assert len(_posted(fake, env.channel, "Not submitted yet")) == 1  # told once


async def test_a_reminder_comes_by_dm_to_those_who_have_not_submitted(env) -> None:  # noqa: F811
    fake = env.fake
    game = await _ann_and_bob_play(env, turn_hours=2)
    await fake.invoke(env.bob, env.channel, "orders add", {"order": "H2 > C4"})
    await fake.invoke(env.bob, env.channel, "orders submit")
    # a 2-hour turn: reminded when a quarter of it is left (30 minutes)
    await env.bot.service.advance(game, 6)
    dm = await fake.wait_for_dm(env.alice, lambda m: "Reminder" in m.content, timeout=10)
    assert "turn 1's orders are due in 30 minutes" in dm.content
    await eventually(lambda: _posted(fake, env.channel, "Not submitted yet"), timeout=10)
    (post,) = _posted(fake, env.channel, "Not submitted yet")
    assert "Ann" in post.content and "<@" not in post.content  # named, not pinged
    # Bob had submitted: no reminder (his next DM is the turn's report)
    await env.bot.service.advance(game, 2)
    await fake.wait_for_dm(env.bob, lambda m: "Turn 1:" in m.content, timeout=10)
    assert not any("Reminder" in m.content for m in fake.dms(env.bob))


async def _quiet_for_hours(env: SimpleNamespace, user) -> None:
    """The user's quiet hours from the hour it is now (UTC) to four hours on: they end three
    to four hours from now."""
    hour = int(time.time() // 3600) % 24
    reply = await env.fake.invoke(
        user, env.channel, "notify", {"quiet_from": hour, "quiet_to": (hour + 4) % 24}
    )
    assert "reports wait until then" in reply.text


async def test_quiet_hours_never_hold_a_reminder_past_its_deadline(env) -> None:  # noqa: F811
    fake = env.fake
    await _quiet_for_hours(env, env.alice)
    # 2-hour turns: the deadline comes before Ann's quiet hours end, so the reminder is sent now
    game = await _ann_and_bob_play(env, turn_hours=2)
    await env.bot.service.advance(game, 6)
    dm = await fake.wait_for_dm(env.alice, lambda m: "Reminder" in m.content, timeout=10)
    assert "turn 1's orders are due in 30 minutes" in dm.content
    # what keeps (the players joining) still waits for the morning
    assert not any("joined" in m.content.lower() for m in fake.dms(env.alice))


async def _reminders_held(env: SimpleNamespace) -> list:
    """The reminder rows held back now (to be sent when quiet hours end, within 5 hours)."""
    store = env.bot.service.store
    now = time.time()
    sendable = {r.id for r in await store.pending_events(now=now)}
    after_quiet = await store.pending_events(now=now + 5 * 3600)
    return [r for r in after_quiet if r.id not in sendable and r.event["kind"] == "DeadlineNear"]


async def _held_for_ann(env: SimpleNamespace) -> int:
    """Ann in quiet hours that end before the deadline of a game of 12-hour turns, an hour
    before the deadline: Bob (no quiet hours) has his reminder, Ann's waits. The game."""
    await _quiet_for_hours(env, env.alice)
    game = await _ann_and_bob_play(env, turn_hours=12)
    await env.bot.service.advance(game, 44)  # an hour before the deadline
    await env.fake.wait_for_dm(env.bob, lambda m: "Reminder" in m.content, timeout=10)
    await eventually_async(lambda: _reminders_held(env))
    assert not any("Reminder" in m.content for m in env.fake.dms(env.alice))
    return game


async def eventually_async(check, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout  # (bounds a failure only)
    while not await check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.05)


async def test_a_reminder_waits_out_quiet_hours_that_end_before_its_deadline(env) -> None:  # noqa: F811
    await _held_for_ann(env)
    # it is hers as soon as her quiet hours are over (here: she drops them)
    await env.fake.invoke(env.alice, env.channel, "notify", {"no_quiet_hours": True})
    dm = await env.fake.wait_for_dm(env.alice, lambda m: "Reminder" in m.content, timeout=10)
    assert "turn 1's orders are due in 1 hour" in dm.content


async def test_a_held_reminder_is_dropped_once_the_orders_are_in(env) -> None:  # noqa: F811
    await _held_for_ann(env)
    # awake in her quiet hours, Ann submits; when they end, no reminder tells her she has not
    await env.fake.invoke(env.alice, env.channel, "orders submit")
    await env.fake.invoke(env.alice, env.channel, "notify", {"no_quiet_hours": True})

    async def released() -> bool:
        return not await _reminders_held(env) and not [
            r
            for r in await env.bot.service.store.pending_events()
            if r.event["kind"] == "DeadlineNear"
        ]

    await eventually_async(released)
    assert not any("Reminder" in m.content for m in env.fake.dms(env.alice))


@pytest.mark.slow
async def test_a_player_out_and_the_end_are_told_in_the_channel(env) -> None:  # noqa: F811
    """Supply Lines' public news is its channel's posts: a structure taken and a player out
    in the turn's words (above), a resignation announced, and the end with its result."""
    fake = env.fake
    await _ann_and_bob_play(env, turn_hours=6)
    ask = await fake.invoke(env.bob, env.channel, "game resign")
    assert ask.message is not None and ask.message.buttons
    await fake.click(env.bob, ask, ask.message.buttons[0]["custom_id"])
    await eventually(lambda: _posted(fake, env.channel, "has resigned"), timeout=10)
    assert "**Bob** has resigned." in _posted(fake, env.channel, "has resigned")[0].content
    await eventually(lambda: _posted(fake, env.channel, "the result"), timeout=30)
    (result,) = _posted(fake, env.channel, "the result")
    assert "1st: Ann" in result.content and "2nd: Bob" in result.content
    assert _posted(fake, env.channel, "**Lines is over.**")  # the game as a GIF, first
