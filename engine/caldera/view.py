"""What a captain may know of a Caldera game: the shared star map, the NPCs, the trust, the
zone, its counter and mission, the event card in play, every ship as the map shows it (where
it is, whose, its class), the other captains' public standing; and only their own hand,
credits, research, techs, shipyard and their own ships' details (parts, damage, orders).
Another captain's hand, credits, techs and orders are never in it. Moderators' `full_view`
has every captain's."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.caldera.state import (
    Captain,
    EventInPlay,
    Npc,
    Ship,
    StarMap,
    State,
)


@dataclass(frozen=True)
class SeenShip:
    """A ship as the map shows it to everyone."""

    id: int
    owner: str
    klass: str
    at: str


@dataclass(frozen=True)
class CaptainView:
    """A captain's public standing."""

    id: str
    name: str
    seat: int
    colour: str
    out: bool
    submitted: bool
    missions_done: int
    trust_earned: int
    destroyed: int
    shipyard_destroyed: bool
    has_mission: bool


@dataclass(frozen=True)
class View:
    nation: str | None  # whose view (None: a moderator's)
    ruleset: str
    deck: str
    turn: int  # the turn being played (1: the setup window)
    tick: int
    phase: str
    deadline: int | None
    started: bool
    ended: bool
    result: str | None
    players: int
    captains: dict[str, CaptainView]
    map: StarMap
    ships: list[SeenShip]
    npcs: dict[str, Npc]
    trust: int
    zone: int
    zone_counter: int
    zone_mission: int | None
    zone_mission_done: bool
    zone_hand: list[str]
    event: EventInPlay | None
    battles: list[str]  # where the last turn's battles were (the map picture marks them)
    # the viewer's own (a moderator: every captain's), in full
    own: dict[str, Captain] = field(default_factory=dict)
    fleets: dict[str, list[Ship]] = field(default_factory=dict)


def _view(state: State, nation: str | None, whose: list[str]) -> View:
    captains = {
        c.id: CaptainView(
            c.id,
            c.name,
            c.seat,
            c.colour,
            c.out,
            c.submitted,
            c.missions_done,
            c.trust_earned,
            c.destroyed,
            c.shipyard.destroyed,
            c.mission is not None,
        )
        for c in sorted(state.captains.values(), key=lambda c: c.seat)
    }
    return View(
        nation=nation,
        ruleset=state.ruleset,
        deck=state.deck,
        turn=state.turn + 1,
        tick=state.tick,
        phase=state.phase,
        deadline=state.deadline,
        started=state.started,
        ended=state.ended,
        result=state.result,
        players=state.players(),
        captains=captains,
        map=state.map.model_copy(deep=True),
        ships=[
            SeenShip(s.id, s.owner, s.klass, s.at)
            for s in sorted(state.ships.values(), key=lambda s: s.id)
        ],
        npcs={k: n.model_copy(deep=True) for k, n in state.npcs.items()},
        trust=state.trust,
        zone=state.zone,
        zone_counter=state.zone_counter,
        zone_mission=state.zone_mission,
        zone_mission_done=state.zone_mission_done,
        zone_hand=list(state.zone_hand),
        event=state.event.model_copy() if state.event else None,
        battles=list(state.battles),
        own={cid: state.captains[cid].model_copy(deep=True) for cid in whose},
        fleets={cid: [s.model_copy() for s in state.ships_of(cid)] for cid in whose},
    )


def view_for(state: State, nation: str) -> View:
    if nation not in state.captains:
        raise KeyError(nation)
    return _view(state, nation, [nation])


def full_view(state: State) -> View:
    return _view(state, None, sorted(state.captains))
