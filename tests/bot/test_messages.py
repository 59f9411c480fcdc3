"""Messages follow docs/MESSAGES.md: errors are sentences at every way out (Discord and the
sandbox), and no reply talks in ticks."""

from __future__ import annotations

import re

import pytest

from bot.context import UserError, explain, sentence
from engine.errors import CommandError
from tests.e2e.test_bot_e2e import env, open_game  # noqa: F401 - the fixture is used by name


def is_sentence(text: str) -> bool:
    """A capital (or the player's own words quoted back first) and a full stop at the end."""
    if not text or text.rstrip("*`")[-1] not in ".!?":
        return False
    if text[0] in "'\"`":  # the player's input, as typed
        return True
    first = text.lstrip("*")[:1]
    return first.isupper() or first.isdigit()


def test_the_engines_clauses_become_sentences() -> None:
    assert sentence("there is already a city at 3,4") == "There is already a city at 3,4."
    assert sentence("Nothing to do.") == "Nothing to do."
    assert sentence("you are already at war with Blue!") == "You are already at war with Blue!"
    assert explain(CommandError("founding a city takes 9 mobility; unit 7 has 3")) == (
        "Founding a city takes 9 mobility; unit 7 has 3."
    )
    assert explain(UserError("'x' is not a square: type it as the map shows, like `12,7`")) == (
        "'x' is not a square: type it as the map shows, like `12,7`."
    )
    assert explain(RuntimeError("boom")).startswith("Something went wrong on our side")


HOSTILE = [
    ("move", {"units": "1", "to": "999,999"}),
    ("move", {"units": "abc", "to": "1,1"}),
    ("move", {"units": "99999", "to": "1,1"}),
    ("attack", {"units": "1", "target": "nowhere"}),
    ("build", {"city": "0,0", "unit": "infantry"}),
    ("build", {"city": "1,1", "unit": "dragon"}),
    ("designate", {"city": "0,0", "designation": "castle"}),
    ("cancel", {"units": "1-3"}),
    ("board", {"units": "1", "carrier": 99999}),
    ("launch", {"unit": 99999, "target": "1,1"}),
    ("engineer", {"unit": 99999, "action": "build_city"}),
    ("diplomacy", {"nation": "Nobody", "level": "war"}),
    ("diplomacy", {"nation": "Blue", "level": "best friends"}),
    ("units", {"type": "dragon"}),
    ("map", {"at": "x"}),
]


@pytest.mark.parametrize(
    ("command", "options"), HOSTILE, ids=[f"{c}-{i}" for i, (c, _) in enumerate(HOSTILE)]
)
async def test_every_error_a_player_gets_is_a_sentence(env, command, options) -> None:  # noqa: F811
    await open_game(env)
    await env.fake.invoke(env.alice, env.channel, "game join", {"name": "Red"})
    await env.fake.invoke(env.bob, env.channel, "game join", {"name": "Blue"})
    reply = await env.fake.invoke(env.alice, env.channel, command, options)
    assert reply.ephemeral
    text = reply.text
    assert is_sentence(text), text
    assert not re.search(r"\btick", text), text
    assert not re.search(r"\b[a-z]+_[a-z0-9_]+\b", text), "internal names: " + text
