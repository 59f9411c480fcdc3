"""Strategic Initiative: the first game kind (its rules, world, commands, view and AI)."""
