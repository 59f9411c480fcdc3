"""Nobody acts beyond their right (issue 12): every slash command the bot registers, tried by
each kind of caller against a game, is either allowed or refused with a clear message and no
change at all; confirmation buttons act only for the one who asked, on their rights as they are
when the button is pressed, and still work after a restart.

The matrix drives the Discord-free desk (each cell on a fresh copy of one prepared database);
two checks at the end go through the real bot and the fake Discord."""

from __future__ import annotations

import asyncio
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import SecretStr

from bot.context import Caller, Reply, UserError
from bot.desk import Desk
from bot.games.strategic import selectors
from bot.games.strategic.choices import Choices
from bot.games.strategic.playing import Playing
from bot.sandbox import command_specs
from bot.typed import Commands
from engine.host.service import GameService
from engine.interface.kind import kind as kind_named
from engine.strategic.commands import Move, SetRelation
from engine.strategic.rules import load as load_rules
from engine.strategic.scenario import build_world

# --- the world the matrix is played in -----------------------------------------------------------

GUILD_A, GUILD_B = "100", "200"
A1, A2 = "101", "102"  # server A: the running game's channel, the lobby's channel
A3 = "103"  # server A: a running Supply Lines game's channel
A4, A5 = "104", "105"  # server A: an ended Strategic Initiative game's, an ended Supply Lines one's
B1, B2 = "201", "202"  # server B: another game's channel, a channel without a game

RUNNING_MAP = """
~~~~~~~~~~~~~~~~~~~~~~~~
~A....B~~~~~~~~~~~~~~~~~
~......~~~~~G~~~~~Y..~~~
~~~~~~~~~~~~.~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~
"""

OTHER_MAP = """
~~~~~~~~~~
~T.......~
~~~~~~~~~~
"""

# each nation's units in the running game, by role in the tests
UNITS = {
    "red": {"front": 1, "home": 2, "transport": 3, "engineer": 4, "icbm": 5, "walker": 6},
    "blue": {"front": 11, "home": 12, "transport": 13, "engineer": 14, "icbm": 15, "walker": 16},
}
HOME = {"red": "1,1", "blue": "6,1"}
ENEMY = {"red": "4,1", "blue": "3,1"}  # the square of the other's front infantry


def running_world():
    return build_world(
        {
            "ruleset": "standard",
            "seed": 3,
            "map": RUNNING_MAP,
            "nations": {
                "red": {"player": "1", "tech": 12, "cp": 500},
                "blue": {"player": "8", "tech": 12, "cp": 500},
                "green": {"player": "3"},
                "yellow": {"player": "4"},
            },
            "relations": [["red", "blue", "war"]],
            "cities": {
                "A": {"owner": "red", "designation": "tech"},
                "B": {"owner": "blue", "designation": "tech"},
                "G": {"owner": "green"},
                "Y": {"owner": "yellow"},
            },
            "units": [
                {"id": 1, "owner": "red", "type": "infantry", "at": "3,1"},
                {"id": 2, "owner": "red", "type": "infantry", "at": "A"},
                {"id": 3, "owner": "red", "type": "transport", "at": "A"},
                {"id": 4, "owner": "red", "type": "engineer", "at": "2,2", "mobility": 9},
                {"id": 5, "owner": "red", "type": "icbm_1", "at": "A"},
                {"id": 6, "owner": "red", "type": "infantry", "at": "1,2", "mobility": 0},
                {"id": 11, "owner": "blue", "type": "infantry", "at": "4,1"},
                {"id": 12, "owner": "blue", "type": "infantry", "at": "B"},
                {"id": 13, "owner": "blue", "type": "transport", "at": "B"},
                {"id": 14, "owner": "blue", "type": "engineer", "at": "5,2", "mobility": 9},
                {"id": 15, "owner": "blue", "type": "icbm_1", "at": "B"},
                {"id": 16, "owner": "blue", "type": "infantry", "at": "6,2", "mobility": 0},
                {"id": 21, "owner": "green", "type": "infantry", "at": "G"},
                {"id": 31, "owner": "yellow", "type": "infantry", "at": "Y"},
            ],
        }
    )[0]


def other_world():
    return build_world(
        {
            "ruleset": "standard",
            "map": OTHER_MAP,
            "nations": {"teal": {"player": "5"}, "plum": {"player": "ai"}},
            "cities": {"T": {"owner": "teal"}},
            "units": [{"id": 1, "owner": "teal", "type": "infantry", "at": "T"}],
        }
    )[0]


@dataclass
class Prepared:
    path: Path
    running: int  # the running game on server A (channel A1)
    lobby: int  # a lobby on server A (channel A2)
    other: int  # a running game on server B (channel B1)
    supply: int  # a running Supply Lines game on server A (channel A3)
    ended: int  # a Strategic Initiative game that has ended, on server A (channel A4)
    ended_supply: int  # a Supply Lines game that has ended, on server A (channel A5)


async def _prepare(path: Path) -> Prepared:
    service = await GameService.open(str(path), synchronous="NORMAL")
    try:
        running = await service.create_game(
            name="Home war",
            world=running_world(),
            guild_id=GUILD_A,
            channel_id=A1,
            created_by="1",
        )
        other = await service.create_game(
            name="Far war", world=other_world(), guild_id=GUILD_B, channel_id=B1, created_by="5"
        )
        await service.resign(running, "green")  # user 3's nation is out
        await service.substitute(running, "yellow", "10")  # user 4 was replaced by user 10
        desk = Desk(service)
        lobby_creator = Caller("11", "user11", GUILD_A, A2)
        made = await desk.lifecycle.game_create(lobby_creator, "Lobby", nations=3, size="small")
        lobby = made.refresh_game
        assert lobby is not None
        await desk.lifecycle.game_join(lobby_creator, "Lime", "lime")
        await desk.lifecycle.game_join(Caller("18", "user18", GUILD_A, A2), "Navy", "navy")
        # Supply Lines on the four-player map: users 21 and 28 play, 23 resigned, 24 was
        # replaced by user 30 (the same roles as in the Strategic Initiative game)
        made = await desk.lifecycle.game_create(
            Caller("21", "user21", GUILD_A, A3), "Lines", kind="supply-lines", map_name="four"
        )
        supply = made.refresh_game
        assert supply is not None
        for user, name in (("21", "Ann"), ("28", "Bob"), ("23", "Cat"), ("24", "Dan")):
            await desk.lifecycle.game_join(Caller(user, f"user{user}", GUILD_A, A3), name)
        assert (await service.game(supply)).status == "running"
        await service.resign(supply, "cat")
        await service.substitute(supply, "dan", "30")
        # the same two games, with the same players and roles, ended by a moderator
        ended = await service.create_game(
            name="Old war", world=running_world(), guild_id=GUILD_A, channel_id=A4, created_by="1"
        )
        await service.resign(ended, "green")
        await service.substitute(ended, "yellow", "10")
        await service.end(ended)
        made = await desk.lifecycle.game_create(
            Caller("21", "user21", GUILD_A, A5), "Old lines", kind="supply-lines", map_name="four"
        )
        ended_supply = made.refresh_game
        assert ended_supply is not None
        for user, name in (("21", "Ann"), ("28", "Bob"), ("23", "Cat"), ("24", "Dan")):
            await desk.lifecycle.game_join(Caller(user, f"user{user}", GUILD_A, A5), name)
        await service.resign(ended_supply, "cat")
        await service.substitute(ended_supply, "dan", "30")
        await service.end(ended_supply)
    finally:
        await service.close()
    return Prepared(path, running, lobby, other, supply, ended, ended_supply)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory) -> Prepared:
    path = tmp_path_factory.mktemp("authority") / "template.db"
    return asyncio.run(_prepare(path))


@pytest.fixture
async def fresh(prepared, tmp_path):
    """A desk on a copy of the prepared database (every cell starts from the same state)."""
    path = tmp_path / "cell.db"
    shutil.copyfile(prepared.path, path)
    service = await GameService.open(str(path), synchronous="NORMAL")
    submitted: list[tuple[int, str]] = []
    submit = service.submit

    async def spy(game_id, nation, command, **options):
        submitted.append((game_id, nation))
        return await submit(game_id, nation, command, **options)

    service.submit = spy  # type: ignore[method-assign]
    yield SimpleNamespace(desk=Desk(service), service=service, submitted=submitted, g=prepared)
    await service.close()


async def fingerprint(service: GameService) -> dict[int, Any]:
    """Everything a command could change: each game's row, players, log and world."""
    out: dict[int, Any] = {}
    for row in await service.store.games():
        world = await service.live_world(row.id)
        out[row.id] = (
            row.status,
            row.clock,
            row.settings,
            await service.store.members(row.id),
            await service.store.last_seq(row.id),
            kind_named(row.kind).hash(world),
        )
    return out


# --- who is asking ---------------------------------------------------------------------------------

ROLES = (
    "player",  # plays a nation in this game
    "other_player",  # plays in a game on another server, typing in this game's channel
    "mod_here",  # Manage Server on the server hosting this game, typing in its channel
    "mod_elsewhere",  # plays in this game, and has Manage Server on another server: types there
    "non_member",  # a member of the server who plays nowhere
    "eliminated",  # their nation in this game is out
    "substituted_out",  # a moderator handed their nation to someone else
    "mod_player",  # Manage Server here, and plays in this game: a player there, no referee
)


@dataclass(frozen=True)
class Who:
    caller: Caller
    nation: str | None  # their nation in the running game, if they still lead one that is in


def who(role: str, target: str) -> Who:
    """The caller of a role, typing where that role would: in the target game's channel, or
    (a moderator of another server) in a channel of their own server that hosts no game."""
    here = {"running": A1, "lobby": A2, "supply": A3, "ended": A4, "ended_supply": A5}[target]
    player, mod_elsewhere, out, replaced = {
        "running": ("1", "8", "3", "4"),
        "lobby": ("11", "18", "3", "4"),
        "supply": ("21", "28", "23", "24"),
        "ended": ("1", "8", "3", "4"),
        "ended_supply": ("21", "28", "23", "24"),
    }[target]
    mod_player = mod_elsewhere  # the same player, with the right on this server too
    table = {
        "player": (player, GUILD_A, here, False),
        "other_player": ("5", GUILD_A, here, False),
        "mod_here": ("9", GUILD_A, here, True),
        "mod_elsewhere": (mod_elsewhere, GUILD_B, B2, True),
        "non_member": ("6", GUILD_A, here, False),
        "eliminated": (out, GUILD_A, here, False),
        "substituted_out": (replaced, GUILD_A, here, False),
        "mod_player": (mod_player, GUILD_A, here, True),
    }
    user, guild, channel, moderator = table[role]
    nations = {
        "running": {"1": "red", "8": "blue"},
        "supply": {"21": "ann", "28": "bob"},
        "ended": {"1": "red", "8": "blue"},
        "ended_supply": {"21": "ann", "28": "bob"},
    }.get(target, {})
    return Who(Caller(user, f"user{user}", guild, channel, moderator), nations.get(user))


# --- expected outcomes ---------------------------------------------------------------------------

OK = "ok"  # the action runs (an order reaches the engine as the caller's own nation)
ASK = "ask"  # a confirmation button is offered; nothing changes until it is pressed
NOT_PLAYING = r"You do not play in game \d+"
OUT = r"Green is out of the game"
NOT_MOD = r"Only moderators"
NO_GAME_HERE = r"There is no game in this channel: moderator commands act on the game hosted"
CREATOR = r"Only the game's creator or a moderator"
# a moderator who plays in the game: a player there (issue 27, finding 3)
REFEREE = r"You play in game \d+: a moderator who plays has no moderator's"
HOSTS = r"This channel already hosts game"
ALREADY = r"You already play"


def row(**cells: str) -> dict[str, str]:
    assert set(cells) == set(ROLES), cells
    return cells


PLAYERS = row(
    player=OK,
    other_player=NOT_PLAYING,
    mod_here=NOT_PLAYING,
    mod_elsewhere=OK,  # their own nation: a player's orders follow them to any server
    non_member=NOT_PLAYING,
    eliminated=OUT,
    substituted_out=NOT_PLAYING,
    mod_player=OK,  # their own nation, as any player
)
NO_WASTELANDS = r"This game's ruleset has no wastelands"
PLAYERS_ASK = {r: ASK if v == OK else v for r, v in PLAYERS.items()}
MODERATORS = row(
    player=NOT_MOD,
    other_player=NOT_MOD,
    mod_here=OK,
    mod_elsewhere=NO_GAME_HERE,  # rights on server B never reach a game on server A
    non_member=NOT_MOD,
    eliminated=NOT_MOD,
    substituted_out=NOT_MOD,
    mod_player=REFEREE,  # no view of others' orders or maps, no power over the game
)
MODERATORS_ASK = {r: ASK if v == OK else v for r, v in MODERATORS.items()}
EVERYONE = row(**dict.fromkeys(ROLES, OK))
NO_SUCH_GAME = row(**dict.fromkeys(ROLES, r"There is no game 999999 on this server"))
CREATOR_OR_MOD = row(
    player=OK,  # the lobby's creator
    other_player=CREATOR,
    mod_here=OK,
    mod_elsewhere=CREATOR,  # a player of the lobby, moderator of another server only
    non_member=CREATOR,
    eliminated=CREATOR,
    substituted_out=CREATOR,
    mod_player=REFEREE,  # a player of the lobby, not its creator: a moderator's share is void
)
WRONG_KIND = row(
    **dict.fromkeys(
        ROLES, r"is a Strategic Initiative game, and this command is for Supply Lines games"
    )
)
LOBBY_PLAYERS = row(
    player=OK,
    other_player=NOT_PLAYING,
    mod_here=NOT_PLAYING,
    mod_elsewhere=OK,
    non_member=NOT_PLAYING,
    eliminated=NOT_PLAYING,
    substituted_out=NOT_PLAYING,
    mod_player=OK,
)


def units(n: str | None, *names: str) -> str:
    return " ".join(str(UNITS[n or "red"][x]) for x in names)


@dataclass(frozen=True)
class Case:
    target: str  # "running" or "lobby": the game the caller acts on
    options: Any  # the slash command's options (by name), from the caller's nation
    expect: dict[str, str]
    order: bool = False  # goes to the engine as an order
    setup: str | None = None
    # a caller with the right may be refused by the game's rules, in the engine (their own
    # order reached it, and changed nothing)
    engine_refuses: bool = False
    # the roles that try it (None: every one): a refusal the same for everyone (another
    # game's command) is tried by one who plays and one who does not
    roles: tuple[str, ...] | None = None


# Caldera's captain commands (their options), tried on the other games' channels
CALDERA: dict[str, dict[str, Any]] = {
    "captain character": {"cha": 3, "int": 3, "eng": 3, "arm": 2, "com": 2, "eco": 2},
    "captain bonus": {"bonus": "earth-interceptor"},
    "captain choose": {"hand": "research", "card": "none"},
    "captain fund": {"amount": 10},
    "captain build": {"class": "interceptor", "parts": "nuclear-engine"},
    "captain shipyard": {"class": "frigate"},
    "captain repair": {},
    "captain refit": {"ship": 1, "parts": "nuclear-engine"},
    "captain scrap": {"ship": 1},
    "captain recruit": {"units": "1 space-cadet"},
    "captain move": {"ships": "1", "to": "0,-1"},
    "captain retreat": {"ship": 1},
    "captain submit": {},
    "captain status": {},
    "captain map": {},
}
BY_ONE_WHO_PLAYS_AND_ONE_WHO_DOES_NOT = ("player", "non_member")


def caldera_on(title: str, target: str) -> dict[str, Case]:
    """Caldera's commands on a game of another kind: refused to everyone, unchanged."""
    refused = row(**dict.fromkeys(ROLES, rf"is a {title} game, and this command is for Caldera"))
    return {
        path: Case(
            target,
            lambda n, options=options: dict(options),
            refused,
            roles=BY_ONE_WHO_PLAYS_AND_ONE_WHO_DOES_NOT,
        )
        for path, options in CALDERA.items()
    }


# every slash command the bot registers -> how it is tried and who may use it
MATRIX: dict[str, Case] = {
    "game create strategic-initiative": Case(
        "running",
        lambda n: {"name": "Another", "nations": 2},
        # one active game per channel; the moderator of B types in B's empty channel
        row(**{**dict.fromkeys(ROLES, HOSTS), "mod_elsewhere": OK}),
    ),
    "game create supply-lines": Case(
        "running",
        lambda n: {"name": "Another"},
        row(**{**dict.fromkeys(ROLES, HOSTS), "mod_elsewhere": OK}),
    ),
    "game join": Case(
        "lobby",
        lambda n: {"name": "Newcomer"},
        row(
            **{
                **dict.fromkeys(ROLES, OK),
                "player": ALREADY,
                "mod_elsewhere": ALREADY,
                "mod_player": ALREADY,
            }
        ),
    ),
    "game add-ai": Case("lobby", lambda n: {"name": "Hal"}, CREATOR_OR_MOD),
    "game caretaker": Case("running", lambda n: {"on": True}, PLAYERS),
    "game leave": Case("lobby", lambda n: {}, LOBBY_PLAYERS),
    "game start": Case("lobby", lambda n: {}, CREATOR_OR_MOD),
    "game resign": Case("running", lambda n: {}, PLAYERS_ASK),
    "game list": Case("running", lambda n: {}, EVERYONE),
    "game info": Case("running", lambda n: {}, EVERYONE),
    # a lobby's free starting islands are public
    "game islands": Case("lobby", lambda n: {}, EVERYONE),
    "move": Case(
        "running", lambda n: {"units": units(n, "home"), "to": "2,1"}, PLAYERS, order=True
    ),
    "attack": Case(
        "running",
        lambda n: {"units": units(n, "front"), "target": ENEMY[n or "red"]},
        PLAYERS,
        order=True,
    ),
    "build": Case(
        "running", lambda n: {"city": HOME[n or "red"], "unit": "infantry"}, PLAYERS, order=True
    ),
    "designate": Case(
        "running",
        lambda n: {"city": HOME[n or "red"], "designation": "fort"},
        PLAYERS,
        order=True,
    ),
    "waypoint": Case(
        "running", lambda n: {"city": HOME[n or "red"], "to": "2,1"}, PLAYERS, order=True
    ),
    # the running game is of ruleset standard, which has no wastelands: every player is told so
    "invest": Case(
        "running",
        lambda n: {"city": HOME[n or "red"], "points": 8},
        {r: NO_WASTELANDS if v == OK else v for r, v in PLAYERS.items()},
    ),
    "cancel": Case(
        "running", lambda n: {"units": units(n, "walker")}, PLAYERS, order=True, setup="walk"
    ),
    "board": Case(
        "running",
        lambda n: {"units": units(n, "home"), "carrier": UNITS[n or "red"]["transport"]},
        PLAYERS,
        order=True,
    ),
    "launch": Case(
        "running", lambda n: {"unit": UNITS[n or "red"]["icbm"], "target": "12,3"}, PLAYERS_ASK
    ),
    "engineer": Case(
        "running",
        lambda n: {"unit": UNITS[n or "red"]["engineer"], "action": "build_city"},
        PLAYERS,
        order=True,
    ),
    "diplomacy": Case(
        "running", lambda n: {"nation": "Yellow", "level": "war"}, PLAYERS, order=True
    ),
    "disband": Case("running", lambda n: {"units": units(n, "home")}, PLAYERS_ASK),
    "cede": Case(
        "running",
        lambda n: {"to": "Red" if n == "blue" else "Blue", "units": units(n, "home")},
        PLAYERS,
        order=True,
        setup="ally",  # red and blue mutual allies
    ),
    "map": Case("running", lambda n: {}, PLAYERS),
    "status": Case("running", lambda n: {}, PLAYERS),
    "units": Case("running", lambda n: {}, PLAYERS),
    "cities": Case("running", lambda n: {}, PLAYERS),
    "nations": Case("running", lambda n: {}, PLAYERS),
    "notify": Case("running", lambda n: {"sitrep": False}, EVERYONE),  # one's own settings
    "help": Case("running", lambda n: {"topic": "units"}, EVERYONE),  # the rules, no game needed
    "news": Case("running", lambda n: {}, EVERYONE),  # each reads only their own reports
    # the server's standings are everyone's; a game's stats only on its own server
    "stats server": Case("running", lambda n: {}, EVERYONE),
    "stats player": Case("running", lambda n: {}, EVERYONE),
    "stats game": Case("running", lambda n: {"game": 999_999}, NO_SUCH_GAME),
    "mod news": Case("running", lambda n: {"on": False}, MODERATORS),
    "mod pause": Case("running", lambda n: {}, MODERATORS),
    "mod resume": Case("running", lambda n: {}, MODERATORS, setup="pause"),
    "mod speed": Case("running", lambda n: {"speed": "fast (x4)"}, MODERATORS),
    "mod tick": Case("running", lambda n: {"ticks": 1}, MODERATORS),
    "mod kick": Case("running", lambda n: {"nation": "Yellow"}, MODERATORS),
    "mod substitute": Case("running", lambda n: {"nation": "Red", "player": "12"}, MODERATORS),
    "mod end": Case("running", lambda n: {}, MODERATORS_ASK),
    "mod delete": Case("running", lambda n: {}, MODERATORS_ASK),
    "mod view": Case("running", lambda n: {"nation": "Blue"}, MODERATORS),
    "mod deadline": Case(
        "running",
        lambda n: {"now": True},
        {**MODERATORS, "mod_here": r"is a Strategic Initiative game, and this command is for"},
    ),
    # Supply Lines' commands on a Strategic Initiative game: refused to everyone, unchanged
    "orders add": Case("running", lambda n: {"order": "C1 > C2"}, WRONG_KIND),
    "orders list": Case("running", lambda n: {}, WRONG_KIND),
    "orders clear": Case("running", lambda n: {}, WRONG_KIND),
    "orders submit": Case("running", lambda n: {}, WRONG_KIND),
    "orders supply": Case("running", lambda n: {"units": "1"}, WRONG_KIND),
    "orders board": Case("running", lambda n: {}, WRONG_KIND),
    "game create caldera": Case(
        "running",
        lambda n: {"name": "Another"},
        row(**{**dict.fromkeys(ROLES, HOSTS), "mod_elsewhere": OK}),
    ),
    "mod turn": Case(
        "running",
        lambda n: {"now": True},
        {**MODERATORS, "mod_here": r"is a Strategic Initiative game, and this command is for"},
    ),
    **caldera_on("Strategic Initiative", "running"),
}


# --- the same commands against a running Supply Lines game --------------------------------------

SL_OUT = r"Cat is out of the game"
SL_PLAYERS = {**PLAYERS, "eliminated": SL_OUT}
SL_PLAYERS_ASK = {r: ASK if v == OK else v for r, v in SL_PLAYERS.items()}
STRATEGIC_ONLY = row(
    **dict.fromkeys(
        ROLES, r"is a Supply Lines game, and this command is for Strategic Initiative games"
    )
)
STARTED = r"has started; nations join before the start"
NO_QUESTION = r"(?i)you have no supply question to answer now"
HOME_MOVE = {"ann": "H1 > C2", "bob": "H2 > C1"}  # a road out of each player's home city

SUPPLY_MATRIX: dict[str, Case] = {
    "game create supply-lines": Case(
        "supply",
        lambda n: {"name": "Another"},
        row(**{**dict.fromkeys(ROLES, HOSTS), "mod_elsewhere": OK}),
    ),
    "game create strategic-initiative": Case(
        "supply",
        lambda n: {"name": "Another", "nations": 2},
        row(**{**dict.fromkeys(ROLES, HOSTS), "mod_elsewhere": OK}),
    ),
    "game join": Case(
        "supply",
        lambda n: {"name": "Latecomer"},
        row(
            **{
                **dict.fromkeys(ROLES, STARTED),
                "player": ALREADY,
                "mod_elsewhere": ALREADY,
                "eliminated": ALREADY,
                "mod_player": ALREADY,
            }
        ),
    ),
    "game add-ai": Case(
        "supply",
        lambda n: {"name": "Hal"},
        {**CREATOR_OR_MOD, "player": "AI nations join before the start", "mod_here": "before"},
    ),
    "game caretaker": Case("supply", lambda n: {"on": True}, SL_PLAYERS),
    "game leave": Case(
        "supply",
        lambda n: {},
        {
            **SL_PLAYERS,
            "player": "has started",
            "mod_elsewhere": "started",
            "mod_player": "started",
        },
    ),
    # that the game runs is public: anyone is told so first
    "game start": Case("supply", lambda n: {}, row(**dict.fromkeys(ROLES, "not waiting"))),
    "game resign": Case("supply", lambda n: {}, SL_PLAYERS_ASK),
    "game list": Case("supply", lambda n: {}, EVERYONE),
    "game info": Case("supply", lambda n: {}, EVERYONE),
    "game islands": Case(
        "supply", lambda n: {}, row(**dict.fromkeys(ROLES, "Only Strategic Initiative games"))
    ),
    **{
        path: Case("supply", lambda n, path=path: MATRIX[path].options(None), STRATEGIC_ONLY)
        for path in (
            "move",
            "attack",
            "build",
            "designate",
            "waypoint",
            "invest",
            "cancel",
            "board",
            "launch",
            "engineer",
            "diplomacy",
            "disband",
            "cede",
            "map",
            "status",
            "units",
            "cities",
            "nations",
        )
    },
    "notify": Case("supply", lambda n: {"sitrep": False}, EVERYONE),
    "help": Case("supply", lambda n: {"topic": "units"}, EVERYONE),
    "news": Case("supply", lambda n: {}, EVERYONE),
    "stats server": Case("supply", lambda n: {}, EVERYONE),
    "stats player": Case("supply", lambda n: {}, EVERYONE),
    "stats game": Case("supply", lambda n: {"game": 999_999}, NO_SUCH_GAME),
    "mod news": Case("supply", lambda n: {"on": False}, MODERATORS),
    "mod pause": Case("supply", lambda n: {}, MODERATORS),
    "mod resume": Case("supply", lambda n: {}, MODERATORS, setup="pause"),
    "mod speed": Case("supply", lambda n: {"speed": "fast (x4)"}, MODERATORS),
    "mod tick": Case("supply", lambda n: {"ticks": 1}, MODERATORS),
    "mod kick": Case("supply", lambda n: {"nation": "Dan"}, MODERATORS),
    "mod substitute": Case("supply", lambda n: {"nation": "Ann", "player": "12"}, MODERATORS),
    "mod end": Case("supply", lambda n: {}, MODERATORS_ASK),
    "mod delete": Case("supply", lambda n: {}, MODERATORS_ASK),
    "mod view": Case("supply", lambda n: {"nation": "Bob"}, MODERATORS),
    "mod deadline": Case("supply", lambda n: {"now": True}, MODERATORS),
    "orders add": Case(
        "supply", lambda n: {"order": HOME_MOVE[n or "ann"]}, SL_PLAYERS, order=True
    ),
    "orders list": Case("supply", lambda n: {}, SL_PLAYERS),
    "orders clear": Case("supply", lambda n: {}, SL_PLAYERS, order=True),
    "orders submit": Case("supply", lambda n: {}, SL_PLAYERS, order=True),
    "orders supply": Case(
        "supply",
        lambda n: {"units": "1"},
        {
            **SL_PLAYERS,
            "player": NO_QUESTION,
            "mod_elsewhere": NO_QUESTION,
            "mod_player": NO_QUESTION,
        },
        engine_refuses=True,
    ),
    "orders board": Case("supply", lambda n: {}, SL_PLAYERS),
    "game create caldera": Case(
        "supply",
        lambda n: {"name": "Another"},
        row(**{**dict.fromkeys(ROLES, HOSTS), "mod_elsewhere": OK}),
    ),
    "mod turn": Case(
        "supply",
        lambda n: {"now": True},
        {**MODERATORS, "mod_here": r"is a Supply Lines game, and this command is for Caldera"},
    ),
    **caldera_on("Supply Lines", "supply"),
}


_commands: list[Commands] = []  # the bot's commands, loaded once (their desk is set per call)


async def call(desk: Desk, path: str, caller: Caller, options: dict[str, Any]) -> Reply:
    """Run a slash command as the bot registers it (its cog's callback, as the sandbox does),
    answered by this desk."""
    if not _commands:
        _commands.append(await Commands.load(desk))
    commands = _commands[0]
    commands.host.desk = desk
    return await commands.run(path, caller, options)


def test_the_matrix_covers_every_registered_command() -> None:
    specs = asyncio.run(command_specs())
    for matrix in (MATRIX, SUPPLY_MATRIX):
        assert set(matrix) == set(specs), "a slash command without authorization expectations"
        for path, case in matrix.items():
            names = {o["name"] for o in specs[path]}
            assert set(case.options(None)) <= names, path


MATRICES = {"strategic": MATRIX, "supply": SUPPLY_MATRIX}
CELLS = [
    (game, path, role)
    for game, m in MATRICES.items()
    for path, case in m.items()
    for role in case.roles or ROLES
]


@pytest.mark.parametrize(("game", "path", "role"), CELLS, ids=[f"{g}|{p}|{r}" for g, p, r in CELLS])
async def test_authorization_matrix(fresh, game: str, path: str, role: str) -> None:
    await try_cell(fresh, path, MATRICES[game][path], role)


async def try_cell(fresh, path: str, case: Case, role: str) -> None:
    """Run the command as the role's caller and check the outcome `case.expect[role]`."""
    expected = case.expect[role]
    me = who(role, case.target)
    running = {
        "running": fresh.g.running,
        "lobby": fresh.g.lobby,
        "supply": fresh.g.supply,
        "ended": fresh.g.ended,
        "ended_supply": fresh.g.ended_supply,
    }[case.target]
    if case.setup == "pause":
        await fresh.service.pause(running)
    elif case.setup == "walk":  # a standing order to cancel
        await fresh.service.submit(
            running,
            me.nation or "red",
            Move(units=[UNITS[me.nation or "red"]["walker"]], to=(3, 2)),
        )
        fresh.submitted.clear()
    elif case.setup == "ally":
        for a, b in (("red", "blue"), ("blue", "red")):
            await fresh.service.submit(running, a, SetRelation(other=b, level="allied"))
        fresh.submitted.clear()
    before = await fingerprint(fresh.service)
    options = case.options(me.nation)
    try:
        reply = await call(fresh.desk, path, me.caller, options)
    except UserError as exc:
        error: UserError | None = exc
        reply = None
    else:
        error = None
    after = await fingerprint(fresh.service)

    if expected == OK:
        assert error is None, f"{path} by {role} was refused: {error}"
        if case.order:  # as the caller's own nation, in this game
            assert fresh.submitted == [(running, me.nation)], fresh.submitted
    elif expected == ASK:
        assert error is None, f"{path} by {role} was refused: {error}"
        assert reply is not None and reply.confirm is not None
        assert after == before, "asking for a confirmation changed something"
    else:
        assert error is not None, f"{path} by {role} was allowed: {reply and reply.text!r}"
        assert re.search(expected, str(error)), f"{path} by {role}: {error}"
        assert after == before, f"{path} by {role} was refused but changed the game"
        # refused before the engine; or, for an order the caller may give, by the game's
        # rules (as their own nation: a supply answer when no question is asked)
        allowed = [[], [(running, me.nation)]] if case.engine_refuses and me.nation else [[]]
        assert fresh.submitted in allowed, fresh.submitted


# --- an ended game is final (issue 27, finding 4) ----------------------------------------------------

OVER = r"Game \d+ is over: its result is final"
JOIN_ENDED = r"has ended; nations join before the start"
ENGINE_OVER = r"(?i)(the )?game( \d+)? is over"  # the desk's words, or the engine's
READING = ("game list", "game info", "notify", "help", "news")


def _ended(target: str, matrix: dict[str, Case]) -> dict[str, tuple[str, Case]]:
    """Every command against an ended game, by the one who could use it while it ran (its
    player, its creator, a moderator of its server): reading, history and deletion remain,
    and every other action is refused, with nothing changed."""
    out: dict[str, tuple[str, Case]] = {}
    for path, case in matrix.items():
        role = "mod_here" if path.startswith("mod ") else "player"
        expect: str = case.expect[role]
        if path.startswith("mod ") and expect == OK:
            expect = OVER  # pause, resume, speed, tick, kick, substitute, deadline
        elif case.order and expect == OK:
            expect = ENGINE_OVER  # their own order reaches the engine, which refuses it
        out[path] = (
            role,
            Case(target, case.options, {role: expect}, order=case.order, engine_refuses=True),
        )
    changed = {
        "game create strategic-initiative": OK,  # the ended game is no longer active
        "game create supply-lines": OK,
        "game create caldera": OK,
        "mod turn": OVER,  # that it is over comes first
        "game join": r"You already play",  # and anyone else: see below
        "game add-ai": OVER,
        "game islands": OVER,
        "game caretaker": OVER,
        "game leave": OVER,
        "game start": r"is ended, not waiting to start",
        "game resign": OVER,
        "mod end": OVER,
        "mod delete": ASK,  # deletion remains
        "mod view": OK,  # reading remains
    }
    for path, expect in changed.items():
        role, case = out[path]
        out[path] = (role, Case(target, case.options, {role: expect}))
    for path in READING:
        role, case = out[path]
        out[path] = (role, Case(target, case.options, {role: OK}))
    role, case = out["game join"]  # by someone who does not play in it
    out["game join"] = ("non_member", Case(target, case.options, {"non_member": JOIN_ENDED}))
    if target == "ended":
        role, case = out["cancel"]  # the order it would cancel cannot be given in an ended game
        out["cancel"] = (role, Case(target, case.options, {role: "no standing order"}))
        role, case = out["disband"]  # refused before its button is offered
        out["disband"] = (role, Case(target, case.options, {role: ENGINE_OVER}))
        role, case = out["mod deadline"]  # that it is over comes first
        out["mod deadline"] = (role, Case(target, case.options, {role: OVER}))
    else:
        role, case = out["orders supply"]
        out["orders supply"] = (role, Case(target, case.options, {role: ENGINE_OVER}))
        role, case = out["game islands"]  # no game of Supply Lines has islands, ended or not
        out["game islands"] = (role, Case(target, case.options, {role: "Only Strategic"}))
    return out


ENDED = {"strategic": _ended("ended", MATRIX), "supply": _ended("ended_supply", SUPPLY_MATRIX)}
ENDED_CELLS = [(game, path) for game, m in ENDED.items() for path in m]


@pytest.mark.parametrize(("game", "path"), ENDED_CELLS, ids=[f"{g}|{p}" for g, p in ENDED_CELLS])
async def test_an_ended_game_is_final(fresh, game: str, path: str) -> None:
    role, case = ENDED[game][path]
    await try_cell(fresh, path, case, role)


async def test_autocomplete_offers_only_the_callers_own_things(fresh) -> None:
    red = {str(u) for u in UNITS["red"].values()}
    blue = {str(u) for u in UNITS["blue"].values()}
    for role in ROLES:
        me = who(role, "running")
        offered = {v for _, v in await fresh.desk.part(Choices).choose_units(me.caller, "")}
        expected = {"red": red, "blue": blue}.get(me.nation or "", set())
        chosen: set[str] = set()
        if me.nation is not None:  # ids, or selectors ("all at 3,4"): what each one chooses
            view = await fresh.desk.ctx.view(fresh.g.running, me.nation)
            rules = load_rules(view.ruleset)
            for value in offered:
                chosen |= {str(u) for u in selectors.resolve(value, view, rules).chosen}
        # a unit may have gone aboard or been merged: never more than one's own
        assert chosen <= expected and (chosen or not expected), (role, offered)
        assert {v for v in offered if v.isdigit()} <= expected, (role, offered)


# --- confirmation buttons ---------------------------------------------------------------------------

# what waits for a button, who asks, and what shows it ran
ASKED: dict[str, tuple[str, dict[str, Any]]] = {
    "game resign": ("player", {}),
    "launch": ("player", {"unit": 5, "target": "12,3"}),
    "disband": ("player", {"units": "2"}),
    "mod end": ("mod_here", {}),
    "mod delete": ("mod_here", {}),
}
PRESSES = [(path, role) for path in ASKED for role in ROLES]


@pytest.mark.parametrize(("path", "role"), PRESSES, ids=[f"{p}|{r}" for p, r in PRESSES])
async def test_only_the_one_who_asked_can_press_the_button(fresh, path: str, role: str) -> None:
    asker_role, options = ASKED[path]
    asker = who(asker_role, "running")
    asked = await call(fresh.desk, path, asker.caller, options)
    assert asked.confirm is not None
    before = await fingerprint(fresh.service)
    presser = who(role, "running")
    if role != asker_role:
        with pytest.raises(UserError, match="Only the player who asked can confirm this"):
            await fresh.desk.confirm(presser.caller, asked.confirm.token)
        assert await fingerprint(fresh.service) == before
        return
    done = await fresh.desk.confirm(presser.caller, asked.confirm.token)
    assert await fingerprint(fresh.service) != before, done.text
    with pytest.raises(UserError, match="no longer valid|expired"):  # it runs once
        await fresh.desk.confirm(presser.caller, asked.confirm.token)


async def test_a_pending_resign_does_not_survive_a_substitution(fresh) -> None:
    red = who("player", "running").caller
    mod = who("mod_here", "running").caller
    game = fresh.g.running
    ask = await fresh.desk.lifecycle.game_resign(red)
    assert ask.confirm is not None
    await fresh.desk.moderation.mod_substitute(mod, "Red", "12")  # Red now belongs to user 12
    before = await fingerprint(fresh.service)
    with pytest.raises(UserError, match="You no longer lead Red in game"):
        await fresh.desk.confirm(red, ask.confirm.token)
    assert await fingerprint(fresh.service) == before
    world = await fresh.service.live_world(game)
    assert not world.nations["red"].out
    assert (await fresh.service.store.members(game))["red"] == "12"


async def test_a_pending_launch_does_not_survive_a_kick(fresh) -> None:
    red = who("player", "running").caller
    ask = await fresh.desk.part(Playing).launch(red, 5, "12,3")
    assert ask.confirm is not None
    await fresh.desk.moderation.mod_kick(who("mod_here", "running").caller, "Red")
    before = await fingerprint(fresh.service)
    with pytest.raises(UserError, match="Red is out of the game"):
        await fresh.desk.confirm(red, ask.confirm.token)
    assert await fingerprint(fresh.service) == before


async def test_a_moderator_confirmation_is_rechecked_when_pressed(fresh) -> None:
    game = fresh.g.running
    mod = who("mod_here", "running").caller
    ask = await fresh.desk.moderation.mod_end(mod)
    assert ask.confirm is not None
    before = await fingerprint(fresh.service)
    # the moderator lost Manage Server (and the role) before pressing
    demoted = Caller(mod.user_id, mod.name, mod.guild_id, mod.channel_id, moderator=False)
    with pytest.raises(UserError, match="Only moderators"):
        await fresh.desk.confirm(demoted, ask.confirm.token)
    assert await fingerprint(fresh.service) == before
    assert (await fresh.service.game(game)).status == "running"

    # a moderator's delete, pressed with rights that hold on another server only
    ask = await fresh.desk.moderation.mod_delete(mod)
    assert ask.confirm is not None
    elsewhere = Caller(mod.user_id, mod.name, GUILD_B, B2, moderator=True)
    with pytest.raises(UserError, match="not hosted on this server"):
        await fresh.desk.confirm(elsewhere, ask.confirm.token)
    assert await fingerprint(fresh.service) == before

    # with the rights in place it runs
    ask = await fresh.desk.moderation.mod_end(mod)
    assert ask.confirm is not None
    done = await fresh.desk.confirm(mod, ask.confirm.token)
    assert "ended by a moderator" in done.text
    assert (await fresh.service.game(game)).status == "ended"


async def test_a_confirmation_survives_a_restart(prepared, tmp_path) -> None:
    path = tmp_path / "restart.db"
    shutil.copyfile(prepared.path, path)
    red = who("player", "running").caller
    service = await GameService.open(str(path), synchronous="NORMAL")
    try:
        ask = await Desk(service).lifecycle.game_resign(red)
        assert ask.confirm is not None
    finally:
        await service.close()
    # a new process: a new service and desk on the same database
    service = await GameService.open(str(path), synchronous="NORMAL")
    try:
        done = await Desk(service).confirm(red, ask.confirm.token)
        assert "Red has resigned" in done.text
        assert (await service.live_world(prepared.running)).nations["red"].out
    finally:
        await service.close()


async def test_expired_used_unknown_and_orphaned_buttons_say_so(fresh) -> None:
    desk = fresh.desk
    red = who("player", "running").caller
    mod = who("mod_here", "running").caller
    with pytest.raises(UserError, match="no longer valid"):
        await desk.confirm(red, "0123456789abcdef")
    ask = await desk.lifecycle.game_resign(red)
    assert ask.confirm is not None
    desk.ctx.confirmations.clock = lambda: time.time() + 3600  # an hour later
    with pytest.raises(UserError, match="expired"):
        await desk.confirm(red, ask.confirm.token)
    desk.ctx.confirmations.clock = time.time
    with pytest.raises(UserError, match="no longer valid"):  # expired ones are dropped
        await desk.confirm(red, ask.confirm.token)
    # the game is deleted while a resign waits: its button is gone with it
    resign = await desk.lifecycle.game_resign(red)
    delete = await desk.moderation.mod_delete(mod)
    assert resign.confirm is not None and delete.confirm is not None
    await desk.confirm(mod, delete.confirm.token)
    with pytest.raises(UserError, match="no longer valid"):
        await desk.confirm(red, resign.confirm.token)
    rows = await fresh.service.store.query("SELECT COUNT(*) FROM confirmations")
    assert rows == [(0,)]


async def test_a_game_without_a_server_is_moderated_by_nobody_through_the_desk(fresh) -> None:
    game = await fresh.service.create_game(name="Local", world=other_world())  # no guild
    row = await fresh.service.game(game)
    assert row.guild_id is None
    for caller in (
        Caller("9", "mod", GUILD_A, A1, moderator=True),
        Caller("9", "mod", None, None, moderator=True),
    ):
        assert not fresh.desk.ctx.moderates(caller, row)


# --- through the real bot and the fake Discord ------------------------------------------------------

MANAGE_GUILD = 1 << 5


@pytest.fixture
async def discord_env(tmp_path):
    from bot.client import StrategicBot
    from bot.config import Settings
    from tests.fakediscord import FakeDiscord

    def settings() -> Settings:  # global commands: both servers see them
        # _env_file is BaseSettings' own argument, which mypy does not see (it reads the fields)
        return Settings(  # type: ignore[call-arg]
            _env_file=None,
            discord_token=SecretStr("fake-token"),
            SI_DATABASE=str(tmp_path / "bot.db"),
            SI_TICK_SECONDS=0.05,
            SI_NOTIFY_SECONDS=0.05,
        )

    async with FakeDiscord() as fake:
        home = fake.add_guild("Wargames", channels=["war-room"])
        away = fake.add_guild("Dave's place", channels=["lounge"])
        alice, bob, dave = (fake.add_user(n) for n in ("alice", "bob", "dave"))
        for user in (alice, bob, dave):
            fake.add_member(home, user)
        fake.add_member(away, dave, permissions=MANAGE_GUILD)  # a moderator there only
        bot = StrategicBot(settings())
        await fake.start_client(bot, wait_for_sync=True)
        env = SimpleNamespace(
            fake=fake,
            war_room=next(iter(home.channels.values())),
            lounge=next(iter(away.channels.values())),
            alice=alice,
            bob=bob,
            dave=dave,
            bot=bot,
            settings=settings,
            StrategicBot=StrategicBot,
        )
        yield env
        await fake.stop_client(env.bot)


async def _two_player_game(env, second) -> int:
    fake = env.fake
    made = await fake.invoke(
        env.alice,
        env.war_room,
        "game create strategic-initiative",
        {"name": "Island War", "nations": 2, "speed": "test (x360)"},
    )
    game = int(made.text.split("(game ")[1].split(")")[0])
    await fake.invoke(env.alice, env.war_room, "game join", {"name": "Red"})
    joined = await fake.invoke(second, env.war_room, "game join", {"name": "Blue"})
    assert "has started" in joined.text
    return game


async def test_cross_server_mod_commands_are_refused_through_discord(discord_env) -> None:
    env = discord_env
    game = await _two_player_game(env, env.dave)
    service = env.bot.service
    tick = (await service.live_world(game)).tick
    # dave plays Blue here and has Manage Server on his own server: from there, /mod is his
    # own server's business only
    seen = await env.fake.invoke(env.dave, env.lounge, "mod view", {"nation": "Red"})
    assert seen.ephemeral and not seen.files
    assert "no game in this channel" in seen.text
    ticked = await env.fake.invoke(env.dave, env.lounge, "mod tick", {"ticks": 96})
    assert "no game in this channel" in ticked.text
    assert (await service.live_world(game)).tick < tick + 96
    # his own orders still follow him there
    status = await env.fake.invoke(env.dave, env.lounge, "status")
    assert status.embeds and status.embeds[0]["title"].startswith("Blue in ")


async def test_a_confirmation_button_works_after_a_restart(discord_env) -> None:
    env = discord_env
    fake = env.fake
    game = await _two_player_game(env, env.bob)
    ask = await fake.invoke(env.bob, env.war_room, "game resign")
    button = ask.message.buttons[0]["custom_id"]
    end_asked = await fake.invoke(env.alice, env.war_room, "game resign")
    # the bot restarts: a new process on the same database
    await fake.stop_client(env.bot)
    env.bot = env.StrategicBot(env.settings())
    await fake.start_client(env.bot, wait_for_sync=True)
    done = await fake.click(env.bob, ask, button)
    assert "Blue has resigned" in done.text
    assert (await env.bot.service.live_world(game)).nations["blue"].out
    # a button whose time ran out says so, also after the restart
    await env.bot.service.store.db.write(
        lambda c: c.execute("UPDATE confirmations SET expires_at = 0").rowcount
    )
    late = await fake.click(env.alice, end_asked, end_asked.message.buttons[0]["custom_id"])
    assert late.ephemeral and "expired" in late.text
    assert not (await env.bot.service.live_world(game)).nations["red"].out


async def test_the_sandbox_confirms_with_yes(tmp_path) -> None:
    """The sandbox prints the question and takes `yes` as the button (same desk, same rows)."""
    from bot.sandbox import run_sandbox

    lines = iter(["mod end", "no", "game resign", "yes", "status", "quit"])
    out: list[str] = []
    code = await run_sandbox(
        nations=2,
        db=str(tmp_path / "sandbox.db"),
        out_dir=str(tmp_path / "maps"),
        read=lambda prompt: next(lines),
        write=out.append,
        live=False,
    )
    assert code == 0
    assert "Cancelled." in out
    assert "Player has resigned." in out
    assert "Player is out of the game." in out
