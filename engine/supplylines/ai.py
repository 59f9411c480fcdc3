"""AI players of Supply Lines: a turn's orders from a player's View alone (the whole board, its
own orders and supply questions; never another player's orders), as the kind's commands.

`decide(view, memory, style)` is a pure function of the view and the memory (no dice): the
same view gives the same commands. Every order it gives is checked as the bot checks a
player's (`OrderList` on a state made from the view) and left out if it would be refused.

The policy, in the order it is planned (a turn's orders are all given at once). It plans
with the units the turn's first stage will leave: a player over its PopCap disbands units
before anything moves (the same for every player, so it is known from the view).

1. Builds, up to the PopCap: at threatened bases and home cities first (a unit built there
   defends at once: it does not move, so it holds), then at the one nearest the structures
   still to take. The strongest unit its network's supply lines allow (a tank needs a network
   with 2 lines), else infantry; a network is never loaded past `OVERLOAD` times its lines
   (the supply rotation keeps such units mobile: the most marked are supplied first), except
   to defend a threatened site (then the smallest unit that covers the threat).
2. The home city: when other players' movable units stand next to it, units stay in it (or
   come back from next door) until their strength is at least the enemy's next to it (a tie
   keeps the defenders).
3. Attacks: on every structure not its own that its units stand next to, most valuable first
   (home cities, then refineries and cities, bases last; held by another player counts more),
   with the units next to it whose strength beats the units inside (they defend) and, when
   it can, those that could come in too; an empty structure takes one unit, the weakest.
4. Other threatened structures keep units that can hold them (a city is PopCap, a refinery
   a supply line).
5. The rest advance: each unit steps (through its own structures, which keeps it in its
   supply network) towards the best structure still to take, valued by its worth and
   discounted by distance; a structure that enough units head for already counts less, so
   the army spreads over the empty ones and gathers on the defended ones.

Supply questions: units about to become immobile (or immobile, to move again) first, then
those next to enemies, then the strongest, each while the network's lines last.

The host's runner asks at most once a tick; the AI never rests (`resting`: the phase it must
act in shows only in a view), and `decide` gives nothing when it has already submitted this
turn's orders or answered this turn's supply question (the memory records the turn).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from engine.errors import CommandError
from engine.interface.turnbased.ai import TurnAi
from engine.supplylines import adjudicator, supply
from engine.supplylines.board import label_order, sorted_labels
from engine.supplylines.commands import ChooseSupply, ClearOrders, GiveOrder, SubmitOrders
from engine.supplylines.orders import Build, Concede, Hold, Move, OrderList, parse
from engine.supplylines.state import NEUTRAL, TICKS_PER_HOUR, Unit
from engine.supplylines.view import View, state_of

__all__ = [
    "AI",
    "STYLES",
    "Memory",
    "choose_supply",
    "decide",
    "failed",
    "orders_for",
    "resting",
    "state_of",
]

# "normal": an AI player; "caretaker": a player's seat while they are away (`/game caretaker`):
# it builds, defends, keeps its supply and takes empty neutral structures, but attacks no
# other player (their structures and units are theirs to fight for when the player is back)
STYLES = ("normal", "caretaker")

# builds: a network's units may need up to this many times its lines (each then supplied at
# least every other turn, its marks going 0, 1, 0...); 1.0 or 1.5 made the AI's games vs the
# random player a third longer, 3.0 no shorter
OVERLOAD = 2.0
NEAR = 0.6  # how much a target's worth fades with each road to it (advance)
SPENT = 0.25  # what is left of a target's worth once enough units head for it
ENEMY_BONUS = 8.0  # a structure another player holds is worth more (it is theirs no longer)


@dataclass
class Memory:
    """What an AI player carries from one decision to the next."""

    turn: int | None = None  # the turn it last decided for (the view's `turn`)
    phase: str | None = None  # "orders" or "supply"
    hour: int | None = None  # the game hour of that decision
    refused: list[str] = field(default_factory=list)  # commands refused (the last few)


# --- the state as the player sees it ------------------------------------------------------------


# --- the turn's orders ----------------------------------------------------------------------------


class _Plan:
    """One decision's working state: the units still free, what stays where, the orders."""

    def __init__(self, view: View, me: str, *, peaceful: bool = False) -> None:
        self.view, self.me = view, me
        self.peaceful = peaceful  # a caretaker: takes only empty neutral structures
        self.state = state_of(view)  # what orders are checked against
        # the units as the turn's first stage leaves them: a player whose units need more
        # PopCap than they have disbands some before anything moves (every player's the same
        # way, so it is known now); the plan counts only the units left
        units = view.units
        if any(p.popcap_used > p.popcap for p in view.players.values() if not p.out):
            after = self.state.model_copy(deep=True)
            adjudicator.resolve_orders(after, {})
            units = [u for u in view.units if u.id in after.units]
        self.rules = self.state.rules
        self.board = view.board
        self.labels = self.board.labels()
        self.dist: dict[str, dict[str, int]] = {
            a: dict(lengths) for a, lengths in nx.all_pairs_shortest_path_length(self.board.graph)
        }
        self.near = {s: self.board.neighbours(s) for s in self.labels}
        self.power = {t: u.strength for t, u in self.rules.units.items()}
        self.immobile_at = self.rules.marks.immobile_at
        self.mine = {s for s, o in view.owners.items() if o == me}
        seat = view.players[me].seat
        home = self.board.home_of(seat)
        self.home = home if home in self.mine else None
        # units: mine free to move (per structure), strengths staying, the others'
        self.free: dict[str, list[Unit]] = {}
        self.stay: dict[str, int] = dict.fromkeys(self.labels, 0)
        self.hostile: dict[str, int] = dict.fromkeys(self.labels, 0)  # every other unit
        self.mobile_enemy: dict[str, int] = dict.fromkeys(self.labels, 0)  # others' movable
        for u in units:
            if u.owner == me:
                if u.marks >= self.immobile_at:
                    self.stay[u.at] += self.power[u.type]
                else:
                    self.free.setdefault(u.at, []).append(u)
            else:
                self.hostile[u.at] += self.power[u.type]
                if u.owner != NEUTRAL and u.marks < self.immobile_at:
                    self.mobile_enemy[u.at] += self.power[u.type]
        for units in self.free.values():
            units.sort(key=lambda u: (self.power[u.type], u.marks, u.id))
        # the strength of other players that could walk into each structure next turn
        self.threat = {s: sum(self.mobile_enemy[n] for n in self.near[s]) for s in self.labels}
        self.incoming: dict[str, int] = dict.fromkeys(self.labels, 0)  # mine moving in
        self.claimed: dict[str, int] = dict.fromkeys(self.labels, 0)  # strength heading there
        self.moves: dict[tuple[str, str], dict[str, int]] = {}
        self.builds: dict[tuple[str, str], int] = {}
        self.notes: list[str] = []

    # --- reading ------------------------------------------------------------------------------

    def kind(self, label: str) -> str:
        return self.state.kind(label)

    def worth(self, label: str) -> float:
        """What taking a structure is worth: the victory, its supply, its builds, its
        PopCap; more when another player holds it."""
        s = self.rules.structures[self.kind(label)]
        value = 20.0 * s.victory + 18.0 * s.supply + 8.0 * s.builds + 2.0 * s.popcap
        owner = self.view.owners.get(label)
        if owner is not None and owner != self.me:
            value += ENEMY_BONUS
        return max(value, 1.0)

    def targets(self) -> list[str]:
        if self.peaceful:
            return [
                s
                for s in self.labels
                if self.view.owners.get(s) is None and s not in self.mine and not self.hostile[s]
            ]
        return [s for s in self.labels if s not in self.mine]

    def front(self, label: str) -> int:
        """Roads to the nearest structure still to take."""
        return min((self.dist[label][t] for t in self.targets()), default=0)

    def strength(self, units: Iterable[Unit]) -> int:
        return sum(self.power[u.type] for u in units)

    # --- giving orders --------------------------------------------------------------------------

    def _move(self, src: str, dst: str, unit: Unit) -> None:
        self.free[src].remove(unit)
        counts = self.moves.setdefault((src, dst), {})
        counts[unit.type] = counts.get(unit.type, 0) + 1
        self.incoming[dst] += self.power[unit.type]

    def _keep(self, at: str, unit: Unit) -> None:
        self.free[at].remove(unit)
        self.stay[at] += self.power[unit.type]

    @staticmethod
    def _cover(pool: list[tuple[str, Unit]], goal: int, power: dict[str, int]) -> list[int]:
        """Indexes of units of `pool` whose strength reaches `goal`, with little to spare:
        the weakest unit that covers what is left, else the strongest (and again)."""
        left, chosen = goal, []
        rest = list(range(len(pool)))
        while left > 0 and rest:
            fits = [i for i in rest if power[pool[i][1].type] >= left]
            i = (
                min(fits, key=lambda i: power[pool[i][1].type])
                if fits
                else max(rest, key=lambda i: power[pool[i][1].type])
            )
            chosen.append(i)
            rest.remove(i)
            left -= power[pool[i][1].type]
        return chosen

    # --- 1. builds ------------------------------------------------------------------------------

    def plan_builds(self) -> None:
        state, rules, me = self.state, self.rules, self.me
        left = state.popcap(me) - state.popcap_used(me)
        if left <= 0:
            return
        load: dict[str, list[int]] = {}  # structure -> its network's [lines, need] (shared)
        for net in supply.networks(state, me):
            pair = [net.lines, net.need]
            for s in net.structures:
                load[s] = pair
        sites = [s for s in sorted_labels(self.mine) if rules.structures[self.kind(s)].builds]
        if not sites:
            return
        types = sorted(rules.units, key=lambda t: (-rules.units[t].strength, t))

        def danger(s: str) -> bool:
            return self.threat[s] > self.stay[s]

        while left > 0:
            sites.sort(key=lambda s: (not danger(s), s != self.home, self.front(s), label_order(s)))
            built = False
            for site in sites:
                lines, need = load[site]
                fit = [t for t in types if rules.units[t].popcap <= left]
                supplied = [
                    t
                    for t in fit
                    if rules.units[t].supply <= lines
                    and need + rules.units[t].supply <= OVERLOAD * lines
                ]
                if supplied:
                    t = supplied[0]  # the strongest its network can supply
                elif fit and danger(site):
                    # defence first, but no more than it takes: a unit its network cannot
                    # supply gathers marks (and is the first disbanded)
                    short = self.threat[site] - self.stay[site]
                    covers = [t for t in fit if rules.units[t].strength >= short]
                    t = covers[-1] if covers else fit[0]
                else:
                    continue
                ut = rules.units[t]
                self.builds[(site, t)] = self.builds.get((site, t), 0) + 1
                left -= ut.popcap
                load[site][1] += ut.supply
                self.stay[site] += ut.strength
                built = True
                break
            if not built:
                return

    # --- 2. the home city -----------------------------------------------------------------------

    def defend_home(self) -> None:
        home = self.home
        if home is None or self.threat[home] <= self.stay[home]:
            return
        here = self.free.get(home, [])
        while here and self.stay[home] < self.threat[home]:
            pool = [(home, u) for u in here]
            (i, *_) = self._cover(pool, self.threat[home] - self.stay[home], self.power)
            self._keep(home, pool[i][1])
        for n in self.near[home]:
            if n not in self.mine:
                continue
            units = self.free.get(n, [])
            while units and self.stay[home] + self.incoming[home] < self.threat[home]:
                pool = [(n, u) for u in units]
                goal = self.threat[home] - self.stay[home] - self.incoming[home]
                (i, *_) = self._cover(pool, goal, self.power)
                self._move(n, home, pool[i][1])
        if self.stay[home] + self.incoming[home] < self.threat[home]:
            self.notes.append(f"{home} is threatened by {self.threat[home]}")

    # --- 3. attacks -----------------------------------------------------------------------------

    def attack(self) -> None:
        order = sorted(
            self.targets(),
            key=lambda t: (-(self.worth(t) + 3 * self.hostile[t]), label_order(t)),
        )
        for target in order:
            pool = [(n, u) for n in self.near[target] for u in self.free.get(n, [])]
            if not pool:
                continue
            # sources that are themselves threatened give their units last
            pool.sort(
                key=lambda p: (
                    p[0] == self.home,
                    self.threat[p[0]] > self.stay[p[0]],
                    self.power[p[1].type],
                    label_order(p[0]),
                )
            )
            inside = self.hostile[target]
            others = sum(self.mobile_enemy[n] for n in self.near[target])
            least, safe = inside + 1, inside + others + 1
            have = self.strength(u for _, u in pool)
            if have < least:
                continue
            goal = safe if have >= safe else least
            for i in self._cover(pool, goal, self.power):
                src, unit = pool[i]
                self._move(src, target, unit)
            self.claimed[target] += goal

    # --- 4. other threatened structures ---------------------------------------------------------

    def hold_threatened(self) -> None:
        places = [s for s in self.mine if self.free.get(s) and self.threat[s] > self.stay[s]]
        for s in sorted(places, key=lambda s: (-self.worth(s), label_order(s))):
            units = self.free[s]
            if self.stay[s] + self.strength(units) < self.threat[s]:
                continue  # they would be beaten: better used elsewhere
            while units and self.stay[s] < self.threat[s]:
                pool = [(s, u) for u in units]
                (i, *_) = self._cover(pool, self.threat[s] - self.stay[s], self.power)
                self._keep(s, pool[i][1])

    # --- 5. the rest advance --------------------------------------------------------------------

    def required(self, target: str) -> int:
        return self.hostile[target] + sum(self.mobile_enemy[n] for n in self.near[target]) + 1

    def advance(self) -> None:
        targets = self.targets()
        if not targets:
            return
        for src in sorted_labels(self.free):
            # the strongest first: they lead to the defended targets
            for unit in sorted(self.free[src], key=lambda u: (-self.power[u.type], u.id)):
                steps = [src] + [n for n in self.near[src] if n in self.mine]
                best: tuple[float, int, str, str] | None = None
                for target in targets:
                    value = self.worth(target)
                    if self.claimed[target] >= self.required(target):
                        value *= SPENT
                    for step in steps:
                        score = value * NEAR ** self.dist[step][target]
                        # ties: staying, then the first by label
                        key = (score, step == src, step, target)
                        if best is None or key[:2] > best[:2]:
                            best = key
                assert best is not None
                _, _, step, target = best
                self.claimed[target] += self.power[unit.type]
                if step != src:
                    self._move(src, step, unit)

    # --- the orders, checked --------------------------------------------------------------------

    def orders(self) -> list[str]:
        """The orders as text, each checked as the bot checks it (refused ones left out)."""
        listed = OrderList(self.state, self.me)
        wanted: list[Build | Hold | Move | Concede] = []
        for (site, t), n in sorted(self.builds.items(), key=lambda kv: label_order(kv[0][0])):
            wanted.append(Build(count=n, unit=t, at=site))
        for (src, dst), counts in sorted(
            self.moves.items(), key=lambda kv: (label_order(kv[0][0]), label_order(kv[0][1]))
        ):
            wanted.append(Move(src=src, dst=dst, units=dict(sorted(counts.items()))))
        texts = []
        for order in wanted:
            text = order.text()
            try:
                listed.add(parse(text, self.state))
            except CommandError as exc:
                self.notes.append(f"left out {text!r}: {exc}")
                continue
            texts.append(text)
        return texts


def orders_for(view: View, notes: list[str] | None = None, *, style: str = "normal") -> list[str]:
    """The AI's orders for this turn, as the player would write them; `notes` (if given)
    gets what the plan noticed (a threat it cannot meet, an order it had to leave out). A
    caretaker attacks no other player: it takes only empty neutral structures."""
    me = view.nation
    if me is None or me not in view.players or view.players[me].out:
        return []
    plan = _Plan(view, me, peaceful=style == "caretaker")
    plan.plan_builds()
    plan.defend_home()
    plan.attack()
    plan.hold_threatened()
    plan.advance()
    texts = plan.orders()
    if notes is not None:
        notes.extend(plan.notes)
    return texts


# --- supply questions ------------------------------------------------------------------------------


def choose_supply(view: View) -> list[int]:
    """The units to supply, for every question of the view: the units about to become
    immobile (or immobile) first, then those next to other players' units, then the
    strongest, then the most marked, each while its network has lines left."""
    me = view.nation
    state = state_of(view)
    rules = state.rules
    immobile_at = rules.marks.immobile_at
    by_id = {u.id: u for u in view.units}
    enemy_near: set[str] = set()
    for u in view.units:
        if u.owner not in (me, NEUTRAL):
            enemy_near.update(view.board.neighbours(u.at))
            enemy_near.add(u.at)
    chosen: list[int] = []
    for units, lines, _default in view.questions:
        ranked = sorted(
            (by_id[i] for i in units if i in by_id),
            key=lambda u: (
                u.marks < immobile_at - 1,
                u.at not in enemy_near,
                -rules.units[u.type].strength,
                -u.marks,
                u.id,
            ),
        )
        left = lines
        for u in ranked:
            need = rules.units[u.type].supply
            if need <= left:
                chosen.append(u.id)
                left -= need
    return sorted(chosen)


# --- the AI as the host drives it ------------------------------------------------------------------


def resting(memory: Memory, style: str, tick: int, ticks_per_hour: int) -> bool:
    """Whether the AI lets this tick pass without a look at its view: never, for a style it
    has (the runner's `AI.resting`: a turn may resolve before its deadline, a supply question
    last a quarter hour, so resting by the hour would miss phases)."""
    return AI.resting(memory, style, tick, ticks_per_hour)


def decide(view: View, memory: Memory, style: str = "normal") -> list[Any]:
    """The commands for now: this turn's orders then `SubmitOrders`, or the answer to the
    supply questions; nothing when it is done with the turn (or out, or the game is over)."""
    if style not in STYLES:
        raise ValueError(f"an AI style is one of {', '.join(STYLES)}")
    me = view.nation
    if me is None or not view.started or view.ended:
        return []
    player = view.players.get(me)
    if player is None or player.out:
        return []
    if view.phase == "supply":
        if (
            not view.questions
            or player.answered  # (by the player, before a caretaker took the seat)
            or (memory.turn, memory.phase) == (view.turn, "supply")
        ):
            return []
        memory.turn, memory.phase = view.turn, "supply"
        memory.hour = view.tick // TICKS_PER_HOUR
        return [ChooseSupply(units=choose_supply(view))]
    # once a turn: a caretaker's player may add orders after it (which takes the submission
    # back) and keeps them; orders already submitted (by the player before handing the seat
    # over, or before a restart emptied the memory) stand
    if (memory.turn, memory.phase) == (view.turn, "orders"):
        return []
    if player.submitted:
        memory.turn, memory.phase = view.turn, "orders"  # it stands, and what is added later
        return []
    commands: list[Any] = [ClearOrders()] if view.orders.get(me) else []
    commands += [GiveOrder(text=text) for text in orders_for(view, style=style)]
    commands.append(SubmitOrders())
    memory.turn, memory.phase = view.turn, "orders"
    memory.hour = view.tick // TICKS_PER_HOUR
    return commands


def failed(memory: Memory, command: Any, view: View | None = None) -> None:
    """A command was refused: remember it, and decide again next time if it was the
    submission or the supply answer."""
    memory.refused = (memory.refused + [repr(command)])[-20:]
    if isinstance(command, SubmitOrders | ChooseSupply):
        memory.turn = memory.phase = memory.hour = None


# the AI players as the host's runner drives them (one AI player: the caretaker is a player's
# choice)
AI = TurnAi(styles=STYLES, levels=("normal",), memory=Memory, decide=decide, failed=failed)
