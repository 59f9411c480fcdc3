"""Orders: move, attack, build, designate, cancel, board, launch, engineer, diplomacy.

Each checks what it can from the caller's view, builds the engine command and submits it
through the service; the engine validates everything again (and its messages never reveal
what the nation cannot see)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from bot import parsing
from bot.actions import Actions
from bot.context import Caller, Context, Pending, Reply, Seat, UserError, sentence
from bot.games.strategic import NAME as KIND
from bot.games.strategic import notices, selectors, timing
from engine.errors import CommandError, GameError
from engine.host.realtime import RealClock
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.rules import load as load_rules
from engine.strategic.view import View
from engine.strategic.words import article
from engine.strategic.world.geometry import Grid

# what the commands of the order being answered cost (`costed`)
_SPENT: ContextVar[list[ev.PointsSpent] | None] = ContextVar("spent", default=None)


def _note_spent(events: list[ev.Event]) -> None:
    spent = _SPENT.get()
    if spent is not None:
        spent.extend(e for e in events if isinstance(e, ev.PointsSpent))


def costed(
    method: Callable[..., Awaitable[Reply]],
) -> Callable[..., Awaitable[Reply]]:
    """An order's reply ends with what it cost in command points and what is left (the
    engine's `PointsSpent`), whatever the order (docs/MESSAGES.md). An order is one command:
    it finds the caller's game once (`Context.one_command`)."""

    @functools.wraps(method)
    async def answer(self: Playing, *args: Any, **kwargs: Any) -> Reply:
        spent: list[ev.PointsSpent] = []
        token = _SPENT.set(spent)
        try:
            with self.ctx.one_command():
                reply = await method(self, *args, **kwargs)
        finally:
            _SPENT.reset(token)
        if spent:
            total = sum(e.spent for e in spent)
            points = "command point" if total == 1 else "command points"
            reply.text = f"{reply.text}\n{total} {points} spent; {spent[-1].left} left."
        return reply

    return answer


class Playing:
    def __init__(self, ctx: Context, actions: Actions) -> None:
        self.ctx = ctx
        actions.confirmation("launch", self.confirmed_launch)
        actions.confirmation("disband", self.confirmed_disband)

    async def _submit(self, caller: Caller, command: cmd.Command) -> tuple[list[ev.Event], str]:
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        _check_running(seat)
        try:
            result = await self.ctx.service.submit(seat.game.id, nation, command)
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        _note_spent(result.for_nation(nation))
        return result.for_nation(nation), nation

    async def _told(
        self, caller: Caller, events: list[ev.Event], nation: str, before: View | None = None
    ) -> str:
        """What a command's events tell the nation, worded as its DMs word them (`notices`),
        with what became of the units it moved (from its view before and after)."""
        seat = await self.ctx.seat(caller)
        summary = await self.ctx.service.summary(seat.game.id)
        names = {n.id: n.shown for n in summary.nations.values()}
        travel = None
        if before is not None:
            travel = Travel(before, await self.ctx.view(seat.game.id, nation))
        return _order_summary(events, nation, names, travel)

    async def _view(self, caller: Caller) -> tuple[View, str]:
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        return await self.ctx.view(seat.game.id, nation), nation

    async def _square(self, caller: Caller, text: str) -> tuple[int, int]:
        view, _ = await self._view(caller)
        return parsing.square(text, view.width, view.height)

    @costed
    async def move(self, caller: Caller, units: str, to: str) -> Reply:
        before, _ = await self._view(caller)
        xy = parsing.square(to, before.width, before.height)
        rules = load_rules(before.ruleset)
        goal = xy[1] * before.width + xy[0]
        chosen = selectors.for_move(selectors.resolve(units, before, rules), before, rules, goal)
        command = cmd.Move(units=chosen.ids(), to=xy)
        events, nation = await self._submit(caller, command)
        told = await self._told(caller, events, nation, before) or "Orders given."
        return Reply(text=_noted(chosen, told))

    @costed
    async def attack(
        self, caller: Caller, units: str, target: str, *, queue: bool = False
    ) -> Reply:
        view, _ = await self._view(caller)
        xy = parsing.square(target, view.width, view.height)
        rules = load_rules(view.ruleset)
        at = xy[1] * view.width + xy[0]
        chosen = selectors.for_attack(selectors.resolve(units, view, rules), view, rules, at)
        command = cmd.Attack(units=chosen.ids(), target=xy, queue=queue)
        events, nation = await self._submit(caller, command)
        told = await self._told(caller, events, nation)
        if queue:  # the units still on their way: their attack waits until they are in range
            after, _ = await self._view(caller)
            waiting = [
                f"Unit {u.id}, now at {after.label(u.sq)}, attacks {xy[0]},{xy[1]} once in "
                "range, going on at its updates."
                for u in after.own_units()
                if u.id in command.units and u.order == at and u.strike
            ]
            if waiting:
                waiting.append(
                    "(Given up if nothing you know of is there any more; `/cancel` drops it.)"
                )
                told = "\n".join(line for line in (told, *waiting) if line)
        return Reply(text=_noted(chosen, told or "Attack ordered."))

    @costed
    async def build(
        self, caller: Caller, city: str, unit: str, *, next_build: bool = False
    ) -> Reply:
        view, _ = await self._view(caller)
        xy = parsing.square(city, view.width, view.height)
        rules = load_rules(view.ruleset)
        if next_build and unit.strip().lower() in ("none", "nothing", "clear"):
            command: cmd.Command = cmd.SetNextBuild(city=xy, unit=None)
        else:
            name = parsing.choice(unit, [u.name for u in rules.units], "unit type")
            command = (
                cmd.SetNextBuild(city=xy, unit=name)
                if next_build
                else cmd.SetBuild(city=xy, unit=name)
            )
        await self._submit(caller, command)
        after, _ = await self._view(caller)
        income = _income_note(view, after, xy, rules)
        if isinstance(command, cmd.SetNextBuild):
            if command.unit is None:
                return Reply(text=f"The city at {city} has no next build now.")
            return Reply(
                text=f"The city at {xy[0]},{xy[1]} builds {_title(rules, command.unit)} next."
            )
        assert isinstance(command, cmd.SetBuild)
        ut = rules.unit[command.unit]
        return Reply(
            text=f"The city at {xy[0]},{xy[1]} now builds {ut.title} ({ut.cost_hours} hours)."
            + income
        )

    @costed
    async def designate(self, caller: Caller, city: str, designation: str) -> Reply:
        view, _ = await self._view(caller)
        xy = parsing.square(city, view.width, view.height)
        rules = load_rules(view.ruleset)
        name = parsing.choice(designation, [c.name for c in rules.cities], "designation")
        await self._submit(caller, cmd.Designate(city=xy, designation=name))
        before, (view, _) = view, await self._view(caller)
        income = _income_note(before, view, xy, rules)
        built = view.cities[xy[1] * view.width + xy[0]]
        title = rules.city[name].title.lower()
        if built.build:
            what = f"; it builds {_title(rules, built.build)}"
        else:  # a useless order unless the player knows why: say what would fix it
            options = sorted(rules.builds_of(name), key=lambda u: (u.tech, u.name))
            what = "; it builds nothing"
            if options:
                first = options[0]
                what += (
                    f" until your tech reaches {first.tech} (yours is {view.status.tech:.2f}), "
                    f"when it can build {first.title}; designate it something it can build now "
                    "meanwhile"
                )
        return Reply(text=f"The city at {xy[0]},{xy[1]} is now {article(title)}{what}.{income}")

    @costed
    async def invest(self, caller: Caller, city: str, points: int) -> Reply:
        """Command points spent restoring a city back from a wasteland (ruleset total-war)."""
        view, _ = await self._view(caller)
        if load_rules(view.ruleset).wastelands is None:
            raise UserError("This game's ruleset has no wastelands: there is nothing to invest in.")
        xy = parsing.square(city, view.width, view.height)
        if points < 1:
            raise UserError("Invest at least 1 command point.")
        events, nation = await self._submit(caller, cmd.Invest(city=xy, points=points))
        return Reply(text=await self._told(caller, events, nation) or "Invested.")

    @costed
    async def waypoint(self, caller: Caller, city: str, to: str | None = None) -> Reply:
        """Where a city sends each unit it builds (none: it keeps them)."""
        view, _ = await self._view(caller)
        xy = parsing.square(city, view.width, view.height)
        clear = to is None or to.strip().lower() in ("none", "nothing", "clear", "")
        goal = None if clear or to is None else parsing.square(to, view.width, view.height)
        await self._submit(caller, cmd.SetWaypoint(city=xy, to=goal))
        if goal is None:
            return Reply(text=f"The city at {xy[0]},{xy[1]} keeps what it builds now.")
        return Reply(
            text=f"The city at {xy[0]},{xy[1]} sends each unit it builds to {goal[0]},{goal[1]} "
            "(a standing order; a change of build clears the waypoint)."
        )

    @costed
    async def cancel(self, caller: Caller, units: str) -> Reply:
        view, _ = await self._view(caller)
        chosen = selectors.for_cancel(
            selectors.resolve(units, view, load_rules(view.ruleset)), view
        )
        ids = chosen.ids()
        await self._submit(caller, cmd.CancelOrders(units=ids))
        return Reply(text=f"Standing orders cancelled for {_ids(ids)}{chosen.tail()}.")

    @costed
    async def board(self, caller: Caller, units: str, carrier: int) -> Reply:
        carrier = parsing.unit_number(carrier)
        view, _ = await self._view(caller)
        rules = load_rules(view.ruleset)
        chosen = selectors.for_board(selectors.resolve(units, view, rules), view, rules, carrier)
        ids = chosen.ids()
        await self._submit(caller, cmd.Board(units=ids, carrier=carrier))
        return Reply(text=f"{_ids(ids).capitalize()} went aboard {carrier}{chosen.tail()}.")

    @costed
    async def engineer(self, caller: Caller, unit: int, action: str) -> Reply:
        unit = parsing.unit_number(unit)
        action = parsing.choice(action, ["build_city", "switch_terrain"], "engineer action")
        command: cmd.Command = (
            cmd.BuildCity(unit=unit) if action == "build_city" else cmd.SwitchTerrain(unit=unit)
        )
        try:
            events, nation = await self._submit(caller, command)
        except UserError as exc:
            # refused for its mobility (the engine checks the place first): say when it is ready
            ready = await self._engineer_ready(caller, unit, action)
            if ready and "mobility" in str(exc):
                raise UserError(f"{sentence(str(exc))} {ready}") from None
            raise
        for e in events:
            if isinstance(e, ev.CityFounded):
                return Reply(text=f"Engineer {unit} founded a city at {e.city}.")
            if isinstance(e, ev.TerrainSwitched):
                return Reply(text=f"Engineer {unit} turned {e.square} into {e.terrain}.")
            if isinstance(e, ev.SubSighted):  # a hidden sub on its square, found (RULES.md)
                return Reply(
                    text=f"Engineer {unit} found a submarine at {e.square} and switched nothing."
                )
        return Reply(text="Done.")

    async def _engineer_ready(self, caller: Caller, unit: int, action: str) -> str | None:
        """When an own engineer short of the mobility the action takes will have it, as a
        sentence (None: not an own engineer, or it never will)."""
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        view = await self.ctx.view(seat.game.id, nation)
        mine = next((u for u in view.own_units() if u.id == unit), None)
        rules = load_rules(view.ruleset)
        if mine is None or mine.mobility is None:
            return None
        need = timing.engineer_need(rules, action)
        ready = timing.ready_at(mine, need, view.tick, rules)
        if ready is None or ready <= view.tick:
            return None
        summary = await self.ctx.service.summary(seat.game.id)
        real = RealClock.of_row(seat.game, summary.ticks_per_hour).real_time_of(ready)
        when = f" (<t:{int(real)}:R>)" if real else ""
        return f"It will have it at {summary.clock(ready)}{when}."

    @costed
    async def launch(self, caller: Caller, unit: int, target: str) -> Reply:
        unit = parsing.unit_number(unit)
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        view = await self.ctx.view(seat.game.id, nation)
        xy = parsing.square(target, view.width, view.height)
        mine = view.unit(unit)
        if mine is None or mine.seen != "own":
            raise UserError(f"You have no unit {unit}.")
        rules = load_rules(view.ruleset)
        ut = rules.unit[mine.type]
        if not ut.launchable and ut.blast_radius is None:
            raise UserError(f"{ut.title} {unit} cannot be launched.")

        if ut.icbm_part is not None:  # a two-part ICBM (ruleset total-war)
            confirm = await self.ctx.confirmations.ask(
                caller, "Launch", "launch", seat.game.id, nation=nation, unit=unit, target=list(xy)
            )
            return Reply(
                text=(
                    f"Launch an ICBM with **{ut.title} {unit}** and the best "
                    f"{'warhead' if ut.icbm_part == 'base' else 'missile base'} beside it at "
                    f"{xy[0]},{xy[1]}? Both parts are spent, hit or miss; a hit damages every "
                    "unit in the blast, turns its cities into wasteland (declaring war on you) "
                    "and adds to the ecological meter."
                ),
                confirm=confirm,
            )
        if ut.blast_radius is None:  # a satellite: nothing to confirm
            return await self._fire(seat, nation, unit, xy)
        confirm = await self.ctx.confirmations.ask(
            caller, "Launch", "launch", seat.game.id, nation=nation, unit=unit, target=list(xy)
        )
        return Reply(
            text=(
                f"Launch **{ut.title} {unit}** at {xy[0]},{xy[1]}? It devastates everything within "
                f"{ut.blast_radius} squares, declares war on whoever it hits, and may bring "
                "counter-launches."
            ),
            confirm=confirm,
        )

    @costed
    async def confirmed_launch(self, caller: Caller, pending: Pending) -> Reply:
        """The launch button: the presser must still lead the nation; the engine checks the
        unit and the target again."""
        seat = await self.ctx.owner(caller, pending.game_id, pending.args["nation"])
        x, y = pending.args["target"]
        return await self._fire(seat, pending.args["nation"], int(pending.args["unit"]), (x, y))

    async def _fire(self, seat: Seat, nation: str, unit: int, xy: tuple[int, int]) -> Reply:
        _check_running(seat)
        try:
            result = await self.ctx.service.submit(
                seat.game.id, nation, cmd.Launch(unit=unit, target=xy)
            )
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        _note_spent(result.for_nation(nation))
        summary = await self.ctx.service.summary(seat.game.id)
        names = {n.id: n.shown for n in summary.nations.values()}
        text = _order_summary(result.for_nation(nation), nation, names)
        return Reply(text=text or "Launched.")

    @costed
    async def diplomacy(self, caller: Caller, nation: str, level: str) -> Reply:
        seat, me = await self.ctx.playing(caller, kind=KIND)
        view = await self.ctx.view(seat.game.id, me)
        other = _other_nation(view, me, nation)
        rules = load_rules(view.ruleset)
        chosen = parsing.choice(level, rules.diplomacy.levels, "relation")
        events, _ = await self._submit(caller, cmd.SetRelation(other=other, level=chosen))
        after = await self.ctx.view(seat.game.id, me)
        name = after.nations[other].name
        # what else the order changed (an ally's war pulling a friendship down...): the DMs
        # leave relation changes to this reply (notices.ANSWERED)
        names = {n.id: n.styled for n in after.nations.values()}
        knock_on = [
            line
            for e in events
            if isinstance(e, ev.RelationChanged)
            and {e.nation, e.other} != {me, other}
            and (line := notices.describe(e, me, names))
        ]
        also = "".join(f"\n{line}." for line in knock_on)
        for e in events:
            if (
                isinstance(e, ev.RelationChanged)
                and e.nation == me
                and e.other == other
                and e.due_tick is not None
                and e.due_tick > view.tick
            ):
                game = await self.ctx.service.summary(seat.game.id)
                return Reply(
                    text=f"Your relation to {name} becomes {chosen} at {game.clock(e.due_tick)} "
                    f"(notice given).{also}"
                )
        theirs = after.nations[other].relation_from
        tail = (
            f" They are {theirs} towards you."
            if theirs != chosen
            else f" You are now mutually {'at war' if chosen == rules.diplomacy.war else chosen}."
        )
        return Reply(text=f"Your relation to {name} is now {chosen}.{tail}{also}")

    # --- disband and cede ---------------------------------------------------------------------

    async def disband(self, caller: Caller, units: str) -> Reply:
        """Disbanding is for good: the units are listed and a button asks first."""
        seat, nation = await self.ctx.playing(caller, kind=KIND)
        _check_running(seat)
        view = await self.ctx.view(seat.game.id, nation)
        chosen = selectors.resolve(units, view, load_rules(view.ruleset))
        ids = chosen.ids()
        listed = []
        for uid in ids:
            mine = view.unit(uid)
            if mine is None or mine.seen != "own":
                raise UserError(f"You have no unit {uid}.")
            listed.append(f"{notices.unit_title(mine.type)} {uid} at {view.label(mine.sq)}")
        cost = load_rules(view.ruleset).command_points.costs.disband
        confirm = await self.ctx.confirmations.ask(
            caller, "Disband", "disband", seat.game.id, nation=nation, units=ids
        )
        return Reply(
            text=(
                f"Disband {', '.join(listed)}? {'It is' if len(ids) == 1 else 'They are'} gone "
                f"for good ({cost} command point{'' if cost == 1 else 's'})."
                + (f" (Skipped {chosen.skipped_text()}.)" if chosen.tail() else "")
            ),
            confirm=confirm,
        )

    @costed
    async def confirmed_disband(self, caller: Caller, pending: Pending) -> Reply:
        """The disband button: the presser must still lead the nation; the engine checks the
        units again (they may have died or been ceded meanwhile)."""
        nation = pending.args["nation"]
        seat = await self.ctx.owner(caller, pending.game_id, nation)
        _check_running(seat)
        command = cmd.Disband(units=[int(u) for u in pending.args["units"]])
        try:
            result = await self.ctx.service.submit(seat.game.id, nation, command)
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        _note_spent(result.for_nation(nation))
        summary = await self.ctx.service.summary(seat.game.id)
        names = {n.id: n.shown for n in summary.nations.values()}
        return Reply(text=_order_summary(result.for_nation(nation), nation, names) or "Disbanded.")

    @costed
    async def cede(
        self, caller: Caller, to: str, units: str | None = None, city: str | None = None
    ) -> Reply:
        """Hand units or a city (exactly one of them) to a mutual ally."""
        if (units is None) == (city is None):
            raise UserError("Cede either units or a city: give `units` or `city`, not both.")
        seat, me = await self.ctx.playing(caller, kind=KIND)
        view = await self.ctx.view(seat.game.id, me)
        other = _other_nation(view, me, to)
        chosen = None
        if units is not None:
            chosen = selectors.resolve(units, view, load_rules(view.ruleset))
            command: cmd.Command = cmd.CedeUnits(units=chosen.ids(), receiver=other)
        else:
            assert city is not None
            xy = parsing.square(city, view.width, view.height)
            command = cmd.CedeCity(city=xy, receiver=other)
        events, nation = await self._submit(caller, command)
        told = await self._told(caller, events, nation) or "Ceded."
        return Reply(text=_noted(chosen, told) if chosen is not None else told)


def _other_nation(view: View, me: str, text: str) -> str:
    """The id of the other nation the player named (by name or id, any case)."""
    wanted = text.strip().lower()
    for n in view.nations.values():
        if wanted in (n.id.lower(), n.name.lower()) and n.id != me:
            return n.id
    raise UserError(f"There is no other nation called {text!r} in this game.")


def _income_note(before: View, after: View, xy: tuple[int, int], rules) -> str:
    """A warning when a city order cut the nation's command-point income (a base that is a
    base no more: the ruleset's `per_base_extra`), with the income before and after."""
    was, now = before.status.cp_regen, after.status.cp_regen
    if now >= was:
        return ""
    sq = xy[1] * after.width + xy[0]
    old, new = before.cities.get(sq), after.cities.get(sq)
    why = ""
    if (
        old is not None
        and new is not None
        and old.designation != new.designation
        and rules.city[old.designation].counts_as_base
    ):
        why = f" It is no longer {article(rules.city[old.designation].title.lower())}:"
    return f"\n**Warning:**{why} your command points per hour drop from {was} to {now}."


def _title(rules, type_name: str | None) -> str:
    if type_name is None:
        return "nothing"
    ut = rules.unit.get(type_name)
    return ut.title if ut else type_name


def _noted(chosen: selectors.Selection, told: str) -> str:
    """An order's reply, after which units it chose and skipped (when worth saying)."""
    note = chosen.note()
    return f"{note}\n{told}" if note else told


def _ids(ids: list[int]) -> str:
    return ("unit " if len(ids) == 1 else "units ") + ", ".join(str(i) for i in ids)


class Travel:
    """How far the units of a move went and when they will get there, from the nation's view
    before and after it."""

    def __init__(self, before: View, after: View) -> None:
        self.before, self.after = before, after
        self.rules = load_rules(after.ruleset)
        self._distance = Grid(after.width, after.height).distance  # squares on the torus

    def lines(self, e: ev.UnitsMoved) -> list[str]:
        out: list[str] = []
        for uid in e.units:
            was, now = self.before.unit(uid), self.after.unit(uid)
            if now is None:
                continue  # lost on the way: an event says so
            went = self._distance(was.sq, now.sq) if was is not None else 0
            here = self.after.label(now.sq)
            squares = f"{went} square{'s' if went != 1 else ''}"
            if uid in e.arrived:
                out.append(f"Unit {uid} moved {squares} to {here}.")
            elif uid in e.ordered and now.order is not None:
                goal = self.after.label(now.order)
                start = f"moved {squares}, now at {here}" if went else f"waits at {here}"
                out.append(f"Unit {uid} {start}; goes on to {goal}{self._arrival(now)}.")
        return out

    def _arrival(self, unit) -> str:
        """When a unit on a standing order should arrive, as the engine reckons it with the
        mobility it will charge (a step out of supply costs more: `engine.strategic.eta`);
        "about": what the unit meets on the way may still stop or slow it."""
        if unit.arrives is None:
            return ""
        return f", arriving about {self.rules.clock(unit.arrives)}"


def _order_summary(
    events: list[ev.Event], nation: str, names: dict[str, str], travel: Travel | None = None
) -> str:
    """The reply to an order: where the moved units went and when the others will arrive (only
    a reply says that), then each event in the words of the nation's DMs. All of it: a move of
    many units goes on in follow-up messages (`bot.discord_io.send`), none left out."""
    lines: list[str] = []
    for e in events:
        if isinstance(e, ev.UnitsMoved):
            if e.nation != nation:
                continue
            if travel is not None:
                lines.extend(travel.lines(e))
                continue
            if e.arrived:
                lines.append(f"{_ids(e.arrived).capitalize()} moved to {e.to_square}.")
            if e.ordered:
                lines.append(
                    f"{_ids(e.ordered).capitalize()} on the way to {e.to_square} "
                    "(going on as mobility comes back)."
                )
            continue
        text = notices.describe(e, nation, names)
        if text:
            lines.append(text if text.endswith((".", "!", "?")) else text + ".")
    return "\n".join(lines)


def _check_running(seat: Seat) -> None:
    """Orders only reach a game that is running (or paused)."""
    if seat.game.status not in ("running", "paused"):
        raise UserError(
            "The game has not started yet." if seat.game.status == "lobby" else "The game is over."
        )
