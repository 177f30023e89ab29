"""Device probe of the heap's drift over a whole game: runs ON the board (the emulated
Pico) at its REPL, sent by `python -m tools.turn_drift` after SEQ (the game as steps:
("r", d1, d2) a roll, ("l", name) a lift, ("p", name) a placement, ("t",) a turn's
end) and tools/upy_devkit.py.  Not in the bundle.

Each roll goes in as the rig's player makes it (the host lines set_dice, roll and
position); each lift is followed by 300 ms of loop iterations, each placement by 400
ms, each turn's end by 600 ms; then the loop's quiet work is done (the on-demand
modules dropped, a collection) and it prints

    DRIFT turn <k> free=<bytes free after the collection> turns=<len(game.record)>

and at the end `DRIFT record of <n> turns holds <bytes>` (the bytes a collection frees
once the game's record is dropped).
"""
import gc

from samsara.frame import from_position, position_index, put

probe_link()         # (tools/upy_devkit.py: quiet, host_line, run_ticks, now)
period = loop.period


try:
    board.new_game(now_ms=now)
    f = from_position(board.controller.game.pos)
    for i in range(8):
        feed.f[i] = f[i]
    run_ticks(100)
    quiet()
    print("DRIFT start free=%d" % gc.mem_free())
    k = 0
    for s in SEQ:
        if s[0] == "r":
            host_line('{"cmd": "set_dice", "id": ID, "dice": [%d, %d]}' % (s[1], s[2]))
            host_line('{"cmd": "roll", "id": ID}')
            host_line('{"cmd": "position", "id": ID}')
            run_ticks(250 // period)
        elif s[0] == "l":
            put(feed.f, position_index(s[1]), 0)
            run_ticks(300 // period)
        elif s[0] == "p":
            put(feed.f, position_index(s[1]), 1)
            run_ticks(400 // period)
        else:
            k += 1
            run_ticks(600 // period)
            quiet()
            print("DRIFT turn %d free=%d turns=%d state=%s" % (
                k, gc.mem_free(), len(board.controller.game.record), board.controller.state))
    run_ticks(1500 // period)
    quiet()
    f0 = gc.mem_free()
    g = board.controller.game
    n = len(g.record)
    g.record = None
    quiet()
    print("DRIFT record of %d turns holds %d B" % (n, gc.mem_free() - f0))
finally:
    bench_end()
    print("BENCH done 0")
