"""Text longer than one Discord message, never cut (issue 26): a list is shown a page at a time
(`Listing`: every page within the limit, saying how many items are left and which page it is,
with Prev and Next buttons that run the command again for the page wanted), and any other
long text is split into messages at line boundaries (`split_text`), never inside a mention,
a timestamp, bold or inline code, a code block closed at the end of a page and opened again
at the start of the next. Discord-free: the desk builds pages, `bot.discord_io` sends them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.context import Button, Reply

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's text."""

PREV, NEXT = "◀ Prev", "Next ▶"
PAGE_ACTION = "page"  # the desk action of a page button (`Desk.pressed_page`)
MARK = 80  # room kept on each page for its marker ("… and 12 more orders (page 1/3: Next ▶)")
FENCE = "```"

# what a line may not be broken inside: a mention, a channel, a role, a timestamp or an emoji
# (`<…>`), bold (`**…**`) and inline code
_ATOM = re.compile(r"<[^<>\s]*>|\*\*[^\n]*?\*\*|`[^`\n]*`")


def _breaks(line: str) -> list[int]:
    """Where a line may break: at a space outside any mention, timestamp, bold or code."""
    inside: set[int] = set()
    for m in _ATOM.finditer(line):
        inside.update(range(m.start(), m.end()))
    return [i for i, ch in enumerate(line) if ch == " " and i not in inside]


def split_line(line: str, width: int) -> list[str]:
    """A line in pieces of at most `width` characters, broken at spaces outside markup (a
    single word longer than `width`, which no reply has, is the only thing ever cut)."""
    pieces: list[str] = []
    while len(line) > width:
        cut = max((i for i in _breaks(line) if 0 < i <= width), default=None)
        if cut is None:
            pieces.append(line[:width])
            line = line[width:]
        else:
            pieces.append(line[:cut])
            line = line[cut + 1 :]
    pieces.append(line)
    return pieces


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Text as messages of at most `limit` characters: whole lines while they fit, a longer
    line broken at a space outside markup; a code block a page ends in is closed there and
    opened again on the next page. Text that fits is one message, unchanged."""
    if len(text) <= limit:
        return [text]
    budget = limit - 2 * len(FENCE) - 16  # room to close a code block and open it again
    pages: list[list[str]] = [[]]
    size = 0
    fence: str | None = None  # the line that opened the code block we are in
    for line in (p for whole in text.split("\n") for p in split_line(whole, budget)):
        if pages[-1] and size + 1 + len(line) > budget:
            if fence is not None:
                pages[-1].append(FENCE)
            pages.append([fence[:16]] if fence is not None else [])
            size = len(pages[-1][0]) if pages[-1] else 0
        size += len(line) + (1 if pages[-1] else 0)
        pages[-1].append(line)
        if line.strip().startswith(FENCE):
            fence = None if fence is not None else line.strip()
    return ["\n".join(p) for p in pages]


def page_buttons(source: str, page: int, pages: int) -> list[Button]:
    """Prev and Next under page `page` of `pages`: each runs the command again (`source`,
    which names it and its game) and shows that page."""
    out = []
    if page > 1:
        out.append(Button(PREV, PAGE_ACTION, f"{source}:{page - 1}"))
    if page < pages:
        out.append(Button(NEXT, PAGE_ACTION, f"{source}:{page + 1}"))
    return out


def more(count: int, noun: str) -> str:
    return f"{count} more {noun}{'' if count == 1 else 's'}"


@dataclass
class Listing:
    """A list shown a page at a time, each page one message: `head` on every page, then the
    items that fit, and under each page but the last "… and N more <noun>s (page i/n: Next ▶)".
    `tail` (a total, what to do next) follows the items on every page when it is short, else
    after the last item. `reserve` keeps room on every page for a line put before it (`/orders
    add`'s "Order kept"), so a page looks the same whichever command showed it. The pages
    depend only on the text, so a button that runs the command again finds the same page."""

    head: str
    items: list[str]
    noun: str  # what an item is, singular: "order"
    source: str  # the page buttons' arguments before the page number: "orders:12"
    tail: str = ""
    reserve: int = 0
    limit: int = MESSAGE_LIMIT
    _pages: list[str] | None = field(default=None, repr=False)

    def pages(self) -> list[str]:
        if self._pages is None:
            self._pages = self._paginate()
        return self._pages

    def _paginate(self) -> list[str]:
        room = max(self.limit - self.reserve - len(self.head) - 1 - MARK, 200)
        every = bool(self.tail) and len(self.tail) + 1 <= room // 2
        if every:
            room -= len(self.tail) + 1
        pieces: list[tuple[int | None, str]] = []  # (the item's number, or None: the tail)
        for number, item in enumerate(self.items):
            pieces += [(number, p) for p in split_text(item, room)]
        if self.tail and not every:
            pieces += [(None, p) for p in split_text(self.tail, room)]
        groups = _pack(pieces, room)
        if len(groups) > 1:  # as even as the same number of pages allows (no page of one line)
            even = -(-sum(len(text) + 1 for _, text in pieces) // len(groups))
            longest = max(len(text) + 1 for _, text in pieces)
            evened = _pack(pieces, min(room, even + longest))
            if len(evened) == len(groups):
                groups = evened
        total = len(groups)
        last_page = {n: i for i, g in enumerate(groups) for n, _ in g if n is not None}
        out = []
        for i, group in enumerate(groups, 1):
            lines = [self.head] if self.head else []
            lines += [text for _, text in group]
            if total > 1:
                left = sum(1 for page in last_page.values() if page >= i)
                if i < total:
                    lines.append(
                        f"… and {more(left, self.noun)} (page {i}/{total}: {NEXT})"
                        if left
                        else f"… continued (page {i}/{total}: {NEXT})"
                    )
                else:
                    lines.append(f"(page {total}/{total})")
            if every:
                lines.append(self.tail)
            out.append("\n".join(lines))
        return out

    def reply(self, page: int = 1, *, before: str = "", **kwargs) -> Reply:
        """Page `page` (the nearest there is) as a reply with its buttons; `before` is a line
        put first (at most `reserve` characters)."""
        pages = self.pages()
        page = max(1, min(page, len(pages)))
        text = (before + "\n" if before else "") + pages[page - 1]
        return Reply(text=text, buttons=page_buttons(self.source, page, len(pages)), **kwargs)


def _pack(pieces: list[tuple[int | None, str]], room: int) -> list[list[tuple[int | None, str]]]:
    """Lines into pages of at most `room` characters, in order, each page as full as it goes."""
    groups: list[list[tuple[int | None, str]]] = [[]]
    size = 0
    for piece in pieces:
        if groups[-1] and size + 1 + len(piece[1]) > room:
            groups.append([])
            size = 0
        size += len(piece[1]) + (1 if groups[-1] else 0)
        groups[-1].append(piece)
    return groups


def window(count: int, per_page: int, page: int) -> tuple[int, int, int]:
    """Page `page` (the nearest there is) of `count` things, `per_page` a page: (the page,
    the number of pages, the index of its first thing)."""
    pages = max(1, -(-count // per_page))
    page = max(1, min(page, pages))
    return page, pages, (page - 1) * per_page


def summarised(
    head: str,
    items: list[str],
    noun: str,
    where: str,
    *,
    tail: str = "",
    limit: int = MESSAGE_LIMIT,
) -> str:
    """One message by design (the pinned status): the head, as many whole items as fit, then
    "… and K more <noun>s: <where>" (where to see them all), then the tail."""
    room = limit - len(head) - 1 - (len(tail) + 1 if tail else 0)
    shown: list[str] = []
    size = 0
    for i, item in enumerate(items):
        left = len(items) - i - 1
        note = 1 + len(f"… and {more(left, noun)}: {where}") if left else 0
        if size + 1 + len(item) + note > room:
            break
        shown.append(item)
        size += 1 + len(item)
    lines = [head, *shown]
    if len(shown) < len(items):
        lines.append(f"… and {more(len(items) - len(shown), noun)}: {where}")
    return "\n".join(lines + ([tail] if tail else []))
