"""`hexwright serve`: a live preview of a game in the browser (map, set-up, findings, counters, cards, charts).

`frame` and `view` turn the model into the page's JSON, `images` draws its pictures with the print renderers,
`session` keeps the games as last loaded (and the last good view under a data error), `app` is the ASGI app,
`watcher` turns file saves into reloads and server-sent events.
"""
