"""How long the DM reports of a real mid-game are: an AI game played at full speed, each
nation's events told in a report every 4 game hours (as the notifier batches them when a
player reads them every few hours), with the default /notify settings. Prints lines per
report and where a nation's lost city stands in it. Runs on any checkout (issue 29's before
and after): `PYTHONPATH=. python bench/dm_report_lines.py --nations 4 --size 64 --days 6`."""

from __future__ import annotations

import argparse
import statistics

from bot.dm import text as dm_text
from bot.games.strategic import notices
from engine.strategic.ai.local import play_turn
from engine.strategic.ai.simulate import new_world
from engine.strategic.clock import advance

# what a player is not told by default (before issue 29: nothing)
MUTED: tuple[str, ...] = getattr(dm_text, "DEFAULT_MUTED", ())


def muted(event, nation: str) -> bool:
    try:
        return notices.category(event, nation) in MUTED
    except TypeError:  # before issue 29: a category per event kind only
        return notices.category(event) in MUTED


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nations", type=int, default=4)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--days", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every-hours", type=int, default=4)
    parser.add_argument("--show", type=int, default=0, help="print this many of the longest")
    args = parser.parse_args()
    world, seats = new_world(
        args.nations, args.size, args.size, args.days, args.seed, "standard", ["normal"]
    )
    names = {n.id: n.name for n in world.nations.values()}
    batch = world.ticks_per_hour * args.every_hours
    pending: dict[str, list] = {s.nation: [] for s in seats}
    own: dict[str, set[int]] = {s.nation: set() for s in seats}  # what its own orders made
    lengths: list[int] = []
    lost_at: list[tuple[int, int]] = []  # (position of the lost-city line, lines)
    longest: list[tuple[int, str]] = []
    while not world.ended:
        for seat in seats:
            for e in play_turn(world, seat):
                own[seat.nation].add(id(e))
                for n in e.to:
                    if n in pending:
                        pending[n].append(e)
        for e in advance(world, world.ticks_per_hour):
            for n in e.to:
                if n in pending:
                    pending[n].append(e)
        if world.tick % batch and not world.ended:
            continue
        for nation, events in pending.items():
            told = [e for e in events if not muted(e, nation)]
            messages = notices.digest(
                told, nation, names, clock=world.rules.clock(world.tick), answered=own[nation]
            )
            if not messages:
                continue
            lines = "\n".join(messages).splitlines()[1:]  # the header aside
            lengths.append(len(lines))
            longest.append((len(lines), "\n".join(messages)))
            for i, line in enumerate(lines):
                if "captured your city" in line:
                    lost_at.append((i + 1, len(lines)))
            events.clear()
            own[nation].clear()
    print(
        f"reports: {len(lengths)}, lines per report: mean {statistics.mean(lengths):.1f}, "
        f"median {statistics.median(lengths)}, max {max(lengths)}, "
        f"reports over 10 lines: {sum(n > 10 for n in lengths)}"
    )
    if lost_at:
        print(
            f"own city lost: told on line {statistics.mean(p for p, _ in lost_at):.1f} "
            f"of {statistics.mean(n for _, n in lost_at):.1f} on average "
            f"(first line in {sum(p == 1 for p, _ in lost_at)} of {len(lost_at)})"
        )
    for _, text in sorted(longest, key=lambda x: -x[0])[: args.show]:
        print("----\n" + text)


if __name__ == "__main__":
    main()
