"""The NPC factions' hooks the turn calls: making the first friend (Jack's Spacebay) and the
friend of each new zone, making an enemy where scouting finds its base, enemy ships where it
finds their presence, the upgrades of the old enemies when a zone opens, and the NPCs' turn.

TODO(wt-cal-npc): the NPC engineer fills these in (with `npc_ai.py`): the NPC tables, the
six enemy AI types, NPC ship designs from cards, trust thresholds. Until then they make the
NPC records the turn and the missions need (so an enemy found by scouting exists, with its
base) and nothing moves: the signatures are the contract, the bodies are placeholders.
"""

from __future__ import annotations

from engine.caldera.state import Npc, State


def _slug(state: State, base: str) -> str:
    n = 1
    while f"{base}-{n}" in state.npcs:
        n += 1
    return f"{base}-{n}"


def create_friend(state: State) -> Npc:
    """The friend of the current zone (zone 1: Jack's Spacebay), at Earth.

    TODO(wt-cal-npc): its row of the NPC table, its ships (SShips x players), its designs."""
    npc = Npc(
        id=_slug(state, "friend"),
        name=f"Friend of zone {state.zone}",
        friend=True,
        row=state.zone,
        zone=state.zone,
    )
    state.npcs[npc.id] = npc
    return npc


def create_enemy(state: State, home: str) -> Npc:
    """A new enemy whose base or homeworld scouting found at `home` (the event table's 1).

    TODO(wt-cal-npc): its AI type from a card, its row of the enemy table by zone, its
    designs, ships (DShips, SShips x players) and land army (Lsize x players), the planet's
    bonus."""
    npc = Npc(
        id=_slug(state, "enemy"),
        name=f"Enemy of zone {state.zone}",
        friend=False,
        row=state.zone,
        zone=state.zone,
        home=home,
    )
    state.npcs[npc.id] = npc
    return npc


def enemy_presence(state: State, npc: Npc, at: str, ships: int) -> None:
    """`ships` enemy ships of `npc` put at `at` (the event table's 2 and 3: 4X or 2X).

    TODO(wt-cal-npc): the NPC's ships of its design."""


def upgrade_enemies(state: State) -> None:
    """A new zone opened: every old enemy gains techs (2 cards) and layouts (5 cards), its
    ships upgraded at once.

    TODO(wt-cal-npc)."""


def npc_turn(state: State) -> None:
    """The NPCs' turn (the seed's part 4): the friend first (sends ships, gets new ships),
    then each enemy, the closest to Earth first, then north, clockwise.

    TODO(wt-cal-npc): nothing moves yet."""


def event_started(state: State, card: str) -> None:
    """An event card came into play: the wingman and rare cargo events put an NPC friend's
    ship (`Ship.protected`) with the captains to escort.

    TODO(wt-cal-npc): the escorted ship; its reward (the card's amount and trust) when it
    lives to the card's end."""


def event_ended(state: State, card: str) -> None:
    """An event card's turns are over (the escort's reward, the escorted ship leaving).

    TODO(wt-cal-npc)."""
