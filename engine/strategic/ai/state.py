"""One decision's working state, shared by the parts of the policy: the view, the memory, the
style's profile, the known map, the command points left, the units given something to do and
the commands issued so far; with the few questions every part asks (which units are idle, which
cities are to be taken) and the one way to issue a command."""

from __future__ import annotations

import random

from engine.strategic import commands as cmd
from engine.strategic.ai.known import KnownMap
from engine.strategic.ai.memory import Memory
from engine.strategic.ai.profile import Profile
from engine.strategic.rules import Ruleset
from engine.strategic.rules.models import UnitClass
from engine.strategic.view import CityView, UnitView, View


class Plan:
    """The state one decision works on. The parts of the policy (`fight`, `war`, `builds`,
    `sealift`, `land`) read it and add to `out`, in the order `brain.plan` calls them."""

    def __init__(self, view: View, memory: Memory, profile: Profile, rules: Ruleset) -> None:
        self.view = view
        self.memory = memory
        self.profile = profile
        self.rules = rules
        self.cp = view.status.cp
        self.rng = random.Random(f"{view.nation}:{view.tick}")
        self.out: list[cmd.Command] = []
        self.notes: list[str] = []
        self.busy: set[int] = set()  # units given something to do this decision
        self.own = view.own_units()
        self.my_cities: dict[int, CityView] = {c.sq: c for c in view.own_cities()}
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
        self.map = KnownMap(view, rules, profile, memory, self.my_cities, self.own, self.units_at)
        self.garrisons: set[int] = set()  # units held in their city (`land.hold`)
        self.shortfall: dict[int, int] = {}  # city square -> land units its garrison lacks
        self._land: list[UnitView] | None = None
        self._stranded: int | None = None
        travelling = {u.id for u in self.own if u.order is not None}
        memory.sent = {u: g for u, g in memory.sent.items() if u in travelling}
        ships = {u.id for u in self.own}
        memory.voyages = {s: g for s, g in memory.voyages.items() if s in ships}
        memory.loading = {s: t for s, t in memory.loading.items() if s in ships}
        self.retry = profile.retry_days * rules.ticks_per_day
        memory.failed = {k: t for k, t in memory.failed.items() if t > view.tick - self.retry}

    # --- spending ----------------------------------------------------------------------------

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

    def move(self, unit: UnitView, goal: int) -> bool:
        key = (unit.id, goal)
        if self.memory.failed.get(key, -(10**9)) > self.view.tick - self.retry:
            return False
        if any(u.owner != self.view.nation for u in self.units_at.get(goal, ())):
            return False  # the engine refuses a move onto a known foreign unit
        if goal in self.view.wastelands:
            return False  # a unit ending a tick in a wasteland dies (ruleset total-war)
        if self.issue(cmd.Move(units=[unit.id], to=self.map.xy(goal)), self.cost_move, [unit.id]):
            self.memory.sent[unit.id] = goal
            return True
        return False

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

    def hostile_units(self) -> list[UnitView]:
        return [u for u in self.view.units if u.owner in self.at_war and u.seen == "now"]

    # --- what there is to take ---------------------------------------------------------------

    def targets(self) -> list[int]:
        """Cities to take: neutral ones, then the enemies' (and the one it prepares war on),
        as last known."""
        view = self.view
        enemies = self.at_war | ({self.memory.target} if self.memory.target else set())
        return sorted(c.sq for c in view.cities.values() if c.owner is None or c.owner in enemies)

    def overseas_targets(self) -> list[int]:
        """Targets on no island where it has a city or a land unit ashore."""
        islands_of = self.map.islands_of
        ashore: set[int] = set()
        for sq in self.my_cities:
            ashore |= islands_of(sq)
        for u in self.land_units():
            if u.carried_by is None:
                ashore |= islands_of(u.sq)
        return [t for t in self.targets() if not (islands_of(t) & ashore)]

    def stranded(self) -> int:
        """Idle land units with nothing to take on their own island (they need a ship),
        counted when first asked in a decision."""
        if self._stranded is None:
            islands_of = self.map.islands_of
            ashore: dict[int, frozenset[int]] = {}
            reachable: set[int] = set()
            for t in self.targets():
                reachable |= islands_of(t)
            count = 0
            for u in self.land_units():
                if not self.idle(u):
                    continue
                isl = ashore.setdefault(u.sq, islands_of(u.sq))
                if not isl & reachable:
                    count += 1
            self._stranded = count
        return self._stranded
