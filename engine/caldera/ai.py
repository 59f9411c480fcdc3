"""AI captains of Caldera: a window's commands from the captain's View alone (the shared map,
NPCs and zone; its own hand, credits, techs and ships; never another captain's).

`decide(view, memory, style)` is a pure function of the view and the memory (no dice). Every
command it gives is checked by the game as a player's; one refused is remembered and left.

The policy, once a window:
1. The setup: balanced stats (the rules' default character), the first zone mission card, an
   Earth interceptor when the credits allow it, and (as bonuses, when it knows none) a level
   1 weapon and a level 1 defence for its shipyard (not one that would leave its research
   cards all techs it knows: a research hand of known techs is held for good).
2. Cards: the research whose tech costs least (a weapon first while it knows none; a class or
   engine first on a tie; a higher level first for mission 4), the mission its own spending
   brings first (4 a new tech level, 2 a new layout, 5 scouting farther, then the fights 1, 3
   and 6), the cheapest design when a fifth of the credits pays for it (one of its most
   advanced tech whenever it can pay for mission 2), a half-price tech when half the credits
   pay for it.
3. Spending: repairs of its shipyard first (the campaign is lost with the last one); at war,
   the shipyard rebuilt for a larger class it knows as soon as the credits pay for it (they
   are kept for it); weapons and defences fitted in the shipyard by turns (half the credits;
   all of them with enemies near): the weapon dealing the most for its space through the
   known enemies' defences (their designs are public); repairs of its ships at the shipyard;
   with mission 4 every credit into the research that brings it; the shipyard rebuilt for
   its largest class when half the credits pay for it; a ship a turn when the credits pay
   for it: the largest class its shipyard builds, its best engine, then mining bots (while
   fewer than half its ships are miners and a known system has minerals left for one) or the
   weapon hitting hardest through the enemies' defences and its best defence by turns, while
   they fit; half the credits left into research (a quarter before it has a ship).
4. Moves: miners stay where they still mine, else to the nearest system with minerals left
   (`mining_room`); the others to the nearest unexplored place their engines reach
   (scouting), else to the reachable place nearest to one; at most a fleet from one place. A
   captain holding a loyalty mission (or a mission hand) but mission 5 scouts nothing (a
   mission found then would be lost): its warships wait at the shipyard. With enemy ships or
   an enemy base within `THREAT` layers of Earth and no weapon in the shipyard, the warships
   but the first (a scout) guard it (those at Earth stay, the others come home). Warships go
   for the captain's mission: an enemy homeworld left without ships when it has an army,
   enemy ships away from Earth (missions 1 and 3), the farthest unexplored place (mission 5).
5. Land units: an army of the cheapest unit (as many as its largest ship carries and a
   quarter of its credits pays for) once it has ships, to take enemy homeworlds.
6. War (`ai_war`): while an enemy found stands, its warships scout no more (each place
   scouted may find another enemy, and the campaign is won when every enemy found is
   conquered): they gather at Earth, and its research takes a larger ship class first. When
   the battle its captains' fleet at Earth would fight at a known enemy homeworld (played out
   on what its view shows) is theirs with a margin, its warships all go there (the fewest
   turns' way, through unexplored space when no placed tile leads there) and stay until it
   is conquered, and it recruits the land army that does most against the enemy's army
   there. A war stalled for `STALL` windows sends its first warship scouting again. The first
   zone mission chosen is one its war keeps (Scaredy-cats first, Pacifists last), a loyalty
   mission one its war brings (conquering a homeworld first).
Then it submits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.caldera import ai_war, hexes, starmap
from engine.caldera import captain as stats_
from engine.caldera.captain import Stats
from engine.caldera.commands import (
    Build,
    BuyBonus,
    Choose,
    Fund,
    Move,
    Recruit,
    Repair,
    SetStats,
    Submit,
    Upgrade,
)
from engine.caldera.state import EARTH, Captain, Ship, State
from engine.caldera.turns import default_stats
from engine.caldera.view import View
from engine.caldera.window import (
    engine_range,
    forbidden,
    largest_space,
    research_cost,
    space_of,
)
from engine.interface.turnbased.ai import TurnAi

# "normal": an AI captain; "caretaker": a player's captain while they are away (`/game
# caretaker`): the same policy (the campaign is co-operative: there is nobody to spare)
STYLES = ("normal", "caretaker")
THREAT = 3  # enemies this many layers from Earth or nearer: warships guard the shipyard
HUNTS = (1, 3)  # the loyalty missions of destroying enemy ships
NEW_LAYOUT = 2  # the loyalty mission of a new layout of the most advanced tech
NEW_LEVEL = 4  # the loyalty mission of researching a new tech level
SCOUT_FARTHEST = 5  # the loyalty mission of scouting farther than any known tile
# the loyalty missions it takes first: a new tech level (its research brings it), a new
# layout of its best tech (a design), scouting farther, then the fights
MISSION_ORDER = (NEW_LEVEL, NEW_LAYOUT, SCOUT_FARTHEST, 1, 3, 6)
CONQUER = 6  # the loyalty mission of conquering an enemy homeworld
# while an enemy found stands: the missions its war brings first (a homeworld conquered, an
# enemy ship destroyed on the way), scouting farther last (it scouts no more)
STALL = 5  # windows in a row without a homeworld to take: the war is stalled
WAR_ORDER = (CONQUER, 1, NEW_LEVEL, NEW_LAYOUT, 3, SCOUT_FARTHEST)
# the zone missions it chooses first: those its way to a win keeps (a zone mission done holds
# the next zone five turns off, and with it the enemies' refits): Scaredy-cats (it scouts
# nothing while an enemy stands), Sharecroppers (its miners mine), Surveyors, Explorers; last
# Wingman and Pacifists, which its fleets' moves on a homeworld break
ZONE_ORDER = (4, 3, 2, 1, 6, 5)


@dataclass
class Memory:
    turn: int | None = None  # the window it last decided for (the view's `turn`)
    refused: list[str] = field(default_factory=list)
    target: str | None = None  # the enemy whose homeworld its warships go to take
    gather: bool = False  # its warships come to Earth, where the captains' fleet gathers
    idle: int = 0  # the windows in a row its war has had no homeworld to take


def state_of(view: View) -> State:
    """A state made of what the view shows (the viewer's own captain and ships), for the
    engine's readings of it (ranges, space, costs)."""
    return State(
        ruleset=view.ruleset,
        deck=view.deck,
        turn=max(view.turn - 1, 0),
        zone=view.zone,
        captains={k: c.model_copy(deep=True) for k, c in view.own.items()},
        ships={s.id: s.model_copy() for ships in view.fleets.values() for s in ships},
        map=view.map.model_copy(deep=True),
        event=view.event.model_copy() if view.event else None,
    )


def _research_pick(state: State, c: Captain, cards: list[str], war: bool = False) -> str:
    """The cheapest research (a class or an engine first on a tie); a weapon first while it
    knows none (its shipyard fires the weapons it knows); with mission 4 (a new tech level), a
    tech above its best level first; at war, a larger ship class than it has first (larger
    ships carry a larger land army, and its fleet hits harder)."""
    best = stats_.highest_level(c.techs, state.cards)
    armed = bool(_best(state, c, "weapon"))
    techs = state.cards.techs
    largest = max(
        (techs[t].level for t in c.techs if t in techs and techs[t].category == "class"),
        default=0,
    )

    def key(card: str) -> tuple[bool, bool, bool, bool, int, bool, str]:
        tech_id = state.cards.card(card).tech
        tech = techs[tech_id]
        return (
            tech_id in c.techs,
            not armed and tech.category != "weapon",
            c.mission == NEW_LEVEL and tech.level <= best,
            war and not (tech.category == "class" and tech.level > largest),
            tech.research_cost,
            tech.category not in ("class", "engine"),
            card,
        )

    return min(cards, key=key)


def _cards(state: State, view: View, me: str, c: Captain) -> list[Any]:
    out: list[Any] = []
    credits = c.credits
    cards, techs, rules = state.cards, state.cards.techs, state.rules
    if view.zone_hand:
        pick = min(
            view.zone_hand,
            key=lambda k: (ZONE_ORDER.index(cards.card(k).number), k),
        )
        out.append(Choose(hand="zone", card=pick))
    for hand in c.hand:
        if hand.kind == "research" and c.research is None:
            pick = _research_pick(state, c, hand.cards, at_war(view))
            if cards.card(pick).tech not in c.techs:
                out.append(Choose(hand="research", card=pick))
        elif hand.kind == "mission":
            order = WAR_ORDER if at_war(view) else MISSION_ORDER
            easiest = min(
                hand.cards,
                key=lambda k: (
                    (order.index(cards.card(k).number), k)
                    if cards.card(k).number in order
                    else (len(order), k)
                ),
            )
            out.append(Choose(hand="mission", card=easiest))
        elif hand.kind == "design":
            best = None
            if forbidden(state, "no-design") is not None:
                out.append(Choose(hand="design", card=None))
                continue
            top = stats_.highest_level(c.techs, cards)
            for card in hand.cards:
                tech = cards.card(card).tech
                if stats_.can_design(tech, c.techs, rules):
                    cost = stats_.design_cost(techs[tech].research_cost, rules)
                    # mission 2 (a new layout of its most advanced tech): worth its price
                    wanted = c.mission == NEW_LAYOUT and techs[tech].level >= top
                    share = 1 if wanted else 5
                    if cost * share <= credits and (best is None or cost < best[0] or wanted):
                        best = (cost, card)
                        if wanted:
                            break
            if best is not None:
                out.append(Choose(hand="design", card=best[1]))
                credits -= best[0]
            else:
                out.append(Choose(hand="design", card=None))
        elif hand.kind == "tech":
            buy = next(
                (
                    k
                    for k in hand.cards
                    if cards.card(k).tech not in c.techs
                    and techs[cards.card(k).tech].research_cost // 2 <= credits // 2
                ),
                None,
            )
            out.append(Choose(hand="tech", card=buy))
    return out


def _best(state: State, c: Captain, category: str) -> list[str]:
    techs = state.cards.techs
    owned = [t for t in sorted(c.techs) if t in techs and techs[t].category == category]
    return sorted(owned, key=lambda t: (-techs[t].value(c.techs[t]), t))


def _design(
    state: State,
    c: Captain,
    klass: str,
    *,
    miner: bool,
    against: list[dict[str, int]] | None = None,
) -> list[str]:
    """Parts for a new ship of `klass`: the best engine, then mining bots (a miner) or the
    weapon hitting hardest through the known enemies' defences and the best defence by
    turns, while they fit."""
    techs = state.cards.techs
    room = space_of(state, c, klass)
    engines = _best(state, c, "engine")
    parts: list[str] = []
    used = 0
    if engines and techs[engines[0]].size <= room:
        parts.append(engines[0])
        used += techs[engines[0]].size
    if miner:
        fill = ["mining-bots"] if "mining-bots" in c.techs else []
    else:
        weapons = sorted(
            _best(state, c, "weapon"),
            key=lambda t: -_weapon_worth(state, c, t, against or []) * techs[t].size,
        )
        fill = weapons[:1] + _best(state, c, "defence")[:1]
    while fill:
        placed = False
        for part in fill:
            if used + techs[part].size <= room:
                parts.append(part)
                used += techs[part].size
                placed = True
        if not placed:
            break
    return parts


def _first_weapon(state: State, c: Captain) -> str | None:
    """A level 1 weapon for a captain who knows none, the most damage for its space."""
    if _best(state, c, "weapon"):
        return None
    techs = state.cards.techs
    level_1 = [t for t, tech in techs.items() if tech.category == "weapon" and tech.level == 1]
    return min(
        level_1,
        key=lambda t: (-techs[t].value(0) / max(1, techs[t].size), techs[t].build_cost, t),
        default=None,
    )


def armours(view: View, state: State) -> list[dict[str, int]]:
    """What each design of the enemies known absorbs of a hit, by weapon type (its defences
    at its layouts): the enemies' designs are on the map for all to see."""
    techs = state.cards.techs
    out: list[dict[str, int]] = []
    for npc in view.npcs.values():
        if npc.friend or npc.conquered:
            continue
        for parts in npc.designs.values():
            table: dict[str, int] = {}
            for part in parts:
                tech = techs.get(part)
                if tech is not None and tech.category == "defence":
                    for kind in tech.covers:
                        table[kind] = table.get(kind, 0) + tech.value(npc.techs.get(part, 0))
            out.append(table)
    return out


def _weapon_worth(state: State, c: Captain, weapon: str, against: list[dict[str, int]]) -> float:
    """A weapon's damage a hit (with its Arm) through the known enemies' defences, on
    average (all of it when no enemy is known), for the space it takes."""
    tech = state.cards.techs[weapon]
    hit = stats_.damage(tech.value(c.techs.get(weapon, 0)), c.stats or Stats(), state.rules)
    kind = tech.weapon or ""
    through = [max(0, hit - a.get(kind, 0)) for a in against] or [hit]
    return sum(through) / len(through) / max(1, tech.size)


def _first_defence(state: State, c: Captain) -> str | None:
    """A level 1 defence covering every weapon type, for a captain who knows none."""
    if _best(state, c, "defence"):
        return None
    techs = state.cards.techs
    kinds = {t.weapon for t in techs.values() if t.weapon}
    level_1 = [
        t
        for t, tech in techs.items()
        if tech.category == "defence" and tech.level == 1 and kinds <= set(tech.covers)
    ]
    return min(level_1, key=lambda t: (-techs[t].value(0) / max(1, techs[t].size), t), default=None)


def _yard_weapon(state: State, c: Captain, against: list[dict[str, int]]) -> str | None:
    """The weapon it knows dealing the most damage (with its Arm, through the enemies'
    defences) for the space it takes: a shipyard fires every weapon fitted in it, so its room
    is what counts."""
    techs = state.cards.techs
    return min(
        _best(state, c, "weapon"),
        key=lambda t: (-_weapon_worth(state, c, t, against), techs[t].build_cost, t),
        default=None,
    )


def _yard_parts(state: State, c: Captain, budget: int, against: list[dict[str, int]]) -> list[str]:
    """Parts to fit in the shipyard's free room that `budget` pays for: its best weapon for
    the space and its best defence by turns (defences add up: enough of them and the early
    enemies' hits do nothing), while they fit."""
    techs, rules = state.cards.techs, state.rules
    weapon = _yard_weapon(state, c, against)
    if weapon is None or c.shipyard.destroyed:
        return []
    room = space_of(state, c, c.shipyard.klass) * rules.shipyard.space_times
    free = room - sum(techs[p].size for p in c.shipyard.parts if p in techs)
    fill = [weapon, *_best(state, c, "defence")[:1]]
    parts: list[str] = []
    used = 0
    while fill:
        for part in list(fill):
            if used + techs[part].size <= free:
                parts.append(part)
                used += techs[part].size
            else:
                fill.remove(part)

    def cost(chosen: list[str]) -> int:
        return stats_.build_cost(
            sum(techs[p].build_cost for p in chosen), c.stats or Stats(), rules
        )

    while parts and cost(parts) > budget:
        parts.pop()
    return parts


def _spend(
    state: State,
    me: str,
    c: Captain,
    credits: int,
    defend: bool,
    against: list[dict[str, int]] | None = None,
    mine: bool = True,
    war: bool = False,
) -> list[Any]:
    against = against or []
    out: list[Any] = []
    rules, techs = state.rules, state.cards.techs
    ships = state.ships_of(me)
    yard_price = rules.repair.shipyard_per_sp
    if c.shipyard.damage and not c.shipyard.destroyed and credits >= yard_price:
        # the shipyard first: the campaign is lost with the last one
        points = min(c.shipyard.damage, credits // max(1, yard_price))
        out.append(Repair(ship=None, points=points))
        credits -= points * yard_price
    larger = sorted(
        (t for t in c.techs if t in techs and techs[t].category == "class"),
        key=lambda t: (-techs[t].level, t),
    )
    # at war, a larger class known: the shipyard rebuilt for it comes first (larger ships, a
    # larger army aboard, a stronger shipyard), and the credits are kept for it rather than
    # fitted in the shipyard
    rebuild = war and bool(larger) and techs[larger[0]].level > techs[c.shipyard.klass].level
    if rebuild and not c.shipyard.destroyed:
        hull = techs[larger[0]].build_cost * rules.shipyard.space_times
        cost = stats_.build_cost(hull, c.stats or Stats(), rules)
        if cost <= credits:
            out.append(Upgrade(klass=larger[0]))
            credits -= cost
            c = c.model_copy(
                update={"shipyard": c.shipyard.model_copy(update={"klass": larger[0]})}
            )
            rebuild = False
    fit = _yard_parts(state, c, credits if defend else 0 if rebuild else credits // 2, against)
    if fit:
        # weapons and defences in the shipyard: the cheapest defence of Earth
        cost = stats_.build_cost(sum(techs[p].build_cost for p in fit), c.stats or Stats(), rules)
        out.append(Upgrade(klass=None, parts=fit))
        credits -= cost
        c = c.model_copy(
            update={"shipyard": c.shipyard.model_copy(update={"parts": c.shipyard.parts + fit})}
        )
    price = rules.repair.ship_per_sp
    for ship in ships:
        if ship.at == EARTH and ship.damage and credits >= price:
            points = min(ship.damage, credits // max(1, price))
            out.append(Repair(ship=ship.id, points=points))
            credits -= points * price
    if larger and techs[larger[0]].level > techs[c.shipyard.klass].level:
        hull = techs[larger[0]].build_cost * rules.shipyard.space_times
        cost = stats_.build_cost(hull, c.stats or Stats(), rules)
        if cost * 2 <= credits and not c.shipyard.destroyed:
            out.append(Upgrade(klass=larger[0]))
            credits -= cost
            c = c.model_copy(
                update={"shipyard": c.shipyard.model_copy(update={"klass": larger[0]})}
            )
    top = stats_.highest_level(c.techs, state.cards)
    if (
        c.mission == NEW_LEVEL
        and c.research is not None
        and c.research in techs
        and techs[c.research].level > top
        and credits > 0
    ):
        # the mission of a new tech level: every credit into the research that brings it
        need = research_cost(state, c, c.research) - c.research_paid
        amount = min(need, credits)
        if amount > 0:
            out.append(Fund(amount=amount))
            credits -= amount
            c = c.model_copy(update={"research_paid": c.research_paid + amount})
    yard = techs[c.shipyard.klass].level
    classes = sorted(
        (
            t
            for t in c.techs
            if t in techs and techs[t].category == "class" and techs[t].level <= yard
        ),
        key=lambda t: (-techs[t].level, t),
    )
    if classes and c.built < rules.start.builds_per_turn and not c.shipyard.destroyed:
        miners = sum(1 for s in ships if "mining-bots" in s.parts)
        for klass in classes:
            # a miner while fewer than half its ships mine and a system has minerals left
            miner = mine and miners * 2 < len(ships) + 1
            parts = _design(state, c, klass, miner=miner, against=against)
            cost = stats_.build_cost(
                techs[klass].build_cost + sum(techs[p].build_cost for p in parts),
                c.stats or Stats(),
                rules,
            )
            if len(parts) > 1 and cost <= credits:
                out.append(Build(klass=klass, parts=parts))
                credits -= cost
                break
    if ships and not any(c.land.values()) and c.stats is not None:
        # an army to take enemy homeworlds: the cheapest unit, as many as fit and a quarter
        # of the credits pays for
        unit, row = min(rules.land_units.items(), key=lambda u: (u[1].cost, u[0]))
        room = stats_.land_army_size(largest_space(state, c), c.stats, rules) // row.size
        count = min(room, stats_.land_unit_limit(c.stats, rules), credits // 4 // max(1, row.cost))
        if count > 0:
            out.append(Recruit(units={unit: count}))
            credits -= count * row.cost
    if c.research is not None and credits > 0:
        need = research_cost(state, c, c.research) - c.research_paid
        amount = min(need, credits // 2 if ships else credits // 4)
        if amount > 0:
            out.append(Fund(amount=amount))
    return out


def at_war(view: View) -> bool:
    """Whether an enemy found still stands (its homeworld not conquered)."""
    return any(not n.friend and not n.conquered and n.home for n in view.npcs.values())


def threatened(view: View) -> bool:
    """Whether enemies are near Earth: an enemy ship or base within `THREAT` layers."""
    enemies = {n for n, npc in view.npcs.items() if not npc.friend and not npc.conquered}
    near = [s.at for s in view.ships if s.owner in enemies]
    near += [view.npcs[n].home or "" for n in enemies if view.npcs[n].home]
    return any(hexes.layer(hexes.parse(p)) <= THREAT for p in near if p)


def _warships(state: State, me: str) -> list[Ship]:
    return [s for s in state.ships_of(me) if "mining-bots" not in s.parts]


def _fleet(view: View, state: State, me: str, systems: set[str]) -> list[ai_war.SeenShip]:
    """The captains' warships as its view shows them: its own (it knows their parts) and the
    others' not at a system with minerals (where their miners are)."""
    own = {s.id for s in _warships(state, me)}
    return [
        s
        for s in view.ships
        if s.owner in view.captains
        and ((s.owner == me and s.id in own) or (s.owner != me and s.at not in systems))
    ]


def _war(state: State, view: View, me: str, c: Captain, memory: Memory) -> None:
    """The homeworld its warships go to take (`memory.target`): the nearest known enemy's whose
    ships there the fleet gathered at Earth (with the captains' ships already there) beats
    in the predicted battle; kept while the captains' warships still beat them; else
    `memory.gather` when its warships away would make the fleet at Earth strong enough."""
    enemies = {
        n: npc
        for n, npc in view.npcs.items()
        if not npc.friend and not npc.conquered and npc.home is not None
    }
    klass = c.shipyard.klass if c.shipyard.klass in c.techs else "interceptor"
    default = _design(state, c, klass, miner=False, against=armours(view, state))
    systems = {
        p for p, t in view.map.tiles.items() if t.kind in ("asteroids", "planet") and p != EARTH
    }
    mine = _warships(state, me)
    memory.gather = False
    if memory.target is not None:
        npc = enemies.get(memory.target)
        fleet = _fleet(view, state, me, systems)
        if (
            npc is None
            or not mine
            or not ai_war.predicted_win(state, view, c, fleet, memory.target, default)
        ):
            memory.target = None
    if memory.target is not None or not mine:
        return
    homes = {npc.home: n for n, npc in enemies.items() if npc.home}
    for home in ai_war.nearest_first(view, homes):
        here = ai_war.seen_at(view, {EARTH, home})
        if any(s.owner == me for s in here) and ai_war.predicted_win(
            state, view, c, here, homes[home], default
        ):
            memory.target = homes[home]
            return
    away = [s for s in mine if s.at != EARTH]
    if away:
        ids = {s.id for s in away}
        gathered = ai_war.gathering(view) + [s for s in view.ships if s.id in ids]
        memory.gather = any(
            ai_war.predicted_win(
                state, view, c, gathered + ai_war.seen_at(view, {home}), homes[home], default
            )
            for home in homes
        )


def _army(state: State, view: View, c: Captain, memory: Memory, credits: int) -> dict[str, int]:
    """The land units to recruit for the homeworld it goes to take: those doing the most
    against the enemy's army there (see `ai_war.best_army`), with three quarters of its
    credits."""
    npc = view.npcs.get(memory.target or "")
    if npc is None or npc.home is None or c.stats is None or not state.ships_of(c.id):
        return {}
    rules = state.rules
    return ai_war.best_army(
        state,
        dict(c.land),
        dict(npc.land),
        ai_war.planet_defence(state, view, npc.home),
        stats_.land_army_size(largest_space(state, c), c.stats, rules),
        stats_.land_unit_limit(c.stats, rules),
        credits * 3 // 4,
    )


ROUTE_TURNS = 8  # the most turns of moves it looks ahead for a way to a far goal


def _route(state: State, at: str, goal: str, engine: int) -> str | None:
    """The first move of the fewest turns' way from `at` to `goal` through the placed tiles
    (each turn a move the engine's range reaches; a nebula may make the way wind), at most
    `ROUTE_TURNS` turns; None when there is none."""
    tiles = state.map.tiles
    first: dict[str, str] = {}
    frontier = [at]
    for _ in range(ROUTE_TURNS):
        nxt: list[str] = []
        for place in frontier:
            reach = starmap.reachable(state.map, state.map_rules, place, engine)
            for p in reach:
                if p in first or p == at or (p not in tiles and p != goal):
                    continue
                first[p] = first.get(place, p)
                if p == goal:
                    return first[p]
                nxt.append(p)
        if not nxt:
            return None
        frontier = nxt
    return None


def _toward(
    reach: dict[str, int], view: View, goal: str, enemies_at: set[str], at: str | None = None
) -> str | None:
    """Where a ship at `at` goes this turn on its way to `goal`: the goal when it reaches it,
    else the place it reaches nearest to it (a placed tile first, then one without enemy
    ships, then the cheaper): unexplored space too, when it is nearer and the goal is on the
    map (a nebula may close the way through the placed tiles); nowhere when no place it reaches is nearer than where it
    is (it would only go back and forth)."""
    if goal in reach:
        return goal
    # unexplored space on the way to a place on the map (a homeworld off it is unknown ground)
    options = [p for p in reach if p in view.map.tiles or goal in view.map.tiles]
    best = min(
        options,
        key=lambda p: (
            _distance(p, goal),
            p not in view.map.tiles,
            p in enemies_at,
            reach[p],
            hexes.key_order(p),
        ),
        default=None,
    )
    if best is None or (at is not None and _distance(best, goal) >= _distance(at, goal)):
        return None
    return best


def _moves(
    state: State, view: View, me: str, c: Captain, memory: Memory | None = None
) -> list[Any]:
    out: list[Any] = []
    taken: dict[str, int] = {}
    targets_used: set[str] = set()
    unexplored = set(starmap.unexplored(state.map))
    enemies_at = {
        s.at for s in view.ships if s.owner in view.npcs and not view.npcs[s.owner].friend
    }
    limit = state.rules.fleet.move_group
    techs = state.cards.techs
    # an armed shipyard holds Earth against the early enemies: its warships fly on
    armed = any(p in techs and techs[p].category == "weapon" for p in c.shipyard.parts)
    defend = threatened(view) and not armed
    # its first warship scouts on, even when the others guard the shipyard
    scout = next((s.id for s in state.ships_of(me) if "mining-bots" not in s.parts), None)
    homes = {
        n.home
        for n in view.npcs.values()
        if not n.friend and not n.conquered and n.home and n.home not in enemies_at
    }
    busy = c.mission not in (None, SCOUT_FARTHEST) or any(h.kind == "mission" for h in c.hand)
    war = at_war(view)
    target = view.npcs.get(memory.target or "") if memory is not None else None
    # a war its fleet cannot win now (no homeworld to take, none to gather for): its first
    # warship scouts again (systems to mine, missions), the others gather at Earth
    stalled = memory is not None and memory.idle >= STALL
    mining, _ = _mining_plan(state, view, me, c, enemies_at)
    for ship in state.ships_of(me):
        if taken.get(ship.at, 0) >= limit:
            continue
        warship = "mining-bots" not in ship.parts
        # a fleet taking a homeworld guards Earth best: it leaves the guarding
        guard = defend and warship and ship.id != scout and target is None
        if guard and ship.at == EARTH:
            continue  # it guards the shipyard
        reach = starmap.reachable(
            state.map, state.map_rules, ship.at, engine_range(state, c.techs, ship)
        )
        if not reach:
            continue
        goal = None
        hunt = _mission_goal(view, c, ship, reach, homes, enemies_at)
        if guard and EARTH in reach:
            goal = EARTH  # home to guard the shipyard
        elif warship and target is not None and target.home is not None:
            # the captains' fleet takes the homeworld: on to it, and there it stays
            if ship.at == target.home:
                continue
            goal = _route(
                state, ship.at, target.home, engine_range(state, c.techs, ship)
            ) or _toward(reach, view, target.home, enemies_at, ship.at)
        elif warship and memory is not None and memory.gather:
            if ship.at == EARTH:
                continue
            goal = _toward(reach, view, EARTH, enemies_at, ship.at)
        elif warship and hunt is not None:
            goal = hunt
        elif "mining-bots" in ship.parts:
            goal = mining.get(ship.id)  # None: mining where it is
        elif busy or (war and not (stalled and ship.id == scout)):
            # a loyalty mission found now would be lost: it leaves the scouting to the
            # captains without one and waits at the shipyard; and while an enemy found stands,
            # scouting would only find more enemies to conquer before the campaign is won:
            # its warships gather at Earth instead
            if ship.at == EARTH:
                continue
            goal = _toward(reach, view, EARTH, enemies_at, ship.at)
        else:
            options = [p for p in reach if p in unexplored and p not in targets_used]
            if forbidden(state, "no-exploring") is not None:
                options = []
            if options and c.mission == SCOUT_FARTHEST:
                # farther than any known tile: the farthest it reaches
                goal = max(options, key=lambda p: (hexes.layer(hexes.parse(p)), -reach[p]))
            elif options:
                goal = min(options, key=lambda p: (reach[p], hexes.key_order(p)))
            elif unexplored:
                goal = min(
                    (p for p in reach if p not in enemies_at and p in view.map.tiles),
                    key=lambda p: (
                        min(_distance(p, u) for u in unexplored),
                        reach[p],
                        hexes.key_order(p),
                    ),
                    default=None,
                )
        if goal is None or goal == ship.at:
            continue
        targets_used.add(goal)
        taken[ship.at] = taken.get(ship.at, 0) + 1
        out.append(Move(ships=[ship.id], to=goal))
    return out


def _mission_goal(
    view: View,
    c: Captain,
    ship: Ship,
    reach: dict[str, int],
    homes: set[str],
    enemies_at: set[str],
) -> str | None:
    """Where a warship goes for its captain's mission, if anywhere it reaches: an enemy
    homeworld left without ships when the captain has an army (mission 6, and the campaign),
    enemy ships outside Earth (missions 1 and 3)."""
    if any(c.land.values()):
        options = [p for p in reach if p in homes]
        if options:
            return min(options, key=lambda p: (reach[p], hexes.key_order(p)))
    if c.mission in HUNTS and any(s.id == ship.id for s in view.fleets.get(c.id, [])):
        options = [p for p in reach if p in enemies_at and p != EARTH]
        if options:
            return min(options, key=lambda p: (reach[p], hexes.key_order(p)))
    return None


def mining_room(view: View, state: State, me: str) -> dict[str, int]:
    """What each known system (Earth too) has left to mine a turn once the miners there have
    taken theirs: the captains' shipyards mine Earth, its own miners their bots' worth, the
    other captains' ships at a system (their parts are private) one set of its own bots each.
    Places where an enemy ship is give nothing and are left out."""
    techs = state.cards.techs
    if "mining-bots" not in techs:
        return {}
    one = techs["mining-bots"].value(state.captains[me].techs.get("mining-bots", 0))
    players = max(1, len(view.captains))
    enemies_at = {
        s.at for s in view.ships if s.owner in view.npcs and not view.npcs[s.owner].friend
    }
    room: dict[str, int] = {}
    for p, tile in view.map.tiles.items():
        if p in enemies_at or (tile.base is not None and p != EARTH):
            continue
        if tile.kind in ("asteroids", "planet") or p == EARTH:
            room[p] = starmap.tile_minerals(tile, state.map_rules, players)
    if EARTH in room and state.rules.shipyard.mines_earth:
        yards = sum(1 for cv in view.captains.values() if not cv.shipyard_destroyed)
        room[EARTH] -= yards * one
    own = {s.id: s for s in state.ships_of(me)}
    others_home = 0
    for seen in view.ships:
        if seen.at not in room or seen.owner not in view.captains:
            continue
        if seen.id in own:
            room[seen.at] -= own[seen.id].parts.count("mining-bots") * one
        elif seen.at != EARTH:
            room[seen.at] -= one
        else:
            others_home += 1
    home = [s for s in own.values() if s.at == EARTH]
    if EARTH in room and home:
        # the others' ships at Earth: miners as many in proportion as among its own there
        miners = sum(1 for s in home if "mining-bots" in s.parts)
        room[EARTH] -= others_home * miners // len(home) * one
    return room


def _mining_plan(
    state: State, view: View, me: str, c: Captain, enemies_at: set[str]
) -> tuple[dict[int, str | None], dict[str, int]]:
    """Where each of its miners mines this turn (None: where it is): a miner stays where it
    still takes something, else goes to the nearest system it reaches with minerals left
    (the systems fill up: a miner more where the minerals are all taken mines nothing));
    and what each place has left to mine then."""
    room = mining_room(view, state, me)
    if not room:
        return {}, {}
    one = state.cards.techs["mining-bots"].value(c.techs.get("mining-bots", 0))
    miners = [s for s in state.ships_of(me) if "mining-bots" in s.parts]
    plan: dict[int, str | None] = {}
    moving = []
    # its miners' take is in `room` already; the systems give in ship order, so the newest
    # miner of an over-full place is the one taking nothing: it leaves
    for ship in reversed(miners):
        take = ship.parts.count("mining-bots") * one
        if ship.at in room and room[ship.at] + take > 0:
            plan[ship.id] = None
        else:
            if ship.at in room:
                room[ship.at] += take
            moving.append(ship)
    for ship in reversed(moving):
        reach = starmap.reachable(
            state.map, state.map_rules, ship.at, engine_range(state, c.techs, ship)
        )
        options = [p for p in reach if room.get(p, 0) > 0 and p not in enemies_at]
        goal = min(options, key=lambda p: (reach[p], hexes.key_order(p)), default=None)
        plan[ship.id] = goal
        if goal is not None:
            room[goal] -= ship.parts.count("mining-bots") * one
    return plan, room


def _room_for_miner(state: State, view: View, me: str) -> bool:
    """Whether a new miner would mine: a known system (Earth too) with half a set of mining
    bots' minerals left once its miners have taken theirs."""
    c = state.captains[me]
    techs = state.cards.techs
    if "mining-bots" not in techs:
        return False
    enemies_at = {
        s.at for s in view.ships if s.owner in view.npcs and not view.npcs[s.owner].friend
    }
    _, room = _mining_plan(state, view, me, c, enemies_at)
    one = techs["mining-bots"].value(c.techs.get("mining-bots", 0))
    return any(left * 2 >= one for left in room.values())


def _distance(a: str, b: str) -> int:
    return hexes.distance(hexes.parse(a), hexes.parse(b))


def decide(view: View, memory: Memory, style: str = "normal") -> list[Any]:
    """The window's commands then `Submit`; nothing once it has decided for this window (or
    is out, or the game is over)."""
    me = view.nation
    if me is None or not view.started or view.ended:
        return []
    c = view.own.get(me)
    if c is None or c.out or memory.turn == view.turn:
        return []
    if view.phase == "setup" and not c.stats:
        # its hands are drawn once the stats are set: it chooses from them at its next look
        return [SetStats(stats=default_stats(state_of(view)).model_dump())]
    memory.turn = view.turn
    if c.submitted:
        return []
    out: list[Any] = []
    credits = c.credits
    state = state_of(view)
    if view.phase == "setup":
        bonus = next((b for b in state.rules.bonuses if b.kind == "ship"), None)
        if bonus is not None and credits >= bonus.cost * 2:
            out.append(BuyBonus(bonus=bonus.id))
            credits -= bonus.cost
        # the techs of its research cards: a tech bought is no research choice any more, and
        # a research hand of techs all known is held for good
        research = frozenset(
            state.cards.card(k).tech for h in c.hand if h.kind == "research" for k in h.cards
        )
        mine = state.captains[me]
        weapon = _first_weapon(state, mine)
        tech_bonus = next(
            (b for b in state.rules.bonuses if b.kind == "tech" and b.level == 1), None
        )
        # a weapon and a defence for its shipyard from the first turn: bargains as bonuses
        for first in (weapon, _first_defence(state, mine)):
            if first is None or tech_bonus is None or credits < tech_bonus.cost * 3:
                continue
            if research and research <= set(mine.techs) | {first}:
                continue  # its research would be held: it researches this one instead
            out.append(BuyBonus(bonus=tech_bonus.id, tech=first))
            credits -= tech_bonus.cost
            mine.techs[first] = 0
    cards = _cards(state, view, me, state.captains[me])
    out += cards
    for command in cards:
        if isinstance(command, Choose) and command.hand == "design" and command.card:
            tech = state.cards.techs[state.cards.card(command.card).tech]
            credits -= stats_.design_cost(tech.research_cost, state.rules)
    for command in cards:
        if isinstance(command, Choose) and command.hand == "research" and command.card:
            state.captains[me].research = state.cards.card(command.card).tech
            state.captains[me].research_paid = 0
    _war(state, view, me, state.captains[me], memory)
    memory.idle = 0 if memory.target is not None or not at_war(view) else memory.idle + 1
    army = _army(state, view, state.captains[me], memory, credits)
    if army:
        out.append(Recruit(units=army))
        credits -= sum(state.rules.land_units[u].cost * n for u, n in army.items())
        for unit, count in army.items():
            state.captains[me].land[unit] = state.captains[me].land.get(unit, 0) + count
    spent = _spend(
        state,
        me,
        state.captains[me],
        credits,
        threatened(view),
        armours(view, state),
        mine=_room_for_miner(state, view, me),
        war=at_war(view),
    )
    forbids: dict[type, str] = {
        Build: "no-building",
        Upgrade: "no-building",
        Fund: "no-research",
        Repair: "no-repair",
    }
    out += [x for x in spent if forbidden(state, forbids.get(type(x), "")) is None]
    out += _moves(state, view, me, state.captains[me], memory)
    out.append(Submit())
    return out


def failed(memory: Memory, command: Any, view: View | None = None) -> None:
    memory.refused = (memory.refused + [repr(command)])[-20:]
    if isinstance(command, Submit):
        memory.turn = None


# the AI captains as the host's runner drives them (a caretaker is no seat of its own)
AI = TurnAi(styles=STYLES, levels=("normal",), memory=Memory, decide=decide, failed=failed)
