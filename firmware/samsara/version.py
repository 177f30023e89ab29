"""Firmware version and bundle hash, reported by `hello` (docs/protocol.md "Versions").

`samsara deploy` may rewrite HASH with the hash of the bundle it copies.
"""

VERSION = "0.1.0"
HASH = "dev"
