"""The board parts that any of the publisher's games other than Samsara shares
(docs/architecture.md "firmware/gameboard/"): the board core a game's board subclasses
(`core`), the game log policy a game's logbook subclasses (`logbook`) and the boot
under Samsara's scan loop (`boot`).  A game package (samas, schaska) adds only its
controller, colours, buttons and log records."""
