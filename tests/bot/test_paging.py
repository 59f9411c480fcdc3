"""Nothing a player needs is cut at Discord's 2,000 characters (issue 26, finding 2): the long
lists of the largest games come a page at a time, each page says how many are left, its Next
button shows the rest; the pinned status of 32 nations fits one message by design, with no
mention cut; any other long text is split between lines, never inside a mention."""

from __future__ import annotations

import re

import pytest

from bot.context import Caller, Reply
from bot.desk import Desk
from bot.games.strategic.intel import Intel
from bot.games.supplylines.orders import Orders
from bot.paging import MESSAGE_LIMIT, NEXT, PREV, Listing, split_text
from engine.host.runner import AiRunner
from engine.host.service import GameService
from engine.strategic.kind import MAX_NATIONS

GUILD = "900"
MENTION = re.compile(r"<@\d+>")


def player(n: int, channel: str = "901") -> Caller:
    # Discord's ids are 17 to 19 digits: the longest mentions
    return Caller(str(10**18 + n), f"user{n}", GUILD, channel, moderator=n == 1)


def nation_name(n: int) -> str:
    return f"Nation {n:02d} of the long names xx"[:32]  # the longest name /game join takes


@pytest.fixture
async def desk(tmp_path):
    service = await GameService.open(str(tmp_path / "paging.db"), synchronous="NORMAL")
    yield Desk(service)
    await service.close()


async def thirty_two(desk: Desk) -> int:
    made = await desk.lifecycle.game_create(
        player(1), "The largest war of them all", nations=MAX_NATIONS
    )
    assert made.refresh_game is not None
    for n in range(1, MAX_NATIONS + 1):
        await desk.lifecycle.game_join(player(n), nation_name(n))
    return made.refresh_game


async def every_page(desk: Desk, caller: Caller, first: Reply) -> list[Reply]:
    """The first page and every one after it, each reached with its Next button; each page
    fits a message, and Prev goes back to the page before."""
    pages = [first]
    while True:
        page = pages[-1]
        assert len(page.text) <= MESSAGE_LIMIT
        ahead = [b for b in page.buttons if b.label == NEXT]
        if not ahead:
            return pages
        following = await desk.press(caller, ahead[0].action, ahead[0].args)
        back = next(b for b in following.buttons if b.label == PREV)
        again = await desk.press(caller, back.action, back.args)
        assert again.full_text == page.full_text
        pages.append(following)


def mentions_whole(text: str) -> None:
    """Every `<@` opens a whole mention: none is cut."""
    assert text.count("<@") == len(MENTION.findall(text)), text[-200:]


async def test_the_status_of_32_nations_fits_one_message_and_game_info_shows_them_all(
    desk: Desk,
) -> None:
    game = await thirty_two(desk)
    board = await desk.lifecycle.status_board(game)
    assert len(board) <= MESSAGE_LIMIT
    mentions_whole(board)
    shown = MENTION.findall(board)
    left = re.search(r"… and (\d+) more nations: `/game info` lists them all", board)
    assert left is not None and len(shown) + int(left[1]) == MAX_NATIONS
    assert shown == [f"<@{player(n).user_id}>" for n in range(1, len(shown) + 1)]

    pages = await every_page(desk, player(5), await desk.lifecycle.game_info(player(5)))
    assert len(pages) == 2
    assert "… and" in pages[0].text and "more nations (page 1/2: Next ▶)" in pages[0].text
    assert "(page 2/2)" in pages[1].text
    seen = []
    for page in pages:
        mentions_whole(page.text)
        assert page.text.startswith("**The largest war of them all** (game ")
        seen += MENTION.findall(page.text)
    assert seen == [f"<@{player(n).user_id}>" for n in range(1, MAX_NATIONS + 1)]
    assert all(nation_name(n) in "".join(p.text for p in pages) for n in range(1, 33))


async def test_nations_of_32_shows_every_nation_in_cards_of_twenty(desk: Desk) -> None:
    await thirty_two(desk)
    first = await desk.part(Intel).nations(player(3))
    assert first.embed is not None and len(first.embed.fields) == 20
    assert first.embed.footer == "… and 12 more nations (page 1/2: Next ▶)"
    assert "(page 1/2)" in first.embed.title
    pages = await every_page(desk, player(3), first)
    names = [name for p in pages if p.embed for name, _ in p.embed.fields]
    assert len(pages) == 2 and len(names) == MAX_NATIONS
    assert {name.removesuffix(" (you)") for name in names} == {
        nation_name(n) for n in range(1, MAX_NATIONS + 1)
    }
    for page in pages:  # within Discord's limits of a card
        card = page.embed
        assert card is not None and len(card.fields) <= 25
        assert sum(len(a) + len(b) for a, b in card.fields) + len(card.description) < 6000


async def test_game_list_of_twenty_two_games_pages_them_newest_first(desk: Desk) -> None:
    for n in range(22):  # (two nations: the smallest maps to draw; the list is the same)
        await desk.lifecycle.game_create(
            player(1, channel=str(5000 + n)), f"Game {n:02d} " + "y" * 30, nations=2
        )
    first = await desk.lifecycle.game_list(player(2))
    assert first.text.startswith("**Games on this server** (22, newest first, page 1/3):")
    assert "… and 12 more games (page 1/3: Next ▶)" in first.text
    pages = await every_page(desk, player(2), first)
    ids = [int(m) for p in pages for m in re.findall(r"^\*\*(\d+)\*\* Game", p.text, re.M)]
    assert ids == list(range(22, 0, -1))
    assert pages[-1].text.startswith("**Games on this server** (22, newest first, page 3/3):")
    assert "… and" not in pages[-1].text


ORDERS = 140  # the short order of the seed's words, over two messages' worth


async def many_orders(desk: Desk) -> Caller:
    """Ann holding H1 and C1...C140, an infantry in each, and a hold for each city (orders the
    rules can use: a player's orders of a turn are bounded by their units and structures)."""
    from tests.games.supplylines.engine.scenario import build_state

    ann, bob = player(1, "902"), player(2, "902")
    cities = [f"C{i}" for i in range(1, ORDERS + 1)]
    chain = ["H1", *cities, "H2"]
    state = build_state(
        {
            "roads": " ".join(f"{a}-{b}" for a, b in zip(chain, chain[1:], strict=False)),
            "owners": {"a": " ".join(["H1", *cities]), "b": "H2"},
            "units": [f"a 1 infantry @ {c}" for c in ["H1", *cities]] + ["b 1 infantry @ H2"],
        }
    )
    state.started, state.turn_ticks, state.deadline = True, 48, 48
    state.players["a"].user, state.players["b"].user = ann.user_id, bob.user_id
    await desk.service.create_game(
        name="Lines", kind="supply-lines", world=state, guild_id=GUILD, channel_id="902"
    )
    for city in cities:
        reply = await desk.part(Orders).orders_add(ann, f"Hold@{city}")
        assert len(reply.text) <= MESSAGE_LIMIT
    return ann


async def test_a_hundred_and_forty_orders_are_listed_a_page_at_a_time(desk: Desk) -> None:
    ann = await many_orders(desk)
    added = await desk.part(Orders).orders_add(ann, "Hold@H1")
    assert added.text.startswith("Order kept: `Hold@H1`.\n**Your orders for turn 1**")
    assert len(added.text) <= MESSAGE_LIMIT and [b.label for b in added.buttons] == [NEXT]
    listed = await desk.part(Orders).orders_list(ann)
    pages = await every_page(desk, ann, listed)
    assert len(pages) == 2
    assert re.search(r"… and \d+ more orders \(page 1/2: Next ▶\)", pages[0].text)
    numbers = [int(m) for p in pages for m in re.findall(r"^(\d+)\. `", p.text, re.M)]
    assert numbers == list(range(1, ORDERS + 2))
    for page in pages:  # what the player needs stays in sight on every page
        assert "PopCap" in page.text and "The turn resolves in 12 hours" in page.text
    # /orders add's page 1 is /orders list's page 1 after its line: the Next button goes on
    assert added.text.removeprefix("Order kept: `Hold@H1`.\n") == pages[0].text
    taken = await desk.part(Orders).orders_clear(ann, ORDERS + 1)
    assert taken.text.startswith("Order taken back: `Hold@H1`.") and taken.buttons
    # a page past the end (orders taken back meanwhile) shows the last there is
    await desk.part(Orders).orders_clear(ann)
    late = await desk.press(ann, "page", pages[0].buttons[-1].args)  # page 2
    assert "none yet" in late.text and not late.buttons


async def test_the_board_of_a_six_player_large_map_is_shown_whole_a_page_at_a_time(
    desk: Desk,
) -> None:
    """`/orders board` on `random-large` with 6 players: about 2,200 characters at turn 1 and
    near 4,000 once the units spread (AI caretakers play the turns): every structure once, on
    pages that each fit a message; the picture comes with the first and stays."""
    made = await desk.lifecycle.game_create(
        player(1, "903"), "Large", kind="supply-lines", map_name="random-large", nations=6
    )
    assert made.refresh_game is not None
    for n in range(1, 7):
        await desk.lifecycle.game_join(player(n, "903"), f"Player {n} of the long names xxxxx")
    for n in range(2, 7):
        await desk.lifecycle.game_caretaker(player(n, "903"), True)
    me, runner = player(1, "903"), AiRunner(desk.service)
    longest = 0
    for _ in range(8):
        shown = await desk.part(Orders).orders_board(me)
        assert shown.files and shown.files[0][0] == "board.png"
        pages = await every_page(desk, me, shown)
        assert all(not p.files for p in pages[1:])  # the picture is not drawn again
        lines = [line for p in pages for line in p.text.splitlines() if line.startswith("`")]
        world = await desk.service.live_world(made.refresh_game)
        assert sorted(line.split("`")[1] for line in lines) == sorted(world.board.labels())
        heading = pages[0].text.splitlines()[0]
        assert heading.startswith("**Turn ") and all(p.text.startswith(heading) for p in pages)
        longest = max(longest, sum(len(line) + 1 for line in lines))
        if len(pages) > 1:
            assert re.search(r"… and \d+ more structures? \(page 1/\d: Next ▶\)", pages[0].text)
        await desk.part(Orders).orders_submit(me)
        await runner.run_once()
    assert longest > MESSAGE_LIMIT  # more than one message's worth, shown whole


def test_long_text_is_split_between_lines_never_inside_a_mention_or_a_code_block() -> None:
    line = " ".join(
        f"<@{10**18 + n}> **bold {n} words** <t:{1700000000 + n}:R> `code {n}`" for n in range(40)
    )
    text = "\n".join([line, "```", *[f"row {n} " * 20 for n in range(30)], "```", "the end"])
    pages = split_text(text)
    assert len(pages) > 2 and all(len(p) <= MESSAGE_LIMIT for p in pages)
    for page in pages:
        mentions_whole(page)
        assert page.count("**") % 2 == 0 and page.count("<t:") == len(
            re.findall(r"<t:\d+:R>", page)
        )
        assert page.count("```") % 2 == 0  # a code block cut by a page is closed and reopened
    words = [w for p in pages for w in p.split() if w != "```"]
    assert words == [w for w in text.split() if w != "```"]
    assert split_text("short") == ["short"]


def test_a_listing_says_how_many_are_left_and_keeps_its_total_in_sight() -> None:
    items = [f"{n}. item with some words" for n in range(1, 301)]
    listing = Listing("**Head**", items, "item", "orders:1", tail="Total: 300 items.")
    pages = listing.pages()
    assert len(pages) > 2 and all(len(p) <= MESSAGE_LIMIT for p in pages)
    shown = [line for p in pages for line in p.splitlines() if ". item" in line]
    assert shown == items
    first_left = int(re.search(r"… and (\d+) more items", pages[0])[1])  # type: ignore[index]
    assert first_left == 300 - sum(". item" in line for line in pages[0].splitlines())
    assert all(p.startswith("**Head**") and p.endswith("Total: 300 items.") for p in pages)
    assert Listing("**Head**", ["one"], "item", "x").reply().buttons == []
