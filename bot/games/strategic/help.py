"""Strategic Initiative's /help pages: the rules explained to a player, one topic a page, every
number read from the game's ruleset, so the help never drifts from the game. The wording
follows docs/RULES.md. Pure: `page(rules, topic)` (the shell's `bot.guide.Guide` asks for it)."""

from __future__ import annotations

from collections.abc import Callable

from bot.context import UserError
from bot.guide import DEFAULT_TOPIC
from engine.strategic.rules import Ruleset, UnitType

LIMIT = 2000  # Discord's message limit: a help page is one message, never cut

# topic -> its title, in the order they are offered
TOPICS: dict[str, str] = {
    "start": "first steps",
    "units": "units and tech",
    "cp": "command points",
    "power": "power",
    "supply": "supply, moving and healing",
    "combat": "combat",
    "battles": "battles in rounds and generations",
    "diplomacy": "diplomacy and the end",
    "icbms": "ICBMs",
    "commands": "the commands",
}
_PLACES = {"any_city": "any city of your team", "capital_ship": "capital ships"}


# --- words --------------------------------------------------------------------------------------


def _title(rules: Ruleset, name: str) -> str:
    unit = rules.unit.get(name)
    return unit.title if unit is not None else name.replace("_", " ")


def _city(rules: Ruleset, name: str) -> str:
    city = rules.city.get(name)
    return city.title.lower() if city is not None else name


def _level(level: str) -> str:
    return level.replace("_", "-")


def _listing(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _points(n: int) -> str:
    return "free" if n == 0 else f"{n} CP"


def _selector(rules: Ruleset, selector: str) -> str:
    """`class:land` -> 'land', `tag:icbm` -> 'ICBM', `light_air` -> 'light air', a unit type
    -> its title."""
    if selector.startswith("class:"):
        return selector[6:]
    if selector.startswith("tag:"):
        tag = selector[4:]
        return tag.upper() if tag == "icbm" else tag
    if selector == "light_air":
        return "light air"
    if selector == "capital":
        return "capital ships"
    return _title(rules, selector).lower()


def _units_where(rules: Ruleset, test: Callable[[UnitType], bool]) -> str:
    return _listing([u.title.lower() for u in rules.units if test(u)])


# --- the pages ----------------------------------------------------------------------------------


def _start(r: Ruleset) -> list[str]:
    cp = r.command_points
    first = (
        _listing([f"{n} {_title(r, t).lower()}" for t, n in r.start.units.items()]) or "no units"
    )
    second = _listing([f"{n} {_title(r, t).lower()}" for t, n in r.start.second_units.items()])
    homes = _listing([_city(r, c) for c in r.start.cities])
    return [
        f"Time runs by itself: a tick is {r.time.minutes_per_tick} game minutes, a game lasts "
        f"{r.time.default_length_days} game days unless its creator chose otherwise "
        "(`/status` shows the clock). Orders are carried out at once.",
        f"You start with {len(r.start.cities)} home cities ({homes}): {first} in the first"
        + (f", {second} in the second" if second else "")
        + f", {cp.start} command points (at most {cp.max}), tech 0, and "
        f"{r.start.neutral_cities_near_home} neutral cities near home to take.",
        f"Units regain mobility and heal every {r.time.unit_update_hours} game hours; a unit "
        "without the mobility to arrive walks on by itself at each update.",
        "Squares are written `x,y` as the map shows them; unit lists take `12`, `12 13` or "
        "`12-15`.",
        "**First orders**",
        "1. `/map` (zoom: `/map at:12,7 radius:5`), `/units`, `/cities`, `/status`",
        f"2. `/attack units:12 target:14,7`: land units take an empty neutral city "
        f"({_points(cp.costs.capture)})",
        "3. `/build city:12,7 unit:tank` and `/designate city:12,7 designation:port`: what "
        "your cities make (free)",
        "4. `/move units:12 13 to:14,7`: move on the map as you know it "
        f"({_points(cp.costs.move)})",
        "The team of allies holding the most cities when time is up wins.",
        "**Topics**: " + ", ".join(f"`{k}` {v}" for k, v in TOPICS.items() if k != "start"),
    ]


def _attack_cell(u: UnitType) -> str:
    if u.blast_radius is not None:
        return f"blast{u.blast_radius}"
    parts = []
    if u.attack:
        parts.append(str(u.attack))
    if u.bomb_percent:
        parts.append(f"b{u.bomb_percent}%")
    return "/".join(parts) or "-"


def _range_cell(u: UnitType) -> str:
    if u.needs_fuel:
        return str(u.full_fuel)
    if u.launchable:
        return str(u.mobility)
    return "-"


def _units(r: Ruleset) -> list[str]:
    rows = [
        f"{'unit':<18}{'city':<8}{'tech':>4}{'h':>4}{'hp':>4}{'att':>7}{'mob':>4}{'rng':>4} carries"
    ]
    structures = []
    for u in r.units:
        if u.structure is not None:
            structures.append(u)
            continue
        if u.generation_of is not None:
            continue  # on the battles page
        carries = ""
        if u.capacity:
            carries = f"{u.capacity} " + "+".join(_selector(r, s) for s in u.carries)
        where = _city(r, u.built_in).split()[0][:7]
        rows.append(
            f"{u.title[:17]:<18}{where:<8}{u.tech:>4}{u.cost_hours:>4}{u.hp:>4}"
            f"{_attack_cell(u):>7}{u.mobility:>4}{_range_cell(u):>4} {carries}".rstrip()
        )
    gains = r.tech.daily_gain
    lines = [
        "```",
        *rows,
        "```",
        "tech: needed to build it; h: build hours; att: attack (b: bombs that % of each unit's "
        "hp; blast: ICBM radius); mob: squares per update (up to "
        f"{r.mobility.cap_multiple}x stored); rng: fuel of aircraft, reach of launches.",
    ]
    for s in structures:
        what = (
            f"the {_city(r, s.built_in)} becomes a {_city(r, s.becomes)}"
            if s.becomes
            else f"the {_city(r, s.built_in)} counts {1 + s.tech_bonus} tech centres"
        )
        lines.append(f"{s.title} ({s.cost_hours} h, {_city(r, s.built_in)}s): {what}.")
    newer = [u for u in r.units if u.generation_of is not None]
    if newer:
        lines.append(
            f"New generations ({_listing([u.title.lower() for u in newer])}): "
            "`/help topic:battles`."
        )
    lines.append(
        f"Tech grows each day by the number of tech centres: {gains[1]:g} for one, "
        f"{gains[2]:g} for two ... {gains[-1]:g} for {len(gains) - 1} or more, up to "
        f"{r.tech.max:g}. Behind, you catch up each day by the gap to the leader "
        f"÷{r.tech.leak_top_divisor:g} (or to your best ally ÷{r.tech.leak_ally_divisor:g}). A city's "
        f"next build may need up to tech +{r.tech.next_build_margin}."
    )
    return lines


def _cp(r: Ruleset) -> list[str]:
    cp = r.command_points
    regen = cp.regen
    c = cp.costs
    capital = _units_where(r, lambda u: u.capital)
    formula = f"{regen.per_city} per city"
    if regen.per_base_extra:
        formula += f" + {regen.per_base_extra} more per base"
    if regen.per_capital_ship:
        formula += f" + {regen.per_capital_ship} per capital ship ({capital})"
    if regen.divisor != 1:
        formula = f"({formula}) ÷ {regen.divisor}"
    per_hour = r.ticks_per_hour
    return [
        f"You start with {cp.start} command points (CP) and hold at most {cp.max}. Every tick "
        f"({r.time.minutes_per_tick} min) you gain {formula}, at least {regen.min} and at most "
        f"{regen.max} (so {regen.min * per_hour} to {regen.max * per_hour} an hour).",
        "An order is charged only when it is accepted: a refused order costs nothing.",
        "```",
        f"move (any number of units)   {_points(c.move):>8}  /move units:12 13 to:14,7",
        f"attack                       {_points(c.attack):>8}  /attack units:12 target:15,7",
        f"attack that takes a city     {_points(c.capture):>8}",
        f"launch a satellite           {_points(c.launch_satellite):>8}  /launch unit:40 target:30,9",
        f"launch an ICBM               {_points(c.launch_icbm):>8}",
        f"engineer: switch terrain     {_points(c.switch_terrain):>8}  /engineer unit:7 action:switch_terrain",
        f"engineer: found a city       {_points(c.build_city):>8}  /engineer unit:7 action:build_city",
        f"city orders                  {_points(c.city_orders):>8}  /build city:12,7 unit:tank",
        "                                       /designate city:12,7 designation:port",
        f"diplomacy                    {_points(c.diplomacy):>8}  /diplomacy nation:Blue level:war",
        f"cancel, board                {'free':>8}  /cancel units:12  /board units:12 carrier:20",
        "```",
        f"An engineer also needs {r.engineer.build_city_mobility} mobility to found a city "
        f"and {r.engineer.switch_terrain_mobility} to switch terrain. `/status` shows your CP "
        "and what an hour brings.",
    ]


def _power_example(r: Ruleset) -> str:
    """'Example: ...' with the first start units, so the numbers are the ruleset's."""
    p = r.power
    if not r.start.units:
        return ""
    name, count = next(iter(r.start.units.items()))
    hours = count * r.unit[name].cost_hours
    power = (hours + p.hours_per_point // 2) // p.hours_per_point
    return (
        f"Example: with 2 cities your limit is {2 * p.limit_per_city}; your {count} starting "
        f"{_title(r, name).lower()} are {hours} build hours, power {power}."
    )


def _power(r: Ruleset) -> list[str]:
    p = r.power
    free = _units_where(r, lambda u: not u.counts_for_power and u.structure is None)
    half = p.hours_per_point // 2
    return [
        f"Power is what your units cost to build: the build hours of all your units, counted "
        f"in {p.hours_per_point}s, rounded ((hours + {half}) ÷ {p.hours_per_point})"
        + (f"; {free} units count nothing" if free else "")
        + ".",
        f"Your limit is {p.limit_per_city} per city you hold. A build that would take power "
        "past the limit is skipped: no unit, the city starts its next one, and you are told "
        "once.",
        _power_example(r),
        "More cities, more power: take neutral cities, capture the enemy's, or have an "
        "engineer found one (`/engineer`). `/status` shows your power and limit.",
        "A city builds one unit at a time; changing what it builds loses the progress. Its "
        "designation follows the unit: "
        + "; ".join(
            f"{_city(r, c.name)}: "
            + ", ".join(u.title.lower() for u in r.builds_of(c.name) if u.structure is None)
            for c in r.cities
            if c.builds_units and r.builds_of(c.name)
        )
        + ".",
        "Ports only next to water. "
        + (
            "A city may be made a base directly."
            if r.city.get("base") is not None and r.city["base"].designatable
            else "A tech centre becomes a base by building Base; bases build nothing."
        )
        + f" Captured and founded cities start as {_city(r, r.capture.new_designation)}s.",
    ]


def _supply(r: Ruleset) -> list[str]:
    h = r.healing
    land = _units_where(r, lambda u: u.supplies_land and u.structure is None)
    sea = _units_where(r, lambda u: u.supplies_sea and u.structure is None)
    unneeded = _units_where(r, lambda u: not u.needs_supply and u.unit_class in ("land", "sea"))
    cap = (
        f", up to {h.in_supply_cap_percent}% of full"
        if h.in_supply_cap_percent < 100
        else ", to full"
    )
    return [
        f"**Supply** reaches {r.supply.radius} squares (as the crow flies) from your team's "
        f"cities for land units, from ports and bases for ships"
        + ". Your own units carrying ammunition supply too"
        + (f": {land} (land units)" if land else "")
        + (f", {sea} (ships)" if sea else "")
        + "."
        + (f" {unneeded.capitalize()} need no supply." if unneeded else ""),
        f"Out of supply a land or sea unit pays {r.supply.out_of_supply_step_cost} mobility a "
        "step (decided on the square it leaves) and its ammunition is not replaced.",
        f"**Moving**: 1 mobility a step. Mobility comes every {r.time.unit_update_hours} game "
        f"hours, stored up to {r.mobility.cap_multiple}x the unit's mobility. Paths are planned "
        "on the map as you know it; without enough mobility a unit goes as far as it can and "
        "keeps a standing order (`/cancel` drops it). Nobody moves into a foreign or neutral "
        "city: cities are taken with `/attack`. One ship per sea square; ships move one per "
        "order.",
        "**Aircraft** spend 1 fuel a square and refuel and rearm where they may land: "
        + "; ".join(
            f"{u.title.lower()} at {', '.join(_PLACES.get(p.value, p.value) for p in u.refuel_at)}"
            for u in r.units
            if u.needs_fuel
        )
        + ".",
        f"**Healing** every {r.time.unit_update_hours} hours: {h.in_city_percent}% of full hp "
        f"in a city of your team, else {h.in_supply_percent}% in supply{cap}.",
        f"**Sight**: enemy units seen stay on your map where last seen for "
        f"{r.sighting.memory_hours} hours (submarines {r.sighting.sub_memory_hours}); you may "
        "attack them there."
        + (
            f" Enemy units you see within {r.sighting.threat_radius} squares of one of your "
            "cities are reported by DM, once until they leave."
            if r.sighting.threat_radius is not None
            else ""
        ),
    ]


def _who_attacks_what(r: Ruleset) -> str:
    """Which units may fire at what, read from the ruleset's flags as the engine's `can_hit`
    reads them (docs/RULES.md, who attacks what)."""

    def titles(units) -> str:
        return _listing([f"{u.title.lower()}s" for u in units]) or "none"

    def fires(u: UnitType) -> bool:
        return bool(u.attack) or u.bomb_percent is not None

    ships = [u for u in r.units if u.unit_class.value == "sea" and fires(u)]
    land = [u for u in r.units if u.unit_class.value == "land" and fires(u)]
    air = [u for u in r.units if u.unit_class.value == "air" and fires(u)]
    bombers = [u for u in air if u.bomb_percent is not None]
    idle = [u for u in r.units if not fires(u) and u.moves_on.value != "none"]
    return (
        "**Who attacks what**: ships fire at ships and into coastal cities; of them only "
        f"{titles(u for u in ships if u.can_attack_land)} also hit land units outside "
        "cities. Land units fight on land; of them only "
        f"{titles(u for u in land if u.can_attack_sea)} fire at ships. Aircraft strike "
        f"anything on land, cities included ({titles(bombers)} bomb it: every enemy "
        f"unit on the square loses that % of its hp, rounded {r.combat.bomb_rounding}); "
        f"over open water only {titles(u for u in air if u.can_attack_sea)} strike ships, "
        f"and aircraft with an attack ({titles(u for u in air if u.attack)}) hit aircraft. "
        f"{titles(idle).capitalize()} do not attack."
    )


def _combat(r: Ruleset) -> list[str]:
    cb = r.combat
    c = r.command_points.costs
    mults = []
    for m in cb.multipliers:
        text = f"{_selector(r, m.attacker)} x{m.factor} vs {_selector(r, m.defender)}"
        if m.exclude:
            text += f" (not {', '.join(_selector(r, e) for e in m.exclude)})"
        mults.append(text)
    forts = r.city["fort"].halves_damage_to if "fort" in r.city else []
    return [
        f"`/attack units:12 13 target:15,7` ({_points(c.attack)}, {_points(c.capture)} when "
        "it takes a city): the units walk next to the target and attack in turn, each for 1 "
        "mobility and 1 ammunition. You must be at war, and see the target (or remember it).",
        f"**Damage** is a random whole number from {cb.damage_min_fraction:g}x to 1x the "
        f"attack, times the multiplier: {'; '.join(mults)}. Aircraft in a city take "
        f"x{cb.air_in_city_factor}, ships in port x{cb.ship_in_port_factor}. Forts halve damage "
        f"to {'/'.join(_selector(r, s) for s in forts)} units; bases to land units.",
        "**First fire**: a ship attacking a city takes its cannons first, an aircraft "
        "attacking a square its flak ("
        + ", ".join(
            f"{_city(r, x.name)} {x.flak or '-'}/{x.cannon or '-'}"
            for x in r.cities
            if x.flak or x.cannon
        )
        + ", as flak/cannons). A surviving defender with ammunition fires back once.",
        _who_attacks_what(r),
        (
            "**Here attacks on units are battles in rounds**: `/help topic:battles`."
            if r.battle is not None
            else ""
        ),
        f"**Capture**: a land unit takes an empty enemy (at war) or neutral city; it loses "
        f"{r.capture.hp_loss} hp and the city becomes a {_city(r, r.capture.new_designation)}.",
        f"**Interception**: fighters scramble at hostile units moving within "
        f"{cb.interception_radius} squares ("
        + "/".join(t.removeprefix("class:") for t in cb.interception_targets)
        + f"; fighters under {cb.interception_min_hp} hp stay home). A ship that moves near "
        "hostile warships is fired on and stopped (interdiction).",
        "**Two-part ICBMs**, wastelands and the ecological meter: `/help topic:icbms`."
        if r.icbm is not None
        else "**ICBMs** (`/launch`) kill every unit in the blast and devastate player "
        "cities; a nation hit may fire back (MAD).",
    ]


def _icbms(r: Ruleset) -> list[str]:
    if r.icbm is not None:
        return _two_part_icbms(r)
    icbms = [u for u in r.units if u.blast_radius is not None]
    return [
        "**ICBMs** ("
        + _listing([f"{u.title}: tech {u.tech}, radius {u.blast_radius}" for u in icbms])
        + ") are built in tech centres and launched with `/launch unit:40 target:30,9` at a "
        f"square within their range (their mobility), for "
        f"{_points(r.command_points.costs.launch_icbm)}. One kills every unit in its blast "
        "(its owner's too) and devastates the player cities there: they are gone, and their "
        "squares are waste nobody may enter.",
        "**MAD**: each nation that lost a city declares war on the launcher and, with an ICBM "
        "in range, fires back at once at the best target it sees, if it is worth "
        f"{r.combat.mad_threshold} or more (unit build hours + {r.combat.mad_city_score} a "
        "city, times the owner's relation: "
        + ", ".join(f"{_level(k)} {v:+d}" for k, v in r.combat.mad_relation_modifier.items())
        + ").",
    ]


def _two_part_icbms(r: Ruleset) -> list[str]:
    """Seed 002's ICBMs and wastelands (ruleset total-war), with the ruleset's numbers."""
    icbm = r.icbm
    assert icbm is not None
    bases = [u for u in r.units if u.icbm_part == "base"]
    heads = [u for u in r.units if u.icbm_part == "warhead"]
    subs = "/".join(_selector(r, s) for s in icbm.effective_exclude)
    defence = ", ".join(f"{d.percent}% from tech {d.tech}" for d in icbm.defence) or "none"
    lines = [
        "**Two-part ICBMs** (`/launch unit:` a base or a warhead): "
        + _listing([f"{u.title} ({u.hit_percent}% to hit)" for u in bases])
        + " and "
        + _listing(
            [
                f"{u.title} (+{u.hit_percent}%, {u.blast_damage_percent}% damage, "
                f"radius {u.blast_radius})"
                for u in heads
            ]
        )
        + ", built in tech centres, launch together from a city of yours where both stood "
        "since before the game hour began (not built, moved or taken this hour), at any "
        f"square, for {_points(r.command_points.costs.launch_icbm)}. Chance to hit: base + "
        f"warhead - the target city's owner's ICBM defence ({defence}); a miss explodes "
        f"harmlessly; both parts are spent. Ships (not {subs}s) take "
        f"{icbm.effective_damage_percent}% of the damage. Parts move like land units "
        f"but cannot take cities; in a captured city each is destroyed "
        f"{icbm.capture_destroy_percent}% of the time, the rest change hands.",
    ]
    w = r.wastelands
    if w is not None:
        lines.append(
            f"**Wastelands**: a city hit becomes a wasteland for {w.days} days: units may "
            "cross it, but a unit ending a tick there dies. Then it is its former owner's "
            f"again at {w.returns_at_percent}% output (builds take that much longer); "
            f"`/invest city:12,7 points:80` restores 1% of output for every {w.invest_points} command "
            f"points, up to what it produced. Each wasteland adds {w.ecology_per_wasteland} to "
            f"the ecological meter (`/status`); at {w.collapse_at} society collapses: the game "
            "ends and every nation loses."
        )
    return lines


def _defenders(r: Ruleset, names: list[str]) -> str:
    """A row of the effectiveness table: unit titles, or a whole class ("ships") when the row
    holds every unit of it that fights or can be fought."""
    left = list(names)
    words = []
    for cls, word in (("sea", "ships"), ("land", "land units"), ("air", "aircraft")):
        every = [u.name for u in r.units if u.unit_class.value == cls]
        if all(n in left for n in every):
            words.append(word)
            left = [n for n in left if n not in every]
    return ", ".join(words + [_title(r, n).lower() for n in left])


def _battles(r: Ruleset) -> list[str]:
    b = r.battle
    if b is None:
        return [
            f"In the {r.title} rules an attack is one exchange (`/help topic:combat`). The "
            "Total War rules (`/game create` with ruleset total-war) fight battles in rounds, "
            "with an effectiveness table and new generations of units."
        ]
    cb = r.combat
    lines = [
        f"`/attack` is one battle between the units you send ({_points(r.command_points.costs.attack)}, "
        "however many; 1 mobility each) and every enemy unit on the square. The square's flak "
        "and cannons fire first as always; then your units attack, then the defenders, "
        f"{b.turns} turns a side at most; it ends when a side is gone.",
        "Each unit attacks once a turn: a target it is effective against first, else one at "
        "random. N = attack + the target's defence (its hp now; "
        f"x{cb.fort_divisor} in a fort for what it protects, ÷{cb.air_in_city_factor} aircraft "
        f"in a city, ÷{cb.ship_in_port_factor} ships in port). A roll of 1 to N at or under "
        "the attack destroys the target; else the target, if it can, fires back once (never "
        f"answered). A side's turn ends after ceil(its units ÷ {b.misses_per_troops}) misses.",
        f"**Effective**: +{b.effective_bonus_percent}% attack (rounded up). **Weak**: the "
        f"defender's counter +{b.weak_bonus_percent}%.",
        "```",
        *(f"{_title(r, a).lower()[:14]:<14} > {_defenders(r, d)}" for a, d in b.effective.items()),
        "```",
        "Weak against:",
        "```",
        *(f"{_title(r, a).lower()[:14]:<14} < {_defenders(r, d)}" for a, d in b.weak.items()),
        "```",
    ]
    newer = [u for u in r.units if u.generation_of is not None]
    if newer:
        lines.append(
            "**Generations** (unlocked by tech; they have the older one's rows too): "
            + "; ".join(
                f"{u.title.lower()} (tech {u.tech}, after {_title(r, u.generation_of).lower()}"
                f"): att {u.attack or 0}, hp {u.hp}, mob {u.mobility}"
                for u in newer
                if u.generation_of is not None
            )
            + ". Old units keep all they had."
        )
    return lines


def _diplomacy(r: Ruleset) -> list[str]:
    d = r.diplomacy
    levels = " < ".join(_level(x) for x in d.levels)
    notice = ", ".join(f"{_level(k)} {v} h" for k, v in d.notice_hours.items())
    return [
        f"Relations, lowest first: {levels}. Everybody starts {_level(d.start)}.",
        "`/diplomacy nation:Blue level:war` (free). Raising a relation is an offer: what a "
        "level allows needs both sides at it. Lowering is at once"
        + (f", except that leaving a level takes notice ({notice})" if notice else "")
        + "; the other side drops at once to at least as low.",
        f"Attacking needs {_level(d.war)}. "
        + (f"At most {d.max_allies} ally. " if d.max_allies is not None else "")
        + f"{_listing([_level(x) for x in d.blocks_interception]).capitalize()} nations do "
        "not intercept or interdict each other; allies share supply, refuelling and sight; "
        f"{_listing([_level(x) for x in d.shares_sightings])} nations pass their sightings on.",
        "Declaring war ends friendship with the enemy's allies; becoming allied ends "
        "friendship with those your ally is at war with.",
        "**The end**: a nation with no cities and no units is out. When time is up the team "
        "of mutual allies with the most cities wins; tied teams all win. `/nations` lists "
        "everyone and your relations.",
    ]


def _commands(r: Ruleset) -> list[str]:
    return [
        "**Orders** (cost: `/help topic:cp`)",
        "`/move units:12 13 to:14,7` move; `/cancel units:12` drop standing orders",
        "`/attack units:12 target:15,7` attack or take a city (`queue:True`: once in range)",
        "`/build city:12,7 unit:tank` build now (`next:True`: after the current one)",
        "`/designate city:12,7 designation:port` what a city is",
        "`/waypoint city:12,7 to:14,7` where its new units go",
        "`/board units:12 13 carrier:20` go aboard a ship or plane",
        "`/launch unit:40 target:30,9` a satellite or an ICBM",
        "`/engineer unit:7 action:build_city` found a city (or `switch_terrain`)",
        "`/diplomacy nation:Blue level:war` your relation to a nation",
        "`/disband units:12`; `/cede to:Blue units:12` (or `city:12,7`) to an ally; "
        "`/invest city:12,7 points:80` (total-war)",
        "**Choosing units** (`units:` of every order): ids `12 13`, a range `12-15`, or "
        "groups: `all at 12,7`, `tanks at 12,7`, `idle tanks`, `ready ships`, `damaged "
        "land`, `tanks and infantry at 3,4`. Kinds: a type (`tank`, "
        "`tanks`, `inf`), a family (`bombers`) or a class (`land`, `ships`, `aircraft`); "
        "qualifiers `idle`, `moving`, `ready`, `damaged`; `at x,y`, `aboard N`. Units "
        "unable to obey are skipped and named.",
        "**Looking**",
        "`/map` your map (`at:12,7 radius:5` zooms); `/status`; `/cities`; `/nations`",
        "`/units` your units, filtered: `type:tank`, `at:12,7`, `ready:True` (mobility "
        "left), `orders:with`/`without` (standing orders), `group:square`",
        "`/news` recent DM reports; `/help topic:...` these pages",
        "**Games**",
        "`/game create`, `/game islands`, `/game join`, "
        "`/game add-ai`, `/game start`, "
        "`/game leave`, `/game resign`, `/game caretaker`, `/game list`, `/game info`",
        "`/notify` quiet hours, muted topics, sitreps, pictures",
        "`/stats server` standings, `/stats player`, `/stats game` results and charts",
        "Moderators: `/mod pause`, `/mod resume`, `/mod speed`, `/mod tick`, `/mod end`, "
        "`/mod kick`, `/mod substitute`, `/mod view`, `/mod news`, `/mod delete`",
        "Options suggest your units, cities and unit types.",
    ]


_PAGES: dict[str, Callable[[Ruleset], list[str]]] = {
    "start": _start,
    "units": _units,
    "cp": _cp,
    "power": _power,
    "supply": _supply,
    "combat": _combat,
    "battles": _battles,
    "diplomacy": _diplomacy,
    "icbms": _icbms,
    "commands": _commands,
}


def page(rules: Ruleset, topic: str = DEFAULT_TOPIC, *, note: str = "") -> str:
    """One help page: a header naming the topic and the rules, then the topic's lines."""
    if topic not in _PAGES:
        raise UserError(f"There is no help topic {topic!r}: choose {', '.join(TOPICS)}.")
    head = f"**Help: {TOPICS[topic]}** ({rules.title} rules{note})"
    return "\n".join([head, *(line for line in _PAGES[topic](rules) if line)])
