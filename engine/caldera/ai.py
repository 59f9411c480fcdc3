"""AI captains of Caldera: a window's commands from the captain's View alone (the shared map,
NPCs and zone; its own hand, credits, techs and ships; never another captain's).

`decide(view, memory, style)` is a pure function of the view and the memory (no dice). Every
command it gives is checked by the game as a player's; one refused is remembered and left.

The policy, once a window:
1. The setup: balanced stats (the rules' default character), the first zone mission card, an
   Earth interceptor when the credits allow it.
2. Cards: the research whose tech costs least (a class or engine first on a tie), the easiest
   mission (the lowest number), a design of the tech it builds with when a fifth of the
   credits pays for it, a half-price tech when affordable.
3. Spending: a share of the credits into research; a ship when it has none at the shipyard
   or the credits are plenty: the largest class its shipyard builds, an engine, mining bots
   when it has fewer miners than warships, and weapons and defences in the space left;
   repairs of ships at the shipyard.
4. Moves: miners to the nearest system with minerals; the others to the nearest unexplored
   place their engines reach (scouting), else to the reachable place nearest to one; at most
   a fleet from one place.
Then it submits.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.caldera import interim as rules
from engine.caldera.commands import (
    Build,
    BuyBonus,
    Choose,
    Fund,
    Move,
    Repair,
    SetStats,
    Submit,
)
from engine.caldera.state import EARTH, Captain, Ship, State
from engine.caldera.view import View

STYLES = ("normal",)


@dataclass
class Memory:
    turn: int | None = None  # the window it last decided for (the view's `turn`)
    refused: list[str] = field(default_factory=list)


def state_of(view: View) -> State:
    """A state made of what the view shows (the viewer's own captain and ships), for the
    engine's readings of it (ranges, space, costs)."""
    return State(
        ruleset=view.ruleset,
        turn=max(view.turn - 1, 0),
        zone=view.zone,
        captains={k: c.model_copy(deep=True) for k, c in view.own.items()},
        ships={s.id: s.model_copy() for ships in view.fleets.values() for s in ships},
        map=view.map.model_copy(deep=True),
    )


def _research_pick(c: Captain, cards: list[str]) -> str:
    def key(card: str) -> tuple[int, int, int, str]:
        tech = rules.TECHS[rules.CARDS[card].tech]
        owned = tech.id in c.techs
        return (owned, tech.research, tech.type not in ("class", "engine"), card)

    return min(cards, key=key)


def _cards(view: View, me: str, c: Captain) -> list[Any]:
    out: list[Any] = []
    credits = c.credits
    if view.zone_hand:
        out.append(Choose(hand="zone", card=view.zone_hand[0]))
    for hand in c.hand:
        if hand.kind == "research" and c.research is None:
            pick = _research_pick(c, hand.cards)
            if rules.CARDS[pick].tech not in c.techs:
                out.append(Choose(hand="research", card=pick))
        elif hand.kind == "mission":
            out.append(Choose(hand="mission", card=min(hand.cards, key=lambda k: (rules.CARDS[k].number, k))))
        elif hand.kind == "design":
            best = None
            for card in hand.cards:
                tech = rules.CARDS[card].tech
                if tech in c.techs and c.techs[tech] < 5:
                    cost = rules.research_cost(c.stats, tech) // 5
                    if cost * 5 <= credits and (best is None or cost < best[0]):
                        best = (cost, card)
            if best is not None:
                out.append(Choose(hand="design", card=best[1]))
                credits -= best[0]
            else:
                out.append(Choose(hand="design", card=None))
        elif hand.kind == "tech":
            pick = next(
                (
                    k
                    for k in hand.cards
                    if rules.CARDS[k].tech not in c.techs
                    and rules.TECHS[rules.CARDS[k].tech].research // 2 <= credits // 2
                ),
                None,
            )
            out.append(Choose(hand="tech", card=pick))
    return out


def _design(c: Captain, klass: str) -> list[str]:
    """Parts for a new ship of `klass`: the best engine, mining bots when it is a miner,
    then the best weapon and defence alternately while they fit."""
    room = rules.space(c.stats, klass, c.techs.get(klass, 0))
    owned = [rules.TECHS[t] for t in sorted(c.techs) if t in rules.TECHS]
    engines = sorted((t for t in owned if t.type == "engine"), key=lambda t: -t.level)
    weapons = sorted((t for t in owned if t.type == "weapon"), key=lambda t: -t.level)
    defences = sorted((t for t in owned if t.type == "defence"), key=lambda t: -t.level)
    parts: list[str] = []
    used = 0
    if engines and engines[0].size <= room:
        parts.append(engines[0].id)
        used += engines[0].size
    for choice in (weapons[:1] + defences[:1]) * 8:
        if used + choice.size <= room:
            parts.append(choice.id)
            used += choice.size
    return parts


def _miner(c: Captain, klass: str) -> list[str]:
    room = rules.space(c.stats, klass, c.techs.get(klass, 0))
    parts = []
    engines = sorted(
        (rules.TECHS[t] for t in c.techs if rules.TECHS.get(t) and rules.TECHS[t].type == "engine"),
        key=lambda t: -t.level,
    )
    used = 0
    if engines:
        parts.append(engines[0].id)
        used = engines[0].size
    while used + rules.TECHS["mining-bots"].size <= room and "mining-bots" in c.techs:
        parts.append("mining-bots")
        used += rules.TECHS["mining-bots"].size
    return parts


def _spend(state: State, me: str, c: Captain, credits: int) -> list[Any]:
    out: list[Any] = []
    ships = state.ships_of(me)
    for ship in ships:
        if ship.at == EARTH and ship.damage and credits >= rules.NUMBERS.repair:
            points = min(ship.damage, credits // rules.NUMBERS.repair)
            out.append(Repair(ship=ship.id, points=points))
            credits -= points * rules.NUMBERS.repair
    classes = [
        t
        for t in sorted(c.techs, key=lambda t: -rules.TECHS[t].level if t in rules.TECHS else 0)
        if t in rules.TECHS
        and rules.TECHS[t].type == "class"
        and rules.TECHS[t].level <= rules.TECHS[c.shipyard.klass].level
    ]
    if classes and not c.built and not c.shipyard.destroyed:
        miners = sum(1 for s in ships if "mining-bots" in s.parts)
        for klass in classes:
            parts = _miner(c, klass) if miners * 2 < len(ships) + 1 else _design(c, klass)
            cost = rules.build_cost(
                c.stats, rules.TECHS[klass].cost + sum(rules.TECHS[p].cost for p in parts)
            )
            if parts and cost <= credits:
                out.append(Build(klass=klass, parts=parts))
                credits -= cost
                break
    if c.research is not None and credits > 0:
        need = rules.research_cost(c.stats, c.research) - c.research_paid
        amount = min(need, credits // 2 if ships else credits // 4)
        if amount > 0:
            out.append(Fund(amount=amount))
    return out


def _moves(state: State, view: View, me: str, c: Captain) -> list[Any]:
    out: list[Any] = []
    taken: dict[str, int] = {}
    targets_used: set[str] = set()
    unexplored = set(rules.unexplored(state))
    systems = [
        p
        for p, t in view.map.tiles.items()
        if t.kind in ("asteroids", "planet") and p != EARTH and t.base is None
    ]
    enemies_at = {s.at for s in view.ships if s.owner in view.npcs and not view.npcs[s.owner].friend}
    limit = rules.NUMBERS.move_fleet
    for ship in state.ships_of(me):
        if taken.get(ship.at, 0) >= limit:
            continue
        reach = rules.reachable(state, ship.at, _range(c, ship))
        if not reach:
            continue
        goal = None
        if "mining-bots" in ship.parts:
            if ship.at in systems and ship.at not in enemies_at:
                continue  # mining where it is
            options = [p for p in reach if p in systems and p not in enemies_at]
            if options:
                goal = min(options, key=lambda p: (reach[p], rules.key_order(p)))
        else:
            options = [p for p in reach if p in unexplored and p not in targets_used]
            if options:
                goal = min(options, key=lambda p: (reach[p], rules.key_order(p)))
            elif unexplored:
                goal = min(
                    (p for p in reach if p not in enemies_at),
                    key=lambda p: (
                        min(_distance(p, u) for u in unexplored),
                        reach[p],
                        rules.key_order(p),
                    ),
                    default=None,
                )
        if goal is None or goal == ship.at:
            continue
        targets_used.add(goal)
        taken[ship.at] = taken.get(ship.at, 0) + 1
        out.append(Move(ships=[ship.id], to=goal))
    return out


def _distance(a: str, b: str) -> int:
    qa, ra = rules.parse(a)
    qb, rb = rules.parse(b)
    dq, dr = qa - qb, ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _range(c: Captain, ship: Ship) -> int:
    from engine.caldera.window import engine_range

    return engine_range(c, ship)


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
        return [SetStats(stats=dict(rules.NUMBERS.default_stats))]
    memory.turn = view.turn
    if c.submitted:
        return []
    out: list[Any] = []
    credits = c.credits
    if view.phase == "setup":
        bonus = rules.NUMBERS.bonuses["earth-interceptor"]
        if credits >= bonus.cost * 2:
            out.append(BuyBonus(bonus=bonus.id))
            credits -= bonus.cost
    cards = _cards(view, me, c)
    out += cards
    for command in cards:
        if isinstance(command, Choose) and command.hand == "design" and command.card:
            credits -= rules.research_cost(c.stats, rules.CARDS[command.card].tech) // 5
    state = state_of(view)
    for command in cards:
        if isinstance(command, Choose) and command.hand == "research" and command.card:
            state.captains[me].research = rules.CARDS[command.card].tech
            state.captains[me].research_paid = 0
    out += _spend(state, me, state.captains[me], credits)
    out += _moves(state, view, me, state.captains[me])
    out.append(Submit())
    return out


def failed(memory: Memory, command: Any, view: View | None = None) -> None:
    memory.refused = (memory.refused + [repr(command)])[-20:]
    if isinstance(command, Submit):
        memory.turn = None


class CalderaAi:
    """The AI captains as the host's runner drives them (`engine.interface.kind.Ai`)."""

    styles: tuple[str, ...] = STYLES
    levels: tuple[str, ...] = STYLES

    def memory(self) -> Memory:
        return Memory()

    def resting(self, memory: Any, style: str, tick: int, ticks_per_hour: int) -> bool:
        return style not in STYLES

    def decide(self, view: Any, memory: Any, style: str) -> list[Any]:
        return decide(view, memory, style)

    def failed(self, memory: Any, command: Any, view: Any) -> None:
        failed(memory, command, view)

    def save(self, memory: Any) -> dict[str, Any]:
        return asdict(memory)

    def restore(self, data: dict[str, Any]) -> Memory:
        return Memory(**data)


AI = CalderaAi()
