"""The seed's land units table as the land battle's tests use it."""

from __future__ import annotations

from engine.caldera.land import UnitType

# the seed's table ("Land unit  Hp  Damage  Targets  Size  Cost"); level: its row (the rules'
# land units table has the same fields: the core passes that one)
SEED_UNITS = {
    "space-cadet": {"name": "Space cadet", "hp": 1, "damage": 1, "targets": 1, "size": 1, "cost": 10},
    "humvee": {"name": "Humvee", "hp": 2, "damage": 1, "targets": 3, "size": 2, "cost": 30},
    "space-marine": {"name": "Space marine", "hp": 2, "damage": 2, "targets": 1, "size": 1, "cost": 100},
    "attack-drone": {"name": "Attack drone", "hp": 2, "damage": 2, "targets": 4, "size": 2, "cost": 300},
    "tank": {"name": "Tank", "hp": 4, "damage": 3, "targets": 2, "size": 3, "cost": 1000},
    "bomber-drone": {"name": "Bomber drone", "hp": 2, "damage": 4, "targets": 4, "size": 2, "cost": 3000},
    "mech": {"name": "Mech", "hp": 20, "damage": 4, "targets": 5, "size": 5, "cost": 10000},
}  # fmt: skip
UNITS = {
    u: UnitType.model_validate({"level": i + 1, **row})
    for i, (u, row) in enumerate(SEED_UNITS.items())
}
