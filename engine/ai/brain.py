"""An AI nation's decisions: from its View (what a human would see) to engine commands.

`decide(view, memory, style)` is pure given its inputs (its dice are seeded from the view's
tick and nation). It never reads the world: it knows only what its nation may know.

The policy, in the order commands are issued (command points are spent on what matters most):
1. Fight: units next to a hostile unit they can hit attack it; land units next to an empty
   enemy or neutral city take it.
2. Diplomacy: answer war with war; accept an alliance when allied-free and the proposer is not
   its target; once strong enough (and not a caretaker or expand-only), declare war on the
   weakest nation whose cities it knows, nearest first.
3. Cities: designate and build by need (infantry and tanks in forts, transports in a port when
   there is land across the water, fighters in an airport once tech allows), never wasting
   progress (changes go to the next build).
4. Garrison: one land unit stays in each city; an ungarrisoned city calls the nearest idle one.
5. Expand and attack: idle land units go next to the nearest neutral city (then the war
   target's cities) on their island, in groups of at most three per target.
6. Across the water: a transport in a city loads idle land units and sails next to the nearest
   overseas target; next to it, its cargo takes the city or lands beside it.
7. Scout: zeppelins and idle units head for the nearest squares never seen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from .. import commands as cmd
from ..geometry import Grid
from ..rules import Ruleset
from ..rules import load as load_rules
from ..rules.models import MovesOn, UnitClass
from ..view import NEVER_SEEN, UnitView, View

WATER, LAND = 1, 2  # in View.terrain (1 + the world's terrain codes)
STYLES = ("normal", "caretaker", "expand", "passive")


@dataclass
class Memory:
    """What one AI nation carries from one decision to the next."""

    failed: dict[tuple[int, int], int] = field(default_factory=dict)  # (unit, goal) -> tick
    target: str | None = None  # the nation it makes war on
    sent: dict[int, int] = field(default_factory=dict)  # unit -> goal square it was sent to
    islands: tuple[int, list[int]] | None = None  # (known-map digest, island label per square)


@dataclass
class Decision:
    commands: list[cmd.Command]
    notes: list[str]


class Planner:
    def __init__(self, view: View, memory: Memory, style: str, rules: Ruleset) -> None:
        self.view = view
        self.memory = memory
        self.style = style
        self.rules = rules
        self.w, self.h = view.width, view.height
        self.table = Grid(self.w, self.h).neighbour_table
        self.cp = view.status.cp
        self.rng = random.Random(f"{view.nation}:{view.tick}")
        self.out: list[cmd.Command] = []
        self.notes: list[str] = []
        self.busy: set[int] = set()  # units given something to do this decision
        self.own = view.own_units()
        self.my_cities = {c.sq: c for c in view.own_cities()}
        war = self.war = rules.diplomacy.war
        self.at_war = {
            n.id
            for n in view.nations.values()
            if n.id != view.nation and war in (n.relation_to, n.relation_from)
        }
        self.units_at: dict[int, list[UnitView]] = {}
        for u in view.units:
            self.units_at.setdefault(u.sq, []).append(u)
        cost = rules.command_points.costs
        self.cost_move, self.cost_attack, self.cost_capture = cost.move, cost.attack, cost.capture
        self.labels = self.island_labels()
        travelling = {u.id for u in self.own if u.order is not None}
        memory.sent = {u: g for u, g in memory.sent.items() if u in travelling}
        day = rules.ticks_per_day
        memory.failed = {k: t for k, t in memory.failed.items() if t > view.tick - day}

    # --- geometry on the known map -----------------------------------------------------------

    def xy(self, sq: int) -> tuple[int, int]:
        return sq % self.w, sq // self.w

    def dist(self, a: int, b: int) -> int:
        ax, ay, bx, by = a % self.w, a // self.w, b % self.w, b // self.w
        dx, dy = abs(ax - bx), abs(ay - by)
        return max(min(dx, self.w - dx), min(dy, self.h - dy))

    def dist_many(self, sq: int, squares: np.ndarray) -> np.ndarray:
        """Distances from one square to many (numpy), on the torus."""
        x, y = sq % self.w, sq // self.w
        dx = np.abs(squares % self.w - x)
        dy = np.abs(squares // self.w - y)
        return np.maximum(np.minimum(dx, self.w - dx), np.minimum(dy, self.h - dy))

    def neighbours(self, sq: int) -> tuple[int, ...]:
        return self.table[sq]

    def terrain(self, sq: int) -> int:
        return int(self.view.terrain[sq])

    # --- spending ------------------------------------------------------------------------------

    def spend(self, cost: int) -> bool:
        if self.cp < cost:
            return False
        self.cp -= cost
        return True

    def issue(self, command: cmd.Command, cost: int = 0, units: list[int] | None = None) -> bool:
        if cost and not self.spend(cost):
            return False
        self.out.append(command)
        self.busy.update(units or [])
        return True

    # --- the policy ------------------------------------------------------------------------------

    def plan(self) -> Decision:
        if self.style == "passive":
            return Decision([], ["passive: no orders"])
        self.fight()
        self.diplomacy()
        self.cities()
        self.garrison()
        if self.style != "caretaker":
            self.expand()
            self.transports()
            self.scout()
        return Decision(self.out, self.notes)

    def hostile_units(self) -> list[UnitView]:
        return [u for u in self.view.units if u.owner in self.at_war and u.seen == "now"]

    def can_hit(self, unit: UnitView, target: UnitView) -> bool:
        ut = self.rules.unit[unit.type]
        dt = self.rules.unit[target.type]
        if not ut.attack or (unit.ammo or 0) < 1:
            return False
        if ut.unit_class == UnitClass.LAND and dt.unit_class == UnitClass.SEA:
            return False
        return not (ut.unit_class == UnitClass.SEA and dt.unit_class == UnitClass.AIR)

    def fight(self) -> None:
        hostile = self.hostile_units()
        by_square: dict[int, list[UnitView]] = {}
        for u in hostile:
            by_square.setdefault(u.sq, []).append(u)
        for unit in self.own:
            if unit.id in self.busy or unit.carried_by is not None or (unit.mobility or 0) < 1:
                continue
            for sq in self.neighbours(unit.sq):
                targets = [t for t in by_square.get(sq, []) if self.can_hit(unit, t)]
                if targets and self.issue(
                    cmd.Attack(units=[unit.id], target=self.xy(sq)), self.cost_attack, [unit.id]
                ):
                    break
        # aircraft and warships strike what they can reach and still come home from
        targets = hostile
        for unit in self.own:
            ut = self.rules.unit[unit.type]
            if unit.id in self.busy or unit.carried_by is not None or not ut.attack:
                continue
            if ut.unit_class not in (UnitClass.AIR, UnitClass.SEA) or (unit.ammo or 0) < 1:
                continue
            reach = unit.mobility or 0
            if ut.needs_fuel:
                reach = min(reach, (unit.fuel or 0) // 2)
            if reach < 2:
                continue
            options = [
                t
                for t in targets
                if self.can_hit(unit, t) and 1 < self.dist(unit.sq, t.sq) <= reach
            ]
            if not options:
                continue
            goal = min(options, key=lambda t: (self.dist(unit.sq, t.sq), t.id))
            self.issue(
                cmd.Attack(units=[unit.id], target=self.xy(goal.sq)), self.cost_attack, [unit.id]
            )
        # land units (also aboard a transport) next to an empty city they may take
        for unit in self.own:
            if unit.id in self.busy or self.rules.unit[unit.type].unit_class != UnitClass.LAND:
                continue
            if (unit.mobility or 0) < 1:
                continue
            for sq in self.neighbours(unit.sq):
                city = self.view.cities.get(sq)
                if city is None or city.seen != "now" or city.owner == self.view.nation:
                    continue
                if city.owner is not None and city.owner not in self.at_war:
                    continue
                if any(u.owner != self.view.nation for u in self.units_at.get(sq, [])):
                    continue
                if self.issue(
                    cmd.Attack(units=[unit.id], target=self.xy(sq)), self.cost_capture, [unit.id]
                ):
                    self.notes.append(f"unit {unit.id} takes the city at {self.view.label(sq)}")
                    break

    def diplomacy(self) -> None:
        view = self.view
        levels = self.rules.diplomacy.levels
        for n in view.nations.values():
            if n.id == view.nation or n.out:
                continue
            if n.relation_from == self.war and n.relation_to != self.war:
                self.issue(cmd.SetRelation(other=n.id, level=self.war))
                self.at_war.add(n.id)
        allies = [n for n in view.nations.values() if n.relation_to == "allied"]
        active = [n for n in view.nations.values() if n.id != view.nation and not n.out]
        # an alliance only makes sense while someone else is left to beat
        worth_allying = len(active) >= 2
        if "allied" in levels and not allies and worth_allying:
            for n in view.nations.values():
                if (
                    n.id != view.nation
                    and n.relation_from == "allied"
                    and n.id != self.memory.target
                    and n.id not in self.at_war
                ):
                    self.issue(cmd.SetRelation(other=n.id, level="allied"))
                    self.notes.append(f"accepts {n.name}'s alliance")
                    break
        day = view.tick // (self.rules.ticks_per_day)
        mine = len(self.my_cities)
        counts: dict[str, int] = {}
        for c in view.cities.values():
            if c.owner and c.owner != view.nation:
                counts[c.owner] = counts.get(c.owner, 0) + 1
        ally = next((n for n in allies if not n.out), None)
        if self.style == "normal" and "allied" in levels:
            if ally is None and day >= 2 and worth_allying:
                # ask the strongest nation it knows, other than its target, to be its ally
                friends = [
                    n
                    for n in view.nations.values()
                    if n.id != view.nation
                    and not n.out
                    and n.id != self.memory.target
                    and n.id not in self.at_war
                    and n.relation_to != "allied"
                    and counts.get(n.id, 0) > 0
                ]
                if friends:
                    best = max(friends, key=lambda n: (counts.get(n.id, 0), n.id))
                    self.issue(cmd.SetRelation(other=best.id, level="allied"))
                    self.notes.append(f"offers {best.name} an alliance")
            elif ally is not None and day >= 6 and counts.get(ally.id, 0) > 2 * max(1, mine):
                # an ally twice its size would take the win: part ways
                self.issue(cmd.SetRelation(other=ally.id, level=self.rules.diplomacy.start))
                self.notes.append(f"leaves its alliance with {ally.name}")
        if self.style in ("caretaker", "expand") or self.at_war:
            return
        land_army = [u for u in self.own if self.rules.unit[u.type].unit_class == UnitClass.LAND]
        day = view.tick // (self.rules.ticks_per_day)
        neutral_left = any(c.owner is None for c in view.cities.values())
        # expand first: war once the neutral cities it knows are taken, or from day 4
        if day < 2 or (neutral_left and day < 4):
            return
        if len(land_army) < max(6, 2 * len(self.my_cities)):
            return
        known: dict[str, list[int]] = {}
        for c in view.cities.values():
            if c.owner and c.owner != view.nation:
                rel = view.nations.get(c.owner)
                if rel is not None and rel.relation_to != "allied" and not rel.out:
                    known.setdefault(c.owner, []).append(c.sq)
        if not known:
            return
        home = next(iter(sorted(self.my_cities)), None)

        def weakness(item: tuple[str, list[int]]) -> tuple[int, int]:
            nation, squares = item
            near = min(self.dist(home, s) for s in squares) if home is not None else 0
            return (len(squares), near)

        target = min(sorted(known.items()), key=weakness)[0]
        self.memory.target = target
        self.issue(cmd.SetRelation(other=target, level=self.war))
        self.at_war.add(target)
        self.notes.append(f"declares war on {view.nations[target].name}")

    # --- cities ------------------------------------------------------------------------------

    def buildable(self, name: str) -> bool:
        ut = self.rules.unit.get(name)
        return ut is not None and ut.tech <= self.view.status.tech + 1e-9

    def want_for(self, designation: str, coastal: bool) -> str | None:
        tech = self.view.status.tech
        if designation == "fort":
            if self.buildable("tank") and self.rng.random() < 0.6:
                return "tank"
            return "infantry"
        if designation == "port":
            transports = sum(1 for u in self.own if u.type == "transport")
            if transports < 1 + len(self.my_cities) // 4:
                return "transport"
            for name in ("battleship", "destroyer", "patrol_boat"):
                if self.buildable(name):
                    return name
            return "transport"
        if designation == "airport":
            return "fighter" if self.buildable("fighter") else None
        if designation == "tech":
            if tech < 2 and self.buildable("zeppelin"):
                scouts = sum(1 for u in self.own if u.type == "zeppelin")
                if scouts < 2:
                    return "zeppelin"
            return None  # keep what it does (research, engineers ...)
        return None

    def coastal(self, sq: int) -> bool:
        return any(self.terrain(n) == WATER for n in self.neighbours(sq))

    def cities(self) -> None:
        rules = self.rules
        cities = sorted(self.my_cities.values(), key=lambda c: c.sq)
        overseas = self.overseas_targets()
        designations = [c.designation for c in cities]
        for i, city in enumerate(cities):
            ct = rules.city[city.designation]
            coastal = self.coastal(city.sq)
            new = None
            if not ct.builds_units or not ct.designatable:
                new = "fort"
            if (
                overseas
                and coastal
                and "port" not in designations
                and city.designation != "tech"
                and (i > 0 or len(cities) == 1 or city.designation != "fort")
            ):
                new = "port"
            if (
                self.buildable("fighter")
                and len(cities) >= 4
                and "airport" not in designations
                and city.designation == "fort"
                and i == len(cities) - 1
            ):
                new = "airport"
            if new and new != city.designation and new in rules.city:
                if rules.city[new].needs_coast and not coastal:
                    continue
                self.issue(cmd.Designate(city=self.xy(city.sq), designation=new))
                designations[i] = new
                continue
            want = self.want_for(city.designation, coastal)
            if want is None or not self.buildable(want):
                continue
            if rules.unit[want].built_in != city.designation:
                continue
            if city.build == want:
                continue
            if city.build is None or not city.progress:
                self.issue(cmd.SetBuild(city=self.xy(city.sq), unit=want))
            elif city.next_build != want:
                self.issue(cmd.SetNextBuild(city=self.xy(city.sq), unit=want))

    # --- units -------------------------------------------------------------------------------

    def idle(self, unit: UnitView) -> bool:
        return (
            unit.id not in self.busy
            and unit.order is None
            and unit.carried_by is None
            and (unit.mobility or 0) >= 1
        )

    def land_units(self) -> list[UnitView]:
        return [
            u
            for u in self.own
            if self.rules.unit[u.type].unit_class == UnitClass.LAND
            and self.rules.unit[u.type].attack
        ]

    def garrison(self) -> None:
        held = {u.sq for u in self.land_units()}
        for unit in self.land_units():
            if unit.sq in self.my_cities:
                # the first unit in each city stays there
                first = min(
                    u.id
                    for u in self.units_at[unit.sq]
                    if u.owner == self.view.nation
                    and self.rules.unit[u.type].unit_class == UnitClass.LAND
                )
                if unit.id == first:
                    self.busy.add(unit.id)
        for sq in sorted(self.my_cities):
            if sq in held:
                continue
            idle = [u for u in self.land_units() if self.idle(u)]
            if not idle:
                return
            unit = min(idle, key=lambda u: (self.dist(u.sq, sq), u.id))
            if self.dist(unit.sq, sq) <= 12:
                self.move(unit, sq)

    def move(self, unit: UnitView, goal: int) -> bool:
        key = (unit.id, goal)
        if self.memory.failed.get(key, -(10**9)) > self.view.tick - self.rules.ticks_per_day:
            return False
        if self.issue(cmd.Move(units=[unit.id], to=self.xy(goal)), self.cost_move, [unit.id]):
            self.memory.sent[unit.id] = goal
            return True
        return False

    def targets(self) -> list[int]:
        """Cities to take: neutral ones, then the war target's, as last known."""
        view = self.view
        out = []
        for c in view.cities.values():
            if c.owner is None or c.owner in self.at_war:
                out.append(c.sq)
        return sorted(out)

    def approach_square(self, unit: UnitView, city: int, *, water: bool = False) -> int | None:
        want = WATER if water else LAND
        options = [
            n
            for n in self.neighbours(city)
            if self.terrain(n) == want and n not in self.view.cities
        ]
        if not options:
            return None
        return min(options, key=lambda n: (self.dist(unit.sq, n), n))

    def island_labels(self) -> list[int]:
        """Each square's island on the known map (cities count as land; -1: not land),
        worked out once per change of the known map."""
        terrain = self.view.terrain
        land = bytearray((terrain == LAND).astype("uint8").tobytes())
        for sq in self.view.cities:
            land[sq] = 1
        digest = hash(bytes(land))
        if self.memory.islands is not None and self.memory.islands[0] == digest:
            return self.memory.islands[1]
        labels = [-1] * len(land)
        table = self.table
        label = 0
        for start in range(len(land)):
            if not land[start] or labels[start] >= 0:
                continue
            labels[start] = label
            stack = [start]
            while stack:
                sq = stack.pop()
                for n in table[sq]:
                    if land[n] and labels[n] < 0:
                        labels[n] = label
                        stack.append(n)
            label += 1
        self.memory.islands = (digest, labels)
        return labels

    def same_island(self, a: int, b: int) -> bool:
        """Whether known land connects two squares (a unit on a city or land square)."""
        if a == b:
            return True
        labels = self.labels
        if labels[a] < 0 or labels[b] < 0:
            return False
        return labels[a] == labels[b]

    def overseas_targets(self) -> list[int]:
        home = sorted(self.my_cities)
        if not home:
            return []
        return [t for t in self.targets() if not self.same_island(home[0], t)]

    def expand(self) -> None:
        targets = np.array(self.targets(), dtype=np.int64)
        if targets.size == 0:
            return
        claimed: dict[int, int] = {}
        for goal in self.memory.sent.values():
            claimed[goal] = claimed.get(goal, 0) + 1
        for unit in sorted(self.land_units(), key=lambda u: u.id):
            if not self.idle(unit) or self.cp < self.cost_move:
                continue
            d = self.dist_many(unit.sq, targets)
            order = np.lexsort((targets, d))
            best = None
            for i in order[:12].tolist():
                t = int(targets[i])
                if d[i] > 40:
                    break
                if not self.same_island(unit.sq, t):
                    continue
                near = self.approach_square(unit, t)
                if near is None or claimed.get(near, 0) >= 3:
                    continue
                best = near
                break
            if best is not None and best != unit.sq and self.move(unit, best):
                claimed[best] = claimed.get(best, 0) + 1

    def transports(self) -> None:
        overseas = self.overseas_targets()
        for ship in self.own:
            if ship.type != "transport" or ship.id in self.busy:
                continue
            cargo = [u for u in self.own if u.carried_by == ship.id]
            if not cargo:
                if ship.sq in self.my_cities and overseas:
                    room = self.rules.unit["transport"].capacity
                    here = [u for u in self.land_units() if u.sq == ship.sq and self.idle(u)][:room]
                    if len(here) >= 2:
                        ids = [u.id for u in here]
                        self.issue(cmd.Board(units=ids, carrier=ship.id), 0, ids)
                    else:
                        self.call_to(ship.sq, room)
                elif ship.order is None and (ship.mobility or 0) >= 1 and self.my_cities:
                    home = min(self.my_cities, key=lambda s: self.dist(ship.sq, s))
                    if self.coastal(home) and home != ship.sq:
                        self.move(ship, home)
                continue
            if not overseas or ship.order is not None:
                continue
            goal = min(overseas, key=lambda t: (self.dist(ship.sq, t), t))
            if self.dist(ship.sq, goal) == 1:
                land = self.approach_square(ship, goal)
                for u in cargo:
                    if u.id in self.busy or (u.mobility or 0) < 1:
                        continue
                    if land is not None:
                        self.move(u, land)
                continue
            dock = self.approach_square(ship, goal, water=True)
            if dock is not None and (ship.mobility or 0) >= 1:
                self.move(ship, dock)

    def call_to(self, sq: int, count: int) -> None:
        idle = sorted(
            (u for u in self.land_units() if self.idle(u) and self.same_island(u.sq, sq)),
            key=lambda u: (self.dist(u.sq, sq), u.id),
        )
        for unit in idle[: max(0, count)]:
            if unit.sq != sq:
                self.move(unit, sq)

    def scout(self) -> None:
        unknown = None
        unknown_by_land = None
        for unit in self.own:
            ut = self.rules.unit[unit.type]
            scouting = unit.type == "zeppelin" or (
                ut.unit_class == UnitClass.LAND and ut.attack and self.idle(unit)
            )
            if not scouting or not self.idle(unit) or self.cp < self.cost_move:
                continue
            if ut.needs_fuel and unit.fuel is not None and unit.fuel < ut.full_fuel // 2:
                if self.my_cities:
                    home = min(self.my_cities, key=lambda s: self.dist(unit.sq, s))
                    if home != unit.sq:
                        self.move(unit, home)
                continue
            if unknown is None:
                unknown = np.flatnonzero(self.view.terrain == NEVER_SEEN)
                near_land = np.zeros(len(self.view.terrain), dtype=bool)
                grid = (self.view.terrain == LAND).reshape(self.h, self.w)
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        near_land |= np.roll(np.roll(grid, dy, 0), dx, 1).reshape(-1)
                unknown_by_land = unknown[near_land[unknown]]
                if unknown.size == 0:
                    return
            pool = unknown_by_land if ut.moves_on == MovesOn.LAND else unknown
            if pool.size == 0:
                continue
            reach = max(1, (unit.fuel or 0) // 2) if ut.needs_fuel else 30
            d = self.dist_many(unit.sq, pool)
            ok = np.flatnonzero(d <= reach)
            if ok.size == 0:
                continue
            # the nearest few, one of them at random (scouts spread out)
            nearest = ok[np.argsort(d[ok], kind="stable")[:8]]
            goal = int(pool[self.rng.choice(nearest.tolist())])
            if ut.moves_on == MovesOn.LAND:
                land_n = [n for n in self.neighbours(goal) if self.terrain(n) == LAND]
                if not land_n:
                    continue
                goal = min(land_n, key=lambda n: (self.dist(unit.sq, n), n))
            self.move(unit, goal)


def decide(view: View, memory: Memory, style: str = "normal") -> Decision:
    if style not in STYLES:
        raise ValueError(f"an AI style is one of {', '.join(STYLES)}")
    return Planner(view, memory, style, load_rules(view.ruleset)).plan()


def failed(memory: Memory, command: cmd.Command, tick: int, width: int) -> None:
    """Remember a rejected move so it is not tried again for a day."""
    if isinstance(command, cmd.Move):
        x, y = command.to
        for uid in command.units:
            memory.sent.pop(uid, None)
            memory.failed[(uid, y * width + x)] = tick
