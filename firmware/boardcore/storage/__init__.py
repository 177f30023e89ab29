"""The game log's store (docs/gamelog.md): the record format (`logrecord`, shared with
the host, and its writing side `logwrite`), the store of log files on flash (`gamelog`:
the boot scan, a game's start and end, the host's transfer) and the file-system adapter
(`osfs`).  What a game logs is its own policy: Samsara's recorder (samsara.recorder,
samsara.logresume), the other games' logbook (gameboard.logbook)."""
