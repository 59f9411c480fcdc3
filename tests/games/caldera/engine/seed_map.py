"""The seed's star-map tables, copied from its text: the distance table (layer: from a tile next
to it, from Earth, HN/2xEmpty, FN) and the minerals table (zone: small, average, huge,
planet); and the standard ruleset's `[map]`, which must hold them."""

from __future__ import annotations

from engine.caldera import rules
from engine.caldera.rules import MapRules

DISTANCES = [  # layer, next to, from Earth, HN/2xEmpty, FN
    (1, 1, 1, 2, 4),
    (2, 2, 3, 4, 8),
    (3, 3, 6, 6, 12),
    (4, 4, 10, 8, 16),
    (5, 5, 15, 10, 20),
    (6, 6, 21, 12, 24),
    (7, 7, 28, 14, 28),
]
MINERALS = [  # zone, small, average, huge, planet
    (1, 10, 20, 40, 80),
    (2, 20, 40, 80, 150),
    (3, 40, 80, 150, 300),
    (4, 80, 150, 300, 500),
    (5, 150, 300, 500, 1000),
    (6, 300, 500, 1000, 2000),
    (7, 500, 1000, 2000, 4000),
    (8, 1000, 2000, 4000, 8000),
    (9, 2000, 4000, 8000, 15000),
    (10, 4000, 8000, 15000, 30000),
    (11, 8000, 15000, 30000, 50000),
]


def seed_rules() -> MapRules:
    """The standard ruleset's star-map tables."""
    return rules.load().map
