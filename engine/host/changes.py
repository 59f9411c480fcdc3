"""Which games changed in memory since a background loop last looked (`GameService.watch`).

The ticker, the AI runner and the notifier pass over every running game every few seconds; at
1,000 games most have not changed since the last pass, and what each loop works out of a game
(when its next tick is due, whether its AI seats have decided this hour, whether its game day
turned) stays what it was. A watch is the set of games in which something that could change
those answers happened since its last `take`: a commit (a command, a tick, a lobby or clock
change), a change of the game's row, the game loaded or forgotten. The loops keep their
answers for the others and look again only at these.

A watch errs one way only: a game is in it whenever it may have changed (and sometimes when
it did not: a commit that changed nothing a loop reads)."""

from __future__ import annotations

import weakref


class Watch:
    """The games changed since the last `take` (every game before the first)."""

    def __init__(self) -> None:
        self._changed: set[int] = set()
        self.fresh = True  # nothing taken yet: every game counts as changed

    def note(self, game_id: int) -> None:
        self._changed.add(game_id)

    def take(self) -> set[int] | None:
        """The games changed since the last take (None: the first take, every game)."""
        if self.fresh:
            self.fresh = False
            self._changed = set()
            return None
        changed, self._changed = self._changed, set()
        return changed


class Watches:
    """The service's watches: each change is noted in all of them (a loop that stops holding
    its watch drops out)."""

    def __init__(self) -> None:
        self._watches: weakref.WeakSet[Watch] = weakref.WeakSet()

    def new(self) -> Watch:
        watch = Watch()
        self._watches.add(watch)
        return watch

    def changed(self, game_id: int) -> None:
        for watch in self._watches:
            watch.note(game_id)
