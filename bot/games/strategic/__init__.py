"""Strategic Initiative's bot side: its commands (/move, /build, /map...), the wording of its
DMs and help, its creation options and its pictures (`side.SIDE`)."""
