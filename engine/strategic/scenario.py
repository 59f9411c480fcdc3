"""Scenario files: a small map, nations, cities, units, then steps (commands, time, expectations).

The format is documented in docs/SCENARIOS.md. Scenarios are the project's golden tests of the
rules and, later, its tutorials. `run_file(path)` returns a report; `si scenario` prints it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from engine.errors import CommandError, GameError
from engine.interface import colours
from engine.strategic import events as ev
from engine.strategic.clock import advance
from engine.strategic.commands import command_from_dict
from engine.strategic.founding import founding_of
from engine.strategic.orders import apply
from engine.strategic.systems.economy import power, power_limit
from engine.strategic.view import View, view_for
from engine.strategic.world import LAND, WASTE, WATER, City, World
from engine.strategic.world.rng import DiceError, PinnedDice

WATER_CHARS = "~"
LAND_CHARS = "."


class ScenarioError(ValueError):
    """The scenario file itself is wrong (not a failed expectation)."""


@dataclass
class Report:
    name: str
    path: str
    failures: list[str] = field(default_factory=list)
    world: World | None = None
    pictures: list[Path] = field(default_factory=list)  # written by render steps

    @property
    def ok(self) -> bool:
        return not self.failures


# --- building the world ------------------------------------------------------------------------------


def build_world(spec: dict[str, Any]) -> tuple[World, dict[str, int]]:
    """The world a scenario describes, and its city letters -> squares."""
    rows = [r for r in str(spec.get("map", "")).splitlines() if r.strip()]
    if not rows:
        raise ScenarioError("the scenario needs a map")
    rows = [r.strip() for r in rows]
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise ScenarioError("every map row must have the same length")
    height = len(rows)
    world = World(
        spec.get("ruleset", "standard"),
        width,
        height,
        seed=int(spec.get("seed", 0)),
        length_days=spec.get("length_days"),
    )
    rules = world.rules
    world.started = True
    world.tick = int(spec.get("start_tick", 0))
    letters: dict[str, int] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            sq = world.grid.index(x, y)
            if ch in WATER_CHARS:
                world.terrain[sq] = WATER
            elif ch in LAND_CHARS:
                world.terrain[sq] = LAND
            elif ch.isalpha():
                world.terrain[sq] = LAND
                if ch in letters:
                    raise ScenarioError(f"city letter {ch!r} is used twice on the map")
                letters[ch] = sq
            else:
                raise ScenarioError(
                    f"unknown map character {ch!r} at {x},{y} (use ~ water, . land, letters for cities)"
                )
    for nid, nspec in (spec.get("nations") or {}).items():
        nspec = nspec or {}
        nation = world.add_nation(
            str(nid),
            nspec.get("name", str(nid).title()),
            colours.resolve(nspec["colour"])
            if "colour" in nspec
            else colours.default_colour([n.colour for n in world.nations.values()]),
            player=nspec.get("player"),
        )
        if "leader" in nspec or "title" in nspec:  # as founded at a join (founding.py)
            try:
                founded = founding_of({k: nspec[k] for k in ("leader", "title") if k in nspec})
            except GameError as exc:
                raise ScenarioError(f"nation {nid}: {exc}") from None
            nation.leader, nation.title = founded.leader or "", founded.title or ""
        if "tech" in nspec:
            nation.tech = float(nspec["tech"])
        if "cp" in nspec:
            nation.cp = int(nspec["cp"])
    for a in world.nations:
        for b in world.nations:
            if b != a:
                world.set_relation(a, b, rules.diplomacy.start)
    for rel in spec.get("relations") or []:
        if len(rel) not in (3, 4):
            raise ScenarioError(
                f"a relation is [nation, other, level] or [nation, other, level, one_way]: {rel}"
            )
        a, b, level = rel[0], rel[1], rel[2]
        if level not in rules.diplomacy.levels:
            raise ScenarioError(f"unknown relation level {level!r}")
        world.set_relation(a, b, level)
        if len(rel) == 3 or not rel[3]:
            world.set_relation(b, a, level)
    cities = spec.get("cities") or {}
    for letter, sq in letters.items():
        cspec = cities.get(letter) or {}
        owner = cspec.get("owner")
        if owner is not None and owner not in world.nations:
            raise ScenarioError(f"city {letter}: unknown owner {owner!r}")
        designation = cspec.get("designation") or (
            rules.start.cities[0] if owner else rules.capture.new_designation
        )
        if designation not in rules.city:
            raise ScenarioError(f"city {letter}: unknown designation {designation!r}")
        build = cspec.get("build")
        for key in ("build", "next"):
            if cspec.get(key) is not None and cspec[key] not in rules.unit:
                raise ScenarioError(f"city {letter}: unknown unit {cspec[key]!r}")
        world.cities[sq] = City(
            sq=sq,
            owner=owner,
            designation=designation,
            build=build,
            progress=_duration(world, cspec.get("progress", 0)),
            next_build=cspec.get("next"),
            name=letter,
        )
    for extra in cities:
        if extra not in letters:
            raise ScenarioError(f"city {extra!r} is not on the map")
    for uspec in spec.get("units") or []:
        _add_unit(world, uspec, letters)
    world.map_changed()
    _explore(world, spec.get("explored") or [])
    return world, letters


def _explore(world: World, explored: Any) -> None:
    """`explored: all` or a list of nations: they know the whole map's terrain (not its cities
    or units) from the start, as after a long look around; paths are planned on that map."""
    nations = list(world.nations) if explored == "all" else explored
    if not isinstance(nations, list):
        raise ScenarioError(f"explored is 'all' or a list of nations, not {explored!r}")
    for nation in nations:
        if nation not in world.nations:
            raise ScenarioError(f"explored: unknown nation {nation!r}")
        world.known_of(nation)[:] = world.terrain_array() + 1


def _add_unit(world: World, uspec: dict[str, Any], letters: dict[str, int]) -> None:
    for key in ("id", "owner", "type", "at"):
        if key not in uspec:
            raise ScenarioError(f"a unit needs {key!r}: {uspec}")
    if uspec["type"] not in world.rules.unit:
        raise ScenarioError(f"unknown unit type {uspec['type']!r}")
    if uspec["owner"] not in world.nations:
        raise ScenarioError(f"unit {uspec['id']}: unknown owner {uspec['owner']!r}")
    world.add_unit(
        uspec["type"],
        uspec["owner"],
        _where(world, uspec["at"], letters),
        hp=uspec.get("hp"),
        mobility=uspec.get("mobility"),
        ammo=uspec.get("ammo"),
        fuel=uspec.get("fuel"),
        carried_by=uspec.get("carried_by"),
        unit_id=int(uspec["id"]),
    )


def _where(world: World, value: Any, letters: dict[str, int]) -> int:
    """A square given as 'x,y', [x, y] or a city letter."""
    if isinstance(value, str) and value in letters:
        return letters[value]
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*", value)
        if m:
            return world.grid.index(int(m.group(1)), int(m.group(2)))
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return world.grid.index(int(value[0]), int(value[1]))
    raise ScenarioError(f"not a square: {value!r} (use 'x,y' or a city letter)")


def _duration(world: World, value: Any) -> int:
    """'4h', '2d', '30m', '3t' or a number of ticks -> ticks."""
    if isinstance(value, int):
        return value
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([dhmt]?)\s*", str(value))
    if not m:
        raise ScenarioError(f"not a duration: {value!r} (use 4h, 2d, 30m or 3t)")
    amount, unit = float(m.group(1)), m.group(2) or "t"
    minutes = {"d": 1440, "h": 60, "m": 1}.get(unit)
    ticks = amount if minutes is None else amount * minutes / world.rules.time.minutes_per_tick
    if not math.isclose(ticks, round(ticks)):
        raise ScenarioError(f"{value!r} is not a whole number of ticks")
    return int(round(ticks))


# --- running ---------------------------------------------------------------------------------------------


def load_file(path: str | Path) -> dict[str, Any]:
    try:
        spec = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(spec, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping")
    return spec


# Draws a nation's picture for a render step: (view, events it was told since the last expect
# step, the square to centre a crop on or None for the whole map, the crop's radius, title) ->
# PNG bytes. The renderers provide one (`renderers.strategic.painter.paint`); without one,
# render steps check what the view shows and write no picture.
Painter = Callable[[View, list[ev.Event], int | None, int, str], bytes]


def run_file(
    path: str | Path, *, out_dir: str | Path | None = None, painter: Painter | None = None
) -> Report:
    try:
        spec = load_file(path)
        return run(spec, path=str(path), out_dir=out_dir, painter=painter)
    except ScenarioError as exc:
        return Report(name=Path(path).stem, path=str(path), failures=[f"scenario error: {exc}"])


def run(
    spec: dict[str, Any],
    *,
    path: str = "<scenario>",
    out_dir: str | Path | None = None,
    painter: Painter | None = None,
) -> Report:
    """Run a scenario. Render steps draw with `painter` and write their pictures under
    `out_dir` (default: a `si-renders` folder in the system's temporary directory)."""
    world, letters = build_world(spec)
    report = Report(name=spec.get("name", Path(path).stem), path=path, world=world)
    dice = PinnedDice(world.rng.state, _dice(spec.get("dice") or [], "dice"))
    world.rng = dice
    since: list[ev.Event] = []
    for number, step in enumerate(spec.get("steps") or [], start=1):
        if not isinstance(step, dict) or len(step) != 1:
            raise ScenarioError(f"step {number}: a step is one of do, reject, advance, expect")
        ((action, body),) = step.items()
        where = f"step {number} ({action})"
        if action == "reload":
            world = _reload(world, where, report)
            continue
        try:
            since = _step(world, action, body, where, letters, since, report, out_dir, painter)
        except DiceError as exc:  # a pinned die the roll cannot give
            report.failures.append(f"{where}: {exc}")
    if dice.pinned:
        report.failures.append(
            f"{len(dice.pinned)} pinned dice were never rolled ({dice.pinned}): pin only the "
            "rolls the scenario makes"
        )
    return report


def _reload(world: World, where: str, report: Report) -> World:
    """The world saved and loaded again, as after a restart (the pinned dice go on); a world
    that loads differently from how it was saved fails the step."""
    loaded = World.from_dict(world.to_dict(), rules=world.rules)
    loaded.rng = world.rng
    if loaded.hash() != world.hash():
        report.failures.append(f"{where}: the world loaded again differs from the one saved")
    report.world = loaded
    return loaded


def _dice(values: Any, where: str) -> list[int]:
    if not isinstance(values, list) or not all(isinstance(v, int) for v in values):
        raise ScenarioError(f"{where}: dice are a list of whole numbers, e.g. [5, 3]")
    return list(values)


def _step(
    world: World,
    action: str,
    body: Any,
    where: str,
    letters: dict[str, int],
    since: list[ev.Event],
    report: Report,
    out_dir: str | Path | None,
    painter: Painter | None,
) -> list[ev.Event]:
    """One step; returns the events told since the last expect step."""
    if action == "dice":
        assert isinstance(world.rng, PinnedDice)
        world.rng.pin(_dice(body, where))
    elif action == "do":
        nation, command = _command(body, letters, world)
        try:
            since.extend(apply(world, nation, command))
        except CommandError as exc:
            report.failures.append(f"{where}: command rejected: {exc}")
    elif action == "reject":
        expected = str(body.get("error", ""))
        nation, command = _command({k: v for k, v in body.items() if k != "error"}, letters, world)
        before = world.hash()
        try:
            apply(world, nation, command)
            report.failures.append(
                f"{where}: expected the command to be rejected, but it was accepted"
            )
        except CommandError as exc:
            if expected.lower() not in str(exc).lower():
                report.failures.append(
                    f"{where}: rejected with {str(exc)!r}, expected a message containing {expected!r}"
                )
            if world.hash() != before:
                report.failures.append(f"{where}: a rejected command changed the world")
    elif action == "advance":
        since.extend(advance(world, _duration(world, body)))
    elif action == "expect":
        report.failures.extend(f"{where}: {f}" for f in _check(world, body, letters, since))
        since = []
    elif action == "render":
        failures, picture = _render(world, body, letters, since, out_dir, painter)
        report.failures.extend(f"{where}: {f}" for f in failures)
        if picture is not None:
            report.pictures.append(picture)
    else:
        raise ScenarioError(
            f"{where}: unknown step {action!r} (do, reject, advance, expect, render, dice, reload)"
        )
    return since


def _render(
    world: World,
    body: dict[str, Any],
    letters: dict[str, int],
    since: list[ev.Event],
    out_dir: str | Path | None,
    painter: Painter | None,
) -> tuple[list[str], Path | None]:
    """Draw a nation's picture (full map, or a crop with `at` and `radius`) to `file`, with
    markers for the events since the last expect step; `shows` / `hides` list unit ids that
    must (not) be in the nation's view; `cities` maps squares to the owner the nation's view
    must show there (null: neutral; "unknown": no city known there)."""
    import tempfile

    unknown = set(body) - {"nation", "file", "at", "radius", "shows", "hides", "cities", "title"}
    if unknown:
        raise ScenarioError(f"render: unknown keys {sorted(unknown)}")
    nation = str(body.get("nation", ""))
    if nation not in world.nations:
        raise ScenarioError(f"render: no nation {nation!r}")
    name = str(body.get("file") or f"{nation}-{world.tick}.png")
    base = Path(out_dir) if out_dir is not None else Path(tempfile.gettempdir()) / "si-renders"
    target: Path | None = Path(name) if Path(name).is_absolute() else base / name
    view = view_for(world, nation)
    if painter is not None and target is not None:
        centre = _where(world, body["at"], letters) if "at" in body else None
        told = [e for e in since if nation in e.to]
        png = painter(
            view, told, centre, int(body.get("radius", 4)), str(body.get("title", "scenario"))
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(png)
    else:
        target = None
    failures = []
    in_view = {u.id for u in view.units}
    for uid in body.get("shows") or []:
        if int(uid) not in in_view:
            failures.append(f"unit {uid} is not in {nation}'s view")
    for uid in body.get("hides") or []:
        if int(uid) in in_view:
            failures.append(f"unit {uid} is in {nation}'s view but should be hidden")
    for where_, owner in (body.get("cities") or {}).items():
        sq = _where(world, where_, letters)
        city = view.cities.get(sq)
        shown = "unknown" if city is None else city.owner
        if shown != owner:
            failures.append(
                f"{nation}'s view shows the city at {world.grid.label(sq)} as {shown!r}, expected {owner!r}"
            )
    return failures, target


def _command(body: dict[str, Any], letters: dict[str, int], world: World):
    body = dict(body)
    nation = body.pop("nation", None)
    if nation is None:
        raise ScenarioError("a command needs `nation`")
    for key in ("city", "to", "target"):
        if isinstance(body.get(key), str) and body[key] in letters:
            body[key] = world.grid.label(letters[body[key]])
    try:
        return str(nation), command_from_dict(body)
    except ValidationError as exc:
        raise ScenarioError(f"bad command {body}: {exc.errors()[0]['msg']}") from exc


# --- expectations ----------------------------------------------------------------------------------------


def _matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and "approx" in expected:
        tol = float(expected.get("tol", 1e-6))
        return actual is not None and abs(float(actual) - float(expected["approx"])) <= tol
    if (
        isinstance(expected, list)
        and len(expected) == 2
        and all(isinstance(v, (int, float)) for v in expected)
        and not isinstance(actual, list)  # a list of two numbers expected as it is
    ):
        return actual is not None and expected[0] <= actual <= expected[1]
    if isinstance(expected, dict) and isinstance(actual, BaseModel):
        # a nested value (an attack's dice): the listed fields match
        return all(_matches(v, getattr(actual, k, None)) for k, v in expected.items())
    if isinstance(expected, float) or isinstance(actual, float):
        return (
            actual is not None
            and expected is not None
            and math.isclose(float(actual), float(expected), abs_tol=1e-9)
        )
    return expected == actual


def _describe(expected: Any) -> str:
    if isinstance(expected, dict) and "approx" in expected:
        return f"{expected['approx']} ± {expected.get('tol', 1e-6)}"
    if isinstance(expected, list) and len(expected) == 2:
        return f"between {expected[0]} and {expected[1]}"
    return repr(expected)


DERIVED_NATION_FIELDS = {
    "units": lambda world, nid: len(world.units_of(nid)),
    "cities": lambda world, nid: len(world.cities_of(nid)),
    "power": power,
    "power_limit": power_limit,
}


def _check(
    world: World, body: dict[str, Any], letters: dict[str, int], since: list[ev.Event]
) -> list[str]:
    failures: list[str] = []
    label = world.grid.label
    for uid, exp in (body.get("units") or {}).items():
        unit = world.units.get(int(uid))
        if exp == "gone":
            if unit is not None:
                failures.append(
                    f"unit {uid}: expected gone, still at {label(unit.sq)} with {unit.hp} hp"
                )
            continue
        if unit is None:
            failures.append(f"unit {uid}: expected to exist, but it is gone")
            continue
        for key, want in exp.items():
            got: Any
            if key == "at":
                got = label(unit.sq)
                want = label(_where(world, want, letters))
            elif key == "in_supply":
                from engine.strategic.systems.supply import in_supply

                got = in_supply(world, unit)
            elif key == "order":
                got = None if unit.order is None else label(unit.order)
                want = None if want is None else label(_where(world, want, letters))
            else:
                if not hasattr(unit, key):
                    raise ScenarioError(f"units have no field {key!r}")
                got = getattr(unit, key)
            if not _matches(want, got):
                failures.append(f"unit {uid} {key}: expected {_describe(want)}, got {got!r}")
    for key, exp in (body.get("cities") or {}).items():
        sq = _where(world, key, letters)
        city = world.cities.get(sq)
        if city is None:
            failures.append(f"city {key}: expected a city at {label(sq)}, there is none")
            continue
        for field_name, want in exp.items():
            attr = {"next": "next_build"}.get(field_name, field_name)
            if field_name == "progress":
                want = _duration(world, want) if not isinstance(want, list) else want
            if not hasattr(city, attr):
                raise ScenarioError(f"cities have no field {field_name!r}")
            got = getattr(city, attr)
            if field_name == "waypoint" and got is not None:
                got = label(got)
            if not _matches(want, got):
                failures.append(f"city {key} {field_name}: expected {_describe(want)}, got {got!r}")
    for nid, exp in (body.get("nations") or {}).items():
        nation = world.nations.get(nid)
        if nation is None:
            failures.append(f"nation {nid}: there is no such nation")
            continue
        for key, want in exp.items():
            if key == "relations":
                for other, level in want.items():
                    got = world.relation(nid, other)
                    if got != level:
                        failures.append(
                            f"nation {nid} towards {other}: expected {level}, got {got}"
                        )
                continue
            if key in DERIVED_NATION_FIELDS:
                got = DERIVED_NATION_FIELDS[key](world, nid)
            else:
                if not hasattr(nation, key):
                    raise ScenarioError(f"nations have no field {key!r}")
                got = getattr(nation, key)
            if not _matches(want, got):
                failures.append(f"nation {nid} {key}: expected {_describe(want)}, got {got!r}")
    if "ecology" in body and not _matches(body["ecology"], world.ecology):
        failures.append(f"ecology: expected {_describe(body['ecology'])}, got {world.ecology}")
    if "ended" in body and bool(body["ended"]) != world.ended:
        failures.append(f"ended: expected {body['ended']}, got {world.ended}")
    if "tick" in body and not _matches(_duration(world, body["tick"]), world.tick):
        failures.append(f"tick: expected {body['tick']}, got {world.tick}")
    if "terrain" in body:
        for key, want in body["terrain"].items():
            sq = _where(world, key, letters)
            got = {WATER: "water", LAND: "land", WASTE: "waste"}[world.terrain[sq]]
            if sq in world.wastelands:
                got = "wasteland"
            if got != want:
                failures.append(f"terrain {label(sq)}: expected {want}, got {got}")
    for spec in body.get("events") or []:
        spec = dict(spec)
        count = spec.pop("count", None)
        kind = spec.pop("kind")
        found = [
            e
            for e in since
            if e.kind == kind and all(_matches(v, getattr(e, k, None)) for k, v in spec.items())
        ]
        if count is None and not found:
            failures.append(
                f"expected an event {kind} {spec or ''} since the last expect; got {_summary(since)}"
            )
        elif count is not None and not _matches(count, len(found)):
            failures.append(
                f"expected {_describe(count)} events {kind} {spec or ''}, got {len(found)}"
            )
    for kind in body.get("no_events") or []:
        found = [e for e in since if e.kind == kind]
        if found:
            failures.append(f"expected no {kind} event, got {len(found)}: {found[0].model_dump()}")
    return failures


def _summary(events: list[ev.Event]) -> str:
    if not events:
        return "no events"
    kinds: dict[str, int] = {}
    for e in events:
        kinds[e.kind] = kinds.get(e.kind, 0) + 1
    return ", ".join(f"{k} x{n}" for k, n in kinds.items())
