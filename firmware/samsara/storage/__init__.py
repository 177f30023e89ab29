"""Storage (docs/gamelog.md): the game-log record format (`logrecord`, shared with the
host, and its writing side `logwrite`), the store of
log files on flash (`gamelog`: the boot scan, a game's start and end, the host's
transfer), the game recorder that decides what is logged (`recorder`, a sink of the main
loop), the file-system adapter (`osfs`) and resuming an unfinished game at boot
(`logresume`)."""
