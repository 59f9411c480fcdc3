"""A Caldera captain on Discord, in one short game of two captains with no deadline: refusals
are private, say what is wrong and change nothing; a hand's select menu in a DM chooses the
card; one captain's hand and credits never reach the other (their DMs, their replies); the
help pages are the game's; a moderator resolves the turn and sees everyone's hands, and ends
the campaign: the channel is shown its timelapse, then the result with its charts."""

from __future__ import annotations

import asyncio
import io
import time

import pytest
from PIL import Image as PILImage

from engine.caldera.kind import KIND
from tests.e2e.test_bot_e2e import env  # noqa: F401 - the fixture

__all__ = ["env"]

# seconds to wait for the background's DMs and posts: generous, as a loaded CI machine runs
# them late (the end of a campaign replays and draws its timelapse); one that never comes fails
WAIT = 60


def menu_of(message, custom_id: str) -> list[str]:
    """The values of a select menu of a message."""
    for row in message.components:
        for item in row.get("components", []):
            if item.get("custom_id") == custom_id:
                return [o["value"] for o in item.get("options", [])]
    return []


@pytest.mark.slow
async def test_a_captains_turn_refusals_menus_and_secrets(env) -> None:  # noqa: F811
    fake, channel, service = env.fake, env.channel, env.bot.service
    made = await fake.invoke(
        env.alice,
        channel,
        "game create caldera",
        {"name": "Far Reach", "captains": 2, "turn_hours": 0},
    )
    assert "a turn as soon as every captain has submitted" in made.text, made.text
    game = int(made.text.split("(game ")[1].split(")")[0])
    await fake.invoke(env.alice, channel, "game join", {"name": "Ann"})
    started = await fake.invoke(env.bob, channel, "game join", {"name": "Bob"})
    assert "has started" in started.text, started.text

    # refusals: private, specific, and nothing changes
    before = KIND.hash(await service.live_world(game))
    refusals = [
        (env.bob, "captain fund", {"amount": 10}, "Set your stats first. Nothing changed."),
        (
            env.alice,
            "captain character",
            {"cha": 1, "int": 4, "eng": 4, "arm": 2, "com": 2, "eco": 2},
            "Charisma at least 2",
        ),
        (env.alice, "captain move", {"ships": "99", "to": "1,0"}, "You have no ship 99."),
        (env.alice, "captain move", {"ships": "1", "to": "north"}, "is not a place"),
        (
            env.alice,
            "captain choose",
            {"hand": "zone", "card": "laser-cannon-1"},
            "Nothing changed.",
        ),
        (
            env.alice,
            "orders submit",
            {},
            "is a Caldera game, and this command is for Supply Lines games: command your "
            "captain with `/captain`",
        ),
    ]
    for user, command, options, says in refusals:
        reply = await fake.invoke(user, channel, command, options)
        assert reply.ephemeral and says in reply.text, (command, reply.text)
    assert KIND.hash(await service.live_world(game)) == before

    # the character, then a hand's menu by DM: its choice is the captain's research
    stats = {"cha": 3, "int": 4, "eng": 2, "arm": 2, "com": 2, "eco": 2}
    set_ = await fake.invoke(env.alice, channel, "captain character", stats)
    assert "Your captain: Charisma 3, Intelligence 4" in set_.text, set_.text
    await fake.invoke(env.bob, channel, "captain character", {**stats, "cha": 2, "eco": 3})
    custom_id = f"cal:card:{game}:research"
    asked = await fake.wait_for_dm(env.alice, lambda m: bool(menu_of(m, custom_id)), timeout=WAIT)
    cards = menu_of(asked, custom_id)
    ann = (await service.view(game, "ann")).own["ann"]
    assert sorted(cards) == sorted(next(h.cards for h in ann.hand if h.kind == "research"))
    before = KIND.hash(await service.live_world(game))
    wrong = await fake.select(env.alice, asked, custom_id, ["plating-9"])  # not in the hand
    assert "is not among your research cards" in wrong.text, wrong.text
    assert KIND.hash(await service.live_world(game)) == before
    picked = await fake.select(env.alice, asked, custom_id, [cards[0]])
    assert picked.ephemeral and "Chosen for your research" in picked.text, picked.text
    ann = (await service.view(game, "ann")).own["ann"]
    assert ann.research is not None and not any(h.kind == "research" for h in ann.hand)

    # Ann's credits (after a bonus of her own) and her cards are hers alone
    bought = await fake.invoke(
        env.alice, channel, "captain bonus", {"bonus": "nuclear-engine-layout"}
    )
    assert "You have 470 credits left." in bought.text, bought.text
    ann = (await service.view(game, "ann")).own["ann"]
    secrets = [c for h in ann.hand for c in h.cards] + cards + ["470"]
    bob_status = await fake.invoke(env.bob, channel, "captain status")
    assert "Credits: 500." in bob_status.text
    bobs = bob_status.text + "\n".join(m.content for m in fake.dms(env.bob))
    for secret in secrets:
        assert secret not in bobs, secret

    # the game's own help pages
    page = await fake.invoke(env.bob, channel, "help", {"topic": "techs"})
    assert page.text.startswith("**Help: Caldera: techs, cards and designs**"), page.text[:80]
    assert "**Laser cannon** (weapon laser) L1" in page.text

    # the moderator sees every captain's hand, privately, with the star map
    seen = await fake.invoke(env.mod, channel, "mod view")
    assert (
        seen.ephemeral and seen.files and "Captain Ann" in seen.text and "Captain Bob" in seen.text
    )

    # no deadline: a moderator resolves the turn; each captain hears of it, with the map
    await fake.invoke(env.mod, channel, "mod turn", {"now": True})
    for user in (env.alice, env.bob):
        told = await fake.wait_for_dm(
            user, lambda m: "Turn 1 has resolved." in m.content, timeout=WAIT
        )
        assert told.attachments and told.attachments[0].filename.endswith(".png")
    assert (await service.view(game, "ann")).turn == 2

    # Bob away: the AI caretaker commands his captain (the AI captains' policy) and submits
    cared = await fake.invoke(env.bob, channel, "game caretaker", {"on": True})
    assert "The AI commands your captain while you are away" in cared.text, cared.text

    async def bob_submitted() -> bool:
        return (await service.view(game, "bob")).captains["bob"].submitted

    deadline = time.monotonic() + 10
    while not await bob_submitted():
        assert time.monotonic() < deadline, "the caretaker did not submit"
        await asyncio.sleep(0.02)

    # a moderator ends the campaign: the standings by DM, the result in the channel
    ask = await fake.invoke(env.mod, channel, "mod end")
    await fake.click(env.mod, ask, ask.message.buttons[0]["custom_id"])
    for user in (env.alice, env.bob):
        over = await fake.wait_for_dm(
            user, lambda m: "The campaign is over" in m.content, timeout=WAIT
        )
        assert "a moderator ended it. Standings: 1. " in over.content, over.content
    result = await fake.wait_for_message(channel, lambda m: "the result" in m.content, timeout=WAIT)
    assert "1st: Ann" in result.content and "Bob" in result.content, result.content
    # before the result, the whole campaign: the star map after each turn and at the end
    posted = fake.channel_messages(channel)
    at = next(i for i, m in enumerate(posted) if "is over.** The whole" in m.content)
    over = posted[at]
    assert at < next(i for i, m in enumerate(posted) if m.id == result.id)
    gif = PILImage.open(io.BytesIO(over.attachments[0].data))
    resolved = (await service.live_world(game)).turn
    assert resolved == 1 and gif.format == "GIF" and getattr(gif, "n_frames", 1) == resolved + 1
    # and with the result, the campaign in numbers (one point: the turn resolved)
    assert result.attachments[0].filename == f"stats-{game}.png"
    charts = PILImage.open(io.BytesIO(result.attachments[0].data))
    assert charts.format == "PNG" and charts.height > charts.width  # (six panels)


async def test_the_reminder_before_a_deadline_and_a_moderator_resolving_the_turn(env) -> None:  # noqa: F811
    """Ten turns into the test campaign (the engine's, brought onto Discord as it is), time runs
    to half an hour before the deadline: the captains are reminded by DM and in the channel,
    which names who has not submitted; a moderator resolves the turn and every captain hears
    of it. (The enemies of each A.I. type play their turns in test_caldera_game_e2e.)"""
    from tests.games.caldera.e2e.campaign import play

    state = play(7, 10).state
    state.captains["ann"].user, state.captains["bob"].user = str(env.alice.id), str(env.bob.id)
    service = env.bot.service
    game = await service.create_game(
        name="Far Fronts",
        kind="caldera",
        world=state,
        guild_id=str(env.guild.id),
        channel_id=str(env.channel.id),
        created_by=str(env.alice.id),
    )
    # time runs to half an hour before the deadline: the captains are reminded, by DM and in
    # the channel; then a moderator resolves the turn
    await env.fake.invoke(env.mod, env.channel, "mod tick", {"ticks": 6})
    for user in (env.alice, env.bob):
        await env.fake.wait_for_dm(
            user, lambda m: "Reminder: turn 11 resolves in 30 minutes" in m.content, timeout=WAIT
        )
    await env.fake.wait_for_message(
        env.channel,
        lambda m: "Turn 11 resolves" in m.content and "Not submitted yet: Ann, Bob." in m.content,
        timeout=WAIT,
    )
    await env.fake.invoke(env.mod, env.channel, "mod turn", {"now": True})
    for user in (env.alice, env.bob):
        told = await env.fake.wait_for_dm(
            user, lambda m: "Turn 11 has resolved." in m.content, timeout=WAIT
        )
        assert told.attachments, "the star map comes with the turn's report"
    assert (await service.view(game, "ann")).turn == 12
