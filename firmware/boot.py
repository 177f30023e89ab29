"""The board's first step after every reset, also the soft reset into mpremote's raw
REPL where MicroPython skips main.py: its one job is to keep the watchdog of a previous
run fed from a timer (board/watchdog.py).  main.py's loop stops this feeding and feeds
it itself."""
try:
    from board.watchdog import keep_alive
    keep_alive()
except Exception as e:  # never keep the board from reaching the REPL
    print("boot.py: watchdog keep-alive not started:", e)
