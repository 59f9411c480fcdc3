"""Pictures of a Strategic Initiative game (`engine.strategic`), drawn from a nation's view:
the map (`mapimage`), the markers of what happened (`markers`), the timelapse GIF, a scenario's
render step (`painter`)."""
