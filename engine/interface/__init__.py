"""What a game kind is, and what the host and every kind share: the kind's interface
(`kind.GameKind`) and registry, the log's entries, the base of events, the public summary. The
host and the kinds both build on this; neither imports the other."""
