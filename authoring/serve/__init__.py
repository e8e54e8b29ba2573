"""`hexwright serve`: a live preview of a game in the browser (map, set-up, findings, counters, cards, charts).

`frame`, `mapview` and `setupview` turn the model into the page's JSON, `images` draws its pictures with the
print renderers, `tiles` cuts the map picture into tiles addressed by what they show (a save redraws only
the changed ones), `drawn` caches them, `session` keeps the games as last loaded (and the last good view
under a data error), `app` is the ASGI app, `live` turns file saves into reloads and server-sent events.
`guard` answers only the server's own names and, with data, only its own pages; `body` takes a POST body
only as bounded JSON of its schema.
"""
