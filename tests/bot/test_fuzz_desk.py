"""Every input is refused clearly (issue 27, finding 11): a seeded fuzzer throws hostile values
at every desk action a slash command reaches and at every component handler (buttons, select
menus), as every kind of caller, against games of both kinds in the lobby, running (Supply
Lines also in its supply phase) and ended. Each call must answer with a `Reply` or refuse with
a `UserError`; anything else (and any error the bot only logs) is a failure, printed with what
reproduces it.

What is fuzzed is found, not listed: the slash commands are the registered command tree (the
cogs of `bot.client.EXTENSIONS`, each command's own callback with its parameters' types,
choices and autocomplete), the component handlers are the `DynamicItem`s of `bot.discord_io`
(custom ids generated from each one's template, select values), and the desk methods buttons
reach (`Desk.confirm`, `Desk.press` and the supply menu's `orders_supply_chosen`). A new
command or handler is fuzzed without editing this file.

The cogs' callbacks run as Discord would call them, with `respond` and `caller_of` replaced
(no fake Discord: the desk's answer is taken as it is); values are hostile for the option's
type, not for Discord's ranges and choices (the sandbox passes what is typed), except that a
user option is a user with an id. Pictures are not drawn (the drawing pool answers with empty
bytes): what is fuzzed is what the desk makes of the input, and a picture costs more than all
the rest. Every `CALLS_PER_ROUND` calls the games start again from the prepared database, so
the calls that change games do not wear the states away.

The CI run is 20,000 calls (a few seconds), a local run a tenth of them (the Hypothesis
profile's share: tests/scaled.py). A longer campaign, another seed:

    SI_FUZZ_CALLS=500000 SI_FUZZ_SEED=7 .venv/bin/python -m pytest tests/bot/test_fuzz_desk.py -n 0 -q
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
import math
import os
import random
import re
import shutil
import sys
import time
import traceback
import typing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

import bot.discord_io as discord_io
from bot.client import StrategicBot, add_cogs
from bot.config import Settings
from bot.context import Caller, ChannelAccess, Reply, UserError
from bot.desk import Desk
from bot.game_side import load_games
from bot.games.caldera import card_select
from bot.games.strategic.playing import Playing
from bot.games.supplylines import supply_select
from bot.games.supplylines.orders import Orders
from engine.host.service import GameService
from engine.strategic.scenario import build_world
from engine.supplylines.cases import build_state
from engine.supplylines.kind import SubmitOrders
from renderers.pool import DrawPool
from tests import scaled

CALLS = scaled.from_env("SI_FUZZ_CALLS", 20000)
SEED = int(os.environ.get("SI_FUZZ_SEED", "27"))
CALLS_PER_ROUND = 1000
TIMEOUT = 30.0  # seconds one call may take before it counts as hanging

# --- the games -----------------------------------------------------------------------------------

GUILD, OTHER_GUILD = "100", "200"
EMPTY, OTHER_EMPTY = "190", "290"  # channels without a game, on each server

SI_MAP = """
~~~~~~~~~~~~~~~~~~~~
~A....B~~~~~~~G~~~~~
~......~~~~~~.~~~~~~
~~~~~~~~~~~~~~~~~~~~
"""


def si_world(players: tuple[str, ...]):
    red, blue, green = players
    return build_world(
        {
            "ruleset": "standard",
            "seed": 5,
            "map": SI_MAP,
            "nations": {
                "red": {"player": red, "tech": 12, "cp": 500},
                "blue": {"player": blue, "tech": 12, "cp": 500},
                "green": {"player": green},
            },
            "relations": [["red", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "tech"},
                "B": {"owner": "blue"},
                "G": {"owner": "green"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "3,1"},
                {"id": 2, "owner": "red", "type": "infantry", "at": "A"},
                {"id": 3, "owner": "red", "type": "transport", "at": "A"},
                {"id": 4, "owner": "red", "type": "engineer", "at": "2,2", "mobility": 9},
                {"id": 5, "owner": "red", "type": "icbm_1", "at": "A"},
                {"id": 6, "owner": "red", "type": "fighter", "at": "A"},
                {"id": 11, "owner": "blue", "type": "infantry", "at": "4,1"},
                {"id": 12, "owner": "blue", "type": "infantry", "at": "B"},
                {"id": 21, "owner": "green", "type": "infantry", "at": "G"},
            ],
        }
    )[0]


@dataclass
class Games:
    """The prepared database: its games by role, and what a caller may be or name there."""

    path: Path
    ids: dict[str, int]  # role -> game id
    channels: list[tuple[str, str]]  # (guild, channel): each game's, and empty ones
    users: list[str]  # every player of every game, and strangers
    seats: list[tuple[str, str, str]]  # (user, server, channel) of each game's players
    supply_game: int = 0
    supply_turn: int = 0
    known_text: list[str] = field(default_factory=list)  # names, labels, orders of the games


# role -> (channel, server)
PLACES = {
    "si-lobby": ("111", GUILD),
    "si-running": ("112", GUILD),
    "si-ended": ("113", GUILD),
    "si-elsewhere": ("211", OTHER_GUILD),
    "sl-lobby": ("121", GUILD),
    "sl-running": ("122", GUILD),
    "sl-supply": ("123", GUILD),
    "sl-ended": ("124", GUILD),
}


# role -> its players (the first of each game leads its first nation; green, user 3, and
# Cat, user 53, resigned)
PLAYERS: dict[str, tuple[str, ...]] = {
    "si-running": ("1", "2", "3"),
    "si-ended": ("4", "5", "6"),
    "si-elsewhere": ("7", "8", "9"),
    "si-lobby": ("31", "32"),
    "sl-lobby": ("41",),
    "sl-running": ("51", "52", "53", "54"),
    "sl-supply": ("61", "62"),
    "sl-ended": ("71", "72"),
}


def _sl_state(users: tuple[str, ...]):
    state = build_state(
        {
            "roads": "H1-C1 C1-C2 C2-H2",
            "owners": {"a": "H1 C1 C2", "b": "H2"},
            "units": ["a 1 infantry @ C1", "a 1 infantry @ C2", "b 1 infantry @ H2"],
        }
    )
    state.started, state.deadline, state.turn_ticks = True, 96, 96
    for player, user in zip(("a", "b"), users, strict=True):
        state.players[player].user = user
    return state


async def _prepare(path: Path) -> Games:
    service = await GameService.open(str(path), synchronous="NORMAL")
    ids: dict[str, int] = {}
    try:
        desk = Desk(service)
        for role in ("si-running", "si-ended", "si-elsewhere"):
            channel, guild = PLACES[role]
            ids[role] = await service.create_game(
                name=role, world=si_world(PLAYERS[role]), guild_id=guild, channel_id=channel
            )
        await service.resign(ids["si-running"], "green")
        await service.end(ids["si-ended"])

        async def made(reply: Reply) -> int:
            assert reply.refresh_game is not None, reply.text
            return reply.refresh_game

        def at(role: str, user: str) -> Caller:
            channel, guild = PLACES[role]
            return Caller(user, f"user{user}", guild, channel)

        ids["si-lobby"] = await made(
            await desk.lifecycle.game_create(at("si-lobby", "31"), "Lobby", nations=3, size="small")
        )
        await desk.lifecycle.game_join(at("si-lobby", "31"), "Lime", "lime")
        await desk.lifecycle.game_join(at("si-lobby", "32"), "Navy")
        ids["sl-lobby"] = await made(
            await desk.lifecycle.game_create(at("sl-lobby", "41"), "Lines", kind="supply-lines")
        )
        await desk.lifecycle.game_join(at("sl-lobby", "41"), "Ivy")
        ids["sl-running"] = await made(
            await desk.lifecycle.game_create(
                at("sl-running", "51"), "Four", kind="supply-lines", map_name="four"
            )
        )
        for user, name in (("51", "Ann"), ("52", "Bob"), ("53", "Cat"), ("54", "Dan")):
            await desk.lifecycle.game_join(at("sl-running", user), name)
        await service.resign(ids["sl-running"], "cat")
        await desk.part(Orders).orders_add(at("sl-running", "51"), "H1 > C2")
        for role in ("sl-supply", "sl-ended"):
            channel, guild = PLACES[role]
            ids[role] = await service.create_game(
                name=role,
                kind="supply-lines",
                world=_sl_state(PLAYERS[role]),
                guild_id=guild,
                channel_id=channel,
            )
        supply = ids["sl-supply"]
        await service.submit(supply, "a", SubmitOrders())
        await service.submit(supply, "b", SubmitOrders())  # a supply question to user 61
        await service.end(ids["sl-ended"])
        world = await service.live_world(supply)
        assert world.phase == "supply"
        turn = world.turn
        known = set()
        for game in ids.values():
            for nation in (await service.summary(game)).nations.values():
                known |= {nation.name, nation.name.upper(), nation.name.lower()}
    finally:
        await service.close()
    seats = [
        (user, PLACES[role][1], PLACES[role][0])
        for role, users in PLAYERS.items()
        for user in users
    ]
    users = sorted({user for user, _, _ in seats}) + ["900", "901"]
    channels = [(g, c) for c, g in PLACES.values()] + [(GUILD, EMPTY), (OTHER_GUILD, OTHER_EMPTY)]
    return Games(path, ids, channels, users, seats, supply, turn, sorted(known | set(KNOWN_TEXT)))


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Games:
    path = tmp_path_factory.mktemp("fuzz") / "template.db"
    return asyncio.run(_prepare(path))


# --- hostile values ------------------------------------------------------------------------------

HUGE = 10**4999  # 5,000 digits: more than str() and int() take (Python's 4,300)
LONG_DIGITS = "9" * 5000

HOSTILE_TEXT = [
    "",
    " ",
    "\t\n ",
    "\u200b",  # zero width space
    "\u3000",  # ideographic space
    "0",
    "-1",
    "+1",
    "1.5",
    "1e309",
    "inf",
    "-inf",
    "nan",
    "NaN",
    str(2**31),
    str(2**53 + 1),
    str(2**63),
    str(-(2**63) - 1),
    str(2**64),
    LONG_DIGITS,
    "1-" + LONG_DIGITS,
    LONG_DIGITS + "," + LONG_DIGITS,
    "\ud800",  # a lone surrogate (not UTF-8)
    "a\udfffb",
    "12\ud83d",
    "\x00",
    "a\x00b",
    "\x1b[31mred\x1b[0m",
    "\r\n\r\n",
    "\x7f\x08",
    "\u202eder",  # right-to-left override
    "<@123456789012345678>",
    "<@&1>",
    "<#1>",
    "@everyone",
    "@here",
    "**bold** __u__ ~~s~~ ||spoiler||",
    "`code` ```block```",
    "> quote",
    "[link](https://example.com)",
    "<t:99999999999999999999:R>",
    "x" * 6000,
    "é" * 3000,
    "😀" * 1000,
    "Ｒｅｄ",  # fullwidth
    "Rеd",  # Cyrillic е
    "ℝed",
    "ＩＩ",
    "١٢",  # Arabic-Indic digits (str.isdigit() is true)
    "²",  # a superscript two (isdigit() true, int() fails)
    "߀",
    "%s %d {0} {name} %(x)s",
    "'; DROP TABLE games; --",
    '"quoted"',
    "\\",
    "../../etc/passwd",
    "None",
    "null",
    "true",
    "[]",
    "{}",
    "0x10",
    "1_000",
    "#12",
    "12-",
    "-12",
    "1--2",
    "1-99999999",
    "999999999-1",
    "1,2,3," * 400,
    "1 " * 700,
    ",,,;;;",
    ">",
    ">>",
    "@",
    "@@",
    "> @",
    "Build",
    "Build 0 Tank@H1",
    "Build -1 Tank@H1",
    f"Build {LONG_DIGITS} Tank@H1",
    f"{LONG_DIGITS} Infantry @ H1 > C1",
    "Build 1 Tank@",
    "H1 > H1",
    "H1 > C1 > C2",
    "H1>",
    "Hold@",
    "Hold@ZZ9",
    "C99999999999999999999 > C1",
    "Concede Concede",
    "all at",
    "all at 99999,99999",
    "all at -1,-1",
    "all at 1,1 " * 50,
    "idle idle idle",
    "tanks at",
    "0,0",
    "-1,-1",
    "19,3",
    "20,4",
    "9999,9999",
    "(1,1)",
    "1,1,1",
    "1;1",
    "1 1",
    "a,b",
    "random-",
    "random-999999999999",
    "random-" + LONG_DIGITS,
    "random--1",
]

# values that mean something in the prepared games (taken also from the games themselves)
KNOWN_TEXT = [
    "1",
    "2",
    "5",
    "6",
    "11",
    "21",
    "1 2 3",
    "1-6",
    "1-64",
    "1-65",
    "all at 1,1",
    "all",
    "idle tanks",
    "infantry at 3,1",
    "1,1",
    "3,1",
    "6,1",
    "2,2",
    "13,1",
    "H1 > C2",
    "H2 > C1",
    "C1 > C2",
    "1 Infantry @ C1 > C2",
    "2 Infantry @ H1 > C1",
    "Build 1 Tank@H1",
    "Build 1 Infantry@M1",
    "Hold@H1",
    "Hold@C1",
    "Concede",
    "infantry",
    "tank",
    "Tank",
    "fighter",
    "fort",
    "port",
    "airport",
    "tech",
    "war",
    "neutral",
    "allied",
    "peace",
    "build_city",
    "switch_terrain",
    "build a city",
    "standard",
    "classic",
    "small",
    "auto",
    "huge",
    "fast (x4)",
    "real-time",
    "test (x360)",
    "four",
    "duel",
    "random",
    "random-3",
    "supply-lines",
    "strategic-initiative",
    "easy",
    "normal",
    "units",
    "supply",
    "commands",
    "combat",
    "red",
    "lime",
    "#ff0000",
    "moves",
    "fights",
]

HOSTILE_CHARS = (
    "09 ,;-_>@#:.aZé\u00a0\u200b\u202e\ud800\udfff\x00\x1b\t\n²١٢߀Ｒ😀<>`*|~\\\"'/%{}()[]"
)

HOSTILE_INTS = [
    0,
    1,
    -1,
    2,
    3,
    5,
    6,
    11,
    20,
    21,
    25,
    60,
    61,
    96,
    126,
    200,
    201,
    960,
    961,
    2**31 - 1,
    2**31,
    2**53,
    2**53 + 1,
    2**63 - 1,
    2**63,
    -(2**63),
    -(2**63) - 1,
    2**64,
    10**20,
    -(10**20),
    HUGE,
    -HUGE,
]

HOSTILE_FLOATS = [
    0.0,
    -0.0,
    0.1,
    0.09,
    0.24,
    0.25,
    1.0,
    12.0,
    167.99,
    168.0,
    168.01,
    86400.0,
    86400.5,
    -0.1,
    -1.0,
    1e-9,
    5e-324,
    1e308,
    float(2**63),
    math.inf,
    -math.inf,
    math.nan,
]


def _mutate(rng: random.Random, text: str) -> str:
    """A value made odder: two joined, a hostile character inserted, repeated, cut."""
    how = rng.randrange(5)
    if how == 0:
        return text + rng.choice(" ,>@-") + rng.choice(HOSTILE_TEXT + KNOWN_TEXT)
    if how == 1:
        at = rng.randint(0, len(text))
        return text[:at] + rng.choice(HOSTILE_CHARS) + text[at:]
    if how == 2:
        return text * rng.choice((2, 3, 50))
    if how == 3:
        return text[: rng.randint(0, len(text))]
    return text.upper() if rng.random() < 0.5 else f"  {text}  "


def _random_text(rng: random.Random) -> str:
    n = rng.choice((1, 2, 5, 20, 100, 300))
    return "".join(rng.choice(HOSTILE_CHARS) for _ in range(n))


def text_value(rng: random.Random, known: list[str], choices: list[str] = ()) -> str:  # type: ignore[assignment]
    r = rng.random()
    if choices and r < 0.4:
        return rng.choice(choices)
    if r < 0.5:
        return rng.choice(HOSTILE_TEXT)
    if r < 0.75:
        return rng.choice(known)
    if r < 0.92:
        return _mutate(rng, rng.choice(HOSTILE_TEXT + known))
    return _random_text(rng)


def int_value(rng: random.Random, low: Any = None, high: Any = None) -> int:
    r = rng.random()
    bounds = [b + d for b in (low, high) if isinstance(b, int | float) for d in (-1, 0, 1)]
    if bounds and r < 0.3:
        return int(rng.choice(bounds))
    if r < 0.85:
        return rng.choice(HOSTILE_INTS)
    return rng.randint(-(2**70), 2**70) >> rng.randrange(70)


def int_text(rng: random.Random) -> str:
    """A hostile number as typed (a 5,000-digit one included)."""
    value = int_value(rng)
    return LONG_DIGITS if abs(value) >= 10**100 else str(value)


def float_value(rng: random.Random, low: Any = None, high: Any = None) -> float:
    r = rng.random()
    bounds = [
        float(b) + d for b in (low, high) if isinstance(b, int | float) for d in (-0.01, 0, 1)
    ]
    if bounds and r < 0.3:
        return rng.choice(bounds)
    if r < 0.85:
        return rng.choice(HOSTILE_FLOATS)
    return rng.uniform(-1e6, 1e6)


def option_value(rng: random.Random, param: app_commands.Parameter, known: list[str]) -> Any:
    """A hostile value of the option's type (Discord's ranges and choices are not kept)."""
    kind = param.type
    choices = [str(c.value) for c in param.choices]
    if kind is discord.AppCommandOptionType.string:
        return text_value(rng, known, choices)
    if kind is discord.AppCommandOptionType.integer:
        return int_value(rng, param.min_value, param.max_value)
    if kind is discord.AppCommandOptionType.number:
        return float_value(rng, param.min_value, param.max_value)
    if kind is discord.AppCommandOptionType.boolean:
        return rng.random() < 0.5
    if kind is discord.AppCommandOptionType.user:
        # a user has an id; the sandbox passes any text as one
        some = rng.choice(["1", "2", "900", "0", str(2**64 - 1), text_value(rng, known)])
        return SimpleNamespace(id=some, mention=f"<@{some}>", display_name="someone")
    raise AssertionError(f"no hostile values for options of type {kind}: add them")


# --- custom ids from a DynamicItem's template ----------------------------------------------------

_sre: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

_CATEGORY = {
    _c.CATEGORY_DIGIT: "0123456789١²",
    _c.CATEGORY_NOT_DIGIT: "a -_:é\ud800",
    _c.CATEGORY_SPACE: " \t\n\u00a0\u3000",
    _c.CATEGORY_NOT_SPACE: "a0:_-é\ud800\x00",
    _c.CATEGORY_WORD: "aZ0_é",
    _c.CATEGORY_NOT_WORD: " -:\ud800",
}


def _in_class(items: list, ch: str) -> bool:
    for op, av in items:
        if op is _c.LITERAL and ch == chr(av):
            return True
        if op is _c.RANGE and av[0] <= ord(ch) <= av[1]:
            return True
        if (
            op is _c.CATEGORY
            and ch in _CATEGORY.get(av, "")
            and re.fullmatch(
                {
                    _c.CATEGORY_DIGIT: r"\d",
                    _c.CATEGORY_NOT_DIGIT: r"\D",
                    _c.CATEGORY_SPACE: r"\s",
                    _c.CATEGORY_NOT_SPACE: r"\S",
                    _c.CATEGORY_WORD: r"\w",
                    _c.CATEGORY_NOT_WORD: r"\W",
                }[av],
                ch,
            )
        ):
            return True
    return False


_OUTSIDE: dict[str, list[str]] = {}  # a negated class -> the hostile characters it takes


def _class_char(rng: random.Random, items: list) -> str:
    negate = bool(items) and items[0][0] is _c.NEGATE
    items = items[1:] if negate else items
    if negate:
        key = repr(items)
        if key not in _OUTSIDE:
            chars = HOSTILE_CHARS + "".join(_CATEGORY.values())
            _OUTSIDE[key] = [ch for ch in chars if not _in_class(items, ch)]
        return rng.choice(_OUTSIDE[key])
    op, av = rng.choice(items)
    if op is _c.LITERAL:
        return chr(av)
    if op is _c.RANGE:
        return chr(rng.choice((av[0], av[1], rng.randint(av[0], av[1]))))
    return rng.choice(_CATEGORY[av])


def _sample(rng: random.Random, parsed: Any, pinned: dict[int, str], out: list[str]) -> None:
    """A string the regex matches, its choices biased to the edges (shortest, longest); groups
    in `pinned` keep the value given."""
    for op, av in parsed:
        if op is _c.LITERAL:
            out.append(chr(av))
        elif op is _c.NOT_LITERAL:
            out.append(rng.choice([ch for ch in HOSTILE_CHARS if ch != chr(av)]))
        elif op is _c.ANY:
            out.append(rng.choice(HOSTILE_CHARS.replace("\n", "")))
        elif op is _c.IN:
            out.append(_class_char(rng, av))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            low, high, sub = av
            high = min(high, low + 120)
            for _ in range(rng.choice((low, high, rng.randint(low, high)))):
                _sample(rng, sub, pinned, out)
        elif op is _c.SUBPATTERN:
            group, _add, _del, sub = av
            if group in pinned:
                out.append(pinned[group])
            else:
                _sample(rng, sub, pinned, out)
        elif op is _c.BRANCH:
            _sample(rng, rng.choice(av[1]), pinned, out)
        elif op is _c.AT:
            continue
        elif op is _c.CATEGORY:
            out.append(rng.choice(_CATEGORY[av]))
        else:
            raise AssertionError(f"cannot sample {op} in a template: teach _sample")


@functools.cache
def _parsed(pattern: str) -> Any:
    return _sre.parse(pattern)


def custom_id(rng: random.Random, item: type, seen: list[str]) -> str:
    """A custom id the item's template matches: generated, or one the bot made (a button of a
    reply, a menu) with one part generated again, or as it was."""
    pattern: re.Pattern[str] = item.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    parsed = _parsed(pattern.pattern)
    mine = [s for s in seen if pattern.fullmatch(s)]
    for _ in range(20):
        pinned: dict[int, str] = {}
        r = rng.random()
        if mine and r < 0.6:
            m = pattern.fullmatch(rng.choice(mine))
            assert m is not None
            if r < 0.15:
                return m.string
            groups = [g for g in range(1, pattern.groups + 1) if m.group(g) is not None]
            again = rng.choice(groups) if groups else 0
            pinned = {g: m.group(g) for g in groups if g != again}
        out: list[str] = []
        _sample(rng, parsed, pinned, out)
        text = "".join(out)
        if pattern.fullmatch(text):
            return text
    return text


def select_values(rng: random.Random) -> list[str]:
    """What a select menu could send back: strings (Discord's), any of them odd."""
    n = rng.choice((0, 1, 2, 3, 25, 26, 201))
    pool = ["1", "2", "3", "0", "01", "-1", "²", "١", LONG_DIGITS, "", " 1", "1.0", "\ud800"]
    pool += [str(2**63), str(2**64), "x", "1 2"]
    return [rng.choice(pool) for _ in range(n)]


# --- the harness ---------------------------------------------------------------------------------


def show(value: Any) -> str:
    """A value as Python would write it, short enough to print (a 5,000-digit number cannot
    even be turned into text: it is written as the expression that makes it)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if abs(value) == HUGE:
            return "-10**4999" if value < 0 else "10**4999"
        if abs(value) >= 10**100:
            return f"<a number of {value.bit_length()} bits>"
        return repr(value)
    if isinstance(value, str):
        if len(value) > 120:
            for unit in {value[:1], value[:2], value[:6]}:
                if unit and unit * (len(value) // len(unit)) == value:
                    return f"{unit!r} * {len(value) // len(unit)}"
            return f"{value[:100]!r} + ... ({len(value)} characters)"
        return repr(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return (
            "["
            + ", ".join(show(v) for v in value[:30])
            + (", ..." if len(value) > 30 else "")
            + "]"
        )
    if isinstance(value, SimpleNamespace):
        return f"user(id={show(value.id)})"
    return repr(value)[:200]


class Errors(logging.Handler):
    """Errors the bot only logs (a component handler's, an autocomplete's): failures too."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Response:
    def __init__(self) -> None:
        self.done = False
        self.answers = 0

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: Any = None, **kwargs: Any) -> None:
        assert not self.done, "an interaction answered twice"
        self.done = True
        self.answers += 1

    async def edit_message(self, **kwargs: Any) -> None:
        assert not self.done, "an interaction answered twice"
        self.done = True
        self.answers += 1

    async def defer(self, **kwargs: Any) -> None:
        assert not self.done, "an interaction deferred after its answer"
        self.done = True


class Interaction:
    """What the component handlers use of a Discord interaction."""

    def __init__(self, host: Any, caller: Caller, data: dict[str, Any]) -> None:
        self.client = host
        self.caller = caller
        self.data = data
        self.response = Response()
        self.followup = SimpleNamespace(send=self._followup)
        self.guild_id = int(caller.guild_id) if caller.guild_id else None
        self.message = None
        self.result: Any = None

    async def _followup(self, content: Any = None, **kwargs: Any) -> None:
        assert self.response.done, "a follow-up before the interaction was answered"
        self.response.answers += 1

    async def edit_original_response(self, **kwargs: Any) -> None:
        assert self.response.done, "an edit before the interaction was answered"
        self.response.answers += 1


@dataclass
class Target:
    """One thing the fuzzer calls: `make(rng, caller, known)` -> (the call in words, the call)."""

    name: str
    make: Callable[[random.Random, Caller, list[str]], tuple[Any, Callable[[], Awaitable[Any]]]]
    check: str  # "reply": a Reply or a UserError; "answered": a handler that answered


@dataclass
class Campaign:
    rng: random.Random
    games: Games
    host: Any
    calls: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    carried_out: dict[str, int] = field(default_factory=dict)  # target -> calls not refused
    failures: dict[tuple[str, str, str], str] = field(default_factory=dict)
    seen_ids: list[str] = field(default_factory=list)  # custom ids the bot made
    tokens: list[str] = field(default_factory=list)  # confirmation tokens it handed out
    button_args: list[tuple[str, str]] = field(default_factory=list)

    def learn(self, reply: Any) -> None:
        """Remember the buttons a reply carries: later calls press them (as anyone)."""
        if not isinstance(reply, Reply):
            return
        if reply.confirm is not None:
            self.tokens.append(reply.confirm.token)
            self.seen_ids.append(f"si:confirm:{reply.confirm.token}")
        for b in reply.buttons:
            self.button_args.append((b.action, b.args))
            self.seen_ids.append(f"si:do:{b.action}:{b.args}")
        del self.tokens[:-50], self.button_args[:-50], self.seen_ids[:-100]


def slash_targets(tree: app_commands.CommandTree) -> list[Target]:
    """Every registered slash command (its cog's callback) and every autocomplete it has."""
    out: list[Target] = []
    commands: list[app_commands.Command] = []
    for top in tree.get_commands():
        if isinstance(top, app_commands.Group):
            commands += [c for c in top.walk_commands() if isinstance(c, app_commands.Command)]
        elif isinstance(top, app_commands.Command):
            commands.append(top)
    for command in commands:
        out.append(Target(f"/{command.qualified_name}", _slash(command, tree), "reply"))
        for param in command.parameters:
            if param.autocomplete:
                name = f"/{command.qualified_name} {param.name}: autocomplete"
                out.append(Target(name, _autocomplete(command, param.name), "autocomplete"))
    return out


def _slash(command: app_commands.Command, tree: app_commands.CommandTree):
    def make(rng: random.Random, caller: Caller, known: list[str]):
        kwargs = {
            p.name: option_value(rng, p, known)
            for p in command.parameters
            if p.required or rng.random() < 0.5
        }
        # as a player would: some values are what the option's autocomplete offers the caller
        offered = [
            p.name
            for p in command.parameters
            if p.autocomplete and p.name in kwargs and rng.random() < 0.5
        ]
        interaction: Any = SimpleNamespace(caller=caller, result=None, client=tree.client)
        # a cog's command is called with its cog; a game's own command (`/game create <game>`,
        # `/mod deadline`) with the interaction alone
        bound = () if command.binding is None else (command.binding,)

        async def call() -> Any:
            for name in offered:
                suggest: Any = command._params[name].autocomplete  # noqa: SLF001
                found = await suggest(*bound, interaction, rng.choice(("", "1", "a")))
                if found:
                    kwargs[name] = rng.choice(found).value
            await command.callback(*bound, interaction, **kwargs)
            return interaction.result

        return lambda: f"/{command.qualified_name} {show(kwargs)}", call

    return make


def _autocomplete(command: app_commands.Command, name: str):
    param = command._params[name]  # noqa: SLF001 - how discord.py keeps a parameter's callback

    def make(rng: random.Random, caller: Caller, known: list[str]):
        current = text_value(rng, known)  # what is typed so far: text, for any option type
        interaction: Any = SimpleNamespace(caller=caller)
        callback: Any = param.autocomplete

        async def call() -> Any:
            if getattr(callback, "pass_command_binding", False):
                return await callback(command.binding, interaction, current)
            return await callback(interaction, current)

        return f"/{command.qualified_name} {name}: autocomplete {show(current)}", call

    return make


def component_targets(campaign: Campaign) -> list[Target]:
    """Every DynamicItem of bot.discord_io and the games' (as discord.py dispatches a custom
    id), and the
    desk methods buttons reach, called directly as the sandbox does."""
    items = [
        v
        for module in (discord_io, supply_select, card_select)
        for v in vars(module).values()
        if isinstance(v, type)
        and issubclass(v, discord.ui.DynamicItem)
        and v is not discord.ui.DynamicItem
    ]
    assert len(items) >= 4, items
    out = [
        Target(f"component {item.__name__}", _dynamic(campaign, item), "answered") for item in items
    ]
    out += [
        Target("Desk.confirm", _confirm(campaign), "reply"),
        Target("Desk.press", _press(campaign), "reply"),
        Target("Desk.orders_supply_chosen", _supply_chosen(campaign), "reply"),
    ]
    return out


def _dynamic(campaign: Campaign, item: type):
    base_type = typing.get_args(item.__orig_bases__[0])[0]  # type: ignore[attr-defined]

    def make(rng: random.Random, caller: Caller, known: list[str]):
        cid = custom_id(rng, item, campaign.seen_ids)
        match = item.__discord_ui_compiled_template__.fullmatch(cid)  # type: ignore[attr-defined]
        data: dict[str, Any] = {"custom_id": cid}
        if issubclass(base_type, discord.ui.Select):
            base: Any = discord.ui.Select(custom_id=cid)
            data["values"] = select_values(rng)
            data["component_type"] = 3
        else:
            base = discord.ui.Button(custom_id=cid, label="Go")
            data["component_type"] = 2
        interaction = Interaction(campaign.host, caller, data)

        async def call() -> Any:
            assert match is not None, f"{cid!r} does not match {item.__name__}'s template"
            made = await item.from_custom_id(interaction, base, match)  # type: ignore[attr-defined]
            made._refresh_state(interaction, data)
            await made.callback(interaction)
            return interaction

        return f"{item.__name__} {show(cid)} values={show(data.get('values'))}", call

    return make


def _confirm(campaign: Campaign):
    def make(rng: random.Random, caller: Caller, known: list[str]):
        if campaign.tokens and rng.random() < 0.4:
            token = rng.choice(campaign.tokens)
        elif rng.random() < 0.3:
            token = "".join(rng.choice("0123456789abcdef") for _ in range(rng.choice((1, 16, 64))))
        else:
            token = text_value(rng, known)
        return f"confirm {show(token)}", lambda: campaign.host.desk.confirm(caller, token)

    return make


def _press(campaign: Campaign):
    def make(rng: random.Random, caller: Caller, known: list[str]):
        if campaign.button_args and rng.random() < 0.4:
            action, args = rng.choice(campaign.button_args)
            if rng.random() < 0.6:
                args = (
                    _mutate(rng, args)
                    if rng.random() < 0.5
                    else re.sub(r"\d+", lambda m: int_text(rng), args, count=1)
                )
        else:
            names = campaign.host.desk.actions.names()
            action = rng.choice(
                [*names["buttons"], *names["confirmations"], "", text_value(rng, known)]
            )
            args = rng.choice(
                [
                    text_value(rng, known),
                    f"{rng.choice([*names['pages'], 'x'])}:{int_text(rng)}:{int_text(rng)}",
                    f"{rng.choice([*names['pages'], 'x'])}:{int_text(rng)}",
                    f"{int_text(rng)}:{text_value(rng, known)}",
                ]
            )
        return f"press {show(action)} {show(args)}", lambda: campaign.host.desk.press(
            caller, action, args
        )

    return make


def _supply_chosen(campaign: Campaign):
    games = campaign.games

    def make(rng: random.Random, caller: Caller, known: list[str]):
        game = rng.choice([games.supply_game, *games.ids.values(), int_value(rng)])
        turn = rng.choice([games.supply_turn, int_value(rng)])
        units = [rng.choice([1, 2, 3, int_value(rng)]) for _ in range(rng.choice((0, 1, 2, 201)))]
        part = rng.choice([None, 0, 1, 4, 5, int_value(rng)])

        async def call() -> Any:
            return await campaign.host.desk.part(Orders).orders_supply_chosen(
                caller, game, turn, units, part=part
            )

        return (
            f"orders_supply_chosen game={show(game)} turn={show(turn)} units={show(units)} part={show(part)}",
            call,
        )

    return make


def a_caller(rng: random.Random, games: Games, known: list[str]) -> Caller:
    """Anyone: a player of one game typing in another's channel, a moderator here or of
    another server, a stranger, a DM (no server, no channel)."""
    user = rng.choice(games.users)
    if rng.random() < 0.15:
        guild, channel = None, None
    else:
        guild, channel = rng.choice(games.channels)
    if rng.random() < 0.45:  # a player where they play (or by DM)
        user, guild, channel = rng.choice(games.seats)
        if rng.random() < 0.2:
            guild, channel = None, None
    name = f"user{user}" if rng.random() < 0.8 else text_value(rng, known)[:32]
    access = rng.choice(
        [None, None, ChannelAccess(), ChannelAccess(blocking=("Send Messages (to post)",))]
    )
    moderator = guild is not None and rng.random() < 0.35
    return Caller(user, name, guild, channel, moderator, access)


def where(problem: str) -> str:
    """What tells one failure from another: the exception and the bot's line it came from."""
    lines = problem.strip().splitlines()
    places = [ln.strip() for ln in lines if ln.strip().startswith('File "') and "/tests/" not in ln]
    ours = [p for p in places if "site-packages" not in p and "/lib/python" not in p]
    return f"{lines[-1].split(':')[0]} at {(ours or places or ['?'])[-1]}"


async def _one(campaign: Campaign, target: Target, caller: Caller, errors: Errors) -> None:
    rng = campaign.rng
    known = campaign.games.known_text
    try:
        described, call = target.make(rng, caller, known)
    except Exception as exc:  # the fuzzer's own bug: say so plainly
        raise AssertionError(f"the fuzzer could not make a call to {target.name}") from exc
    logged = len(errors.records)
    campaign.calls += 1
    outcome = "?"
    problem = ""
    try:
        result = await asyncio.wait_for(call(), TIMEOUT)
    except UserError as exc:
        outcome = "refused"
        if target.check != "reply":
            problem = f"UserError escaped the handler: {exc}"
        elif not str(exc).strip():
            problem = "a refusal without words"
    except TimeoutError:
        problem = f"no answer in {TIMEOUT} s"
    except Exception as exc:  # noqa: BLE001 - what the fuzzer is looking for
        problem = "".join(traceback.format_exception(exc, limit=-4))
    else:
        if target.check == "reply":
            outcome = "reply"
            if not isinstance(result, Reply):
                problem = f"answered with {type(result).__name__}, not a Reply"
            campaign.learn(result)
        elif target.check == "answered":
            outcome = "answered"
            if result.response.answers == 0:
                problem = "the handler gave the player no answer"
        else:
            outcome = "suggested"
            if not isinstance(result, list):
                problem = f"autocomplete gave {type(result).__name__}, not a list"
    what = described() if callable(described) else described
    for record in errors.records[logged:]:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += "\n" + "".join(traceback.format_exception(record.exc_info[1], limit=-4))
        problem = problem or f"logged as an error: {text}"
    campaign.outcomes[outcome] = campaign.outcomes.get(outcome, 0) + 1
    if outcome != "refused":
        campaign.carried_out[target.name] = campaign.carried_out.get(target.name, 0) + 1
    if problem:
        key = (target.name, where(problem), "")
        campaign.failures.setdefault(
            key,
            f"{target.name}: {what[:600]}\n  as {caller!r}\n  call {campaign.calls} "
            f"(SI_FUZZ_SEED={SEED})\n{problem}",
        )


def caller_of(interaction: Any) -> Caller:
    """The caller the fuzzer chose (instead of one read from a Discord interaction)."""
    return interaction.caller


async def respond(interaction: Any, action: Callable[[], Awaitable[Reply]], **_: Any) -> None:
    """The desk's answer as it is (instead of a Discord response)."""
    interaction.result = await action()


def fake_caller_of(monkeypatch: pytest.MonkeyPatch) -> None:
    """`caller_of` replaced wherever the bot's modules hold it (the menus' modules import it by
    name). Every game's modules are imported first, as the bot does at start-up: a module
    first imported while the fake is in place would keep it after the test."""
    assert not load_games()
    real = discord_io.caller_of
    for name, module in list(sys.modules.items()):
        if name.startswith("bot.") and getattr(module, "caller_of", None) is real:
            monkeypatch.setattr(module, "caller_of", caller_of)


async def _campaign(
    games: Games, tmp: Path, calls: int, monkeypatch: pytest.MonkeyPatch
) -> Campaign:
    host = StrategicBot(Settings(_env_file=None), background=False)  # type: ignore[call-arg]
    await add_cogs(host)
    # the cogs' modules as discord.py loaded them (each extension is a module of its own)
    for command in host.tree.walk_commands():
        if isinstance(command, app_commands.Command):
            names = command.callback.__globals__
            for name, fake in (("respond", respond), ("caller_of", caller_of)):
                # (not again where `fake_caller_of` put it: a module's attributes are its
                # globals, and the monkeypatch undoes every setattr before every setitem, so a
                # second patch would leave the fake in a module such as bot.turnbased)
                if name in names and names[name] is not fake:
                    monkeypatch.setitem(names, name, fake)

    async def after_reply(reply: Reply) -> None:
        return None

    host.after_reply = after_reply  # type: ignore[method-assign]
    campaign = Campaign(random.Random(SEED), games, host)
    targets = slash_targets(host.tree)
    commands = [t for t in targets if t.check == "reply"]
    suggestions = [t for t in targets if t.check != "reply"]
    components = component_targets(campaign)
    rng = campaign.rng
    errors = Errors()
    logging.getLogger().addHandler(errors)
    n_round = 0
    try:
        while campaign.calls < calls:
            path = tmp / f"round{n_round % 2}.db"
            shutil.copyfile(games.path, path)
            service = await GameService.open(str(path), synchronous="NORMAL")
            host.desk = Desk(service)
            try:
                for _ in range(min(CALLS_PER_ROUND, calls - campaign.calls)):
                    r = rng.random()  # commands 65%, components 25%, autocomplete 10%
                    pool = commands if r < 0.65 else components if r < 0.9 else suggestions
                    target = rng.choice(pool)
                    caller = a_caller(rng, games, games.known_text)
                    await _one(campaign, target, caller, errors)
            finally:
                await service.close()
            n_round += 1
    finally:
        logging.getLogger().removeHandler(errors)
        await host.close()
    return campaign


@pytest.mark.slow
def test_every_input_is_answered_or_refused_clearly(prepared, tmp_path, monkeypatch) -> None:
    async def no_picture(self: DrawPool, fn: Any, *args: Any) -> bytes:
        return b""

    monkeypatch.setattr(DrawPool, "run", no_picture)
    fake_caller_of(monkeypatch)
    started = time.perf_counter()
    campaign = asyncio.run(_campaign(prepared, tmp_path, CALLS, monkeypatch))
    took = time.perf_counter() - started
    print(
        f"\n{campaign.calls} calls in {took:.1f} s ({campaign.outcomes}); "
        f"{len(campaign.failures)} unhandled; carried out: {sorted(campaign.carried_out.items())}"
    )
    failures = list(campaign.failures.values())
    assert not failures, f"{len(failures)} unhandled:\n\n" + "\n\n".join(failures[:100])
    assert campaign.calls >= CALLS
    # the calls reach past the first refusals: some are carried out
    assert campaign.outcomes.get("reply", 0) > CALLS // 100, campaign.outcomes


# the inputs issue 27 names (finding 11), each refused: what -> (game, user, the call);
# user 901 is a moderator who plays nowhere
FINDINGS: dict[str, tuple[str, str, Callable[[Desk, Caller, Games], Awaitable[Reply]]]] = {
    "an empty order": ("sl-running", "51", lambda d, c, g: d.part(Orders).orders_add(c, " \t ")),
    "an order with a lone surrogate": (
        "sl-running",
        "51",
        lambda d, c, g: d.part(Orders).orders_add(c, "H1 > C\ud800"),
    ),
    "a 5,000-digit unit to supply": (
        "sl-supply",
        "61",
        lambda d, c, g: d.part(Orders).orders_supply(c, LONG_DIGITS),
    ),
    "201 units to supply": (
        "sl-supply",
        "61",
        lambda d, c, g: d.part(Orders).orders_supply(c, " ".join(map(str, range(1, 202)))),
    ),
    "a supply menu of game 2^63": (
        "sl-supply",
        "61",
        lambda d, c, g: d.part(Orders).orders_supply_chosen(c, 2**63, 1, [1]),
    ),
    "a supply menu of turn 10^4999": (
        "sl-supply",
        "61",
        lambda d, c, g: d.part(Orders).orders_supply_chosen(c, g.supply_game, HUGE, [1]),
    ),
    "a confirmation token with a lone surrogate": (
        "si-running",
        "1",
        lambda d, c, g: d.confirm(c, "12\ud83d"),
    ),
    "hours=inf in /mod deadline": (
        "sl-running",
        "901",
        lambda d, c, g: d.part(Orders).mod_deadline(c, False, math.inf),
    ),
    "hours=nan in /mod deadline": (
        "sl-running",
        "901",
        lambda d, c, g: d.part(Orders).mod_deadline(c, False, math.nan),
    ),
    "a game named with a lone surrogate": (
        "",
        "900",
        lambda d, c, g: d.lifecycle.game_create(c, "W\udfffr"),
    ),
    "a nation named with a lone surrogate": (
        "si-lobby",
        "900",
        lambda d, c, g: d.lifecycle.game_join(c, "N\udfff"),
    ),
    "a 5,000-digit engineer": (
        "si-running",
        "1",
        lambda d, c, g: d.part(Playing).engineer(c, HUGE, "build_city"),
    ),
    "a 5,000-digit carrier": (
        "si-running",
        "1",
        lambda d, c, g: d.part(Playing).board(c, "2", HUGE),
    ),
    "a 5,000-digit ICBM": (
        "si-running",
        "1",
        lambda d, c, g: d.part(Playing).launch(c, -HUGE, "1,1"),
    ),
}


@pytest.mark.parametrize("finding", list(FINDINGS))
async def test_each_input_the_issue_names_is_refused(prepared, tmp_path, finding: str) -> None:
    game, user, call = FINDINGS[finding]
    channel, guild = PLACES.get(game, (EMPTY, GUILD))  # "": a channel without a game
    path = tmp_path / "finding.db"
    shutil.copyfile(prepared.path, path)
    service = await GameService.open(str(path), synchronous="NORMAL")
    try:
        before = [await service.store.last_seq(g) for g in prepared.ids.values()]
        caller = Caller(user, f"user{user}", guild, channel, moderator=user == "901")
        with pytest.raises(UserError) as refused:
            await call(Desk(service), caller, prepared)
        assert str(refused.value).strip()
        assert [await service.store.last_seq(g) for g in prepared.ids.values()] == before
    finally:
        await service.close()


@pytest.mark.parametrize("values", [["²"], [LONG_DIGITS], ["1", "x"], ["-1"], ["\ud800"]])
async def test_odd_values_in_the_supply_menu_are_answered(
    prepared, tmp_path, monkeypatch, values
) -> None:
    """Parsed inside the handler's `try` (they were parsed before it: no answer at all)."""
    path = tmp_path / "menu.db"
    shutil.copyfile(prepared.path, path)
    service = await GameService.open(str(path), synchronous="NORMAL")
    errors = Errors()
    logging.getLogger().addHandler(errors)
    fake_caller_of(monkeypatch)
    try:

        async def after_reply(reply: Reply) -> None:
            return None

        host = SimpleNamespace(desk=Desk(service), after_reply=after_reply)
        caller = Caller("61", "user61", None, None)
        interaction = Interaction(host, caller, {"values": values, "component_type": 3})
        menu = supply_select.SupplySelect(prepared.supply_game, prepared.supply_turn)
        await menu.callback(interaction)  # type: ignore[arg-type]
        assert interaction.response.answers == 1
        assert not errors.records, errors.records[0].getMessage()
    finally:
        logging.getLogger().removeHandler(errors)
        await service.close()
