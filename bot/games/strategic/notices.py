"""Engine events as short English lines for a player's DM.

Pure functions: no Discord, no I/O. Every line is written from the recipient nation's point
of view ("Your infantry 12 attacked Blue's tank 40 at 12,7" for the attacker, "Red's infantry
12 attacked your tank 40 at 12,7" for the defender) and is at most `MAX_LINE` characters.

Per event kind (see `describe`; "told" means a line for every nation in `event.to`):

combat
  Attacked, Bombed, Intercepted, Interdicted: told, with damage, counter-fire and hp left.
  UnitDestroyed: told; `digest` drops it when a combat line in the same batch already said the
    unit was destroyed (cargo lost with a ship still gets its own line).
  SubSighted: told (an enemy sub showed itself to us).
  EnemiesSighted: told (enemy units we see came near our city; once until they leave, by the
    engine); a threat. Three or more cities threatened by one enemy fold into one line; one
    city and enemy told twice in a batch (it left and came back) is told once, as last seen.
  IcbmLaunched: told to everyone; BIG.
cities
  CityCaptured: told; BIG when the city is taken by us or from us.
  CityFounded: told to the founder (a rare, map-changing result worth keeping in the log).
  CityCeded: told to both sides and to those who see the city; BIG when ceded to us.
  WastelandReturned: told to the former owner and those who see it (ruleset total-war).
builds
  UnitBuilt, BuildSkipped: told; collapsed per unit type when repeated.
  CityInvested: told (the reply to /invest, ruleset total-war).
  PowerLimitDropped: told (a lost city lowered the power limit below builds under way).
  CityChanged: told (a finished base, or the next build taking over). The same event also
    answers the player's own city commands; it cannot be told apart, so it is told then too.
diplomacy
  RelationChanged: told to both sides; war declared on us is BIG. The automatic mirror of a
    war declaration (B at war with A right after A declared war on B) is folded by `digest`.
tech
  TechReached: told.
  SatelliteLaunched: told (the owner learns where it watches, others only that it is up).
moves
  UnitsMoved: SILENT. It only echoes a move command, which the command reply already said.
  PointsSpent: SILENT. What a command cost: its reply says it.
  OrderCompleted: told (a standing order finished later, on a unit update, not in a reply).
  OrderCancelled, MoveBlocked: told (the player must give a new order).
  TerrainSwitched: told to the engineer's owner (rare and changes the map).
  UnitsDisbanded: told to the owner (the units listed).
diplomacy (cessions)
  UnitsCeded: told to both sides (every unit) and to those who saw some (those units only).
game
  NationJoined, NationLeft, NationEliminated: told; our own elimination is BIG.
  GameStarted, GameEnded: told; BIG.
  PlayerChanged: told (a moderator handed the nation to another player or the AI).

Every event is silent for a nation not in its `to` list.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence

from bot.dm.text import CATEGORIES, DISCORD_LIMIT, clip, pack
from engine.strategic import events as ev
from engine.strategic.events import Event
from engine.strategic.words import article

SECTIONS = (
    "headline",  # the game started or ended
    "losses",  # own cities and units lost, the nation eliminated
    "threats",  # enemies firing on own units, war declared on the nation, subs seen, ICBMs
    "fighting",  # the nation's own attacks, bombings and interceptions
    "news",  # cities taken and founded, diplomacy, tech, joins
    "builds",
    "moves",
    "others",  # fights between other nations (muted by default: the `others` topic)
)
"""The order of a digest's lines: what the player must act on first, routine last
(`section`)."""


def _minutes_per_tick() -> int:
    """Events do not name their ruleset: durations use the tick length every ruleset shares
    (read from data/rulesets/strategic-initiative; a ruleset with another tick length must bring it here)."""
    from engine.strategic.rules import available, load

    lengths = {load(name).time.minutes_per_tick for name in available()}
    if len(lengths) != 1:
        raise RuntimeError(f"rulesets disagree on the tick length: {sorted(lengths)}")
    return lengths.pop()


MINUTES_PER_TICK = _minutes_per_tick()
WAR = "war"  # the war level's name in both rulesets
COLLAPSE_AT = 3  # this many similar events make one line
SHOWN = 4  # items listed in a collapsed line before "and N more"

_CATEGORY: dict[type[Event], str] = {
    ev.Attacked: "combat",
    ev.Bombed: "combat",
    ev.Intercepted: "combat",
    ev.Interdicted: "combat",
    ev.UnitDestroyed: "combat",
    ev.SubSighted: "combat",
    ev.EnemiesSighted: "combat",
    ev.IcbmLaunched: "combat",
    ev.CityCaptured: "cities",
    ev.CityFounded: "cities",
    ev.CityCeded: "cities",
    ev.WastelandReturned: "cities",
    ev.CityInvested: "builds",
    ev.UnitsCeded: "diplomacy",
    ev.UnitsDisbanded: "moves",
    ev.UnitBuilt: "builds",
    ev.BuildSkipped: "builds",
    ev.PowerLimitDropped: "builds",
    ev.CityChanged: "builds",
    ev.RelationChanged: "diplomacy",
    ev.TechReached: "tech",
    ev.SatelliteLaunched: "tech",
    ev.UnitsMoved: "moves",
    ev.PointsSpent: "moves",
    ev.OrderCompleted: "moves",
    ev.OrderCancelled: "moves",
    ev.MoveBlocked: "moves",
    ev.TerrainSwitched: "moves",
    ev.NationJoined: "game",
    ev.NationLeft: "game",
    ev.NationEliminated: "game",
    ev.GameStarted: "game",
    ev.GameEnded: "game",
    ev.PlayerChanged: "game",
}

_SILENT: tuple[type[Event], ...] = (ev.UnitsMoved, ev.PointsSpent)

_UPPER_WORDS = {"icbm"}
_DESIGNATIONS = {"tech": "tech centre"}


def section(event: Event, nation: str) -> str:
    """Where in `nation`'s digest the event's line goes (one of SECTIONS)."""
    me = nation
    match event:
        case ev.GameStarted() | ev.GameEnded():
            return "headline"
        case ev.UnitDestroyed():
            if event.nation == me:
                return "losses"
            return "fighting" if event.by == me else "others"
        case ev.CityCaptured():
            if event.previous == me:
                return "losses"
            return "news" if event.nation == me else "others"
        case ev.NationEliminated():
            return "losses" if event.nation == me else "news"
        case ev.PowerLimitDropped():
            return "losses"
        case ev.Attacked():
            return _party(me, attacker=event.attacker, victims=(event.defender,))
        case ev.Bombed():
            return _party(me, attacker=event.attacker, victims=tuple(event.victims))
        case ev.Intercepted():
            return _party(me, attacker=event.interceptor, victims=(event.mover,))
        case ev.Interdicted():
            return _party(me, attacker=event.interdictor, victims=(event.mover,))
        case ev.EnemiesSighted() | ev.SubSighted() | ev.IcbmLaunched():
            return "threats"
        case ev.RelationChanged():
            war = event.level == WAR and event.due_tick is None
            return "threats" if war and event.other == me else "news"
    cat = category(event)
    return cat if cat in ("builds", "moves") else "news"


def _party(me: str, *, attacker: str, victims: tuple[str, ...]) -> str:
    if me in victims and attacker != me:
        return "threats"
    return "fighting" if attacker == me else "others"


def category(event: Event, nation: str | None = None) -> str:
    """The category a player may mute this event by; one of CATEGORIES. With the recipient
    `nation`: a fight between other nations is `others` (muted by default)."""
    if nation is not None and section(event, nation) == "others":
        return "others"
    for cls in type(event).__mro__:
        if cls in _CATEGORY:
            return _CATEGORY[cls]
    raise KeyError(f"no notice category for {type(event).__name__}")


def is_big(event: Event, nation: str) -> bool:
    """Worth a map picture right away."""
    if nation not in event.to:
        return False
    match event:
        case ev.CityCaptured():
            return nation in (event.nation, event.previous)
        case ev.IcbmLaunched() | ev.GameStarted() | ev.GameEnded():
            return True
        case ev.CityCeded():
            return event.receiver == nation
        case ev.NationEliminated():
            return event.nation == nation
        case ev.RelationChanged():
            return event.other == nation and event.level == WAR and event.due_tick is None
    return False


def describe(event: Event, nation: str, names: dict[str, str]) -> str | None:
    """One line for `nation`, or None when the event is not worth telling it."""
    if nation not in event.to or isinstance(event, _SILENT):
        return None
    writer = _WRITERS.get(type(event))
    if writer is None:
        return None
    text = writer(event, _View(nation, names))
    return None if text is None else clip(text)


def summarise_counts(events: Iterable[Event], nation: str) -> dict[str, int]:
    """How many events `nation` is told of, per category (every category, in CATEGORIES order)."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for event in events:
        if _told(event, nation):
            counts[category(event)] += 1
    return counts


ANSWERED: tuple[type[Event], ...] = (
    ev.CityChanged,  # /build, /designate: "The city at 3,4 now builds ..."
    ev.OrderCancelled,  # /cancel: "Standing orders cancelled for ..."
    ev.CityFounded,  # /engineer: "Engineer 7 founded a city at ..."
    ev.TerrainSwitched,  # /engineer: "Engineer 7 turned 3,4 into water"
    ev.RelationChanged,  # /diplomacy: its reply lists every relation the order changed
    # /move, /attack, /launch, /cede, /disband: the reply tells every event of the order in
    # these same words (`playing._order_summary`), the fights, captures and bombings too
    ev.Attacked,
    ev.Bombed,
    ev.Intercepted,
    ev.Interdicted,
    ev.UnitDestroyed,
    ev.CityCaptured,
    ev.MoveBlocked,
    ev.SubSighted,
    ev.IcbmLaunched,
    ev.SatelliteLaunched,
    ev.UnitsCeded,
    ev.CityCeded,
    ev.UnitsDisbanded,
)
"""The kinds of event the reply to a nation's own order always tells in full: a DM does not
repeat them (`digest`'s `answered`; docs/MESSAGES.md: the reply is the one telling of what
the player's own order did). What else the order brought about (the game's end, a nation
out) still comes by DM."""


def digest(
    events: list[Event],
    nation: str,
    names: dict[str, str],
    *,
    clock: str | None = None,
    limit: int = DISCORD_LIMIT,
    answered: Collection[int] = (),
) -> list[str]:
    """The DM messages for one batch of events: a header, then the lines in SECTIONS' order
    (losses and threats first), similar lines collapsed, split into messages of at most `limit` characters
    without splitting a line. No messages when there is nothing to tell.

    `answered`: the `id()`s of events the nation's own command made. Those of the kinds every
    reply tells in full (`ANSWERED`: its city orders, and the fights, captures and bombings of
    its moves and attacks) are left out, big or not: the reply told them once; the rest (the
    game's end, a nation out) is told."""
    if limit < 20:
        raise ValueError("limit is too small for a message")
    told = _fold(events, nation)
    if answered:
        told = [e for e in told if id(e) not in answered or not isinstance(e, ANSWERED)]
    if not told:
        return []
    view = _View(nation, names)
    groups: dict[str, list[Event]] = {c: [] for c in SECTIONS}
    for event in told:
        groups[section(event, nation)].append(event)
    lines: list[str] = []
    for part in SECTIONS:
        lines.extend(_collapse(groups[part], view))
    count = len(told)
    what = f"{count} report{'' if count == 1 else 's'}"
    header = f"**{clock}** - {what}" if clock else f"**{what}**"
    return pack([header, *lines], limit)


# --- digest helpers -----------------------------------------------------------------------------


def _told(event: Event, nation: str) -> bool:
    return describe(event, nation, {}) is not None


def _fold(events: list[Event], nation: str) -> list[Event]:
    """The events to tell, without those another line in the batch already says."""
    told = [e for e in events if _told(e, nation)]
    killed: set[int] = set()
    for e in told:
        match e:
            case ev.Attacked():
                if e.defender_hp <= 0:
                    killed.add(e.defender_unit)
                if e.attacker_hp <= 0:
                    killed.add(e.attacker_unit)
            case ev.Intercepted():
                if e.unit_hp <= 0:
                    killed.add(e.unit)
                if e.fighter_hp <= 0:
                    killed.add(e.fighter)
            case ev.Interdicted():
                if e.ship_hp <= 0:
                    killed.add(e.ship)
            case ev.Bombed():
                killed.update(h["unit"] for h in e.hits if h.get("hp", 1) <= 0)
    # one enemy seen near one city several times in a batch (it came, left and came back
    # within the report): its last sighting says where it is now
    last_sighted = {
        (e.city, e.enemy): i for i, e in enumerate(told) if isinstance(e, ev.EnemiesSighted)
    }
    wars: set[tuple[int, str, str]] = set()
    out: list[Event] = []
    for i, e in enumerate(told):
        if isinstance(e, ev.UnitDestroyed) and e.unit in killed:
            continue
        if isinstance(e, ev.EnemiesSighted) and last_sighted[(e.city, e.enemy)] != i:
            continue
        if isinstance(e, ev.RelationChanged) and e.level == WAR and e.due_tick is None:
            if (e.tick, e.other, e.nation) in wars:
                continue  # the automatic mirror of a declaration already told
            wars.add((e.tick, e.nation, e.other))
        out.append(e)
    return out


def _collapse(events: list[Event], view: _View) -> list[str]:
    """Lines for one category, in event order; groups of similar events become one line at the
    place of the group's first event, and identical lines are counted."""
    keyed: dict[tuple, list[Event]] = {}
    for e in events:
        key = _collapse_key(e, view)
        if key is not None:
            keyed.setdefault(key, []).append(e)
    lines: list[str] = []
    index: dict[str, int] = {}
    counts: list[int] = []
    done: set[tuple] = set()
    for e in events:
        key = _collapse_key(e, view)
        if key is not None and len(keyed[key]) >= COLLAPSE_AT:
            if key in done:
                continue
            done.add(key)
            text = clip(_COLLAPSERS[type(e)](keyed[key], view))
        else:
            described = describe(e, view.nation, view.names)
            assert described is not None  # only told events are listed
            text = described
        if text in index:
            counts[index[text]] += 1
            continue
        index[text] = len(lines)
        lines.append(text)
        counts.append(1)
    return [clip(f"{t} (×{n})") if n > 1 else t for t, n in zip(lines, counts, strict=True)]


# --- wording helpers ----------------------------------------------------------------------------


class _View:
    """The recipient and how to name things for it."""

    def __init__(self, nation: str, names: dict[str, str]) -> None:
        self.nation = nation
        self.names = names

    def name(self, nation: str | None, fallback: str | None = None) -> str:
        if nation is None:
            return "nobody"
        return self.names.get(nation) or fallback or nation

    def owner(self, nation: str | None) -> str:
        """'your' or "Blue's" (a possessive before a unit or a city)."""
        if nation == self.nation:
            return "your"
        if nation is None:
            return "a neutral"
        return f"{self.name(nation)}'s"

    def who(self, nation: str | None, fallback: str | None = None) -> str:
        """'you' or 'Blue' (a subject or an object)."""
        return "you" if nation == self.nation else self.name(nation, fallback)

    def unit(self, owner: str | None, utype: str, uid: int) -> str:
        return f"{self.owner(owner)} {unit_title(utype)} {uid}"


def unit_title(utype: str) -> str:
    """`heavy_bomber` -> 'heavy bomber', `icbm_1` -> 'ICBM 1'."""
    return " ".join(w.upper() if w in _UPPER_WORDS else w for w in utype.split("_"))


def _level(level: str) -> str:
    return level.replace("_", "-")


def _designation(designation: str) -> str:
    return _DESIGNATIONS.get(designation, designation.replace("_", " "))


def _a(word: str) -> str:
    return article(word)


def _cap(text: str) -> str:
    if text.startswith("**"):
        return "**" + _cap(text[2:])
    return text[:1].upper() + text[1:]


def _duration(ticks: int) -> str:
    minutes = max(0, ticks) * MINUTES_PER_TICK
    if minutes < 60:
        return f"{minutes} min"
    hours = minutes / 60
    if hours >= 48 and hours % 24 == 0:
        return f"{int(hours // 24)} days"
    return f"{hours:g} h"


def _listing(items: list[str], shown: int = SHOWN) -> str:
    """'a, b and c' or 'a, b, c, d and 3 more'."""
    if len(items) > shown:
        return ", ".join(items[:shown]) + f" and {len(items) - shown} more"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def _squares(squares: list[str], shown: int = SHOWN) -> str:
    """Squares in a list: '3,49, 3,51, 4,2' (docs/MESSAGES.md: a square has no space inside,
    so a comma and a space part them; no 'and'), then 'and N more'."""
    more = f" and {len(squares) - shown} more" if len(squares) > shown else ""
    return ", ".join(squares[:shown]) + more


def _names(nations: list[str], view: _View) -> str:
    return _listing([view.who(n) for n in nations], shown=8)


def _hp(hp: int) -> str:
    return "**destroyed**" if hp <= 0 else f"{hp} hp left"


# --- one writer per event kind ------------------------------------------------------------------


def _battle_roll(r: ev.BattleRoll, bonus: str) -> str:
    extra = f", {bonus}" if r.bonus else ""
    return f"rolled {r.roll} of 1-{r.n} ({r.need} or less hits{extra})"


def _battle_attack(e: ev.Attacked, v: _View, where: str) -> str:
    """One attack of a battle in rounds (ruleset total-war): the dice, hit or miss, and the
    counter-attack's."""
    assert e.attack_roll is not None
    attacker = v.unit(e.attacker, e.attacker_type, e.attacker_unit)
    defender = v.unit(e.defender, e.defender_type, e.defender_unit)
    parts = []
    if e.first_fire:
        parts.append(f"took {e.first_fire} from the square's fire first")
    hit = f"{unit_title(e.defender_type)} {e.defender_unit} **destroyed**"
    parts.append(
        _battle_roll(e.attack_roll, "effective") + (f": {hit}" if e.damage else ": missed")
    )
    if e.counter_roll is not None:
        back = f"{unit_title(e.attacker_type)} {e.attacker_unit} **destroyed**"
        parts.append(
            "counter "
            + _battle_roll(e.counter_roll, "weak attacker")
            + (f": {back}" if e.counter else ": missed")
        )
    return _cap(
        f"{attacker} attacked {defender} {where} (battle turn {e.turn}): " + "; ".join(parts)
    )


def _attacked(e: ev.Attacked, v: _View) -> str:
    attacker = v.unit(e.attacker, e.attacker_type, e.attacker_unit)
    defender = v.unit(e.defender, e.defender_type, e.defender_unit)
    where = f"at {e.square}"
    if e.defender == v.nation and e.from_square != e.square:
        where += f" from {e.from_square}"
    if e.attack_roll is not None:
        return _battle_attack(e, v, where)
    if e.first_fire and e.attacker_hp <= 0 and not e.damage:
        return _cap(
            f"{attacker} was **shot down** by the fire of {e.square} before it could attack {defender}"
        )
    parts = []
    if e.first_fire:
        parts.append(f"took {e.first_fire} from the square's fire first")
    parts.append(
        f"hit for {e.damage} ({unit_title(e.defender_type)} {e.defender_unit}: {_hp(e.defender_hp)})"
    )
    if e.counter or e.attacker_hp <= 0:
        parts.append(
            f"counter {e.counter} ({unit_title(e.attacker_type)} {e.attacker_unit}: {_hp(e.attacker_hp)})"
        )
    elif e.first_fire:
        parts.append(f"{unit_title(e.attacker_type)} {e.attacker_unit}: {_hp(e.attacker_hp)}")
    return _cap(f"{attacker} attacked {defender} {where}: " + "; ".join(parts))


def _bombed(e: ev.Bombed, v: _View) -> str:
    bomber = v.unit(e.attacker, e.bomber_type, e.bomber)
    ours = v.nation in e.victims and e.attacker != v.nation
    target = f"your units at {e.square}" if ours else e.square
    hits = [
        f"{v.unit(h.get('owner'), str(h.get('type', 'unit')), int(h.get('unit', 0)))} "
        f"-{h.get('damage', 0)} ({_hp(int(h.get('hp', 1)))})"
        for h in e.hits
    ]
    flak = f" (it took {e.first_fire} from the square's fire first)" if e.first_fire else ""
    result = _listing(hits, shown=3) if hits else "nothing hit"
    return _cap(f"{bomber} bombed {target}{flak}: {result}")


def _intercepted(e: ev.Intercepted, v: _View) -> str:
    fighter = v.unit(e.interceptor, e.fighter_type, e.fighter)
    mover = v.unit(e.mover, e.unit_type, e.unit)
    text = f"{fighter} intercepted {mover} at {e.square}: hit for {e.damage} ({_hp(e.unit_hp)})"
    if e.counter or e.fighter_hp <= 0:
        text += f"; it fired back for {e.counter} ({unit_title(e.fighter_type)} {e.fighter}: {_hp(e.fighter_hp)})"
    if e.unit_hp > 0:
        text += "; the move stopped there"
    return _cap(text)


def _interdicted(e: ev.Interdicted, v: _View) -> str:
    unit = v.unit(e.interdictor, e.unit_type, e.unit)
    ship = v.unit(e.mover, e.ship_type, e.ship)
    text = f"{unit} fired on {ship} at {e.square} from {e.from_square}: hit for {e.damage} ({_hp(e.ship_hp)})"
    if e.ship_hp > 0:
        text += "; the ship stopped there"
    return _cap(text)


def _destroyed(e: ev.UnitDestroyed, v: _View) -> str:
    unit = v.unit(e.nation, e.unit_type, e.unit)
    if e.by == v.nation and e.nation != v.nation:
        return f"You **destroyed** {unit} at {e.square}"
    by = f" by {v.who(e.by)}" if e.by else ""
    lost = "**lost**" if e.by is None else "**destroyed**"
    if e.wasteland:
        return _cap(f"{unit} **died** in the wasteland at {e.square}")
    return _cap(f"{unit} was {lost} at {e.square}{by}")


def _sub_sighted(e: ev.SubSighted, v: _View) -> str:
    sub = f"{v.owner(e.owner)} submarine {e.unit}"
    return _cap(
        f"{sub} showed itself at **{e.square}**; it stays visible for {_duration(e.until_tick - e.tick)}"
    )


def _enemies_sighted(e: ev.EnemiesSighted, v: _View) -> str:
    units = _listing([f"{unit_title(u['type'])} {u['unit']} at {u['square']}" for u in e.units])
    return f"**{v.name(e.enemy)}'s units near your city {e.city}**: {units}"


def _icbm(e: ev.IcbmLaunched, v: _View) -> str:
    what = unit_title(e.unit_type)
    launcher = "You" if e.nation == v.nation else v.name(e.nation)
    kind = "a MAD counter-strike" if e.counter else _a(what)
    odds = f", {e.chance}% to hit" if e.chance is not None else ""
    text = f"**{launcher} launched {kind}** at {e.square} (radius {e.radius}{odds})"
    results = []
    if e.hit is False:
        text += ": **it missed** and exploded harmlessly"
    if e.devastated:
        cities = f"{len(e.devastated)} cit{'y' if len(e.devastated) == 1 else 'ies'}"
        if e.returns is not None:  # a two-part ICBM: wastelands, for a while
            results.append(
                f"{cities} turned into wasteland ({_squares(e.devastated)}) for "
                f"{_duration(e.returns - e.tick)}"
            )
        else:
            results.append(f"{cities} devastated ({_squares(e.devastated)})")
    if e.destroyed:
        results.append(f"{e.destroyed} unit{'' if e.destroyed == 1 else 's'} destroyed")
    if e.hit is not False:
        text += ": " + ", ".join(results) if results else ": nothing hit"
    if e.war_with:
        if e.nation == v.nation:
            text += f"; you are now at war with {_names(e.war_with, v)}"
        elif v.nation in e.war_with:
            text += f"; **your cities were hit** and you are at war with {v.name(e.nation)}"
        else:
            text += f"; {_names(e.war_with, v)} now at war with {v.name(e.nation)}"
    if e.ecology is not None and e.collapse_at is not None:
        text += f"; the ecological meter stands at **{e.ecology}/{e.collapse_at}**"
    return text


def _captured(e: ev.CityCaptured, v: _View) -> str:
    if e.nation == v.nation:
        source = "a neutral city" if e.previous is None else v.name(e.previous)
        frm = f" from {source}" if e.previous else f" ({source})"
        cost = ""
        if e.hp_lost:
            left = "it died of it" if e.hp == 0 else f"{e.hp} hp left"
            cost = f"; unit {e.unit} lost {e.hp_lost} hp taking it ({left})"
        return f"**You captured {e.city}**{frm} with unit {e.unit}{cost}{_parts(e, v)}"
    if e.previous == v.nation:
        return f"**{v.name(e.nation)} captured your city {e.city}**{_parts(e, v)}"
    return f"{v.name(e.nation)} captured {v.owner(e.previous)} city {e.city}{_parts(e, v)}"


def _parts(e: ev.CityCaptured, v: _View) -> str:
    """ICBM parts in a captured city (ruleset total-war)."""

    def parts(ids: list[int]) -> str:
        return f"ICBM part{'s' if len(ids) > 1 else ''} {_listing([str(u) for u in ids])}"

    said = []
    if e.parts_destroyed:
        said.append(f"{parts(e.parts_destroyed)} destroyed")
    if e.parts_taken:
        whose = "yours now" if e.nation == v.nation else f"{v.owner(e.nation)} now"
        said.append(f"{parts(e.parts_taken)} {whose}")
    return "; " + ", ".join(said) if said else ""


def _returned(e: ev.WastelandReturned, v: _View) -> str:
    if e.nation == v.nation:
        return (
            f"**The wasteland at {e.city} is your city again**, producing {e.output}% of what it "
            "did (`/invest` restores it)"
        )
    return f"The wasteland at {e.city} is {v.owner(e.nation)} city again"


def _invested(e: ev.CityInvested, v: _View) -> str:
    return (
        f"You invested {e.spent} command points in {e.city}: it produces {e.output}% "
        f"(at most {e.cap}%)"
    )


def _founded(e: ev.CityFounded, v: _View) -> str:
    if e.nation == v.nation:
        return f"You founded a **new city at {e.city}**"
    return f"{v.name(e.nation)} founded a city at {e.city}"


def _ceded_units(items: list[dict]) -> str:
    return _listing(
        [
            f"{unit_title(str(i.get('type', 'unit')))} {i.get('unit')} at {i.get('square')}"
            for i in items
        ]
    )


def _count_units(n: int) -> str:
    return f"{n} unit{'' if n == 1 else 's'}"


def _disbanded(e: ev.UnitsDisbanded, v: _View) -> str:
    return f"You disbanded {_count_units(len(e.units))}: {_ceded_units(e.units)}"


def _units_ceded(e: ev.UnitsCeded, v: _View) -> str:
    count, listed = _count_units(len(e.units)), _ceded_units(e.units)
    if e.nation == v.nation:
        return f"You ceded {count} to {v.name(e.receiver)}: {listed}"
    if e.receiver == v.nation:
        return f"**{v.name(e.nation)} ceded you {count}**: {listed}"
    return f"{v.name(e.nation)} ceded {count} to {v.name(e.receiver)}: {listed}"


def _city_ceded(e: ev.CityCeded, v: _View) -> str:
    if e.nation == v.nation:
        return f"You ceded your city {e.city} to {v.name(e.receiver)}"
    if e.receiver == v.nation:
        return f"**{v.name(e.nation)} ceded you the city at {e.city}**"
    return f"{v.name(e.nation)} ceded its city {e.city} to {v.name(e.receiver)}"


def _built(e: ev.UnitBuilt, v: _View) -> str:
    return _cap(f"{v.owner(e.nation)} city {e.city} built {unit_title(e.unit)} {e.unit_id}")


def _skipped(e: ev.BuildSkipped, v: _View) -> str:
    return (
        f"Build skipped for lack of power: {unit_title(e.unit)} at {e.city} "
        f"(power would be {e.power}, limit {e.limit})"
    )


def _limit_dropped(e: ev.PowerLimitDropped, v: _View) -> str:
    builds = "the build" if len(e.cities) == 1 else "the builds"
    return (
        f"**Your power limit dropped to {e.limit}** (was {e.was}; your power is {e.power}): "
        f"{builds} at {_squares(e.cities)} will be skipped for lack of power; build what "
        "counts for no power there, or take cities"
    )


def _city_changed(e: ev.CityChanged, v: _View) -> str:
    what = _a(_designation(e.designation))
    builds = f"builds {unit_title(e.build)}" if e.build else "builds nothing yet"
    return _cap(f"{v.owner(e.nation)} city {e.city} is now {what} and {builds}")


def _relation(e: ev.RelationChanged, v: _View) -> str:
    level = _level(e.level)
    was = _level(e.previous)
    when = f" in {_duration(e.due_tick - e.tick)}" if e.due_tick is not None else ""
    if e.nation == v.nation:
        other = v.name(e.other)
        if e.level == WAR and not when:
            return f"**You are now at war with {other}** (was {was})"
        return f"Your stance towards {other} becomes **{level}**{when} (was {was})"
    actor = v.name(e.nation)
    target = "you" if e.other == v.nation else v.name(e.other)
    if e.level == WAR and not when:
        return (
            f"**{actor} declared war on {target}!**"
            if target == "you"
            else f"**{actor} declared war on {target}**"
        )
    return f"{actor}'s stance towards {target} becomes **{level}**{when} (was {was})"


def _tech(e: ev.TechReached, v: _View) -> str:
    if e.nation == v.nation:
        return f"Your nation reached **tech level {e.level}**"
    return f"{v.name(e.nation)} reached tech level {e.level}"


def _satellite(e: ev.SatelliteLaunched, v: _View) -> str:
    if e.nation == v.nation:
        where = f" over **{e.square}**" if e.square else ""
        return f"Your satellite is up{where}: it watches the area for good"
    return f"{v.name(e.nation)} launched a **satellite**"


def _completed(e: ev.OrderCompleted, v: _View) -> str:
    return _cap(f"{v.owner(e.nation)} unit {e.unit} reached {e.square}")


def _cancelled(e: ev.OrderCancelled, v: _View) -> str:
    return _cap(f"{v.owner(e.nation)} unit {e.unit} gave up going to {e.square}: **{e.reason}**")


_BLOCK_CAUSES = {
    "unit": "another nation's unit is there",
    "city": "a city not yours is there; /attack takes it",
    "ship": "your own ship fills that sea square",
    "terrain": "the unit cannot go on that square",
}
"""Why a move was blocked (`MoveBlocked.cause`, set only when the nation can tell)."""


def _block_cause(e: ev.MoveBlocked, before: str = " (", after: str = ")") -> str:
    cause = _BLOCK_CAUSES.get(e.cause)
    return f"{before}{cause}{after}" if cause else ""


def _blocked(e: ev.MoveBlocked, v: _View) -> str:
    return _cap(
        f"{v.owner(e.nation)} unit {e.unit} stopped at {e.square}: "
        f"**blocked at {e.blocked_at}**{_block_cause(e)}"
    )


def _terrain(e: ev.TerrainSwitched, v: _View) -> str:
    return _cap(
        f"{v.owner(e.nation)} engineers turned {e.square} into {e.terrain.replace('_', ' ')}"
    )


def _joined(e: ev.NationJoined, v: _View) -> str:
    if e.nation == v.nation:
        home = f"; your home is {e.home}" if e.home else ""
        return f"You joined the game as **{v.name(e.nation, e.name)}**{home}"
    return f"**{v.name(e.nation, e.name)}** joined the game"


def _left(e: ev.NationLeft, v: _View) -> str:
    how = "resigned" if e.resigned else "left the game"
    if e.nation == v.nation:
        return f"You {how}"
    return f"**{v.name(e.nation, e.name)}** {how}"


def _eliminated(e: ev.NationEliminated, v: _View) -> str:
    if e.nation == v.nation:
        return "**You have been eliminated.** Thank you for playing!"
    return f"**{v.name(e.nation, e.name)} has been eliminated**"


def _started(e: ev.GameStarted, v: _View) -> str:
    return (
        f"**The game has started!** {len(e.nations)} nations: {_names(e.nations, v)}; "
        f"it ends in {_duration(e.end_tick - e.tick)}"
    )


def _ended(e: ev.GameEnded, v: _View) -> str:
    if v.nation in e.winners:
        mates = [n for n in e.winners if n != v.nation]
        head = "**The game is over: you won!**"
        if mates:
            head = f"**The game is over: you won** with {_names(mates, v)}!"
    elif e.winners:
        head = f"**The game is over.** Winner{'s' if len(e.winners) > 1 else ''}: {_names(e.winners, v)}"
    else:
        head = "**The game is over.** Nobody won"
    if e.collapse:
        head = (
            "**Society has collapsed.** The wastelands' ecological damage reached its limit: "
            "the game is over and every nation lost"
        )
    rows = []
    for i, row in enumerate(e.standings[:5], 1):
        team = "+".join(v.who(n) for n in row.get("nations", []))
        rows.append(f"{i}. {team} {row.get('cities', 0)}")
    return head + (" - cities: " + ", ".join(rows) if rows else "")


def _player_name(player: str | None) -> str:
    if player is None:
        return "nobody"
    if player == "ai":
        return "the AI"
    return f"<@{player}>" if player.isdigit() else player


def _player(e: ev.PlayerChanged, v: _View) -> str:
    whose = "your nation" if e.nation == v.nation else v.name(e.nation)
    return (
        f"A moderator handed {whose} to **{_player_name(e.player)}** "
        f"(was {_player_name(e.previous)})"
    )


_WRITERS: dict[type[Event], Callable[..., str | None]] = {
    ev.Attacked: _attacked,
    ev.Bombed: _bombed,
    ev.Intercepted: _intercepted,
    ev.Interdicted: _interdicted,
    ev.UnitDestroyed: _destroyed,
    ev.SubSighted: _sub_sighted,
    ev.EnemiesSighted: _enemies_sighted,
    ev.IcbmLaunched: _icbm,
    ev.CityCaptured: _captured,
    ev.CityFounded: _founded,
    ev.CityCeded: _city_ceded,
    ev.UnitsCeded: _units_ceded,
    ev.UnitsDisbanded: _disbanded,
    ev.UnitBuilt: _built,
    ev.BuildSkipped: _skipped,
    ev.PowerLimitDropped: _limit_dropped,
    ev.CityChanged: _city_changed,
    ev.RelationChanged: _relation,
    ev.TechReached: _tech,
    ev.SatelliteLaunched: _satellite,
    ev.OrderCompleted: _completed,
    ev.OrderCancelled: _cancelled,
    ev.MoveBlocked: _blocked,
    ev.TerrainSwitched: _terrain,
    ev.NationJoined: _joined,
    ev.NationLeft: _left,
    ev.NationEliminated: _eliminated,
    ev.GameStarted: _started,
    ev.GameEnded: _ended,
    ev.PlayerChanged: _player,
    ev.WastelandReturned: _returned,
    ev.CityInvested: _invested,
}


# --- collapsing repeated events -----------------------------------------------------------------


def _collapse_key(e: Event, v: _View) -> tuple | None:
    match e:
        case ev.BuildSkipped():
            return ("skipped", e.nation, e.unit)
        case ev.UnitBuilt():
            return ("built", e.nation, e.unit)
        case ev.UnitDestroyed():
            return ("destroyed", e.nation == v.nation, e.nation, e.by)
        case ev.OrderCompleted():
            return ("completed", e.nation)
        case ev.MoveBlocked():
            return ("blocked", e.nation)
        case ev.OrderCancelled():
            return ("cancelled", e.nation, e.reason)
        case ev.CityChanged():
            return ("changed", e.nation)
        case ev.Intercepted():
            return ("intercepted", e.interceptor, e.mover)
        case ev.Attacked():
            return ("attacked", e.attacker, e.defender)
        case ev.Bombed():
            return ("bombed", e.attacker)
        case ev.Interdicted():
            return ("interdicted", e.interdictor, e.mover)
        case ev.EnemiesSighted():
            return ("sighted", e.enemy)
    return None


def _many_skipped(es: list[ev.BuildSkipped], v: _View) -> str:
    first = es[0]
    return (
        f"{len(es)} builds skipped for lack of power: {unit_title(first.unit)} at "
        f"{_squares([e.city for e in es])} (limit {first.limit})"
    )


def _many_built(es: list[ev.UnitBuilt], v: _View) -> str:
    return f"{len(es)} {unit_title(es[0].unit)} built: " + _listing(
        [f"{e.unit_id} at {e.city}" for e in es]
    )


def _many_destroyed(es: list[ev.UnitDestroyed], v: _View) -> str:
    first = es[0]
    items = _listing([f"{unit_title(e.unit_type)} {e.unit} at {e.square}" for e in es])
    if first.by == v.nation and first.nation != v.nation:
        return f"You **destroyed {len(es)} of {v.name(first.nation)}'s units**: {items}"
    whose = "your" if first.nation == v.nation else f"{v.name(first.nation)}'s"
    how = "lost" if first.by is None else "destroyed"
    by = f" by {v.who(first.by)}" if first.by else ""
    text = f"**{len(es)} of {whose} units {how}**{by}: {items}"
    return _cap(text)


def _many_sighted(es: list[ev.EnemiesSighted], v: _View) -> str:
    count = len({u["unit"] for e in es for u in e.units})
    return (
        f"**{v.name(es[0].enemy)}'s units near {len(es)} of your cities**: "
        f"{_squares([e.city for e in es])} ({count} units)"
    )


def _many_completed(es: list[ev.OrderCompleted], v: _View) -> str:
    return f"{len(es)} units reached their destination: " + _listing(
        [f"{e.unit} at {e.square}" for e in es]
    )


def _many_blocked(es: list[ev.MoveBlocked], v: _View) -> str:
    return f"{len(es)} moves **blocked**: " + _listing(
        [
            f"unit {e.unit} at {e.square} (blocked at {e.blocked_at}{_block_cause(e, ': ', '')})"
            for e in es
        ]
    )


def _many_cancelled(es: list[ev.OrderCancelled], v: _View) -> str:
    return f"{len(es)} orders cancelled (**{es[0].reason}**): " + _listing(
        [f"unit {e.unit} to {e.square}" for e in es]
    )


NEAR = 3  # squares: a group of fights this close to its first is "near" that square


def _where(squares: list[str]) -> str:
    """'near 12,30' when every square is within NEAR of the first, else 'at 3,4, 9,9'."""
    first = _xy(squares[0])
    if all(max(abs(a - b) for a, b in zip(_xy(sq), first, strict=True)) <= NEAR for sq in squares):
        return f"near {squares[0]}"
    return "at " + _squares(list(dict.fromkeys(squares)))


def _xy(square: str) -> tuple[int, int]:
    x, _, y = square.partition(",")
    return int(x), int(y)


def _killed(units: Sequence[tuple[str | None, str, int]], v: _View) -> str:
    """'; destroyed: your infantry 7, Blue's tank 9' (each unit once), or ''."""
    named = list(dict.fromkeys(v.unit(owner, utype, uid) for owner, utype, uid in units))
    return f"; destroyed: {_listing(named)}" if named else ""


def _many_intercepted(es: list[ev.Intercepted], v: _View) -> str:
    first = es[0]
    killed = [(e.mover, e.unit_type, e.unit) for e in es if e.unit_hp <= 0]
    killed += [(e.interceptor, e.fighter_type, e.fighter) for e in es if e.fighter_hp <= 0]
    return _cap(
        f"{len(es)} interceptions {_where([e.square for e in es])}: {v.owner(first.interceptor)} "
        f"aircraft hit {v.owner(first.mover)} units{_killed(killed, v)}"
    )


def _many_attacked(es: list[ev.Attacked], v: _View) -> str:
    first = es[0]
    killed = [(e.defender, e.defender_type, e.defender_unit) for e in es if e.defender_hp <= 0]
    killed += [(e.attacker, e.attacker_type, e.attacker_unit) for e in es if e.attacker_hp <= 0]
    return _cap(
        f"{len(es)} attacks {_where([e.square for e in es])}: {v.who(first.attacker)} on "
        f"{v.who(first.defender)}{_killed(killed, v)}"
    )


def _many_bombed(es: list[ev.Bombed], v: _View) -> str:
    killed = [
        (h.get("owner"), str(h.get("type", "unit")), int(h.get("unit", 0)))
        for e in es
        for h in e.hits
        if int(h.get("hp", 1)) <= 0
    ]
    return _cap(
        f"{len(es)} bombings {_where([e.square for e in es])} by {v.who(es[0].attacker)}"
        f"{_killed(killed, v)}"
    )


def _many_interdicted(es: list[ev.Interdicted], v: _View) -> str:
    first = es[0]
    killed = [(e.mover, e.ship_type, e.ship) for e in es if e.ship_hp <= 0]
    return _cap(
        f"{len(es)} ships fired on {_where([e.square for e in es])}: {v.who(first.interdictor)} "
        f"on {v.who(first.mover)}{_killed(killed, v)}"
    )


def _many_changed(es: list[ev.CityChanged], v: _View) -> str:
    return _cap(
        f"{len(es)} of {v.owner(es[0].nation)} cities changed what they build: "
        + _listing(
            [
                f"{e.city} ({_designation(e.designation)}: "
                f"{unit_title(e.build) if e.build else 'nothing yet'})"
                for e in es
            ]
        )
    )


_COLLAPSERS: dict[type[Event], Callable[..., str]] = {
    ev.CityChanged: _many_changed,
    ev.Intercepted: _many_intercepted,
    ev.Attacked: _many_attacked,
    ev.Bombed: _many_bombed,
    ev.Interdicted: _many_interdicted,
    ev.BuildSkipped: _many_skipped,
    ev.UnitBuilt: _many_built,
    ev.UnitDestroyed: _many_destroyed,
    ev.OrderCompleted: _many_completed,
    ev.MoveBlocked: _many_blocked,
    ev.OrderCancelled: _many_cancelled,
    ev.EnemiesSighted: _many_sighted,
}
