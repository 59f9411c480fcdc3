"""Pictures of a Strategic Initiative game (`engine.strategic`), drawn from a nation's view: the
map (`mapimage`, and the modules it draws with: `region`, `canvas`, `terrain`, `coordinates`,
`cities`, `units`, `overlays`, `legend`, `style`), the markers of what happened (`markers`),
the maps drawn in the pool's workers (`drawing`), the timelapse GIF (`timelapse`), a
scenario's render step (`painter`) and the pictures of docs/PICTURES.md (`gallery`)."""
