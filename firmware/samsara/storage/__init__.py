"""Storage (docs/gamelog.md): the game-log record format (`logrecord`, shared with the
host), the store of log files on flash (`gamelog`), the game recorder that decides what
is logged (`recorder`, a sink of the main loop), the file-system adapter (`osfs`) and
resuming an unfinished game at boot (`logresume`)."""
