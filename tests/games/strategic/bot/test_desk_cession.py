"""/disband and /cede at the desk, as a player meets them."""

from __future__ import annotations

import pytest

from bot.context import UserError
from bot.desk import Desk
from bot.games.strategic.intel import Intel
from bot.games.strategic.playing import Playing
from engine.host.service import GameService
from tests.bot.test_desk import caller, started


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "g.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def allied(desk: Desk) -> int:
    game = await started(desk)
    await desk.part(Playing).diplomacy(caller("1"), "Blue", "allied")
    reply = await desk.part(Playing).diplomacy(caller("2"), "Red", "allied")
    assert "mutually allied" in reply.text
    return game


async def test_cede_needs_a_mutual_ally_and_one_of_units_or_city(desk: Desk) -> None:
    game = await started(desk)
    red = (await desk.ctx.view(game, "red")).own_units()[0].id
    with pytest.raises(UserError, match="you can cede only to a mutual ally; you are neutral"):
        await desk.part(Playing).cede(caller("1"), "Blue", units=str(red))
    await desk.part(Playing).diplomacy(caller("1"), "Blue", "allied")  # an offer: not mutual yet
    with pytest.raises(UserError, match="Blue is neutral towards you"):
        await desk.part(Playing).cede(caller("1"), "blue", units=str(red))
    with pytest.raises(UserError, match="give `units` or `city`, not both"):
        await desk.part(Playing).cede(caller("1"), "Blue", units=str(red), city="1,1")
    with pytest.raises(UserError, match="give `units` or `city`"):
        await desk.part(Playing).cede(caller("1"), "Blue")
    with pytest.raises(UserError, match="no other nation called 'Red'"):
        await desk.part(Playing).cede(caller("1"), "Red", units=str(red))
    still = (await desk.ctx.view(game, "red")).unit(red)
    assert still is not None and still.owner == "red"


async def test_ceded_units_are_the_allys_to_command(desk: Desk) -> None:
    game = await allied(desk)
    view = await desk.ctx.view(game, "red")
    unit = view.own_units()[0]
    cp = view.status.cp
    reply = await desk.part(Playing).cede(caller("1"), "Blue", units=str(unit.id))
    assert reply.text.startswith(f"You ceded 1 unit to Blue: infantry {unit.id} at ")
    after = await desk.ctx.view(game, "red")
    assert after.status.cp == cp - 1
    assert unit.id not in {u.id for u in after.own_units()}
    listed = await desk.part(Intel).units(caller("2"))
    assert f"`{unit.id:>4}` Infantry at {view.label(unit.sq)}" in listed.full_text  # Blue's own now
    x, y = unit.sq % view.width, unit.sq // view.width
    with pytest.raises(UserError, match=f"You have no unit {unit.id}|you have no unit {unit.id}"):
        await desk.part(Playing).move(caller("1"), str(unit.id), f"{x},{(y + 1) % view.height}")


async def test_a_ceded_city_is_the_allys(desk: Desk) -> None:
    game = await allied(desk)
    city = (await desk.ctx.view(game, "red")).own_cities()[0]
    where = (await desk.ctx.view(game, "red")).label(city.sq)
    reply = await desk.part(Playing).cede(caller("1"), "Blue", city=where)
    assert reply.text.startswith(f"You ceded your city {where} to Blue.")
    assert "1 command point spent" in reply.text
    assert city.sq not in {c.sq for c in (await desk.ctx.view(game, "red")).own_cities()}
    blue = await desk.ctx.view(game, "blue")
    assert blue.cities[city.sq].seen == "own" and blue.cities[city.sq].build == city.build
    assert where in (await desk.part(Intel).cities(caller("2"))).full_text
    with pytest.raises(UserError, match=f"you have no city at {where}"):
        await desk.part(Playing).cede(caller("1"), "Blue", city=where)


async def test_disband_asks_first_and_only_the_asker_confirms(desk: Desk) -> None:
    game = await started(desk)
    view = await desk.ctx.view(game, "red")
    unit = view.own_units()[0]
    blue = (await desk.ctx.view(game, "blue")).own_units()[0]
    with pytest.raises(UserError, match=rf"^You have no unit {blue.id}\.$"):
        await desk.part(Playing).disband(caller("1"), str(blue.id))
    ask = await desk.part(Playing).disband(caller("1"), str(unit.id))
    assert ask.confirm is not None and ask.confirm.label == "Disband"
    assert f"Disband infantry {unit.id} at {view.label(unit.sq)}?" in ask.text
    assert (await desk.ctx.view(game, "red")).unit(unit.id) is not None  # nothing yet
    with pytest.raises(UserError, match="Only the player who asked"):
        await desk.confirm(caller("2"), ask.confirm.token)
    done = await desk.confirm(caller("1"), ask.confirm.token)
    assert done.text.startswith(
        f"You disbanded 1 unit: infantry {unit.id} at {view.label(unit.sq)}."
    )
    assert "1 command point spent" in done.text
    after = await desk.ctx.view(game, "red")
    assert after.unit(unit.id) is None and after.status.cp == view.status.cp - 1
    with pytest.raises(UserError, match="no longer valid"):
        await desk.confirm(caller("1"), ask.confirm.token)


async def test_a_disband_confirmed_after_the_unit_was_ceded_changes_nothing(desk: Desk) -> None:
    game = await allied(desk)
    unit = (await desk.ctx.view(game, "red")).own_units()[0]
    ask = await desk.part(Playing).disband(caller("1"), str(unit.id))
    await desk.part(Playing).cede(caller("1"), "Blue", units=str(unit.id))
    assert ask.confirm is not None
    with pytest.raises(UserError, match=f"you have no unit {unit.id}"):
        await desk.confirm(caller("1"), ask.confirm.token)
    kept = (await desk.ctx.view(game, "blue")).unit(unit.id)
    assert kept is not None and kept.owner == "blue"
