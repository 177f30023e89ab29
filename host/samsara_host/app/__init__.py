"""The companion app in the browser (`samsara app`, docs/app.md): a local web server
(server.py) with the live board (boardwatch.py, livestate.py), the game library
(library.py), replays, the simulated board to play on (playgame.py) and the board's
settings page; the pages are static files in static/.
"""
