"""The campaign of the Caldera end-to-end test, played in the engine alone: two captains whose
commands are the AI captains' policy on their own view (but their stats, chosen low in
Charisma so the zone changes sooner), and an AI seat, in the order the bot plays them (the AI
seat looks first in each turn; in the setup it sets its stats at once, then takes its second
look when a moderator moves time on by one tick). The test plays the same through the fake
Discord and must end in the very same state (`KIND.hash`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.caldera import ai
from engine.caldera.commands import SetStats
from engine.caldera.kind import KIND
from engine.caldera.state import State
from engine.caldera.view import view_for
from engine.errors import CommandError, GameError
from engine.interface import entries as en
from engine.interface.entries import AI_PLAYER

HUMANS = ("ann", "bob")
ROBOT = "robo"
STATS = {"cha": 2, "int": 4, "eng": 3, "arm": 2, "com": 2, "eco": 2}
OPTIONS = {"max_nations": 3, "turn_hours": 2.0, "length_days": 60, "deck": "starter"}


def human_commands(view: Any, memory: ai.Memory) -> list[Any]:
    """A human captain's commands now: the AI's policy, their own stats."""
    out = []
    for command in ai.decide(view, memory):
        if isinstance(command, SetStats):
            command = SetStats(stats=dict(STATS))
        out.append(command)
    return out


@dataclass
class Played:
    state: State
    events: list[Any] = field(default_factory=list)
    log: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # commands accepted

    def of(self, kind: str) -> list[Any]:
        return [e for e in self.events if e.kind == kind]

    def ais(self) -> list[str]:
        return sorted({n.ai for n in self.state.npcs.values() if n.ai})


def _submit(played: Played, nation: str, command: Any) -> bool:
    entry = en.CommandEntry(nation=nation, command=command.model_dump(mode="json"))
    try:
        played.events += KIND.apply(played.state, entry)
    except (CommandError, GameError):
        return False
    played.log.append((nation, entry.command))
    return True


def comparable(state: State) -> str:
    """The state's hash but for what the bot chose outside the game: the captains' colours
    and who plays them (Discord's user ids)."""
    copy = state.model_copy(deep=True)
    for c in copy.captains.values():
        c.colour, c.user = "#888888", None
    return KIND.hash(copy)


def play(seed: int, turns: int) -> Played:
    state = KIND.setup({**OPTIONS, "seed": seed})
    for nation, name, user in (
        ("ann", "Ann", "1"),
        ("bob", "Bob", "2"),
        (ROBOT, "Robo", AI_PLAYER),
    ):
        KIND.apply(state, en.Join(nation=nation, name=name, colour="#888888", player=user))
    KIND.apply(state, en.Start())
    memories = {n: ai.Memory() for n in (*HUMANS, ROBOT)}
    played = Played(state)
    while not state.ended and state.turn < turns:
        turn = state.turn
        for command in ai.decide(view_for(state, ROBOT), memories[ROBOT]):
            if not _submit(played, ROBOT, command):
                ai.failed(memories[ROBOT], command)
        for nation in HUMANS:
            # in the setup a captain looks twice (the stats, then the cards they drew)
            for _look in range(2 if state.phase == "setup" else 1):
                for command in human_commands(view_for(state, nation), memories[nation]):
                    if not _submit(played, nation, command):
                        ai.failed(memories[nation], command)
        if state.turn == turn and state.phase == "setup":
            played.events += KIND.apply(state, en.Advance(ticks=1))
            for command in ai.decide(view_for(state, ROBOT), memories[ROBOT]):
                if not _submit(played, ROBOT, command):
                    ai.failed(memories[ROBOT], command)
        if state.turn == turn:
            raise AssertionError(f"turn {turn + 1} did not resolve")
    if not state.ended:  # the AI seat looks at once at the turn that begins (the bot's does)
        for command in ai.decide(view_for(state, ROBOT), memories[ROBOT]):
            if not _submit(played, ROBOT, command):
                ai.failed(memories[ROBOT], command)
    return played


def types_played(played: Played) -> set[str]:
    """The A.I. types of the enemies that have played a turn."""
    return {n.ai or "" for n in played.state.enemies() if n.turns}


def types_told(played: Played) -> set[str]:
    """The A.I. types of the enemies whose turn did something the captains are told of (a
    turn in which an enemy does nothing has no line in the turn's report)."""
    told = {"move", "send", "built", "protect", "control", "repairs", "repaired"}
    out: set[str] = set()
    for report in played.of("TurnResolved"):
        for action in report.npc_turn:
            npc = played.state.npcs.get(str(action.get("npc")))
            if npc is not None and npc.ai and action.get("did") in told:
                out.add(npc.ai)
    return out


def good(played: Played) -> bool:
    """A campaign the test can use: a new zone, a battle, a mission done (a loyalty mission
    or the zone mission) and an enemy of each of the six A.I. types that has played a turn
    the captains were told of, still going."""
    state = played.state
    every = {a.id for a in state.rules.enemy_ai}
    return (
        not state.ended
        and state.zone > 1
        and bool(played.of("BattleReport"))
        and bool(played.of("MissionDone"))
        and types_played(played) == every
        and types_told(played) == every
    )


if __name__ == "__main__":  # seeds for the test when the engine's rules change: FROM TO TURNS
    import sys

    low, high, turns = map(int, sys.argv[1:4])
    for seed in range(low, high):
        found = play(seed, turns)
        if good(found):
            print(seed, len(found.of("BattleReport")), "battles")
