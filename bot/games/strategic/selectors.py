"""Choosing units as a player thinks of them: the text of a `units` option resolved against the
nation's own view (never the world), so the same words choose the same units in /move,
/attack, /cancel and /board.

What a player may type (any case; parts separated by spaces, commas, `;`, `+` or `and`):
- `12`, `12 13 14`, `12,13`, `#12`: these ids. An id that is not one of the nation's units is
  skipped and named, in the same words whether it exists, belongs to someone else or is a
  unit the nation remembers: "not one of your units".
- `12-15`: the nation's own units with ids from 12 to 15; the other ids in the range are
  skipped and only counted (ids are shared by every nation, so a range nearly always holds
  someone else's).
- a group: `all` (or `units`), a kind of unit, qualifiers and where, in any mix:
  - kinds: a unit type by its name, title, plural or the short name the map shows (`tank`,
    `tanks`, `inf`, `infantry`, `heavy bombers`, `hb`, `aircraft carrier`, `cv`), a family
    (`bombers`, `icbms`), or a class (`land`, `ships`/`sea`/`naval`, `aircraft`/`planes`/`air`);
    several kinds in one group are any of them (`tanks and infantry at 12,7`);
  - qualifiers, all of which must hold: `idle` (no standing order), `moving` (on a standing
    order), `ready` (mobility left), `damaged` (below full hp);
  - where: `at 12,7` (also `on 12,7`, `at 12 7`), or `aboard 9` (carried by unit 9);
  a group ends after its `at`/`aboard`, so `tanks at 1,1 infantry at 2,2` is two groups.
  A group that matches none of the nation's units is an error ("You have no tanks at 12,7.").

`resolve` gives a `Selection`: the ids chosen (each once, in the order given) and the skipped
ones with a reason each. The `for_move`, `for_attack`, `for_board` and `for_cancel` filters
then skip own units that clearly cannot do the order (the engine would refuse the whole
order for them), again reading the view only. Nothing here raises anything but `UserError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from bot import parsing
from bot.context import UserError
from engine.strategic.rules import load as load_rules
from engine.strategic.rules.models import MovesOn, Ruleset, UnitClass, UnitType
from engine.strategic.view import UnitView, View
from engine.strategic.words import article
from renderers.strategic.style import short_name

MAX_UNITS = parsing.MAX_UNITS
NOT_YOURS = "not one of your units"  # the same for an unknown, foreign or remembered id
EXAMPLES = "`12`, `12 13`, `12-15`, `all at 12,7`, `tanks at 12,7` or `idle tanks`"

# words for a class of units (they win over a type's words: "ships" is every ship)
CLASS_WORDS: dict[UnitClass, tuple[str, ...]] = {
    UnitClass.LAND: ("land", "ground", "army", "troops", "land units"),
    UnitClass.SEA: ("sea", "ship", "ships", "naval", "navy", "fleet", "boat", "boats"),
    UnitClass.AIR: ("air", "aircraft", "plane", "planes", "airplanes", "air units"),
}
CLASS_LABEL = {UnitClass.LAND: "land units", UnitClass.SEA: "ships", UnitClass.AIR: "aircraft"}


@dataclass(frozen=True)
class Quality:
    label: str  # as an adjective: "You have no idle tanks"
    test: Callable[[UnitView, UnitType], bool]


QUALITIES: dict[str, Quality] = {}
for _words, _quality in (
    (("idle", "unordered", "waiting"), Quality("idle", lambda u, ut: u.order is None)),
    (("moving", "ordered", "busy"), Quality("moving", lambda u, ut: u.order is not None)),
    (("ready", "fresh"), Quality("ready", lambda u, ut: (u.mobility or 0) > 0)),
    (("damaged", "hurt", "wounded"), Quality("damaged", lambda u, ut: (u.hp or 0) < ut.hp)),
):
    for _word in _words:
        QUALITIES[_word] = _quality

EVERY = {"all", "every", "each", "any", "everything", "units", "unit"}  # a group of any kind
FILLER = {"my", "the", "of", "own", "your"}  # read past

_TOKEN = re.compile(
    r"""
    (?P<square>\b(?:at|on|in)\s*\(?\s*(?P<x>-?\d{1,6})\s*,\s*(?P<y>-?\d{1,6})\s*\)?
        |\b(?:at|on)\s*\(?\s*(?P<x2>-?\d{1,6})\s+(?P<y2>-?\d{1,6})\s*\)?)
  | (?P<aboard>\b(?:aboard|in)\s*\#?(?P<carrier>\d{1,12})\b)
  | (?P<range>\#?(?P<a>\d{1,12})\s*-\s*\#?(?P<b>\d{1,12})\b)
  | (?P<id>\#?(?P<n>\d{1,12})\b)
  | (?P<word>[^\W\d_][\w'-]*)
  | (?P<sep>(?:[\s,;+&]|\band\b)+)
  | (?P<other>.)
    """,
    re.X | re.S,
)


@dataclass(frozen=True)
class Kind:
    types: frozenset[str]
    label: str  # plural: "tanks", "ships"
    singular: bool = False  # "tank", "ship": before an id only a label ("tank 12" is unit 12)


@dataclass
class Group:
    kinds: list[Kind] = field(default_factory=list)
    qualities: list[Quality] = field(default_factory=list)
    square: int | None = None
    aboard: int | None = None

    @property
    def closed(self) -> bool:
        return self.square is not None or self.aboard is not None

    def matches(self, u: UnitView, ut: UnitType) -> bool:
        return (
            (not self.kinds or any(u.type in k.types for k in self.kinds))
            and all(q.test(u, ut) for q in self.qualities)
            and (self.square is None or u.sq == self.square)
            and (self.aboard is None or u.carried_by == self.aboard)
        )

    def describe(self, view: View) -> str:
        """'idle tanks at 12,7', 'units aboard 9'."""
        adjectives = [q.label for q in dict.fromkeys(self.qualities)]
        kinds = " or ".join(dict.fromkeys(k.label for k in self.kinds)) or "units"
        where = ""
        if self.square is not None:
            where = f" at {view.label(self.square)}"
        elif self.aboard is not None:
            where = f" aboard {self.aboard}"
        return " ".join([*adjectives, kinds]) + where


@dataclass(frozen=True)
class Range:
    first: int
    last: int


def _plural(phrase: str) -> str:
    head, _, last = phrase.rpartition(" ")
    if last.endswith("ry") or last.endswith("aft") or last[-1:].isdigit():
        plural = last  # infantry, aircraft, icbm 1
    elif last.endswith("y") and last[-2:-1] not in "aeiou":
        plural = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        plural = last + "es"
    else:
        plural = last + "s"
    return f"{head} {plural}".strip()


def _norm(text: str) -> str:
    return re.sub(r"[\s_'-]+", " ", text.lower()).strip()


def kinds_of(rules: Ruleset) -> dict[str, Kind]:
    if rules.name not in _KINDS:
        _KINDS[rules.name] = _kinds_of(rules)
    return _KINDS[rules.name]


def _longest(rules: Ruleset) -> int:
    """The most words a phrase naming a kind of unit has in this ruleset."""
    longest = _LONGEST.get(rules.name)
    if longest is None:
        longest = _LONGEST[rules.name] = max(len(p.split()) for p in kinds_of(rules))
    return longest


_KINDS: dict[str, dict[str, Kind]] = {}
_LONGEST: dict[str, int] = {}


def _kinds_of(rules: Ruleset) -> dict[str, Kind]:
    """Every phrase that names a kind of unit in this ruleset -> the kind."""
    found: dict[str, set[str]] = {}
    labels: dict[str, str] = {}
    singular: set[str] = set()

    def add(phrase: str, names: Iterable[str], label: str) -> None:
        one = _norm(phrase)
        for form in {one, _plural(one)}:
            if form:
                found.setdefault(form, set()).update(names)
                labels.setdefault(form, label)
        singular.add(one)

    for ut in rules.units:
        label = _plural(ut.title.lower())
        for phrase in (ut.name, ut.title, short_name(ut.name), ut.name.replace("_", "")):
            add(phrase, [ut.name], label)
    for ut in rules.units:  # families: "bombers", "icbms" (never over a type's own words)
        title = _norm(ut.title).split()
        family = title[0] if title[-1].isdigit() else title[-1]
        if len(title) > 1 and _norm(family) not in found:
            members = [u.name for u in rules.units if family in _norm(u.title).split()]
            add(family, members, _plural(family))
    kinds = {p: Kind(frozenset(n), labels[p], p in singular) for p, n in found.items()}
    for cls, words in CLASS_WORDS.items():
        of_class = frozenset(u.name for u in rules.units if u.unit_class == cls)
        if of_class:
            for w in words:
                kinds[w] = Kind(of_class, CLASS_LABEL[cls], w in ("ship", "boat", "plane"))
    return kinds


def _unknown(text: str) -> UserError:
    shown = text if len(text) <= 30 else text[:29] + "…"
    return UserError(f"{shown!r} is not a unit id or a kind of unit: try {EXAMPLES}.")


def _then_id(tokens: list, i: int) -> bool:
    return i + 1 < len(tokens) and tokens[i + 1][0] == "id"


def parse(text: str, view: View, rules: Ruleset) -> list[int | Range | Group]:
    """The text as ids, ranges and groups (their squares checked against the map)."""
    tokens = [
        (m.lastgroup, m) for m in _TOKEN.finditer(str(text or "").lower()) if m.lastgroup != "sep"
    ]
    kinds = kinds_of(rules)
    longest = _longest(rules)
    out: list[int | Range | Group] = []
    group: Group | None = None

    def current() -> Group:
        nonlocal group
        if group is None or group.closed:
            group = Group()
            out.append(group)
        return group

    i = 0
    while i < len(tokens):
        what, m = tokens[i]
        if what == "id":
            out.append(int(m.group("n")))
            group = None
        elif what == "range":
            a, b = int(m.group("a")), int(m.group("b"))
            out.append(Range(min(a, b), max(a, b)))
            group = None
        elif what == "square":
            sx, sy = m.group("x") or m.group("x2"), m.group("y") or m.group("y2")
            x, y = parsing.square(f"{sx},{sy}", view.width, view.height)
            g = current()
            g.square = y * view.width + x
        elif what == "aboard":
            g = current()
            g.aboard = int(m.group("carrier"))
        elif what == "word":
            # the longest phrase of words (and numbers: "icbm 1") that names a kind
            for size in range(min(longest, len(tokens) - i), 0, -1):
                run = tokens[i : i + size]
                if any(w not in ("word", "id") for w, _ in run):
                    continue
                phrase = _norm(" ".join(t.group() for _, t in run).replace("#", ""))
                if phrase in kinds:
                    i += size - 1
                    if kinds[phrase].singular and _then_id(tokens, i):
                        break  # "tank 12": unit 12, the word only its label
                    current().kinds.append(kinds[phrase])
                    break
            else:
                word = m.group()
                if word in QUALITIES:
                    current().qualities.append(QUALITIES[word])
                elif word in EVERY:
                    if not (word == "unit" and _then_id(tokens, i)):  # "unit 12": just 12
                        current()
                elif word in ("at", "on"):
                    raise UserError(f"Give a square after {word!r}, like `{word} 12,7`.")
                elif word in ("aboard", "in"):
                    raise UserError(f"Give a carrier's id after {word!r}, like `{word} 9`.")
                elif word not in FILLER:
                    raise _unknown(word)
        else:
            raise _unknown(m.group().strip() or m.group())
        i += 1
    return out


@dataclass(frozen=True)
class Selection:
    """The units a `units` option chose, and the ids it skipped with why."""

    chosen: tuple[int, ...]
    skipped: tuple[tuple[int, str], ...] = ()
    not_yours: int = 0  # ids in ranges that are not the nation's (counted, not named)
    plain: bool = True  # only plain ids were typed

    def skip(self, reasons: dict[int, str]) -> Selection:
        """These chosen units left out, each with its reason."""
        if not reasons:
            return self
        return replace(
            self,
            chosen=tuple(u for u in self.chosen if u not in reasons),
            skipped=self.skipped + tuple((u, r) for u, r in reasons.items()),
        )

    def ids(self) -> list[int]:
        """The ids for the engine's command; an error (nothing sent) when none is left."""
        if not self.chosen:
            if len(self.skipped) == 1 and self.skipped[0][1] == NOT_YOURS:
                raise UserError(f"You have no unit {self.skipped[0][0]}.")
            if self.skipped and all(r == NOT_YOURS for _, r in self.skipped):
                raise UserError(f"You have no units {', '.join(str(u) for u, _ in self.skipped)}.")
            raise UserError(f"Nothing was ordered: skipped {self.skipped_text()}.")
        if len(self.chosen) > MAX_UNITS:
            raise UserError(
                f"That is {len(self.chosen)} units; one order takes at most {MAX_UNITS}: "
                "narrow it down (`at 12,7`, a type, `idle`) or give ids."
            )
        return list(self.chosen)

    def skipped_text(self) -> str:
        """'13 (not one of your units), 15 and 16 (aboard transport 9, it moves with it) and
        2 ids that are not yours', the ids sharing a reason together."""
        by_reason: dict[str, list[int]] = {}
        for uid, reason in self.skipped:
            by_reason.setdefault(reason, []).append(uid)
        parts = [f"{_join(ids)} ({reason})" for reason, ids in by_reason.items()]
        if self.not_yours:
            many = self.not_yours != 1
            parts.append(
                f"{self.not_yours} id{'s' if many else ''} that {'are' if many else 'is'} not yours"
            )
        text = ", ".join(parts)
        return text if len(text) <= 900 else text[:899] + "…"

    def worth_saying(self) -> bool:
        """Whether the reply names the chosen and skipped units: when something was skipped or
        more than plain ids were typed."""
        return bool(self.skipped or self.not_yours or not self.plain)

    def note(self) -> str:
        """'Ordered 3 units (4, 9, 12); skipped 13 (not one of your units).' or ''."""
        if not self.worth_saying():
            return ""
        n = len(self.chosen)
        text = f"Ordered {n} unit{'s' if n != 1 else ''} ({', '.join(map(str, self.chosen))})"
        if self.skipped or self.not_yours:
            text += f"; skipped {self.skipped_text()}"
        return text + "."

    def tail(self) -> str:
        """'; skipped 13 (not one of your units)' or '' (for replies that name the units)."""
        return f"; skipped {self.skipped_text()}" if self.skipped or self.not_yours else ""


def _join(ids: list[int]) -> str:
    words = [str(i) for i in ids]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def resolve(text: str, view: View, rules: Ruleset) -> Selection:
    """The nation's units a `units` option names (see the module's docstring)."""
    own = {u.id: u for u in view.own_units()}
    chosen: dict[int, None] = {}
    skipped: dict[int, str] = {}
    not_yours = 0
    plain = True
    for item in parse(text, view, rules):
        if isinstance(item, int):
            if item in own:
                chosen[item] = None
            elif item not in skipped:
                skipped[item] = NOT_YOURS
        elif isinstance(item, Range):
            plain = False
            ids = sorted(uid for uid in own if item.first <= uid <= item.last)
            if not ids:
                raise UserError(f"You have no units with ids {item.first}-{item.last}.")
            not_yours += item.last - item.first + 1 - len(ids)
            chosen.update(dict.fromkeys(ids))
        else:
            plain = False
            matched = [u.id for u in own.values() if item.matches(u, rules.unit[u.type])]
            if not matched:
                raise UserError(f"You have no {item.describe(view)}.")
            chosen.update(dict.fromkeys(sorted(matched)))
    if not chosen and not skipped:
        raise UserError(f"Give at least one unit: {EXAMPLES}.")
    return Selection(tuple(chosen), tuple(skipped.items()), not_yours, plain)


# --- what an order's units must be able to do (from the view: the engine checks again) ----------


def rules_of(view: View) -> Ruleset:
    return load_rules(view.ruleset)


def _own(view: View, selection: Selection) -> list[UnitView]:
    return [u for uid in selection.chosen if (u := view.unit(uid)) is not None]


def _carrier_name(view: View, rules: Ruleset, carrier: int) -> str:
    c = view.unit(carrier)
    title = rules.unit[c.type].title.lower() if c is not None else "unit"
    return f"{title} {carrier}"


def for_move(selection: Selection, view: View, rules: Ruleset, goal: int) -> Selection:
    """Skip what does not move (satellites, ICBMs), what is there already, and cargo whose
    carrier moves too (it goes with it)."""
    ids = set(selection.chosen)
    reasons: dict[int, str] = {}
    for u in _own(view, selection):
        ut = rules.unit[u.type]
        if ut.moves_on == MovesOn.NONE:
            reasons[u.id] = f"{article(ut.title)} is launched, it does not move"
        elif u.carried_by is not None and u.carried_by in ids:
            where = _carrier_name(view, rules, u.carried_by)
            reasons[u.id] = f"aboard {where}, it moves with it"
        elif u.sq == goal:
            reasons[u.id] = f"already at {view.label(goal)}"
    return selection.skip(reasons)


def for_attack(selection: Selection, view: View, rules: Ruleset, target: int) -> Selection:
    """Skip what cannot fight (satellites, ICBMs), and what the target clearly rules out: units
    without ammunition when the nation sees foreign units there, other than land units when
    there is only a city it is at war with (or a neutral one) to take."""
    foreign_there = [u for u in view.units_at(target) if u.seen != "own"]
    city = view.cities.get(target)
    capture = False
    if not foreign_there and city is not None and city.seen != "own":
        other = view.nations.get(city.owner) if city.owner else None
        war = rules.diplomacy.war
        capture = other is None or war in (other.relation_to, other.relation_from)
    reasons: dict[int, str] = {}
    for u in _own(view, selection):
        ut = rules.unit[u.type]
        if ut.moves_on == MovesOn.NONE:
            reasons[u.id] = f"{article(ut.title)} is launched, it does not fight"
        elif foreign_there and u.ammo is not None and u.ammo < 1:
            reasons[u.id] = "no ammunition"
        elif capture and ut.unit_class != UnitClass.LAND:
            reasons[u.id] = "only land units take cities"
    return selection.skip(reasons)


def for_board(selection: Selection, view: View, rules: Ruleset, carrier: int) -> Selection:
    """Skip the carrier itself, units elsewhere, units already aboard and units the carrier's
    type cannot carry (only when the carrier is the nation's own; else the engine says so)."""
    c = view.unit(carrier)
    if c is None or c.seen != "own":
        return selection
    ct = rules.unit[c.type]
    reasons: dict[int, str] = {}
    for u in _own(view, selection):
        ut = rules.unit[u.type]
        if u.id == carrier:
            reasons[u.id] = "the carrier itself"
        elif u.carried_by is not None:
            reasons[u.id] = f"already aboard {_carrier_name(view, rules, u.carried_by)}"
        elif u.sq != c.sq:
            reasons[u.id] = f"not at {view.label(c.sq)}, where {carrier} is"
        elif not any(rules.matches(ut, sel) for sel in ct.carries):
            reasons[u.id] = f"{article(ct.title)} cannot carry {article(ut.title)}"
    return selection.skip(reasons)


def for_cancel(selection: Selection, view: View) -> Selection:
    """Skip units with no standing order."""
    reasons = {u.id: "no standing order" for u in _own(view, selection) if u.order is None}
    return selection.skip(reasons)


# --- suggestions as a player types (autocomplete) ------------------------------------------------

SEPARATORS = " ,;+&"


def _candidates(view: View, rules: Ruleset, typed_ids: set[str]) -> list[list[tuple[str, str]]]:
    """What may be suggested, best first, in tiers: the stacks on a square, the kinds (and the
    idle ones), single units. Each is (value, label)."""
    own = view.own_units()
    by_square: dict[int, list[UnitView]] = {}
    by_type: dict[str, list[UnitView]] = {}
    for u in own:
        by_square.setdefault(u.sq, []).append(u)
        by_type.setdefault(u.type, []).append(u)

    def counted(value: str, units: list[UnitView]) -> tuple[str, str]:
        n = len(units)
        ids = ", ".join(str(u.id) for u in units)
        return value, f"{value} ({n} unit{'s' if n != 1 else ''}: {ids})"

    def words(type_name: str) -> str:
        return _plural(_norm(rules.unit[type_name].title))

    stacks: list[tuple[str, str]] = []
    for sq, units in sorted(by_square.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        if len(units) > 1:
            stacks.append(counted(f"all at {view.label(sq)}", units))
        types = {u.type for u in units}
        for t in sorted(types):
            of_type = [u for u in units if u.type == t]
            stacks.append(counted(f"{words(t)} at {view.label(sq)}", of_type))
    kinds: list[tuple[str, str]] = []
    for t, units in sorted(by_type.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        kinds.append(counted(f"all {words(t)}", units))
        kinds.append(counted(words(t), units))
        idle = [u for u in units if u.order is None]
        if idle and len(idle) < len(units):
            kinds.append(counted(f"idle {words(t)}", idle))
    singles: list[tuple[str, str]] = []
    for u in own:
        if str(u.id) in typed_ids:
            continue
        ut = rules.unit[u.type]
        detail = f"{ut.title} at {view.label(u.sq)}, {u.hp} hp, mob {u.mobility}"
        singles.append((str(u.id), f"{u.id} - {detail}"))
    return [stacks, kinds, singles]


def _whole(head: str, view: View, rules: Ruleset) -> bool:
    """Whether what comes before a completion is whole by itself (not "all at" or "at 3,")."""
    try:
        parse(head, view, rules)
    except UserError:
        return False
    return True


def suggest(current: str, view: View, rules: Ruleset, limit: int = 25) -> list[tuple[str, str]]:
    """Autocomplete for a `units` option: (label, value) pairs, values at most 100 characters.
    The part being typed is completed and what came before it is kept; what is typed so far,
    when it already chooses units with more than plain ids, comes first with its count."""
    typed = str(current or "")[:100]
    lowered = typed.lower()
    out: list[tuple[str, str]] = []
    try:
        so_far = resolve(typed, view, rules) if typed.strip() else None
    except UserError:
        so_far = None
    if so_far is not None and so_far.chosen and not so_far.plain:
        n = len(so_far.chosen)
        ids = ", ".join(map(str, so_far.chosen))
        out.append((f"{typed.strip()} ({n} unit{'s' if n != 1 else ''}: {ids})", typed.strip()))
    starts = [0] + [
        i
        for i in range(1, len(typed) + 1)
        if typed[i - 1] in SEPARATORS and _whole(typed[:i], view, rules)
    ]
    fresh = not typed.strip() or typed[-1] in SEPARATORS
    head_ids = typed if fresh else typed[: starts[-1]]
    typed_ids = set(re.findall(r"\d+", head_ids))
    caps = [8, 6, limit] if fresh else [limit, limit, limit]
    tiers = _candidates(view, rules, typed_ids)
    singles = tiers[-1]
    for tier, cap in zip(tiers, caps, strict=True):
        taken = 0
        for value, label in tier:
            start = next((p for p in starts if value.startswith(lowered[p:].lstrip())), None)
            if start is None or (
                fresh and tier is not singles and value[:1].isalpha() and " " not in value
            ):
                continue  # nothing typed yet: "all tanks", not also "tanks"
            head = typed[:start].rstrip()
            full = f"{head} {value}".strip() if head else value
            if len(full) > 100 or any(v == full for _, v in out):
                continue
            shown = f"{head} {label}".strip() if head else label
            out.append((shown[:100], full))
            taken += 1
            if taken == cap or len(out) >= limit:
                break
        if len(out) >= limit:
            break
    return out[:limit]
