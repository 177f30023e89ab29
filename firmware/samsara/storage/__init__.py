"""Storage (docs/gamelog.md): the game-log record format (`logrecord`, shared with the
host; its writing side `logwrite` is all of it the board keeps loaded), the store of
log files on flash (`gamelog`; its boot scan and host transfer `logdisk`, loaded on
demand), the game recorder that decides what is logged (`recorder`, a sink of the main
loop), the file-system adapter (`osfs`) and resuming an unfinished game at boot
(`logresume`)."""
