"""An AI nation's decisions: from its View (what a human would see) to engine commands.

`decide(view, memory, style)` is pure given its inputs (its dice are seeded from the view's
tick and nation). It never reads the world: it knows only what its nation may know.

The policy, in the order commands are issued (command points are spent on what matters most):
1. Diplomacy: answer war with war; accept an alliance when allied-free and the proposer is not
   its target; offer one to the strongest other nation it knows. Once the neutral cities it
   knows are nearly gone (or from day 4), and unless it is ahead of everyone it knows put
   together, it picks the weakest nation whose cities it knows, moves its army next to those
   cities while still at peace, and declares war once enough units stand ready (or after half
   a day), so the first blow falls on many cities at once.
2. Garrisons: one land unit per city, up to three where hostile land units stand near, two in
   cities close to an enemy city; they stay, and only fight from the city.
3. Fight: aircraft and warships strike first (cities its land units stand next to, bombers
   the biggest stack, warships as often as their ammunition allows); then everything next to
   a hostile square attacks it in one command, so land units walk into a city the moment its
   garrison is down. A garrisoned city is assaulted only when the attack is expected to clear
   it (or four units stand ready); an empty enemy or neutral city is simply taken.
4. Cities: designate and build by need (infantry and tanks in forts, transports as many as the
   units waiting for a ship need, battleships once it prepares war, fighters and heavy bombers
   in an airport, engineers and research in the tech centre), never wasting progress.
5. Engineers found cities on open land near home: idle command points become cities.
6. Expand: idle land units go next to the nearest city to take on their island (a few per
   neutral city, more per enemy city), working out islands from the known map.
7. Across the water: transports take idle units aboard in port or off a beach, sail to a
   landing next to an overseas target they can reach, and put their cargo ashore (or take an
   empty city straight from the ship).
8. Scout: zeppelins and idle units head for the nearest squares never seen (land units only
   where they can walk).

Styles: `normal` (orders every second game hour); `easy` (the same, but orders only every third
game hour, founds no cities and makes no alliances); `caretaker` (defence first, every hour:
builds, garrisons, fights back, starts no war, sends nobody abroad); `expand` (the naive expander the AI is measured against: infantry and
transports only, one port, loads in port only, never starts a war); `passive` (no orders).
"""

from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass, field

import numpy as np

from .. import commands as cmd
from ..geometry import Grid
from ..rules import Ruleset
from ..rules import load as load_rules
from ..rules.models import MovesOn, UnitClass, UnitType
from ..supply import dilate
from ..view import NEVER_SEEN, CityView, UnitView, View

WATER, LAND = 1, 2  # in View.terrain (1 + the world's terrain codes)
STYLES = ("normal", "easy", "caretaker", "expand", "passive")
LEVELS = ("easy", "normal")  # the difficulty a moderator picks for an AI nation (a style)
# Game hours between two decisions of a style. An hour is four ticks: a unit on a standing
# order walks on meanwhile, and deciding every second hour halves what the AI costs.
EVERY_HOURS = {"normal": 2, "easy": 3, "caretaker": 1, "expand": 1, "passive": 1}


@dataclass
class Memory:
    """What one AI nation carries from one decision to the next."""

    failed: dict[tuple[int, int], int] = field(default_factory=dict)  # (unit, goal) -> tick
    target: str | None = None  # the nation it makes (or prepares) war on
    staging_since: int = 0  # tick it chose that target
    sent: dict[int, int] = field(default_factory=dict)  # unit -> goal square it was sent to
    islands: tuple[int, list[int]] | None = None  # (tick, island label per square)
    voyages: dict[int, int] = field(default_factory=dict)  # transport -> overseas city square
    loading: dict[int, int] = field(default_factory=dict)  # transport -> tick it began loading
    decided: int | None = None  # the game hour of its last decision


def resting(memory: Memory, style: str, tick: int, ticks_per_hour: int) -> bool:
    """Whether the AI lets this game hour pass without a decision (its style decides every
    `EVERY_HOURS`): callers ask before they build the nation's view."""
    hour = tick // ticks_per_hour
    return memory.decided is not None and 0 <= hour - memory.decided < EVERY_HOURS[style]


@dataclass
class Decision:
    commands: list[cmd.Command]
    notes: list[str]


class Planner:
    def __init__(self, view: View, memory: Memory, style: str, rules: Ruleset) -> None:
        self.view = view
        self.memory = memory
        self.style = style
        # the naive expander: infantry only, one port, transports load in port only
        self.naive = style == "expand"
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
        self.joined = self.merged()
        self._label_grid: np.ndarray | None = None
        self._stranded: int | None = None
        self._shores: dict[tuple[int, ...], np.ndarray] = {}
        self._islands: dict[int, frozenset[int]] = {}
        self._land: list[UnitView] | None = None
        self._near_home: np.ndarray | None = None
        self._sea_steps: dict[tuple[int, int], dict[int, int]] = {}
        self._sea_supply: np.ndarray | None = None
        self._sea_supplied: bytearray | None = None
        self._sea_open: bytearray | None = None
        travelling = {u.id for u in self.own if u.order is not None}
        memory.sent = {u: g for u, g in memory.sent.items() if u in travelling}
        ships = {u.id for u in self.own}
        memory.voyages = {s: g for s, g in memory.voyages.items() if s in ships}
        memory.loading = {s: t for s, t in memory.loading.items() if s in ships}
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

    def sea_steps(
        self, unit: UnitView, limit: int, wanted: set[int] | None = None
    ) -> dict[int, int]:
        """Mobility a ship needs to sail to squares it can reach within `limit`, as its nation
        knows the map (water or never seen, its own cities; not through known foreign units or
        its own other ships), a step costing more out of supply: the engine's rule. With
        `wanted`, the search stops once those squares are settled (the first call for a unit
        decides; later calls read what it found)."""
        cached = self._sea_steps.get((unit.id, limit))
        if cached is not None:
            return cached
        todo = set(wanted) if wanted is not None else None
        supplied = self._sea_supplied_bytes()
        open_ = self.sea_open()
        table = self.table
        dear = self.rules.supply.out_of_supply_step_cost
        best = {unit.sq: 0}
        heap = [(0, unit.sq)]
        while heap:
            cost, sq = heapq.heappop(heap)
            if cost > best.get(sq, limit + 1):
                continue
            if todo is not None:
                todo.discard(sq)
                if not todo:
                    break
            step = cost + (1 if supplied[sq] else dear)
            if step > limit:
                continue
            for n in table[sq]:
                if open_[n] and step < best.get(n, limit + 1):
                    best[n] = step
                    heapq.heappush(heap, (step, n))
        self._sea_steps[(unit.id, limit)] = best
        return best

    def sea_open(self) -> bytearray:
        """Per square, 1 where a ship may sail as its nation knows the map: water or never
        seen, or its own city; not where a foreign unit or a ship of its own is."""
        if self._sea_open is None:
            view = self.view
            me = view.nation
            terrain = view.terrain
            ok = (terrain == NEVER_SEEN) | (terrain == WATER)
            for sq, city in view.cities.items():
                ok[sq] = city.owner == me
            for sq, units in self.units_at.items():
                if sq not in view.cities and any(
                    u.owner != me or self.rules.unit[u.type].unit_class == UnitClass.SEA
                    for u in units
                ):
                    ok[sq] = False  # a foreign unit, or a ship of its own (one a sea square)
            self._sea_open = bytearray(ok.astype(np.uint8).tobytes())
        return self._sea_open

    def _sea_supplied_bytes(self) -> bytearray:
        if self._sea_supplied is None:
            self._sea_supplied = bytearray(self.sea_supply().astype(np.uint8).tobytes())
        return self._sea_supplied

    def sea_supply(self) -> np.ndarray:
        """Squares where its ships are in supply: near its ports and bases, and its supply
        ships with ammunition (its own map: the view shows all of these)."""
        if self._sea_supply is None:
            mask = np.zeros(self.w * self.h, dtype=bool)
            for sq, city in self.my_cities.items():
                if self.rules.city[city.designation].supplies_sea:
                    mask[sq] = True
            for u in self.own:
                ut = self.rules.unit[u.type]
                if ut.supplies_sea and (u.ammo or 0) >= 1:
                    mask[u.sq] = True
            radius = self.rules.supply.radius
            self._sea_supply = dilate(mask.reshape(self.h, self.w), radius).reshape(-1)
        return self._sea_supply

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
        self.diplomacy()
        self.hold()
        self.fight()
        self.cities()
        self.garrison()
        if self.style != "caretaker":
            if self.style == "normal":
                self.found_cities()
            self.expand()
            self.transports()
            self.scout()
        return Decision(self.out, self.notes)

    def hostile_units(self) -> list[UnitView]:
        return [u for u in self.view.units if u.owner in self.at_war and u.seen == "now"]

    def at_sea(self, sq: int) -> bool:
        return self.terrain(sq) == WATER and sq not in self.view.cities

    def can_hit(self, unit: UnitView, target: UnitView) -> bool:
        """The engine's targeting rule, from what the view shows."""
        ut = self.rules.unit[unit.type]
        dt = self.rules.unit[target.type]
        if (unit.ammo or 0) < 1 or not (ut.attack or self.bombs(ut)):
            return False
        sea = self.at_sea(target.sq)
        if ut.unit_class == UnitClass.LAND:
            return ut.can_attack_sea if sea else True
        if ut.unit_class == UnitClass.SEA:
            if sea:
                return dt.unit_class != UnitClass.AIR
            if target.sq in self.view.cities:
                return self.coastal(target.sq)
            return ut.can_attack_land
        if ut.unit_class == UnitClass.AIR:
            if not sea:
                return True
            if dt.unit_class == UnitClass.AIR:
                return bool(ut.attack)
            return ut.can_attack_sea
        return False

    def bombs(self, ut: UnitType) -> bool:
        """Bombers worth sending against defenders (not the scouts' token bombs)."""
        return (ut.bomb_percent or 0) >= 25

    def expected_damage(self, unit: UnitView, city: CityView | None) -> float:
        """The mean of the engine's roll (from the ruleset's fraction of the attack value up to
        all of it), divided as a fortified city divides it."""
        combat = self.rules.combat
        attack = self.rules.unit[unit.type].attack or 0
        value = (
            (max(1, math.ceil(attack * combat.damage_min_fraction)) + attack) / 2 if attack else 0.0
        )
        if city is not None and self.rules.city[city.designation].halves_damage_to:
            value /= combat.fort_divisor
        return value

    def fight(self) -> None:
        """Every square with hostile units or an empty city to take, next to own units, is
        attacked by all of them at once (one command: the survivors of a garrison are hit
        again at once and the first land unit left walks in). A garrisoned city is only
        assaulted when the group is expected to clear it, or it cannot wait."""
        view = self.view
        hostile = self.hostile_units()
        by_square: dict[int, list[UnitView]] = {}
        for u in hostile:
            if u.carried_by is None:
                by_square.setdefault(u.sq, []).append(u)
        squares = set(by_square)
        for sq, city in view.cities.items():
            if city.seen != "now" or city.owner == view.nation:
                continue
            if city.owner is not None and city.owner not in self.at_war:
                continue
            if not any(u.owner != view.nation for u in self.units_at.get(sq, [])):
                squares.add(sq)
        ready = [
            u
            for u in self.own
            if (u.mobility or 0) >= 1 and self.rules.unit[u.type].moves_on != MovesOn.NONE
        ]
        near: dict[int, list[UnitView]] = {}
        for unit in ready:
            for sq in self.neighbours(unit.sq):
                if sq in squares:
                    near.setdefault(sq, []).append(unit)

        struck = self.strikes(hostile, by_square, near)

        def priority(sq: int) -> tuple[int, float, int]:
            defenders = by_square.get(sq, [])
            return (0 if sq in view.cities else 1, sum(d.hp or 1 for d in defenders), sq)

        for sq in sorted(near, key=priority):
            defenders = by_square.get(sq, [])
            city = view.cities.get(sq)
            land = [
                u
                for u in near[sq]
                if u.id not in self.busy
                and u.id not in self.garrisons
                and self.rules.unit[u.type].unit_class == UnitClass.LAND
            ]
            if not defenders:
                if (
                    city is not None
                    and land
                    and self.issue(
                        cmd.Attack(units=[land[0].id], target=self.xy(sq)),
                        self.cost_capture,
                        [land[0].id],
                    )
                ):
                    self.notes.append(f"unit {land[0].id} takes the city at {view.label(sq)}")
                continue
            group = [
                u
                for u in near[sq]
                if u.id not in self.busy
                and u.carried_by is None
                and not (city is not None and u.id in self.garrisons)  # they would walk in
                and any(self.can_hit(u, d) for d in defenders)
            ]
            if not group:
                continue
            if city is not None and self.style != "caretaker":
                strength = struck.get(sq, 0.0)
                strength += sum(self.expected_damage(u, city) for u in group)
                hp = sum(d.hp or self.rules.unit[d.type].hp for d in defenders)
                if strength < 0.8 * hp and len(group) < 4:
                    continue  # wait for more
            ids = [u.id for u in group]  # land units among them walk in once it is empty
            if self.issue(cmd.Attack(units=ids, target=self.xy(sq)), self.cost_attack, ids):
                self.notes.append(f"{len(ids)} units attack {view.label(sq)}")

    def strikes(
        self,
        hostile: list[UnitView],
        by_square: dict[int, list[UnitView]],
        near: dict[int, list[UnitView]],
    ) -> dict[int, float]:
        """Aircraft and warships strike what they can reach and still come home from, before
        the land units attack: first cities its land units stand next to (so they can walk in
        once the garrison is down), bombers the biggest stack, the others the nearest target.
        A warship fires as often as its ammunition allows. Returns the damage it expects to
        have done per square."""
        done: dict[int, float] = {}
        assault = {
            sq
            for sq, units in near.items()
            if sq in self.view.cities
            and any(self.rules.unit[u.type].unit_class == UnitClass.LAND for u in units)
        }
        for unit in self.own:
            ut = self.rules.unit[unit.type]
            if unit.id in self.busy or unit.carried_by is not None:
                continue
            if ut.unit_class not in (UnitClass.AIR, UnitClass.SEA) or (unit.ammo or 0) < 1:
                continue
            if not (ut.attack or self.bombs(ut)):
                continue
            reach = unit.mobility or 0
            if ut.needs_fuel:
                reach = min(reach, (unit.fuel or 0) // 2)
            if reach < 1:
                continue
            options = [
                t
                for t in hostile
                if t.carried_by is None
                and self.can_hit(unit, t)
                and 1 <= self.dist(unit.sq, t.sq) <= reach
            ]
            if options and ut.unit_class == UnitClass.SEA:
                # a ship sails round land: keep what it can reach by water, as it knows the map
                wanted = {n for t in options for n in self.neighbours(t.sq)}
                steps = self.sea_steps(unit, reach - 1, wanted)
                options = [
                    t
                    for t in options
                    if self.dist(unit.sq, t.sq) == 1
                    or any(steps.get(n, reach) <= reach - 1 for n in self.neighbours(t.sq))
                ]
            if not options:
                continue
            left = {
                sq: sum(d.hp or self.rules.unit[d.type].hp for d in by_square.get(sq, []))
                - done.get(sq, 0.0)
                for sq in {t.sq for t in options}
            }
            squares = [sq for sq in sorted(left) if left[sq] > 0] or sorted(left)
            if self.bombs(ut):
                goal = max(squares, key=lambda sq: (sq in assault, len(by_square.get(sq, []))))
            else:
                goal = min(squares, key=lambda sq: (sq not in assault, self.dist(unit.sq, sq), sq))
            city = self.view.cities.get(goal)
            shots = 1 if ut.needs_fuel else max(1, min(unit.ammo or 1, reach))
            if ut.unit_class == UnitClass.SEA:
                # the engine asks for the way next to the target plus 1 before each shot, and
                # each shot then costs 1 (2 out of supply) where the ship stands
                steps = self.sea_steps(unit, reach - 1)
                stand, way = unit.sq, 0
                if self.dist(unit.sq, goal) > 1:
                    way, stand = min(
                        ((steps[n], n) for n in self.neighbours(goal) if n in steps),
                        default=(reach, unit.sq),
                    )
                per_shot = (
                    1 if self.sea_supply()[stand] else self.rules.supply.out_of_supply_step_cost
                )
                shots = max(1, min(shots, -(-(reach - way) // per_shot)))
            for _ in range(shots):
                if not self.issue(
                    cmd.Attack(units=[unit.id], target=self.xy(goal)),
                    self.cost_attack,
                    [unit.id],
                ):
                    break
                done[goal] = done.get(goal, 0.0) + self.expected_damage(unit, city)
                if done[goal] >= left.get(goal, 0):
                    break
        return done

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
        self.prepare_war(day)

    def prepare_war(self, day: int) -> None:
        """Expand first. Then choose the weakest nation whose cities it knows (nearest first),
        move the army next to its cities while still at peace, and declare war once enough
        units stand ready there (or half a day has passed): the first blow falls on many
        cities at once."""
        view, memory = self.view, self.memory
        neutral_left = sum(1 for c in view.cities.values() if c.owner is None)
        if day < 2 or (neutral_left > 2 and day < 4):
            memory.target = None
            return
        known: dict[str, list[int]] = {}
        for c in view.cities.values():
            if c.owner and c.owner != view.nation:
                rel = view.nations.get(c.owner)
                if rel is not None and rel.relation_to != "allied" and not rel.out:
                    known.setdefault(c.owner, []).append(c.sq)
        if not known:
            memory.target = None
            return
        if memory.target not in known:
            home = sorted(self.my_cities)

            def weakness(item: tuple[str, list[int]]) -> tuple[int, int]:
                _, squares = item
                near = min(self.dist(h, s) for h in home[:3] for s in squares) if home else 0
                return (len(squares), near)

            memory.target = min(sorted(known.items()), key=weakness)[0]
            memory.staging_since = view.tick
            self.notes.append(f"prepares war on {view.nations[memory.target].name}")
        cities = known[memory.target]
        if len(self.my_cities) > sum(len(v) for v in known.values()):
            return  # ahead of everyone it knows of put together: a war would only risk that
        ready = 0
        for u in self.land_units():
            if u.carried_by is None and any(self.dist(u.sq, c) == 1 for c in cities):
                ready += 1
        waited = view.tick - memory.staging_since
        if ready >= max(4, min(12, 2 * len(cities))) or waited >= self.rules.ticks_per_day // 2:
            self.issue(cmd.SetRelation(other=memory.target, level=self.war))
            self.at_war.add(memory.target)
            self.notes.append(
                f"declares war on {view.nations[memory.target].name} ({ready} units ready)"
            )

    # --- cities ------------------------------------------------------------------------------

    def buildable(self, name: str) -> bool:
        ut = self.rules.unit.get(name)
        return ut is not None and ut.tech <= self.view.status.tech + 1e-9

    def want_for(self, designation: str, coastal: bool) -> str | None:
        tech = self.view.status.tech
        if designation == "fort":
            if not self.naive and self.buildable("tank") and self.rng.random() < 0.6:
                return "tank"
            return "infantry"
        if designation == "port":
            transports = sum(1 for u in self.own if u.type == "transport")
            room = max(1, self.rules.unit["transport"].capacity)
            wanted = 1 + min(self.stranded() // room, 2 + len(self.my_cities) // 3)
            if self.naive:
                wanted = 1 + len(self.my_cities) // 4
            warships = sum(1 for u in self.own if u.type in ("battleship", "destroyer"))
            fighting = self.style == "normal" and (self.at_war or self.memory.target)
            if fighting and self.buildable("battleship") and warships <= transports // 2:
                return "battleship"
            if transports < wanted or self.naive:
                return "transport"
            for name in ("battleship", "destroyer", "patrol_boat"):
                if self.buildable(name):
                    return name
            return "transport"
        if designation == "airport":
            if self.style == "normal" and self.buildable("heavy_bomber"):
                bombers = sum(1 for u in self.own if u.type == "heavy_bomber")
                fighters = sum(1 for u in self.own if u.type == "fighter")
                if bombers <= fighters:
                    return "heavy_bomber"
            return "fighter" if self.buildable("fighter") else None
        if designation == "tech":
            founders = [n for n, ut in self.rules.unit.items() if ut.builds_cities]
            if not self.naive and founders and self.buildable(founders[0]):
                have = sum(1 for u in self.own if u.type in founders)
                if have < min(3, 1 + len(self.my_cities) // 8):
                    return founders[0]
            scouts = sum(1 for u in self.own if u.type == "zeppelin")
            if tech < 2 and self.buildable("zeppelin") and scouts < 2:
                return "zeppelin"
            if self.buildable("research"):
                return "research"
            return None
        return None

    def stranded(self) -> int:
        """Idle land units with nothing to take on their own island (they need a ship)."""
        if self._stranded is None:
            ashore: dict[int, set[int]] = {}
            reachable: set[int] = set()
            for t in self.targets():
                reachable |= self.islands_of(t)
            count = 0
            for u in self.land_units():
                if not self.idle(u):
                    continue
                isl = ashore.setdefault(u.sq, self.islands_of(u.sq))
                if not isl & reachable:
                    count += 1
            self._stranded = count
        return self._stranded

    def coastal(self, sq: int) -> bool:
        return any(self.terrain(n) == WATER for n in self.neighbours(sq))

    def cities(self) -> None:
        rules = self.rules
        cities = sorted(self.my_cities.values(), key=lambda c: c.sq)
        overseas = self.overseas_targets()
        designations = [c.designation for c in cities]
        room = max(1, self.rules.unit["transport"].capacity)
        ports_wanted = 0
        if overseas:
            ports_wanted = 1
            if not self.naive and self.stranded() > 2 * room:
                ports_wanted += len(cities) // 6
        for i, city in enumerate(cities):
            ct = rules.city[city.designation]
            coastal = self.coastal(city.sq)
            new = None
            if not ct.builds_units or not ct.designatable:
                new = "fort"
            if (
                overseas
                and coastal
                and designations.count("port") < ports_wanted
                and city.designation not in ("tech", "port", "airport")
                and (i > 0 or len(cities) == 1 or city.designation != "fort")
            ):
                new = "port"
            if (
                not self.naive
                and self.buildable("fighter")
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
        """Own land units that fight (not engineers)."""
        if self._land is None:
            self._land = [
                u
                for u in self.own
                if self.rules.unit[u.type].unit_class == UnitClass.LAND
                and self.rules.unit[u.type].attack
            ]
        return self._land

    def hold(self) -> None:
        """Choose each city's garrison: one land unit, more at war where hostile land units
        stand near or an enemy city is close. They stay (and only fight from the city)."""
        self.garrisons: set[int] = set()
        self.shortfall: dict[int, int] = {}
        threats: list[int] = []
        enemy_cities: list[int] = []
        if self.at_war:
            threats = [
                u.sq
                for u in self.hostile_units()
                if self.rules.unit[u.type].unit_class == UnitClass.LAND and u.carried_by is None
            ]
            enemy_cities = [c.sq for c in self.view.cities.values() if c.owner in self.at_war]
        ashore: dict[int, list[UnitView]] = {}
        for u in self.land_units():
            if u.carried_by is None and u.sq in self.my_cities:
                ashore.setdefault(u.sq, []).append(u)
        threat_sq = np.array(threats, dtype=np.int64)
        enemy_sq = np.array(enemy_cities, dtype=np.int64)
        for sq in sorted(self.my_cities):
            need = 1
            if threats:
                near = int((self.dist_many(sq, threat_sq) <= 2).sum())
                need += min(2, near)
            if need == 1 and enemy_sq.size and int(self.dist_many(sq, enemy_sq).min()) <= 6:
                need = 2
            here = sorted(ashore.get(sq, []), key=lambda u: (-(u.hp or 0), u.id))
            self.garrisons.update(u.id for u in here[:need])
            if len(here) < need:
                self.shortfall[sq] = need - len(here)

    def garrison(self) -> None:
        """Garrisons stay; a city short of its garrison calls the nearest idle land units."""
        self.busy.update(self.garrisons)
        for sq, missing in sorted(self.shortfall.items()):
            coming = sum(1 for g in self.memory.sent.values() if g == sq)
            if missing <= coming:
                continue
            idle = sorted(
                (
                    u
                    for u in self.land_units()
                    if self.idle(u) and self.dist(u.sq, sq) <= 12 and self.same_island(u.sq, sq)
                ),
                key=lambda u: (self.dist(u.sq, sq), u.id),
            )
            for unit in idle[: missing - coming]:
                self.move(unit, sq)

    def move(self, unit: UnitView, goal: int) -> bool:
        key = (unit.id, goal)
        if self.memory.failed.get(key, -(10**9)) > self.view.tick - self.rules.ticks_per_day:
            return False
        if any(u.owner != self.view.nation for u in self.units_at.get(goal, ())):
            return False  # the engine refuses a move onto a known foreign unit
        if self.issue(cmd.Move(units=[unit.id], to=self.xy(goal)), self.cost_move, [unit.id]):
            self.memory.sent[unit.id] = goal
            return True
        return False

    def targets(self) -> list[int]:
        """Cities to take: neutral ones, then the enemies' (and the one it prepares war on),
        as last known."""
        view = self.view
        enemies = self.at_war | ({self.memory.target} if self.memory.target else set())
        return sorted(c.sq for c in view.cities.values() if c.owner is None or c.owner in enemies)

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
        """Each land square's island on the known map (-1: water, unknown, or a city). Cities
        are left out because a land unit cannot walk through a city that is not its own; its
        own cities join the islands around them (`merged`). The map changes slowly (land seen
        for the first time, a new city), so this is worked out again every four game hours."""
        cached = self.memory.islands
        if cached is not None and self.view.tick - cached[0] < 4 * self.rules.ticks_per_hour:
            return cached[1]
        land = (self.view.terrain == LAND).reshape(-1).copy()
        land[sorted(self.view.cities)] = False
        labels = self.components(land)
        self.memory.islands = (self.view.tick, labels)
        return labels

    def components(self, land: np.ndarray) -> list[int]:
        """Connected components (8 neighbours, on the torus) of a flat bool mask, labelled
        0, 1, ... (-1 outside): each square takes the smallest index around it, with pointer
        jumping, until nothing changes."""
        n = self.w * self.h
        big = np.int64(n)
        lab = np.where(land, np.arange(n, dtype=np.int64), big).reshape(self.h, self.w)
        mask = land.reshape(self.h, self.w)
        h, w = self.h, self.w
        while True:
            wrapped = np.pad(lab, 1, mode="wrap")  # the torus: each neighbour is a slice
            low = lab.copy()
            for dy in (0, 1, 2):
                for dx in (0, 1, 2):
                    if dy != 1 or dx != 1:
                        np.minimum(low, wrapped[dy : dy + h, dx : dx + w], out=low)
            low[~mask] = big
            flat = low.reshape(-1)
            inside = flat < big
            flat[inside] = flat[flat[inside]]
            if np.array_equal(low, lab):
                break
            lab = low
        flat = lab.reshape(-1)
        out = np.full(n, -1, dtype=np.int64)
        inside = flat < big
        if inside.any():
            _, order = np.unique(flat[inside], return_inverse=True)
            out[inside] = order
        return out.tolist()

    def merged(self) -> dict[int, int]:
        """Island label -> the label it is joined to through the nation's own cities."""
        parent: dict[int, int] = {}

        def find(x: int) -> int:
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        for sq in sorted(self.my_cities):
            around = sorted({self.labels[n] for n in self.neighbours(sq) if self.labels[n] >= 0})
            for other in around[1:]:
                a, b = find(around[0]), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
        return {x: find(x) for x in parent}

    def shore_of(self, sq: int) -> np.ndarray:
        """Flat bool mask: the squares of the islands a square belongs to, and their
        neighbours (cached per decision)."""
        key = tuple(sorted(self.islands_of(sq)))
        mask = self._shores.get(key)
        if mask is None:
            if self._label_grid is None:
                raw = np.asarray(self.labels, dtype=np.int32)
                for x, root in self.joined.items():
                    raw[raw == x] = root
                self._label_grid = raw.reshape(self.h, self.w)
            mask = dilate(np.isin(self._label_grid, key), 1).reshape(-1)
            self._shores[key] = mask
        return mask

    def islands_of(self, sq: int) -> frozenset[int]:
        """The islands a square belongs to or (a city, a ship) lies next to."""
        found = self._islands.get(sq)
        if found is None:
            labels, joined = self.labels, self.joined
            own = labels[sq]
            if own >= 0:
                found = frozenset((joined.get(own, own),))
            else:
                found = frozenset(
                    joined.get(labels[n], labels[n]) for n in self.neighbours(sq) if labels[n] >= 0
                )
            self._islands[sq] = found
        return found

    def same_island(self, a: int, b: int) -> bool:
        """Whether a land unit could walk from one square to (or next to) the other over
        known land."""
        if a == b:
            return True
        return bool(self.islands_of(a) & self.islands_of(b))

    def overseas_targets(self) -> list[int]:
        """Targets on no island where it has a city or a land unit ashore."""
        ashore: set[int] = set()
        for sq in self.my_cities:
            ashore |= self.islands_of(sq)
        for u in self.land_units():
            if u.carried_by is None:
                ashore |= self.islands_of(u.sq)
        return [t for t in self.targets() if not (self.islands_of(t) & ashore)]

    def expand(self) -> None:
        """Idle land units go next to the nearest city to take on their island: a few per
        neutral city, more per enemy city (an assault needs numbers)."""
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
            if (d == 1).any():
                continue  # in place already
            order = np.lexsort((targets, d))
            best = None
            for i in order[:12].tolist():
                t = int(targets[i])
                if d[i] > 40:
                    break
                if not self.same_island(unit.sq, t):
                    continue
                near = self.approach_square(unit, t)
                cap = 3 if self.view.cities[t].owner is None else 6
                if near is None or claimed.get(near, 0) >= cap:
                    continue
                best = near
                break
            if best is not None and best != unit.sq and self.move(unit, best):
                claimed[best] = claimed.get(best, 0) + 1

    def transports(self) -> None:
        overseas = self.overseas_targets()
        claimed = {g for ship, g in self.memory.voyages.items() if g in overseas}
        for ship in self.own:
            if ship.type != "transport" or ship.id in self.busy:
                continue
            room = self.rules.unit[ship.type].capacity
            cargo = [u for u in self.own if u.carried_by == ship.id]
            boarded = self.load(ship, room - len(cargo)) if overseas else 0
            if not cargo and not boarded:
                self.memory.loading.pop(ship.id, None)
                if overseas:
                    self.pick_up(ship)
                continue
            since = self.memory.loading.setdefault(ship.id, self.view.tick)
            near = {ship.sq, *self.neighbours(ship.sq)}
            coming = sum(1 for g in self.memory.sent.values() if g in near)
            full = len(cargo) + boarded >= room
            if not full and coming and self.view.tick - since < 6 * self.rules.ticks_per_hour:
                continue  # more are on their way
            self.sail(ship, cargo, overseas, claimed)

    def load(self, ship: UnitView, room: int) -> int:
        """Idle land units on the transport's square (in port) or next to it (at sea) board."""
        if room <= 0 or ship.order is not None:
            return 0
        if ship.sq in self.my_cities:
            here = [u for u in self.land_units() if u.sq == ship.sq and self.idle(u)][:room]
            if here:
                ids = [u.id for u in here]
                self.issue(cmd.Board(units=ids, carrier=ship.id), 0, ids)
            return len(here)
        boarded = 0
        if self.naive:
            return 0  # boards in port only
        for u in self.land_units():
            if boarded >= room or not self.idle(u) or self.dist(u.sq, ship.sq) != 1:
                continue
            if self.move(u, ship.sq):
                boarded += 1
        return boarded

    def pick_up(self, ship: UnitView) -> None:
        """An empty transport calls idle land units to its port, or sails to the port or the
        beach nearest to idle land units."""
        room = self.rules.unit[ship.type].capacity
        idle = [u for u in self.land_units() if self.idle(u)]
        if not idle:
            return
        if ship.sq in self.my_cities:
            self.call_to(ship.sq, room)
            return
        if ship.order is not None or (ship.mobility or 0) < 1:
            return
        ports = [
            sq
            for sq, c in self.my_cities.items()
            if self.rules.city[c.designation].ship_passage and self.coastal(sq)
        ]
        spots: list[tuple[int, int, int]] = []
        if self.naive:  # back to the nearest port
            spots = [(self.dist(ship.sq, sq), sq, -1) for sq in ports]
            idle = []
        for sq in ports:
            near = sum(1 for u in idle if self.same_island(u.sq, sq))
            if near:
                spots.append((self.dist(ship.sq, sq) - 3 * min(near, room), sq, -1))
        if idle:
            beach_unit = min(idle, key=lambda u: (self.dist(ship.sq, u.sq), u.id))
            for n in self.neighbours(beach_unit.sq):
                if self.at_sea(n) and not self.units_at.get(n):
                    spots.append((self.dist(ship.sq, n), n, beach_unit.sq))
        for _, sq, shore in sorted(spots)[:3]:
            if self.move(ship, sq):
                if shore >= 0:
                    self.call_to(shore, room - 1)
                return

    def sail(
        self, ship: UnitView, cargo: list[UnitView], overseas: list[int], claimed: set[int]
    ) -> None:
        """A loaded transport sails next to its overseas target and lands its cargo there."""
        if not overseas or ship.order is not None:
            return
        goal = self.memory.voyages.get(ship.id)
        if goal not in overseas:
            free = [t for t in overseas if t not in claimed] or overseas
            goal = min(free, key=lambda t: (self.dist(ship.sq, t), t))
            self.memory.voyages[ship.id] = goal
            claimed.add(goal)
        if self.dist(ship.sq, goal) <= 2:
            # ashore next to the target (a cargo unit next to an empty city took it already)
            shore = [
                n
                for n in self.neighbours(ship.sq)
                if self.terrain(n) == LAND
                and n not in self.view.cities
                and self.islands_of(n) & self.islands_of(goal)
            ]
            if shore:
                land = min(shore, key=lambda n: (self.dist(n, goal), n))
                for u in cargo:
                    if u.id not in self.busy and (u.mobility or 0) >= 1:
                        self.move(u, land)
                return
        if (ship.mobility or 0) < 1:
            return
        for dock in self.docks(ship, goal):
            if self.move(ship, dock):
                return
        self.memory.voyages.pop(ship.id, None)  # no way there for now: another target next time

    def docks(self, ship: UnitView, goal: int) -> list[int]:
        """Water squares a transport may lie at to land units next to a city: next to the city,
        or next to a land square next to it; nearest the ship first."""
        near = set()
        for n in self.neighbours(goal):
            if self.terrain(n) == WATER and n not in self.view.cities:
                near.add(n)
            elif self.terrain(n) == LAND and n not in self.view.cities:
                near.update(
                    m
                    for m in self.neighbours(n)
                    if self.terrain(m) == WATER and m not in self.view.cities
                )
        return sorted(near, key=lambda d: (self.dist(goal, d) > 1, self.dist(ship.sq, d), d))[:4]

    def call_to(self, sq: int, count: int) -> None:
        idle = sorted(
            (u for u in self.land_units() if self.idle(u) and self.same_island(u.sq, sq)),
            key=lambda u: (self.dist(u.sq, sq), u.id),
        )
        for unit in idle[: max(0, count)]:
            if unit.sq != sq:
                self.move(unit, sq)

    def city_sites(self) -> np.ndarray:
        """Known land squares where a new city would stand apart: nothing known within two
        squares of it is a city, and no foreign unit is seen on it."""
        grid = (self.view.terrain == LAND).reshape(self.h, self.w)
        cities = np.zeros(self.w * self.h, dtype=bool)
        cities[list(self.view.cities)] = True
        ok = (grid & ~dilate(cities.reshape(self.h, self.w), 2)).reshape(-1)
        for u in self.view.units:
            if u.owner != self.view.nation:
                ok[u.sq] = False
        return np.flatnonzero(ok)

    def near_home(self) -> np.ndarray:
        """Flat bool mask: squares within 6 of an own city (worked out once per decision)."""
        if self._near_home is None:
            home = np.zeros(self.w * self.h, dtype=bool)
            home[list(self.my_cities)] = True
            self._near_home = dilate(home.reshape(self.h, self.w), 6).reshape(-1)
        return self._near_home

    def found_cities(self) -> None:
        """Engineers found cities on open land near home: command points turned into cities
        (a city counts at the end like any other)."""
        cost = self.rules.command_points.costs.build_city
        need = self.rules.engineer.build_city_mobility
        sites: np.ndarray | None = None
        for unit in self.own:
            ut = self.rules.unit[unit.type]
            if not ut.builds_cities or unit.id in self.busy or unit.carried_by is not None:
                continue
            if sites is None:
                sites = self.city_sites()
            here = sites.size and bool(np.any(sites == unit.sq))
            if here:
                self.busy.add(unit.id)  # stays until it has the mobility
                if (unit.mobility or 0) >= need and self.cp >= cost:
                    self.issue(cmd.BuildCity(unit=unit.id), cost, [unit.id])
                    self.notes.append(
                        f"engineer {unit.id} founds a city at {self.view.label(unit.sq)}"
                    )
                    sites = sites[sites != unit.sq]
                    # nothing else within two squares of the new city
                    sites = sites[self.dist_many(unit.sq, sites) > 2]
                continue
            if unit.order is not None or sites.size == 0:
                continue
            d = self.dist_many(unit.sq, sites)
            if self.my_cities:
                # near home: an own city no more than 6 squares away
                d = d + np.where(self.near_home()[sites], 0, 100)
            for i in np.argsort(d, kind="stable")[:3].tolist():
                goal = int(sites[i])
                claimed = [g for g in self.memory.sent.values() if self.dist(g, goal) <= 2]
                if claimed and self.memory.sent.get(unit.id) != goal:
                    continue
                if self.move(unit, goal):
                    break

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
                near_land = dilate((self.view.terrain == LAND).reshape(self.h, self.w), 1)
                near_land = near_land.reshape(-1)
                unknown_by_land = unknown[near_land[unknown]]
                if unknown.size == 0:
                    return
            pool = unknown_by_land if ut.moves_on == MovesOn.LAND else unknown
            if ut.moves_on == MovesOn.LAND and pool.size:
                # only what it can walk to: unknown squares next to its own island
                pool = pool[self.shore_of(unit.sq)[pool]]
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
    rules = load_rules(view.ruleset)
    if style == "passive":
        return Decision([], ["passive: no orders"])
    if resting(memory, style, view.tick, rules.ticks_per_hour):
        return Decision([], [f"{style}: resting this hour"])
    memory.decided = view.tick // rules.ticks_per_hour
    return Planner(view, memory, style, rules).plan()


def failed(memory: Memory, command: cmd.Command, tick: int, width: int) -> None:
    """Remember a rejected move so it is not tried again for a day."""
    if isinstance(command, cmd.Move):
        x, y = command.to
        for uid in command.units:
            memory.sent.pop(uid, None)
            memory.failed[(uid, y * width + x)] = tick
