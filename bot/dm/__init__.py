"""Everything that reaches a player by DM: the notifier (the outbox to DMs, sitreps, quiet
hours, retries), the wording of events (`notices`), and the sender (`delivery`)."""
