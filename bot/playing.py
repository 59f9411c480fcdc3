"""Orders: move, attack, build, designate, cancel, board, launch, engineer, diplomacy.

Each checks what it can from the caller's view, builds the engine command and submits it
through the service; the engine validates everything again (and its messages never reveal
what the nation cannot see)."""

from __future__ import annotations

from bot import parsing
from bot.context import Caller, Context, Pending, Reply, Seat, UserError
from engine.errors import CommandError, GameError
from engine.strategic import commands as cmd
from engine.strategic import events as ev
from engine.strategic.rules import load as load_rules
from engine.strategic.view import View


class Playing:
    ctx: Context

    async def _submit(self, caller: Caller, command: cmd.Command) -> tuple[list[ev.Event], str]:
        seat, nation = await self.ctx.playing(caller)
        _check_running(seat)
        try:
            result = await self.ctx.service.submit(seat.game.id, nation, command)
        except (CommandError, GameError) as exc:
            raise UserError(str(exc)) from None
        return result.for_nation(nation), nation

    async def _view(self, caller: Caller) -> tuple[View, str]:
        seat, nation = await self.ctx.playing(caller)
        return await self.ctx.view(seat.game.id, nation), nation

    async def _square(self, caller: Caller, text: str) -> tuple[int, int]:
        view, _ = await self._view(caller)
        return parsing.square(text, view.width, view.height)

    async def move(self, caller: Caller, units: str, to: str) -> Reply:
        command = cmd.Move(units=parsing.unit_ids(units), to=await self._square(caller, to))
        events, nation = await self._submit(caller, command)
        return Reply(text=_order_summary(events, nation) or "Orders given.")

    async def attack(self, caller: Caller, units: str, target: str) -> Reply:
        command = cmd.Attack(
            units=parsing.unit_ids(units), target=await self._square(caller, target)
        )
        events, nation = await self._submit(caller, command)
        return Reply(text=_order_summary(events, nation) or "Attack ordered.")

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
        )

    async def designate(self, caller: Caller, city: str, designation: str) -> Reply:
        view, _ = await self._view(caller)
        xy = parsing.square(city, view.width, view.height)
        rules = load_rules(view.ruleset)
        name = parsing.choice(designation, [c.name for c in rules.cities], "designation")
        await self._submit(caller, cmd.Designate(city=xy, designation=name))
        view, _ = await self._view(caller)
        built = view.cities[xy[1] * view.width + xy[0]]
        what = f"; it builds {_title(rules, built.build)}" if built.build else ""
        return Reply(text=f"The city at {xy[0]},{xy[1]} is now a {rules.city[name].title}{what}.")

    async def cancel(self, caller: Caller, units: str) -> Reply:
        ids = parsing.unit_ids(units)
        await self._submit(caller, cmd.CancelOrders(units=ids))
        return Reply(text=f"Standing orders cancelled for {_ids(ids)}.")

    async def board(self, caller: Caller, units: str, carrier: int) -> Reply:
        ids = parsing.unit_ids(units)
        await self._submit(caller, cmd.Board(units=ids, carrier=carrier))
        return Reply(text=f"{_ids(ids)} went aboard {carrier}.")

    async def engineer(self, caller: Caller, unit: int, action: str) -> Reply:
        action = parsing.choice(action, ["build_city", "switch_terrain"], "engineer action")
        command: cmd.Command = (
            cmd.BuildCity(unit=unit) if action == "build_city" else cmd.SwitchTerrain(unit=unit)
        )
        events, nation = await self._submit(caller, command)
        for e in events:
            if isinstance(e, ev.CityFounded):
                return Reply(text=f"Engineer {unit} founded a city at {e.city}.")
            if isinstance(e, ev.TerrainSwitched):
                return Reply(text=f"Engineer {unit} turned {e.square} into {e.terrain}.")
        return Reply(text="Done.")

    async def launch(self, caller: Caller, unit: int, target: str) -> Reply:
        seat, nation = await self.ctx.playing(caller)
        view = await self.ctx.view(seat.game.id, nation)
        xy = parsing.square(target, view.width, view.height)
        mine = view.unit(unit)
        if mine is None or mine.seen != "own":
            raise UserError(f"You have no unit {unit}.")
        rules = load_rules(view.ruleset)
        ut = rules.unit[mine.type]
        if not ut.launchable and ut.blast_radius is None:
            raise UserError(f"{ut.title} {unit} cannot be launched.")

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
        lines = [_launch_line(e, nation) for e in result.for_nation(nation)]
        return Reply(text="\n".join(x for x in lines if x) or "Launched.")

    async def diplomacy(self, caller: Caller, nation: str, level: str) -> Reply:
        seat, me = await self.ctx.playing(caller)
        view = await self.ctx.view(seat.game.id, me)
        wanted = nation.strip().lower()
        other = next(
            (
                n.id
                for n in view.nations.values()
                if wanted in (n.id.lower(), n.name.lower()) and n.id != me
            ),
            None,
        )
        if other is None:
            raise UserError(f"There is no other nation called {nation!r} in this game.")
        rules = load_rules(view.ruleset)
        chosen = parsing.choice(level, rules.diplomacy.levels, "relation")
        events, _ = await self._submit(caller, cmd.SetRelation(other=other, level=chosen))
        after = await self.ctx.view(seat.game.id, me)
        name = after.nations[other].name
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
                    "(notice given)."
                )
        theirs = after.nations[other].relation_from
        tail = (
            f" They are {theirs} towards you."
            if theirs != chosen
            else f" You are now mutually {chosen}."
        )
        return Reply(text=f"Your relation to {name} is now {chosen}.{tail}")


def _title(rules, type_name: str | None) -> str:
    if type_name is None:
        return "nothing"
    ut = rules.unit.get(type_name)
    return ut.title if ut else type_name


def _ids(ids: list[int]) -> str:
    return ("unit " if len(ids) == 1 else "units ") + ", ".join(str(i) for i in ids)


def _order_summary(events: list[ev.Event], nation: str) -> str:
    lines: list[str] = []
    for e in events:
        if isinstance(e, ev.UnitsMoved) and e.nation == nation:
            if e.arrived:
                lines.append(f"{_ids(e.arrived).capitalize()} moved to {e.to_square}.")
            if e.ordered:
                lines.append(
                    f"{_ids(e.ordered).capitalize()} on the way to {e.to_square} "
                    "(going on as mobility comes back)."
                )
        elif isinstance(e, ev.OrderCompleted):
            lines.append(f"Unit {e.unit} arrived at {e.square}.")
        elif isinstance(e, ev.OrderCancelled) and e.nation == nation:
            lines.append(f"Unit {e.unit} gave up at {e.square}: {e.reason}.")
        elif isinstance(e, ev.MoveBlocked):
            lines.append(f"Unit {e.unit} stopped at {e.square}: blocked at {e.blocked_at}.")
        elif isinstance(e, ev.Attacked):
            lines.append(_attack_line(e, nation))
        elif isinstance(e, ev.CityCaptured) and e.nation == nation:
            lines.append(f"**City at {e.city} captured!**")
        elif isinstance(e, ev.UnitDestroyed):
            whose = "Your" if e.nation == nation else "Enemy"
            lines.append(
                f"{whose} {e.unit_type.replace('_', ' ')} {e.unit} destroyed at {e.square}."
            )
        elif isinstance(e, ev.Intercepted):
            lines.append(
                f"Intercepted at {e.square}: {e.fighter_type.replace('_', ' ')} hit {e.unit_type.replace('_', ' ')} {e.unit}."
            )
        elif isinstance(e, ev.Interdicted):
            lines.append(f"Fired on at {e.square} by a {e.ship_type.replace('_', ' ')}.")
    return "\n".join(lines[:25])


def _attack_line(e: ev.Attacked, nation: str) -> str:
    mine = e.attacker == nation
    who = (
        f"Your {e.attacker_type.replace('_', ' ')} {e.attacker_unit}"
        if mine
        else f"Enemy {e.attacker_type.replace('_', ' ')}"
    )
    target = f"{e.defender_type.replace('_', ' ')} {e.defender_unit} at {e.square}"
    return (
        f"{who} hit {target} for {e.damage} (now {e.defender_hp} hp); "
        f"counter-fire {e.counter} (attacker now {e.attacker_hp} hp)."
    )


def _launch_line(e: ev.Event, nation: str) -> str | None:
    if isinstance(e, ev.SatelliteLaunched) and e.nation == nation:
        return f"Satellite in orbit over {e.square}: it watches that area from now on."
    if isinstance(e, ev.IcbmLaunched):
        who = "Your" if e.nation == nation else "A counter-launched"
        extra = f", {len(e.devastated)} cities devastated" if e.devastated else ""
        return f"{who} {e.unit_type.replace('_', ' ')} struck {e.square}: {e.destroyed} units destroyed{extra}."
    return None


def _check_running(seat: Seat) -> None:
    """Orders only reach a game that is running (or paused)."""
    if seat.game.status not in ("running", "paused"):
        raise UserError(
            "The game has not started yet." if seat.game.status == "lobby" else "The game is over."
        )
