"""What an AI captain weighs before taking an enemy homeworld, from its own view alone: the
space battle its captains' fleet would fight there (`battle.fight` on the ships the map
shows, the enemy's public designs, its own parts for the others' ships of a class it cannot
see inside) and the land army that does the most against the enemy's army (`land.fight`).

Pure functions of the view and a state made of it (`ai.state_of`); no dice."""

from __future__ import annotations

from collections.abc import Iterable

from engine.caldera import battle, hexes, land
from engine.caldera.clashes import armament
from engine.caldera.state import EARTH, Captain, State
from engine.caldera.view import SeenShip, View

PLAYERS = "players"
MARGIN = 2  # the fleet's structure left after the predicted battle, times the enemy's lost
ARMY_TRIES = 4000  # the most armies it weighs (the land units' counts, by size and cost)


def _battle_ship(
    state: State, sid: int, klass: str, parts: Iterable[str], techs: dict[str, int], damage: int
) -> battle.Ship:
    weapons, defences, engine = armament(state, parts, techs)
    whole = state.cards.techs[klass].structure or 1
    return battle.Ship(
        id=sid,
        cls=state.cards.techs[klass].level,
        structure=max(1, whole - damage),
        max_structure=whole,
        weapons=weapons,
        defences=defences,
        engine=engine,
    )


def warship_parts(state: State, c: Captain, klass: str) -> list[str] | None:
    """The parts of the captain's own warship of `klass` (the others' ships of a class are
    reckoned as its own: their insides are private)."""
    mine = [s for s in state.ships_of(c.id) if s.klass == klass and "mining-bots" not in s.parts]
    return list(mine[-1].parts) if mine else None


def players_side(
    state: State, view: View, c: Captain, seen: list[SeenShip], default: list[str]
) -> battle.Side:
    """The captains' ships in `seen` as one side: its own as they are, the others' (warships
    of their class, as its own)."""
    own = {s.id: s for s in state.ships_of(c.id)}
    ships = []
    for s in {s.id: s for s in seen}.values():
        if s.id in own:
            ship = own[s.id]
            if "mining-bots" in ship.parts:
                continue
            ships.append(_battle_ship(state, s.id, s.klass, ship.parts, c.techs, ship.damage))
        else:
            parts = warship_parts(state, c, s.klass) or default
            ships.append(_battle_ship(state, s.id, s.klass, parts, c.techs, 0))
    arm = c.stats.arm if c.stats is not None else 0
    return battle.Side(id=c.id, team=PLAYERS, arm=arm, ships=tuple(ships), moved_from_cost=1)


def enemy_side(state: State, view: View, npc_id: str, at: str) -> battle.Side:
    npc = view.npcs[npc_id]
    ships = [
        _battle_ship(state, s.id, s.klass, npc.designs.get(s.klass, []), npc.techs, 0)
        for s in view.ships
        if s.owner == npc_id and s.at == at
    ]
    return battle.Side(
        id=npc_id,
        team=npc_id,
        ai=True,
        defence_percent=npc.defence_percent,
        order=1,
        ships=tuple(ships),
    )


def predicted_win(
    state: State, view: View, c: Captain, seen: list[SeenShip], npc_id: str, default: list[str]
) -> bool:
    """Whether the captains' ships in `seen` would take the enemy's homeworld in space (its
    ships there all destroyed) and keep `MARGIN` times the structure the enemy loses."""
    npc = view.npcs[npc_id]
    if npc.home is None:
        return False
    ours = players_side(state, view, c, likely_warships(seen, c, state), default)
    if not ours.ships or not any(s.weapons for s in ours.ships):
        return False
    theirs = enemy_side(state, view, npc_id, npc.home)
    if not theirs.ships:
        return True
    effects = state.rules.stats.effects
    arm = battle.ArmEffects(
        damage_points=effects.damage_points_per_arm,
        damage_percent=effects.damage_percent_per_arm,
        defence_percent=effects.defence_percent_per_arm,
    )
    report = battle.fight([ours, theirs], battle.battle_rules(state.ruleset), arm)
    if report.winner != PLAYERS:
        return False
    kept = sum(o.structure for o in report.ships if o.side == c.id and not o.destroyed)
    lost = sum(s.structure for s in theirs.ships)
    return kept >= MARGIN * lost or kept >= sum(s.structure for s in ours.ships) // 2


def planet_defence(state: State, view: View, at: str) -> int:
    tile = view.map.tiles.get(at)
    if tile is None or not tile.planet:
        return 0
    planet = state.rules.planets.get(str(tile.planet))
    return planet.defence_percent if planet else 0


def best_army(
    state: State,
    have: dict[str, int],
    enemy: dict[str, int],
    defence: int,
    room: int,
    per_type: int,
    budget: int,
) -> dict[str, int]:
    """The units to recruit (on top of the army it has) that kill the most of the enemy's army
    by their cost (a win first), then the cheapest: every mix of the land units within the
    army's size, the count of each type and the budget is weighed by the land battle."""
    table = state.rules.land_units
    units = sorted(table, key=lambda u: (table[u].level, u))
    rules = land.land_rules(state.ruleset)
    start = sum(table[u].size * n for u, n in have.items() if u in table)
    enemy_worth = {u: table[u].cost for u in enemy if u in table}
    best: tuple[tuple[int, int, int], dict[str, int]] = ((0, 0, 0), {})
    tries = 0

    def score(extra: dict[str, int], cost: int) -> tuple[int, int, int]:
        army = dict(have)
        for u, n in extra.items():
            army[u] = army.get(u, 0) + n
        report = land.fight(
            land.LandSide(id="us", army=army),
            land.LandSide(id="them", army=dict(enemy), defence_percent=defence),
            table,
            rules,
        )
        left = report.armies.get("them", {})
        killed = sum(enemy_worth[u] * (n - left.get(u, 0)) for u, n in enemy.items() if u in table)
        return (int(report.winner == "us"), killed, -cost)

    def walk(i: int, size: int, cost: int, extra: dict[str, int]) -> None:
        nonlocal best, tries
        if tries >= ARMY_TRIES:
            return
        if i == len(units):
            if extra:
                tries += 1
                s = score(extra, cost)
                if s > best[0]:
                    best = (s, dict(extra))
            return
        unit = table[units[i]]
        most = per_type - have.get(units[i], 0)
        for n in range(max(0, most), -1, -1):
            if size + n * unit.size > room or cost + n * unit.cost > budget:
                continue
            if n:
                extra[units[i]] = n
            walk(i + 1, size + n * unit.size, cost + n * unit.cost, extra)
            extra.pop(units[i], None)

    walk(0, start, 0, {})
    return best[1] if best[0][1] > 0 or best[0][0] else {}


def likely_warships(seen: list[SeenShip], c: Captain, state: State) -> list[SeenShip]:
    """The ships of `seen` it reckons warships: its own that are, and of the others' at Earth
    (where their new miners wait too; their parts are private) as many as its own ships at
    Earth have warships among them, in proportion; the others' elsewhere all."""
    own = {s.id: s for s in state.ships_of(c.id)}
    home = [s for s in own.values() if s.at == EARTH]
    armed = sum(1 for s in home if "mining-bots" not in s.parts)
    others = [s for s in seen if s.owner != c.id and s.at == EARTH]
    keep = len(others) * armed // len(home) if home else 0
    kept = {s.id for s in others[:keep]}
    return [
        s
        for s in seen
        if (s.id in own and "mining-bots" not in own[s.id].parts)
        or (s.id not in own and (s.at != EARTH or s.id in kept))
    ]


def seen_at(view: View, places: set[str]) -> list[SeenShip]:
    return [s for s in view.ships if s.owner in view.captains and s.at in places]


def nearest_first(view: View, homes: Iterable[str]) -> list[str]:
    return sorted(homes, key=lambda p: (hexes.layer(hexes.parse(p)), hexes.key_order(p)))


def gathering(view: View) -> list[SeenShip]:
    """The captains' ships at Earth (where a fleet gathers)."""
    return seen_at(view, {EARTH})
