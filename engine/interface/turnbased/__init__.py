"""What the kinds played in turns share (Supply Lines, Caldera): a turn's time (`deadlines`: its
deadline in ticks, the reminder before it, resolving early once everyone has submitted, the
moderator's command that resolves it now or gives more time, and their events), and the
shared parts of a kind's door (`door`: the creation options of time, the log's lifecycle
entries, nation ids, the stored form, where a turn stands). Each kind keeps its own rules: what
a turn is, what resolving it does, who is waited for."""
