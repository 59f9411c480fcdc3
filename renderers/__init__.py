"""Pillow pictures of a game's views (never of the store). The modules here are the drawing
kit, which names no game: a picture's palette (`palette`), text stamps (`text`), the canvas
(`canvas`), PNG and GIF bytes (`encoding`), the colours and font every game shares (`style`),
the colour difference (`colour`), and the pool of worker processes that draws (`pool`). Each
game's pictures are a package of their own: `strategic` (Strategic Initiative's maps) and
`supplylines` (Supply Lines' boards)."""
