"""The battles of a turn (the seed's part 1a): where the captains' ships (or a shipyard) and
enemy ships meet, nearest Earth first, then north, clockwise; each fought by the space battle
(`battle.fight`, a pure function of the sides) and its outcome applied to the state: ships
destroyed, damaged, retreated to where they came from, damaged NPC ships home for repairs,
shipyards hit; kills counted for the missions; homeworlds left without defenders conquered.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.caldera import battle, hexes, land, missions, window
from engine.caldera import events as ev
from engine.caldera.state import EARTH, Ship, State

PLAYERS = "players"  # the captains' (and their NPC friends') team in a battle


def _techs_of(state: State, owner: str) -> dict[str, int]:
    if owner in state.captains:
        return state.captains[owner].techs
    return state.npcs[owner].techs


def armament(
    state: State, parts: Iterable[str], techs: Mapping[str, int]
) -> tuple[tuple[battle.Weapon, ...], dict[str, int], int]:
    """What a ship of these parts brings to a battle at these tech levels: its weapons, its
    defences by weapon type, its engine."""
    weapons, covering, engine = [], [], 0
    for part in parts:
        tech = state.cards.techs.get(part)
        if tech is None:
            continue
        value = tech.value(techs.get(part, 0))
        if tech.category == "weapon" and tech.weapon is not None and value > 0:
            weapons.append(battle.Weapon(tech=part, type=tech.weapon, damage=value))
        elif tech.category == "defence":
            covering.append((tech.covers, value))
        elif tech.category == "engine":
            engine = max(engine, value)
    return tuple(weapons), battle.defences_by_type(covering), engine


def _ship_for_battle(state: State, ship: Ship) -> battle.Ship:
    weapons, defences, engine = armament(state, ship.parts, _techs_of(state, ship.owner))
    return battle.Ship(
        id=ship.id,
        cls=state.cards.techs[ship.klass].level,
        structure=ship.structure - ship.damage,
        max_structure=ship.structure,
        weapons=weapons,
        defences=defences,
        engine=engine,
        protected=ship.protected,
        retreat_at=ship.structure if ship.retreat else None,
    )


def shipyard_id(state: State, cid: str) -> int:
    """A shipyard's id in a battle: negative, by its captain's seat."""
    return -state.captains[cid].seat


def places(state: State) -> list[str]:
    """Where battles are fought this turn, in the seed's order: captains' ships (or a standing
    shipyard, at Earth) and enemy ships at one place."""
    found = []
    by_place: dict[str, set[str]] = {}
    for ship in state.ships.values():
        by_place.setdefault(ship.at, set()).add(ship.owner)
    for at, owners in by_place.items():
        players = any(state.is_captain(o) for o in owners) or (
            at == EARTH and any(not c.shipyard.destroyed for c in state.captains.values())
        )
        if players and any(state.is_enemy(o) for o in owners):
            found.append(at)
    return hexes.sorted_places(found)


def fight_at(state: State, at: str) -> list[ev.Event]:
    """The battle at `at`, its outcome applied; a report to the captains who fought."""
    ships = state.ships_at(at)
    owners: list[str] = []
    for ship in ships:
        if ship.owner not in owners:
            owners.append(ship.owner)
    yards = []
    if at == EARTH:
        yards = [c for c in state.captains.values() if not c.shipyard.destroyed]
        owners += [c.id for c in yards if c.id not in owners]
    seat = {cid: c.seat for cid, c in state.captains.items()}
    npc_order = {nid: i for i, nid in enumerate(state.npcs)}
    owners.sort(key=lambda o: (0, seat[o]) if o in seat else (1, npc_order.get(o, 0)))
    sides = []
    for order, owner in enumerate(owners):
        mine = [_ship_for_battle(state, s) for s in ships if s.owner == owner]
        c = state.captains.get(owner)
        if c is not None and at == EARTH and not c.shipyard.destroyed:
            mine.append(_shipyard_for_battle(state, owner))
        if not mine:
            continue
        came = [s for s in ships if s.owner == owner and s.arrived == state.turn + 1]
        npc = state.npcs.get(owner)
        sides.append(
            battle.Side(
                id=owner,
                team=PLAYERS if c is not None or (npc is not None and npc.friend) else owner,
                ai=c is None,
                arm=c.stats.arm if c is not None and c.stats is not None else 0,
                defence_percent=npc.defence_percent if npc is not None else 0,
                moved_from_cost=min(
                    (hexes.layer(hexes.parse(s.came_from)) for s in came if s.came_from),
                    default=None,
                ),
                order=order,
                ships=tuple(mine),
            )
        )
    if any(s.arrived == state.turn + 1 and state.is_captain(s.owner) for s in ships):
        missions.on_attack(state)
    if len({s.team for s in sides}) < 2:
        return []
    effects = state.rules.stats.effects
    arm = battle.ArmEffects(
        damage_points=effects.damage_points_per_arm,
        damage_percent=effects.damage_percent_per_arm,
        defence_percent=effects.defence_percent_per_arm,
    )
    report = battle.fight(sides, battle.battle_rules(state.ruleset), arm)
    return _apply(state, at, report)


def _shipyard_for_battle(state: State, cid: str) -> battle.Ship:
    c = state.captains[cid]
    # "Shipyard can use all it's different weapons in battle" (the project's reading): one of
    # each weapon tech its captain has, besides the weapons and defences fitted in it
    weapons = sorted(
        t for t in c.techs if t in state.cards.techs and state.cards.techs[t].category == "weapon"
    )
    fake = Ship(
        id=shipyard_id(state, cid),
        owner=cid,
        klass=c.shipyard.klass,
        parts=weapons + list(c.shipyard.parts),
        structure=window.shipyard_structure(state, c),
        damage=c.shipyard.damage,
        at=EARTH,
    )
    found = _ship_for_battle(state, fake)
    return found.model_copy(update={"shipyard": True, "retreat_at": None})


def _apply(state: State, at: str, report: battle.BattleReport) -> list[ev.Event]:
    out: list[ev.Event] = []
    destroyed, damaged, retreated = [], {}, []
    captains = sorted({o.side for o in report.ships if state.is_captain(o.side)})
    for o in report.ships:
        if o.id < 0:  # a shipyard
            c = next(c for c in state.captains.values() if shipyard_id(state, c.id) == o.id)
            c.shipyard.damage = window.shipyard_structure(state, c) - max(0, o.structure)
            c.shipyard.destroyed = o.destroyed
            continue
        ship = state.ships.get(o.id)
        if ship is None:
            continue
        if o.destroyed:
            destroyed.append(o.id)
            del state.ships[o.id]
            killer = o.destroyed_by
            if state.is_enemy(ship.owner) and killer is not None and state.is_captain(killer):
                out += missions.on_kill(state, state.captains[killer], ship.owner, at)
            elif killer is not None and killer in state.npcs:
                state.npcs[killer].destroyed += 1  # (the Conquerors build on kills)
            continue
        ship.damage = ship.structure - o.structure
        if ship.damage:
            damaged[o.id] = ship.damage
        if o.retreated and ship.came_from:
            ship.at, ship.came_from = ship.came_from, ship.at
            retreated.append(o.id)
        elif o.goes_home:
            npc = state.npcs.get(ship.owner)
            if npc is not None and npc.home:
                ship.at = npc.home
        ship.retreat = False
    winner = None
    if report.winner == PLAYERS:
        winner = "captains"
    elif report.winner is not None:
        winner = "enemy"
    if captains:
        out.append(
            ev.BattleReport(
                tick=state.tick,
                to=captains,
                at=at,
                rounds=[r.model_dump(mode="json") for r in report.rounds],
                destroyed=destroyed,
                damaged=damaged,
                retreated=retreated,
                winner=winner,
            )
        )
    return out


def conquests(state: State) -> list[ev.Event]:
    """Enemy homeworlds where captains' ships stand and no ship of the enemy is left after the
    battles: the land battle, the captain of the lowest seat there attacking with their army
    (it goes with their ships) against the enemy's army (a cold planet's bonus to it). Won:
    the homeworld is conquered. The army left is the captain's again."""
    out: list[ev.Event] = []
    table = state.rules.land_units
    for npc in state.enemies():
        if npc.conquered or npc.home is None:
            continue
        there = state.ships_at(npc.home)
        if any(s.owner == npc.id for s in there):
            continue
        present = sorted(
            {s.owner for s in there if state.is_captain(s.owner)},
            key=lambda o: state.captains[o].seat,
        )
        armed = [o for o in present if any(state.captains[o].land.values())]
        if not armed:
            continue
        c = state.captains[armed[0]]
        tile = state.map.tiles.get(npc.home)
        planet = state.rules.planets.get(str(tile.planet)) if tile and tile.planet else None
        report = land.fight(
            land.LandSide(id=c.id, army=dict(c.land)),
            land.LandSide(
                id=npc.id,
                army=dict(npc.land),
                defence_percent=planet.defence_percent if planet else 0,
            ),
            table,
            land.land_rules(state.ruleset),
        )
        c.land = dict(report.armies.get(c.id, {}))
        npc.land = dict(report.armies.get(npc.id, {}))
        won = report.winner == c.id
        out.append(
            ev.LandReport(
                tick=state.tick,
                to=present,
                at=npc.home,
                npc=npc.id,
                captain=c.id,
                won=won,
                steps=[s.model_dump(mode="json") for s in report.steps],
                armies=report.armies,
            )
        )
        if won:
            npc.conquered = True
            out += missions.on_conquer(state, c.id, npc.id)
    return out
