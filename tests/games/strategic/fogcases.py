"""Worlds with secrets, and everything a nation receives, for the fog property over every output
(`tests/games/strategic/bot/test_fog_outputs.py`, issue 12).

A `Case` is two worlds Red (`ME`) cannot tell apart (world B is world A changed only where A's
view of Red shows nothing: hidden units moved, added or removed, hidden cargo, never-seen
terrain, hidden cities, other nations' relations, technology, command points and memories,
hidden numbers of units it sees) and one sequence of steps played in both: Red's orders as
typed into Discord with arguments aimed at what it cannot see, other nations' orders, time
passing, and questions (lists, status, sitrep, autocomplete, the map). Worlds come from a
seeded `random.Random` (`make_case`), often with a scene where a known leak lives (`add_scene`);
the explicit examples in the test file are hand-made.

`compare` plays a case through two runners (one per world) and checks each step:

- **the same outputs**: every reply, error, DM (the events Red is told, as `bot/games/strategic/notices.py`
  words them, and their map markers), list, autocomplete suggestion and the map's input must be
  equal in both worlds while what Red knows is equal: its view, its memory of units it saw on
  the way, and the foreign units it was told of (each checked by the next rule). A step after
  which Red knows something different has shown it something by the rules (its unit walked
  into the unknown and bumped into a hidden unit, its ship sank a submarine passing by, an
  attack hit a unit whose hidden numbers differ): the case stops there. It stops too when the
  shared dice went apart (hidden fighting rolled them in one world only);
- **the same answer**: an order accepted in one world and refused in the other is a leak, and
  so is a refusal worded differently. This holds where terrain or cities Red never saw differ
  too: paths are planned on the map as Red knows it (a unit sent into the unknown walks and
  finds out there, where its view then shows what stopped it);
- **nothing named unseen**: every foreign unit named in an event told to Red is one its view
  showed before or after the step or that it remembers, or one that struck Red's units (it
  came to them), or a mover Red's fighters or ships reacted to (they react only to what their
  nation sees).

Two runners: `PureRunner` drives the engine's pure functions (`orders.apply`, `clock.advance`)
with the desk's parsing and reply wording (`bot.games.strategic.playing._order_summary`) and the DMs as the
notifier words them; `DeskRunner` drives the bot's `Desk` over a real `GameService` (replies
and errors as players read them, an ICBM's confirmation button, `/units`, `/cities`,
`/nations`, `/status`, `/map`'s view, the sitrep, every autocomplete).
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, fields, is_dataclass
from operator import attrgetter
from typing import Any

import numpy as np
from hypothesis import strategies as st

from bot.context import Caller, UserError
from bot.games.strategic import notices
from bot.games.strategic.choices import Choices
from bot.games.strategic.feed import feed_lines
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from bot.games.strategic.teller import sitrep_text
from bot.parsing import choice, square, unit_ids
from engine.errors import CommandError, GameError
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.clock import advance
from engine.strategic.orders import apply
from engine.strategic.rules.models import UnitClass
from engine.strategic.systems.economy import default_build
from engine.strategic.systems.transport import can_carry
from engine.strategic.view import View, view_for
from engine.strategic.world import LAND, WATER, City, Unit, World
from renderers.strategic.markers import markers_from

ME = "a"
NAMES = {"a": "Red", "b": "Blue", "c": "Green", "d": "Gold"}
PLAYERS = {"a": "101", "b": "102", "c": "103", "d": "104"}
COLOURS = {"a": "#c0392b", "b": "#2e86de", "c": "#27ae60", "d": "#f1c40f"}
RESERVED = 12  # unit ids world A leaves free for the hidden units world B adds
NO_UNIT = 999  # an id no unit has
FIXED_NOW = 1_800_000_000.0  # the real time both games' clocks are anchored at


# --- the case -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """Two worlds `ME` cannot tell apart, and the steps played in both."""

    world_a: str  # World.to_json()
    world_b: str
    changes: tuple[str, ...]  # what differs, in words (for failure reports)
    steps: tuple[tuple, ...]
    map_differs: bool  # terrain or cities differ where Red never looked (shown in reports)
    label: str = ""

    def _repr_pretty_(self, printer, cycle: bool) -> None:  # how hypothesis prints it
        printer.text(f"<Case {self.label!r}>" if self.label else repr(self))

    def __repr__(self) -> str:
        lines = [f"Case {self.label or '(generated)'}:", "  hidden from Red in world B:"]
        lines += [f"    - {c}" for c in self.changes] or ["    (nothing)"]
        if self.map_differs:
            lines.append("    (so the map differs where Red never looked)")
        lines.append("  steps:")
        lines += [f"    {i}. {describe_step(s)}" for i, s in enumerate(self.steps)]
        world = json.loads(self.world_a)
        lines.append(
            f"  world A: {world['ruleset']} {world['width']}x{world['height']}, tick {world['tick']}"
        )
        return "\n".join(lines)


def describe_step(step: tuple) -> str:
    kind = step[0]
    if kind == "me":
        return f"Red: /{step[1]} " + " ".join(repr(a) for a in step[2:])
    if kind == "other":
        return f"{NAMES[step[1]]} (engine): {step[2]}"
    if kind == "tick":
        return f"time passes: {step[1]} ticks"
    return f"Red asks: /{step[1]} " + " ".join(repr(a) for a in step[2:])


def view_key(view: View) -> tuple:
    """Everything in a view, as plain comparable data (what `View.to_dict` holds, cheaper)."""
    out = []
    for f in fields(view):
        value = getattr(view, f.name)
        if isinstance(value, np.ndarray):
            value = value.tobytes()
        elif isinstance(value, dict):
            value = tuple(sorted((k, _row(v)) for k, v in value.items()))
        elif isinstance(value, list):
            rows = [_row(v) for v in value]
            value = tuple(sorted(rows, key=lambda r: r[0]) if f.name == "units" else rows)
        else:
            value = _row(value)
        out.append(value)
    return tuple(out)


_GETTERS: dict[type, Callable[[Any], Any] | None] = {}


def _row(value: Any) -> Any:
    """A dataclass's fields as a tuple (each class's getter made once), anything else as is."""
    kind = type(value)
    if kind not in _GETTERS:
        names = [f.name for f in fields(value)] if is_dataclass(value) else []
        _GETTERS[kind] = attrgetter(*names, "__class__") if names else None
    getter = _GETTERS[kind]
    return value if getter is None else getter(value)


def build_case(
    a: World,
    b: World,
    changes: list[str],
    steps: list[tuple],
    *,
    map_differs: bool,
    label: str = "",
) -> Case:
    a.sight_index.settle()
    b.sight_index.settle()
    return Case(a.to_json(), b.to_json(), tuple(changes), tuple(steps), map_differs, label)


def load(world_json: str) -> World:
    return World.from_dict(json.loads(world_json))


# --- what a nation may know ------------------------------------------------------------------


class Secrets:
    """What `nation`'s view shows and what it cannot see (worked out as engine/strategic/view.py does)."""

    def __init__(self, world: World, nation: str = ME) -> None:
        index = world.sight_index
        index.settle()
        self.world = world
        self.nation = nation
        self.team = set(world.team(nation))
        informants = [n for n in world.nations if n != nation and nation in world.sight_sharers(n)]
        self.seers = set(self.team)
        for n in informants:
            self.seers |= world.team(n)
        self.outsiders = sorted(set(world.nations) - self.seers)
        self.visible = index.mask(nation)
        self.unit_seen = self.visible.copy()
        self.unit_sub_seen = index.mask(nation, sub=True)
        for n in informants:
            self.unit_seen |= index.mask(n)
            self.unit_sub_seen |= index.mask(n, sub=True)
        self.told = {nation, *informants}
        known = world.known.get(nation)
        size = world.grid.size
        self.known = known if known is not None else np.zeros(size, dtype=np.uint8)
        self.never_seen = [sq for sq in range(size) if not self.visible[sq] and self.known[sq] == 0]
        self.city_memory = dict(world.city_memory.get(nation, {}))
        self.ghosts = {uid: e[1] for uid, e in world.sightings.get(nation, {}).items()}
        self.stealthy = {u.name for u in world.rules.units if u.stealth}

    def shown(self, u: Unit) -> bool:
        """Whether the view can show anything of this unit now."""
        if u.owner not in self.outsiders:
            return True
        if any((n, u.id) in self.world.reveals for n in self.told):
            return True
        if u.carried_by is not None:
            return False
        seen = self.unit_sub_seen if u.type in self.stealthy else self.unit_seen
        return bool(seen[u.sq])

    def hidden_square(self, sq: int, *, sub: bool = False) -> bool:
        """No unit of an outsider placed there would be seen."""
        return not (self.unit_sub_seen if sub else self.unit_seen)[sq]


# --- placing units ----------------------------------------------------------------------------


def placeable(world: World) -> list[str]:
    return [
        u.name
        for u in world.rules.units
        if u.structure is None and u.unit_class.value in ("land", "sea", "air")
    ]


def launchables(world: World) -> list[str]:
    return [u.name for u in world.rules.units if u.launchable and u.structure is None]


def can_stand(world: World, type_name: str, owner: str, sq: int) -> bool:
    """A unit of this type and owner may stand (uncarried) on the square: the terrain suits
    it, no other nation's city or unit is there, and no other ship is on open water."""
    rules = world.rules
    ut = rules.unit[type_name]
    city = world.cities.get(sq)
    if city is not None and city.owner != owner:
        return False
    if any(u.owner != owner for u in world.units_at(sq)):
        return False
    cls = ut.unit_class
    if cls == UnitClass.LAND:
        return world.terrain[sq] == LAND
    if cls == UnitClass.SEA:
        if city is not None:
            return world.is_coastal(sq)
        if world.terrain[sq] != WATER:
            return False
        return not any(
            rules.unit[u.type].unit_class == UnitClass.SEA and u.carried_by is None
            for u in world.units_at(sq)
        )
    if cls == UnitClass.AIR:
        return world.terrain[sq] in (LAND, WATER)
    # satellites and ICBMs wait in their tech centre
    return city is not None and city.designation == ut.built_in


def carriers_for(world: World, type_name: str, owner: str) -> list[Unit]:
    """Uncarried units of this owner with room to carry a unit of this type."""
    rules = world.rules
    gt = rules.unit[type_name]
    out = []
    for u in world.units_of(owner):
        ct = rules.unit[u.type]
        if u.carried_by is not None or ct.capacity <= 0:
            continue
        if not any(rules.matches(gt, sel) for sel in ct.carries):
            continue
        load = sum(rules.unit[c.type].weight for c in world.cargo_of(u))
        if load + gt.weight <= ct.capacity:
            out.append(u)
    return out


def random_numbers(rnd, world: World, type_name: str) -> dict[str, int | None]:
    ut = world.rules.unit[type_name]
    return {
        "hp": rnd.choice([None, rnd.randint(1, ut.hp)]),
        "mobility": rnd.randint(0, max(ut.mobility * 2, 1)),
        "ammo": rnd.choice([None, rnd.randint(0, ut.ammo or 0)]),
        "fuel": rnd.choice([None, rnd.randint(0, ut.full_fuel)]) if ut.needs_fuel else None,
    }


def add_unit(
    rnd, world: World, owner: str, type_name: str, squares: list[int], **kw
) -> Unit | None:
    """Add a unit where it may stand among `squares`, or aboard a carrier of its owner (on one
    of those squares); None when there is no place."""
    aboard = [c for c in carriers_for(world, type_name, owner) if c.sq in set(squares)]
    if aboard and rnd.random() < 0.5:
        carrier = rnd.choice(aboard)
        return world.add_unit(
            type_name,
            owner,
            carrier.sq,
            carried_by=carrier.id,
            **random_numbers(rnd, world, type_name),
            **kw,
        )
    sq = place(rnd, world, type_name, owner, squares)
    if sq is None:
        return None
    return world.add_unit(type_name, owner, sq, **random_numbers(rnd, world, type_name), **kw)


def place(rnd, world: World, type_name: str, owner: str, squares: list[int]) -> int | None:
    """A random square among `squares` where the unit may stand (None if none is found)."""
    if not squares:
        return None
    for _ in range(24):
        sq = rnd.choice(squares)
        if can_stand(world, type_name, owner, sq):
            return sq
    return None


# --- world A -------------------------------------------------------------------------------------


def world_a(rnd) -> tuple[World, list[tuple]]:
    """A small world after a short history: units of every kind (subs, transports with cargo,
    fighters, ICBMs), cities of every designation, relations of every level; Red (`ME`) has
    seen some of it, remembers some (terrain, cities, ghosts) and never saw the rest. Often a
    scene is set in it too (`add_scene`); returns the world and the scene's steps."""
    ruleset = rnd.choice(["standard", "classic"])
    w, h = rnd.randint(8, 13), rnd.randint(6, 9)
    size = w * h
    terrain = bytearray(LAND if rnd.random() < 0.5 else WATER for _ in range(size))
    world = World(ruleset, w, h, seed=rnd.randint(0, 2**32 - 1), terrain=terrain)
    rules = world.rules
    nations = ["a", "b", "c", "d"][: rnd.randint(2, 4)]
    for n in nations:
        world.add_nation(n, NAMES[n], COLOURS[n], player=PLAYERS[n])
        world.nations[n].tech = rnd.choice([0.0, 3.5, 6.0, 9.0, 12.0, 20.0])
        world.nations[n].cp = rnd.choice([0, 3, 40, 1000, 1000] if n != ME else [3, 40, 1000])
    levels = rules.diplomacy.levels
    for i, n in enumerate(nations):
        for o in nations[i + 1 :]:
            level = rnd.choice([rules.diplomacy.war, *levels])
            world.set_relation(n, o, level)
            world.set_relation(o, n, rnd.choice([level, level, *levels]))
    land = [sq for sq in range(size) if terrain[sq] == LAND]
    if land:
        for sq in rnd.sample(land, min(len(land), rnd.randint(0, 7))):
            owner = rnd.choice([*nations, ME, None])
            designation = rnd.choice([c.name for c in rules.cities])
            tech = world.nations[owner].tech if owner else 0.0
            world.cities[sq] = City(
                sq,
                owner,
                designation,
                build=default_build(world, designation, tech) if owner else None,
                name=f"c{sq}",
            )
        world.map_changed()
    if rnd.random() < 0.5:
        add_kit(rnd, world)
    scene, after_start = add_scene(rnd, world, nations) if rnd.random() < 0.6 else ([], None)
    types = placeable(world)
    tech_units = launchables(world)
    everywhere = list(range(size))
    for owner, count in (
        (ME, rnd.randint(1, 7)),
        *((n, rnd.randint(0, 5)) for n in nations[1:]),
    ):
        for _ in range(count):
            pool = types if not tech_units or rnd.randint(0, 7) else tech_units
            add_unit(rnd, world, owner, rnd.choice(pool), everywhere)
    for u in world.units.values():  # some standing orders, carried on at unit updates
        if u.carried_by is None and rnd.random() < 0.15:
            u.set_order(rnd.randrange(size))
    world.started = True
    world.sight_index.settle()
    if after_start is not None:
        after_start()
        world.sight_index.settle()
    # a history: units move (sight moves, memories form), time passes, reveals, satellites
    for _ in range(rnd.randint(0, 6)):
        step = rnd.choice(["move", "move", "move", "tick", "reveal", "satellite"])
        ids = sorted(u.id for u in world.units.values() if u.carried_by is None)
        if step == "move" and ids:
            u = world.units[rnd.choice(ids)]
            sq = place(rnd, world, u.type, u.owner, everywhere)
            if sq is not None:
                world.move_unit(u, sq)
        elif step == "tick":
            advance(world, rnd.randint(1, 6))
        elif step == "reveal" and ids:
            world.reveal(rnd.choice(nations), world.units[rnd.choice(ids)])
        elif step == "satellite":
            world.satellites.append((rnd.choice(nations), rnd.choice(everywhere)))
            world.cities_changed()
        world.sight_index.settle()
    world.next_unit_id += RESERVED
    return world, scene


# --- scenes: where the known leaks live, set up often enough to be met ---------------------------


def _mutual(world: World, x: str, y: str, level: str) -> None:
    world.set_relation(x, y, level)
    world.set_relation(y, x, level)


def _clear(world: World, terrain: int | None, *squares: int) -> None:
    """No city on these squares (and this terrain, if given)."""
    for sq in squares:
        world.cities.pop(sq, None)
        if terrain is not None:
            world.terrain[sq] = terrain
    world.map_changed()


def _pick(rnd, world: World, names: list[str]) -> str:
    return rnd.choice([n for n in names if n in world.rules.unit])


def _cls(world: World, type_name: str) -> str:
    return world.rules.unit[type_name].unit_class.value


def add_kit(rnd, world: World) -> None:
    """Red gets what its rarer orders need: a tech centre with a satellite or an ICBM to
    launch, a port with a transport and infantry to board it, an engineer."""
    grid = world.grid
    tech, port, field_ = (rnd.randrange(grid.size) for _ in range(3))
    if len({tech, port, field_}) < 3:
        return
    _clear(world, LAND, tech, port, field_)
    sea = grid.neighbours(port)[0]
    if sea in (tech, field_):
        return
    _clear(world, WATER, sea)
    world.cities[tech] = City(tech, ME, "tech", name="lab")
    world.cities[port] = City(port, ME, "port", name="dock")
    world.map_changed()
    for sq in (tech, port, field_):
        for u in world.units_at(sq):
            world.remove_unit(u)
    world.add_unit(rnd.choice(launchables(world)), ME, tech)
    world.add_unit("transport", ME, port)
    world.add_unit("infantry", ME, port)
    world.add_unit("engineer", ME, field_)


def add_scene(rnd, world: World, nations: list[str]):
    """One small setting where Red's outputs could tell what it cannot see: returns steps that
    play it (merged into the case's random steps) and what to do once the game has started.

    - convoy: Red's warship next to an enemy transport (or carrier) with cargo aboard;
    - strike: Blue's submarine next to Green's ship, Red watching both without sub sight;
    - far_city: a city far from Red's land unit, attacked or moved into;
    - alliance: Red offers an alliance to a nation allied with another;
    - ghost: a foreign unit Red saw and left behind (a ghost), moved into or attacked;
    - stack: a foreign port holding a ship and a submarine Red cannot see, attacked;
    - cede: Red hands its mutual ally a transport with cargo, units or a city."""
    rules = world.rules
    grid = world.grid
    label = grid.label
    others = nations[1:]
    kind = rnd.choice(["convoy", "strike", "far_city", "alliance", "ghost", "stack", "cede"])
    if kind in ("strike", "alliance") and len(others) < 2:
        kind = "convoy"
    at = rnd.randrange(grid.size)
    x, y = at % world.width, at // world.width

    def sq(dx: int, dy: int) -> int:
        return grid.index((x + dx) % world.width, (y + dy) % world.height)

    enemy = rnd.choice(others)
    if kind == "convoy":
        _mutual(world, ME, enemy, rules.diplomacy.war)
        shooter = _pick(
            rnd,
            world,
            [
                "destroyer",
                "battleship",
                "submarine",
                "cruiser",
                "tank",
                "naval_bomber",
                "heavy_bomber",
            ],
        )
        water, beside = sq(0, 0), sq(1, 0)
        _clear(world, WATER, water)
        _clear(world, LAND if _cls(world, shooter) == "land" else WATER, beside)
        carrier = world.add_unit(
            rnd.choice(["transport", "transport", "carrier"]), enemy, water, hp=rnd.randint(1, 4)
        )
        for _ in range(rnd.randint(1, 2)):
            cargo = [t for t in placeable(world) if carrier in carriers_for(world, t, enemy)]
            if cargo:
                world.add_unit(rnd.choice(cargo), enemy, water, carried_by=carrier.id)
        red = world.add_unit(shooter, ME, beside)
        return [("me", "attack", str(red.id), label(water))], None
    if kind == "strike":
        owner, victim_owner = rnd.sample(others, 2)
        _mutual(world, owner, victim_owner, rules.diplomacy.war)
        for n in (owner, victim_owner):
            _mutual(world, ME, n, rnd.choice([rules.diplomacy.war, rules.diplomacy.start]))
        target, sub_sq, watch = sq(0, 0), sq(1, 0), sq(0, 1)
        watcher = _pick(rnd, world, ["battleship", "transport", "infantry", "fighter", "zeppelin"])
        _clear(world, WATER, target, sub_sq)
        _clear(world, LAND if _cls(world, watcher) == "land" else WATER, watch)
        sub = world.add_unit("submarine", owner, sub_sq)
        world.add_unit(rnd.choice(["transport", "battleship", "carrier"]), victim_owner, target)
        world.add_unit(watcher, ME, watch)
        return [("other", owner, cmd.Attack(units=[sub.id], target=(x, y)))], None
    if kind == "far_city":  # (or far water, a third of the time)
        owner = rnd.choice([*others, None])
        city = sq(0, 0)
        if rnd.random() < 0.3:
            _clear(world, WATER, city)
        else:
            _clear(world, LAND, city)
            world.cities[city] = City(city, owner, rnd.choice(["fort", "port", "tech"]), name="far")
            world.map_changed()
        if owner is not None:
            _mutual(world, ME, owner, rnd.choice([rules.diplomacy.war, rules.diplomacy.start]))
        red_sq = sq(rnd.choice([3, 4, -3, -4]), rnd.choice([0, 2, -2]))
        walker = _pick(rnd, world, ["infantry", "tank", "engineer", "transport", "fighter"])
        _clear(world, LAND if _cls(world, walker) == "land" else WATER, red_sq)
        red = world.add_unit(walker, ME, red_sq)
        orders = [
            ("me", "move", str(red.id), label(city)),
            ("me", "attack", str(red.id), label(city)),
        ]
        return rnd.sample(orders, rnd.randint(1, 2)), None
    if kind == "alliance":
        one, two = rnd.sample(others, 2)
        _mutual(world, one, two, "allied")
        _mutual(world, ME, one, rules.diplomacy.start)
        return [("me", "diplomacy", NAMES[one], "allied")], None
    if kind == "ghost":
        seen_type = _pick(rnd, world, ["infantry", "tank", "submarine", "destroyer"])
        sea = _cls(world, seen_type) == "sea"
        spot, near, far = sq(0, 0), sq(1, 0), sq(rnd.choice([3, -3]), rnd.choice([1, -1, 2]))
        scout_type = _pick(rnd, world, ["destroyer", "battleship"] if sea else ["infantry", "tank"])
        _clear(world, WATER if sea else LAND, spot, near, far)
        seen = world.add_unit(seen_type, enemy, spot)
        scout = world.add_unit(scout_type, ME, near)
        _mutual(world, ME, enemy, rnd.choice([rules.diplomacy.war, rules.diplomacy.start]))

        def leave() -> None:  # Red's scout goes: it remembers what it saw
            world.move_unit(scout, far)

        verb = rnd.choice(["move", "attack"])
        return [("me", verb, str(scout.id), label(seen.sq))], leave
    if kind == "cede":
        _mutual(world, ME, enemy, "allied")
        ship, shore = sq(0, 0), sq(1, 0)
        _clear(world, WATER, ship)
        _clear(world, LAND, shore)
        transport = world.add_unit("transport", ME, ship)
        world.add_unit("infantry", ME, ship, carried_by=transport.id)
        given = world.add_unit(_pick(rnd, world, ["infantry", "tank", "fighter"]), ME, shore)
        own_city = next((c for c in world.cities.values() if c.owner == ME), None)
        steps: list[tuple[str, str, str, str | None, str | None]] = [
            ("me", "cede", NAMES[enemy], f"{transport.id} {given.id}", None)
        ]
        if own_city is not None:
            steps.append(("me", "cede", NAMES[enemy], None, label(own_city.sq)))
        return rnd.sample(steps, rnd.randint(1, len(steps))), None
    # stack: a ship and a hidden submarine in a foreign port
    _mutual(world, ME, enemy, rules.diplomacy.war)
    port, beside = sq(0, 0), sq(1, 0)
    shooter = _pick(rnd, world, ["battleship", "heavy_bomber", "fighter", "tank"])
    _clear(world, LAND, port)
    _clear(world, LAND if _cls(world, shooter) == "land" else WATER, beside, sq(0, 1))
    world.cities[port] = City(port, enemy, "port", name="port")
    world.map_changed()
    world.add_unit(_pick(rnd, world, ["destroyer", "transport", "infantry"]), enemy, port)
    world.add_unit("submarine", enemy, port)
    red = world.add_unit(shooter, ME, beside)
    return [("me", "attack", str(red.id), label(port))], None


# --- world B: changes Red cannot see ---------------------------------------------------------------


def hide_changes(
    rnd, b: World, secrets: Secrets, hot: AbstractSet[int] = frozenset()
) -> tuple[list[str], bool]:
    """Change world B where `secrets.nation` sees nothing (more likely on the `hot` squares,
    those a scene aims at); returns the changes in words and whether terrain or cities
    changed."""
    world = b
    rules = world.rules
    me = secrets.nation
    label = world.grid.label
    outsiders = secrets.outsiders
    size = world.grid.size
    changes: list[str] = []
    map_differs = False
    reserved = list(range(world.next_unit_id - RESERVED, world.next_unit_id))
    types = placeable(world)

    unseen = {
        sub: [sq for sq in range(size) if secrets.hidden_square(sq, sub=sub)]
        for sub in (False, True)
    }

    def hidden_squares(type_name: str) -> list[int]:
        return unseen[type_name in secrets.stealthy]

    # hidden units: moved, removed, or their numbers changed; seen units: their hidden numbers
    for u in sorted(world.units.values(), key=lambda u: u.id):
        if u.id not in world.units or u.owner not in outsiders:
            continue
        if secrets.shown(u):
            if any((n, u.id) in world.reveals for n in secrets.told):
                continue
            if rnd.randint(0, 3) == 0:
                ut = rules.unit[u.type]
                u.mobility = rnd.randint(0, max(ut.mobility * 2, 1))
                u.ammo = rnd.randint(0, ut.ammo or 0)
                if ut.needs_fuel:
                    u.fuel = rnd.randint(0, ut.full_fuel)
                world.unit_changed(u)
                changes.append(
                    f"{NAMES[u.owner]}'s seen {u.type} {u.id}: mobility/ammo/fuel now {u.mobility}/{u.ammo}/{u.fuel}"
                )
            continue
        action = rnd.choice(["keep", "keep", "remove", "move", "numbers"])
        if action == "remove" and not world.cargo_of(u):
            changes.append(f"{NAMES[u.owner]}'s hidden {u.type} {u.id} at {label(u.sq)} removed")
            world.remove_unit(u)
        elif action == "move" and u.carried_by is None:
            # (cargo is not moved: a unit leaving a carrier is remembered by whoever watches
            # the carrier, so that would change Red's view; it is removed or added instead)
            sq = place(rnd, world, u.type, u.owner, hidden_squares(u.type))
            if sq is not None and sq != u.sq:
                changes.append(
                    f"{NAMES[u.owner]}'s hidden {u.type} {u.id} moved {label(u.sq)} -> {label(sq)}"
                )
                world.move_unit(u, sq)
        elif action == "numbers":
            ut = rules.unit[u.type]
            u.hp = rnd.randint(1, ut.hp)
            u.mobility = rnd.randint(0, max(ut.mobility * 2, 1))
            u.ammo = rnd.randint(0, ut.ammo or 0)
            u.built = rnd.randint(0, world.next_built)
            world.unit_changed(u)
            changes.append(
                f"{NAMES[u.owner]}'s hidden {u.type} {u.id}: hp {u.hp}, mobility {u.mobility}, ammo {u.ammo}"
            )
    # hidden units added (subs, transports, cargo aboard seen or hidden carriers)
    if outsiders:
        for _ in range(rnd.randint(0, 3)):
            if not reserved:
                break
            owner = rnd.choice(outsiders)
            type_name = rnd.choice(types)
            squares = hidden_squares(type_name)
            aboard = carriers_for(world, type_name, owner)
            if aboard and rnd.random() < 0.5:
                carrier = rnd.choice(aboard)
                aboard_unit = world.add_unit(
                    type_name,
                    owner,
                    carrier.sq,
                    carried_by=carrier.id,
                    unit_id=reserved.pop(0),
                    **random_numbers(rnd, world, type_name),
                )
                changes.append(
                    f"{NAMES[owner]}'s {type_name} {aboard_unit.id} added aboard {carrier.type} {carrier.id} at {label(carrier.sq)}"
                )
                continue
            unit = add_unit(rnd, world, owner, type_name, squares, unit_id=reserved[0])
            if unit is not None:
                reserved.pop(0)
                where = f"aboard {unit.carried_by}" if unit.carried_by is not None else ""
                changes.append(
                    f"{NAMES[owner]}'s hidden {type_name} {unit.id} added at {label(unit.sq)} {where}".strip()
                )
                if rules.unit[type_name].capacity > 0 and reserved:
                    cargo_type = rnd.choice(types)
                    if unit in carriers_for(world, cargo_type, owner):
                        cargo = world.add_unit(
                            cargo_type, owner, unit.sq, carried_by=unit.id, unit_id=reserved.pop(0)
                        )
                        changes.append(f"  with {cargo_type} {cargo.id} aboard")
    # never-seen terrain (a few squares)
    free = [sq for sq in secrets.never_seen if sq not in world.cities and not world.at.get(sq)]
    flips = rnd.sample(free, min(len(free), rnd.choice([0, 0, 1, 2, 4])))
    flips += [sq for sq in free if sq in hot and sq not in flips and rnd.random() < 0.5]
    for sq in flips:
        new = WATER if world.terrain[sq] == LAND else LAND
        world.terrain[sq] = new
        map_differs = True
        changes.append(f"never-seen {label(sq)} is now {'land' if new == LAND else 'water'}")
    if map_differs:
        world.map_changed()
    # cities Red does not see now (never seen, or remembered as they were). Every nation's
    # count of cities is public (it decides the game: /nations), so the worlds keep the counts:
    # a neutral city may be removed, and owned ones change hands by swapping owners
    owners = [None, *outsiders]
    hidden = [
        sq
        for sq in sorted(world.cities)
        if not secrets.visible[sq] and world.cities[sq].owner in owners
    ]
    swapped: set[int] = set()
    for sq in hidden:
        city = world.cities.get(sq)
        if city is None or sq in swapped:
            continue
        if rnd.random() < (0.2 if sq in hot else 0.5):
            continue
        if city.owner is None and rnd.random() < 0.5 and not world.at.get(sq):
            del world.cities[sq]
            gone = "removed"
            if sq in hot and rnd.random() < 0.5:
                world.terrain[sq] = WATER
                gone = "removed, water there"
            world.map_changed()
            changes.append(f"hidden city at {label(sq)} ({city.owner}) {gone}")
        else:
            partners = [
                other
                for other in hidden
                if other != sq
                and other not in swapped
                and other in world.cities
                and world.cities[other].owner != city.owner
                and not any(u.owner != city.owner for u in world.units_at(other))
                and not any(u.owner != world.cities[other].owner for u in world.units_at(sq))
            ]
            if not partners:
                continue
            other = world.cities[rnd.choice(partners)]
            swapped.update((sq, other.sq))
            for a, new_owner in ((city, other.owner), (other, city.owner)):
                old = a.owner
                a.owner = new_owner
                a.designation = rnd.choice([c.name for c in rules.cities])
                tech = world.nations[new_owner].tech if new_owner else 0.0
                a.build = default_build(world, a.designation, tech) if new_owner else None
                a.progress = 0
                world.cities_changed(old, new_owner)
                changes.append(
                    f"hidden city at {label(a.sq)}: {old} -> {new_owner} {a.designation}"
                )
        map_differs = True
    free_land = [
        sq
        for sq in range(size)
        if not secrets.visible[sq]
        and sq not in world.cities
        and world.terrain[sq] == LAND
        and not world.at.get(sq)
    ]
    if free_land and rnd.randint(0, 2) == 0:
        sq = rnd.choice(free_land)
        designation = rnd.choice([c.name for c in rules.cities])
        world.cities[sq] = City(sq, None, designation)  # neutral: nobody's count changes
        world.map_changed()
        map_differs = True
        changes.append(f"hidden city added at {label(sq)} (neutral, {designation})")
    # other nations' relations (never making or breaking sharing with Red's informants, and
    # never between a nation with allies and a nation whose sight reaches Red: a change of
    # relation writes what a nation's team sees into its members' memories)
    levels = rules.diplomacy.levels
    sharing = set(rules.diplomacy.shares_sightings) | {"allied"}
    others = [n for n in world.nations if n != me and (n in outsiders or len(world.team(n)) == 1)]
    for x in others:
        for y in others:
            if x == y or rnd.randint(0, 3):
                continue
            involved = x in secrets.seers or y in secrets.seers
            if involved and (
                any(world.mutual(x, y, lv) for lv in sharing)
                or world.relation(x, y) in sharing
                or world.relation(y, x) in sharing
            ):
                continue
            choices = [lv for lv in levels if not (involved and lv in sharing)]
            level = rnd.choice(choices)
            world.set_relation(x, y, level)
            changes.append(f"{NAMES[x]}'s relation towards {NAMES[y]} now {level}")
    # outsiders' technology, command points, memories
    for n in outsiders:
        if rnd.random() < 0.5:
            world.nations[n].tech = rnd.choice([0.0, 5.0, 11.0, 20.0])
            world.nations[n].cp = rnd.choice([0, 5, 1000])
            world.cities_changed(n)
            changes.append(f"{NAMES[n]}'s tech {world.nations[n].tech}, cp {world.nations[n].cp}")
        if world.sightings.get(n) and rnd.randint(0, 3) == 0:
            world.sightings[n] = {}
            changes.append(f"{NAMES[n]} forgot the units it saw")
    world.sight_index.settle()
    return changes, map_differs


# --- steps ----------------------------------------------------------------------------------------------


def xy(world: World, sq: int) -> str:
    return world.grid.label(sq)


def targets(a: World, b: World, secrets: Secrets) -> list[int]:
    """Squares worth aiming at: where hidden things are (in either world), never-seen
    squares, remembered cities and ghosts, seen foreign units, around Red's units."""
    out: set[int] = set()
    for world in (a, b):
        for u in world.units.values():
            if u.owner != secrets.nation:
                out.add(u.sq)
            else:
                out.update(world.grid.neighbours(u.sq))
        out.update(world.cities)
    out.update(secrets.never_seen[:: max(1, len(secrets.never_seen) // 6)])
    out.update(secrets.city_memory)
    out.update(secrets.ghosts.values())
    return sorted(out)


def my_action(rnd, a: World, b: World, secrets: Secrets, aims: list[int]) -> tuple:
    """One of Red's orders as typed into Discord: ("me", desk method, arguments...)."""
    rules = a.rules
    me = secrets.nation
    mine = sorted(u.id for u in a.units_of(me)) or [NO_UNIT]
    foreign = sorted({u.id for w in (a, b) for u in w.units.values() if u.owner != me})
    my_cities = sorted(sq for sq, c in a.cities.items() if c.owner == me)

    def any_id() -> int:
        pick = rnd.randint(0, 4)
        if pick == 3 and foreign:
            return rnd.choice(foreign)
        return NO_UNIT if pick == 4 else rnd.choice(mine)

    def where() -> str:
        return xy(
            a, rnd.choice(aims) if aims and rnd.random() < 0.8 else rnd.randrange(a.grid.size)
        )

    def city() -> str:
        return xy(a, rnd.choice(my_cities)) if my_cities and rnd.random() < 0.5 else where()

    def units_text(pool: list[int] | None = None) -> str:
        if pool and rnd.random() < 0.7:  # units the order suits
            chosen = rnd.sample(pool, min(len(pool), rnd.choice([1, 1, 2])))
        else:
            chosen = list(dict.fromkeys(any_id() for _ in range(rnd.choice([1, 1, 1, 2, 3]))))
        return " ".join(str(i) for i in chosen)

    def one_of(pool: list[int]) -> int:
        return rnd.choice(pool) if pool and rnd.random() < 0.7 else any_id()

    units = a.units_of(me)
    carriers = [u for u in units if rules.unit[u.type].capacity > 0 and u.carried_by is None]

    kind = rnd.choice(
        ["move"] * 4
        + ["attack"] * 4
        + ["build", "next", "designate", "waypoint", "cancel", "board", "engineer", "launch"]
        + ["diplomacy"] * 2
        + ["disband", "cede", "cede"]
    )
    if kind == "attack" and rnd.random() < 0.3:  # queued: made once in range, at updates
        return ("me", kind, units_text(), where(), True)
    if kind in ("move", "attack"):
        return ("me", kind, units_text(), where())
    if kind in ("build", "next"):
        names = [u.name for u in rules.units] + (["none"] if kind == "next" else [])
        return ("me", "build", city(), rnd.choice(names), kind == "next")
    if kind == "designate":
        return ("me", "designate", city(), rnd.choice([c.name for c in rules.cities]))
    if kind == "waypoint":  # a square anywhere (known or not), or none: cleared
        return ("me", "waypoint", city(), where() if rnd.random() < 0.8 else None)
    if kind == "cancel":
        return ("me", "cancel", units_text([u.id for u in units if u.order is not None]))
    if kind == "board":
        carrier = one_of([u.id for u in carriers])
        at = a.units[carrier].sq if carrier in a.units else None
        aboard = [
            u.id
            for u in units
            if u.sq == at and u.carried_by is None and can_carry(a, a.units[carrier], u)
        ]
        return ("me", "board", units_text(aboard), carrier)
    if kind == "engineer":
        engineers = [u.id for u in units if rules.unit[u.type].builds_cities]
        return ("me", "engineer", one_of(engineers), rnd.choice(["build_city", "switch_terrain"]))
    if kind == "launch":
        return (
            "me",
            "launch",
            one_of([u.id for u in units if rules.unit[u.type].launchable]),
            where(),
        )
    others = [NAMES[n] for n in a.nations if n != me]
    if kind == "disband":
        return ("me", "disband", units_text())
    if kind == "cede":  # units (often a carrier or a unit on a hidden square's edge) or a city
        allies = [NAMES[n] for n in a.nations if n != me and a.mutual(me, n, "allied")]
        to = rnd.choice(allies) if allies and rnd.random() < 0.8 else rnd.choice(others)
        if rnd.random() < 0.6:
            return ("me", "cede", to, units_text(), None)
        return ("me", "cede", to, None, city())
    return ("me", "diplomacy", rnd.choice(others), rnd.choice(rules.diplomacy.levels))


def other_action(rnd, a: World, b: World, secrets: Secrets, aims: list[int]) -> tuple:
    """An order of another nation (through the engine), often with a unit Red cannot see."""
    me = secrets.nation
    nation = rnd.choice([n for n in a.nations if n != me])
    theirs = sorted({u.id for w in (a, b) for u in w.units.values() if u.owner == nation})
    target = rnd.choice(aims) if aims and rnd.random() < 0.8 else rnd.randrange(a.grid.size)
    at = (target % a.width, target // a.width)
    kind = rnd.choice(["move", "attack", "attack", "relation", "cede"])
    if kind == "cede" and theirs:  # to anyone: accepted only between mutual allies
        allies = [n for n in a.nations if n != nation and a.mutual(nation, n, "allied")]
        receiver = rnd.choice(allies or [n for n in a.nations if n != nation])
        if rnd.random() < 0.7:
            units = rnd.sample(theirs, min(len(theirs), rnd.choice([1, 1, 2])))
            return ("other", nation, cmd.CedeUnits(units=units, receiver=receiver))
        return ("other", nation, cmd.CedeCity(city=at, receiver=receiver))
    if kind in ("relation", "cede") or not theirs:
        other = rnd.choice([n for n in a.nations if n != nation])
        level = rnd.choice(a.rules.diplomacy.levels)
        return ("other", nation, cmd.SetRelation(other=other, level=level))
    units = rnd.sample(theirs, min(len(theirs), rnd.choice([1, 1, 2])))
    if kind == "move":
        return ("other", nation, cmd.Move(units=units, to=at))
    return ("other", nation, cmd.Attack(units=units, target=at))


CHOOSERS = (  # the autocompletes
    "choose_units",
    "choose_unit",
    "choose_cities",
    "choose_nations",
    "choose_unit_types",
    "choose_designations",
    "choose_levels",
    "choose_colours",
)
QUESTIONS = ("sitrep", "units", "cities", "nations", "status", "map", *CHOOSERS)


def question(rnd, a: World, aims: list[int]) -> tuple:
    """A question: a list, the status, an autocomplete, the map."""
    what = rnd.choice(QUESTIONS)
    if what == "units":
        return ("ask", what, rnd.randint(1, 2), rnd.choice([None, "infantry", "submarine"]))
    if what == "cities":
        return ("ask", what, rnd.randint(1, 2))
    if what == "map":
        at = xy(a, rnd.choice(aims)) if aims and rnd.random() < 0.6 else None
        return ("ask", what, at, rnd.randint(1, 4))
    if what in ("nations", "status", "sitrep"):
        return ("ask", what)
    return ("ask", what, rnd.choice(["", "1", "2", " ", "b", "r", "in", "3,", "a", "1 2"]))


SWEEP: tuple[tuple, ...] = (
    ("ask", "units", 1, None),
    ("ask", "cities", 1),
    ("ask", "nations"),
    ("ask", "status"),
    ("ask", "sitrep"),
    ("ask", "map", None, 6),
    *(("ask", c, "") for c in CHOOSERS),
)


def make_case(rnd, *, asks: bool = True, max_steps: int = 6) -> Case:
    """A random case: world A, world B (A changed where Red cannot see), and the steps."""
    a, scene = world_a(rnd)
    secrets = Secrets(a)
    b = World.from_dict(a.to_dict())
    hot = {
        a.grid.index(*map(int, step[3].split(",")))
        for step in scene
        if step[0] == "me" and step[1] in ("move", "attack")
    }
    changes, map_differs = hide_changes(rnd, b, secrets, hot)
    aims = targets(a, b, secrets)
    steps: list[tuple] = []
    kinds = ["me"] * 5 + ["other", "other", "tick"] + (["ask"] if asks else [])
    for _ in range(rnd.randint(1, max_steps)):
        kind = rnd.choice(kinds)
        if kind == "me":
            steps.append(my_action(rnd, a, b, secrets, aims))
        elif kind == "other":
            steps.append(other_action(rnd, a, b, secrets, aims))
        elif kind == "tick":
            steps.append(("tick", rnd.choice([1, 1, 2, 4, 16])))
        else:
            steps.append(question(rnd, a, aims))
    first = rnd.random() < 0.5  # (before anything else can set the two worlds apart)
    for n, step in enumerate(scene):
        steps.insert(n if first else rnd.randint(0, len(steps)), step)
    return build_case(a, b, changes, steps, map_differs=map_differs)


def cases(*, asks: bool = True, max_steps: int = 6) -> st.SearchStrategy[Case]:
    """Cases from hypothesis-chosen seeds (the details come from a seeded `random.Random`:
    drawing each detail through hypothesis costs more than playing the case)."""
    return st.integers(0, 2**64 - 1).map(
        lambda seed: make_case(random.Random(seed), asks=asks, max_steps=max_steps)
    )


# --- what a nation receives ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """What Red got from one step: whether its order was accepted, the texts it read (reply or
    error, DM lines, map markers, answers), and the events it was told (for the unseen check)."""

    accepted: bool = True
    texts: list[str] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)
    # the game channel's public news of the step (bot/games/strategic/feed.py): everyone's
    feed: list[str] = field(default_factory=list)

    def add_events(self, events: list[ev.Event], world: World, me: str = ME) -> None:
        told = [e for e in events if me in e.to]
        self.events.extend(told)
        names = {n.id: n.name for n in world.nations.values()}
        self.feed.extend(feed_lines(events, names))
        if not told:
            return
        clock = world.clock(max(e.tick for e in told))
        self.texts.append("DM: " + "\n".join(notices.digest(told, me, names, clock=clock)))
        marks = markers_from(told, me, world.width, world.height)
        self.texts.append(
            "markers: " + ", ".join(sorted(f"{m.kind}@{m.sq}/{m.radius}" for m in marks))
        )


def named_units(e: ev.Event) -> list[tuple[str | None, int, str]]:
    """(owner, unit id, role) of every unit an event names."""
    match e:
        case ev.Attacked():
            return [
                (e.attacker, e.attacker_unit, "attacker"),
                (e.defender, e.defender_unit, "defender"),
            ]
        case ev.Bombed():
            return [(e.attacker, e.bomber, "attacker")] + [
                (h.get("owner"), int(h.get("unit", 0)), "defender") for h in e.hits
            ]
        case ev.Intercepted():
            return [(e.interceptor, e.fighter, "attacker"), (e.mover, e.unit, "defender")]
        case ev.Interdicted():
            return [(e.interdictor, e.unit, "attacker"), (e.mover, e.ship, "defender")]
        case ev.UnitDestroyed():
            return [(e.nation, e.unit, "lost")]
        case ev.SubSighted():
            return [(e.owner, e.unit, "shown")]
        case ev.CityCaptured():
            return [(e.nation, e.unit, "capturer")]
        case ev.UnitBuilt():
            return [(e.nation, e.unit_id, "built")]
        case ev.UnitsCeded() | ev.UnitsDisbanded():
            return [(e.nation, int(i["unit"]), "ceded") for i in e.units]
    return []


def foreign_named(events: list[ev.Event], me: str = ME) -> set[tuple[str | None, int]]:
    return {(o, uid) for e in events for o, uid, _ in named_units(e) if o != me}


def unseen_named(
    events: list[ev.Event], before: View, after: View, world: World, me: str = ME
) -> list[str]:
    """Foreign units named in events told to `me` that its view showed neither before nor
    after the step (nor remembers), except units that struck its own units (they came to it),
    units shown to it (a submarine it struck blind), and units that died on a square it
    watched (they came into sight and died there)."""
    team = world.team(me)
    known = {u.id for u in before.units} | {u.id for u in after.units}
    known |= set(world.sightings.get(me, {}))
    for e in events:
        named = named_units(e)
        if any(o in team for o, _, role in named if role == "defender"):
            known |= {uid for _, uid, role in named if role == "attacker"}  # it came to us
        if isinstance(e, ev.Intercepted | ev.Interdicted) and any(
            o in team for o, _, role in named if role == "attacker"
        ):  # fighters and ships react only to movers their nation sees
            known |= {uid for _, uid, role in named if role == "defender"}
    stealthy = {ut.name for ut in world.rules.units if ut.stealth}
    for e in events:
        if isinstance(e, ev.SubSighted) and e.nation == me:
            known.add(e.unit)  # it showed itself (and may have died right after)
        # a unit that came into sight and died there on the way (nothing of it is left to show)
        if isinstance(e, ev.UnitDestroyed) and e.unit_type not in stealthy:
            sq = world.grid.index(*map(int, e.square.split(",")))
            if before.visible[sq] or after.visible[sq]:
                known.add(e.unit)
    out = []
    for e in events:
        for owner, uid, _role in named_units(e):
            if owner not in team and uid not in known:
                out.append(
                    f"{e.kind} names {NAMES.get(owner or '', owner)}'s unit {uid}: {e.model_dump(exclude={'tick'})}"
                )
    return out


# --- runners ------------------------------------------------------------------------------------------


class PureRunner:
    """One world driven through the engine's pure functions and the desk's wording."""

    def __init__(self, world_json: str, me: str = ME) -> None:
        self.world = load(world_json)
        self.me = me

    async def view(self) -> View:
        return view_for(self.world, self.me)

    async def step(self, step: tuple) -> Outcome | None:
        kind = step[0]
        out = Outcome()
        world = self.world
        if kind == "tick":
            out.add_events(advance(world, step[1]), world, self.me)
        elif kind == "other":
            with contextlib.suppress(CommandError, GameError):  # told to that nation only
                out.add_events(apply(world, step[1], step[2]), world, self.me)
        elif kind == "me":
            try:
                command = self._command(step)
                events = apply(world, self.me, command)
            except (UserError, CommandError, GameError) as exc:
                out.accepted = False
                out.texts.append(f"error: {exc}")
                return out
            mine = [e for e in events if self.me in e.to]
            from bot.games.strategic.playing import _order_summary

            names = {n.id: n.name for n in world.nations.values()}
            out.texts.append("reply: " + _order_summary(mine, self.me, names))
            out.add_events(events, world, self.me)
        else:
            return None  # questions are the desk's (DeskRunner)
        return out

    def _command(self, step: tuple) -> cmd.Command:
        world = self.world
        rules = world.rules
        what, args = step[1], step[2:]
        w, h = world.width, world.height
        if what == "move":
            return cmd.Move(units=unit_ids(args[0]), to=square(args[1], w, h))
        if what == "attack":
            queue = len(args) > 2 and bool(args[2])
            return cmd.Attack(units=unit_ids(args[0]), target=square(args[1], w, h), queue=queue)
        if what == "build":
            city, unit, nxt = args
            at = square(city, w, h)
            if nxt and unit == "none":
                return cmd.SetNextBuild(city=at, unit=None)
            name = choice(unit, [u.name for u in rules.units], "unit type")
            return cmd.SetNextBuild(city=at, unit=name) if nxt else cmd.SetBuild(city=at, unit=name)
        if what == "designate":
            name = choice(args[1], [c.name for c in rules.cities], "designation")
            return cmd.Designate(city=square(args[0], w, h), designation=name)
        if what == "waypoint":
            to = None if args[1] is None else square(args[1], w, h)
            return cmd.SetWaypoint(city=square(args[0], w, h), to=to)
        if what == "cancel":
            return cmd.CancelOrders(units=unit_ids(args[0]))
        if what == "board":
            return cmd.Board(units=unit_ids(args[0]), carrier=int(args[1]))
        if what == "engineer":
            unit = int(args[0])
            return (
                cmd.BuildCity(unit=unit)
                if args[1] == "build_city"
                else cmd.SwitchTerrain(unit=unit)
            )
        if what == "launch":
            return cmd.Launch(unit=int(args[0]), target=square(args[1], w, h))
        if what == "disband":
            return cmd.Disband(units=unit_ids(args[0]))
        if what == "cede":
            receiver = next(
                (n.id for n in world.nations.values() if n.name == args[0] and n.id != self.me),
                None,
            )
            if receiver is None:
                raise UserError(f"There is no other nation called {args[0]!r} in this game.")
            if args[1] is not None:
                return cmd.CedeUnits(units=unit_ids(args[1]), receiver=receiver)
            return cmd.CedeCity(city=square(args[2], w, h), receiver=receiver)
        if what == "diplomacy":
            other = next(
                (n.id for n in world.nations.values() if n.name == args[0] and n.id != self.me),
                None,
            )
            if other is None:
                raise UserError(f"There is no other nation called {args[0]!r} in this game.")
            return cmd.SetRelation(other=other, level=args[1])
        raise ValueError(what)


class DeskRunner:
    """One world as a game in a real GameService, Red playing it through the bot's Desk in the
    game's channel; what Red is told by DM comes from the service's events (its outbox rows)."""

    def __init__(self, desk, inbox: dict[int, list[ev.Event]], me: str = ME) -> None:
        self.desk = desk
        self.service = desk.ctx.service
        self.inbox = inbox
        self.me = me
        self.game = 0
        self.caller: Caller | None = None

    async def open(self, world_json: str, guild: str, channel: str) -> DeskRunner:
        world = load(world_json)
        self.game = await self.service.create_game(
            name="Fog", world=world, guild_id=guild, channel_id=channel, now=FIXED_NOW
        )
        self.inbox[self.game] = []
        self.caller = Caller(
            user_id=PLAYERS[self.me], name="red", guild_id=guild, channel_id=channel
        )
        return self

    async def close(self) -> None:
        self.inbox.pop(self.game, None)
        self.service.evict(self.game)

    async def world(self) -> World:
        return await self.service.live_world(self.game)

    async def view(self) -> View:
        return view_for(await self.world(), self.me)

    def _told(self, out: Outcome, world: World) -> None:
        events, self.inbox[self.game] = self.inbox[self.game], []
        out.add_events(events, world, self.me)

    async def step(self, step: tuple) -> Outcome:
        out = Outcome()
        kind = step[0]
        if kind == "tick":
            await self.service.advance(self.game, step[1])
        elif kind == "other":
            with contextlib.suppress(CommandError, GameError):
                await self.service.submit(self.game, step[1], step[2])
        elif kind == "me":
            try:
                reply = await self._order(step[1], step[2:])
            except UserError as exc:
                out.accepted = False
                out.texts.append(f"error: {exc}")
                self.inbox[self.game] = []
                return out
            out.texts.append(f"reply: {reply.text}")
        else:
            out.texts.append(await self._ask(step[1], step[2:]))
        self._told(out, await self.world())
        return out

    async def _order(self, what: str, args: tuple):
        desk, c = self.desk, self.caller
        if what == "build":
            return await desk.part(Playing).build(c, args[0], args[1], next_build=args[2])
        if what == "attack":
            queue = len(args) > 2 and bool(args[2])
            return await desk.part(Playing).attack(c, args[0], args[1], queue=queue)
        if what in ("board", "engineer", "launch"):
            first = int(args[0]) if what != "board" else args[0]
            second = int(args[1]) if what == "board" else args[1]
            reply = await getattr(desk.part(Playing), what)(c, first, second)
            if reply.confirm is not None:  # an ICBM: press the button
                reply = await desk.confirm(c, reply.confirm.token)
            return reply
        if what == "cede":
            return await desk.part(Playing).cede(c, args[0], units=args[1], city=args[2])
        reply = await getattr(desk.part(Playing), what)(c, *args)
        if what == "disband" and reply.confirm is not None:  # press the button
            reply = await desk.confirm(c, reply.confirm.token)
        return reply

    async def _ask(self, what: str, args: tuple) -> str:
        desk, c = self.desk, self.caller
        try:
            if what.startswith("choose_"):
                choices = desk.lifecycle if what == "choose_colours" else desk.part(Choices)
                return f"{what}: {await getattr(choices, what)(c, *args)}"
            if what == "sitrep":  # the notifier's daily report, from the same view
                return f"sitrep: {sitrep_text('Fog', await self.view())}"
            if what == "units":
                reply = await desk.part(Intel).units(c, page=args[0], kind=args[1])
            elif what == "cities":
                reply = await desk.part(Intel).cities(c, page=args[0])
            elif what == "map":
                reply = await desk.part(Intel).map(c, at=args[0], radius=args[1])
            else:
                reply = await getattr(desk.part(Intel), what)(c)
        except UserError as exc:
            return f"{what} error: {exc}"
        pictures = [data.decode() for _name, data in reply.files]
        card = reply.embed.as_text() if reply.embed is not None else ""
        return f"{what}: {reply.text} {card} {pictures}"


def picture_input(view: View, title: str, frame: Any, colours: str = "nation") -> bytes:
    """Stands in for bot.games.strategic.intel's drawing: the view handed to the renderer, the
    frame it draws (`intel.MapFrame`) and how it colours the nations, as data."""
    at = frame.centre
    return json.dumps(
        {
            "view": view.to_dict(),
            "at": at,
            "radius": frame.radius if at is not None else None,
            "frame": [frame.whole, frame.full, frame.fitted],
            "colours": colours,
        },
        sort_keys=True,
    ).encode()


# --- the comparison --------------------------------------------------------------------------------------


class Leak(AssertionError):
    pass


def _fail(case: Case, i: int | None, what: str, a: Any, b: Any = None) -> None:
    where = "before any step" if i is None else f"at step {i}: {describe_step(case.steps[i])}"
    if b is None:
        lines = [f"{what} {where}:", f"    {a}"]
    else:
        lines = [f"{what} {where}", f"  world A: {a}", f"  world B: {b}"]
    raise Leak("\n".join(lines) + "\n" + repr(case))


async def compare(case: Case, ra, rb, *, sweep: bool = False) -> int:
    """Play the case in both runners and check Red's outputs; returns the number of steps
    compared (the case stops at the first step after which Red's views differ)."""
    va, vb = await ra.view(), await rb.view()
    if view_key(va) != view_key(vb) or await _public(ra) != await _public(rb):
        raise AssertionError("the two worlds of a case must look the same to Red\n" + repr(case))
    if sweep:
        for q in SWEEP:
            oa, ob = await ra.step(q), await rb.step(q)
            if oa.texts != ob.texts:
                _fail(case, None, f"/{q[1]} differs", oa.texts, ob.texts)
    compared = 0
    for i, step in enumerate(case.steps):
        if await _dice(ra) != await _dice(rb):
            break  # hidden fighting rolled the shared dice differently: the worlds went apart
        oa, ob = await ra.step(step), await rb.step(step)
        if oa is None:
            continue
        wa, wb = await ra.view(), await rb.view()
        ma, mb = await _memory(ra), await _memory(rb)
        for name, runner, before, after, out in (("A", ra, va, wa, oa), ("B", rb, vb, wb, ob)):
            unseen = unseen_named(out.events, before, after, await _world(runner))
            if unseen:
                what = f"in world {name}, Red is told of a unit it does not see"
                _fail(case, i, what, "\n    ".join(unseen))
        for name, out in (("A", oa), ("B", ob)):
            hidden = feed_names_hidden(out.feed)
            if hidden:
                _fail(case, i, f"in world {name}, the channel's news names", "\n    ".join(hidden))
        # what Red knows after the step: its view, the units it saw on the way (memory)
        same = view_key(wa) == view_key(wb) and ma == mb
        same = same and await _public(ra) == await _public(rb)  # the public scoreboard
        # the channel's news: the same while what Red knows is (relations between others
        # change in the open: public by the rules)
        if same and _not_diplomacy(oa.feed) != _not_diplomacy(ob.feed):
            _fail(case, i, "the channel's news differs", oa.feed, ob.feed)
        # and the foreign units it was told of (each one checked above as seen by it): a ship
        # of Red's that sank a sub passing by saw it, though nothing of it is left to show
        told = same and foreign_named(oa.events) == foreign_named(ob.events)
        if step[0] == "me" and oa.accepted != ob.accepted:
            _fail(case, i, "accepted in one world and refused in the other", oa.texts, ob.texts)
        refused = step[0] == "me" and not oa.accepted
        if (told or refused) and oa.texts != ob.texts:
            _fail(case, i, "Red's outputs differ", oa.texts, ob.texts)
        if not same:
            break
        compared += 1
        va, vb = wa, wb
    else:
        if sweep:
            for q in SWEEP:
                oa, ob = await ra.step(q), await rb.step(q)
                if oa.texts != ob.texts:
                    _fail(case, None, f"/{q[1]} differs at the end", oa.texts, ob.texts)
    return compared


SQUARE = re.compile(r"\b\d+,\d+\b")
LAUNCH = "☢️"
DIPLOMACY = ("⚔️", "🤝", "💔")  # relations between nations change in the open (docs/RULES.md)


def feed_names_hidden(lines: list[str]) -> list[str]:
    """News lines that name a square (only an ICBM's target is news) or a unit."""
    return [
        line
        for line in lines
        if (SQUARE.search(line) and not line.startswith(LAUNCH)) or re.search(r"\bunits?\b", line)
    ]


def _not_diplomacy(lines: list[str]) -> list[str]:
    return [line for line in lines if not line.startswith(DIPLOMACY)]


async def _public(runner) -> dict[str, int]:
    """What every player may know: each nation's count of cities (the public scoreboard)."""
    world = await _world(runner)
    counts: dict[str, int] = {}
    for city in world.cities.values():
        if city.owner is not None:
            counts[city.owner] = counts.get(city.owner, 0) + 1
    return counts


async def _memory(runner) -> dict:
    world = await _world(runner)
    return world.sightings.get(ME, {})


async def _dice(runner) -> tuple[int, int]:
    world = await _world(runner)
    return world.rng.state, world.next_unit_id


async def _world(runner) -> World:
    if isinstance(runner, PureRunner):
        return runner.world
    return await runner.world()


def run_sync(coro) -> Any:
    """Run a coroutine that never waits on anything (the pure runner) without an event loop."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise RuntimeError("the coroutine waited on something")


def pure_compare(case: Case) -> int:
    return run_sync(compare(case, PureRunner(case.world_a), PureRunner(case.world_b)))


Check = Callable[[Case], int]
