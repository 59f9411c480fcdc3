"""One cog per area. Cogs only translate Discord in and out: every action is a desk call."""
