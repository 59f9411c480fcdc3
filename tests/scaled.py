"""How much searching a property or a fuzzer does: all of it on CI, a tenth of it locally.

tests/conftest.py loads a Hypothesis profile before any test module is imported: "ci" when the
CI environment variable is set (Hypothesis's own CI settings: derandomized, so CI tries the
same examples every run, and 100 examples a property unless it says otherwise), "dev"
otherwise (10; random examples, failures replayed from .hypothesis/), or the profile named by
SI_HYPOTHESIS_PROFILE. A property that names its own count writes `examples(n)`: n under "ci",
the same share of n as the profile's under any other profile (at least `MIN`), e.g.

    @settings(max_examples=examples(300), deadline=None)

A property whose known bug needs its whole count to be found is still found on CI: its count
there is the one written.
"""

from __future__ import annotations

import os

from hypothesis import settings

CI_EXAMPLES = 100  # the "ci" profile's max_examples: a property's count is written for it
MIN = 5  # what any property tries under any profile (or its whole count, if smaller)


def share() -> float:
    """The loaded profile's share of the CI run (1.0 on CI, 0.1 under "dev")."""
    return settings().max_examples / CI_EXAMPLES


def examples(full: int) -> int:
    """The number of examples of a property whose CI run tries `full`."""
    return max(min(full, MIN), round(full * share()))


def from_env(name: str, full: int) -> int:
    """A count that an environment variable may set (a longer campaign), else `examples`'s
    share of `full`: e.g. the desk fuzzer's calls (SI_FUZZ_CALLS)."""
    value = os.environ.get(name)
    return int(value) if value else examples(full)
