"""Firmware version, the hash of the code that runs and how it got onto the board,
reported by `hello` and the `boot` event (docs/protocol.md "Versions").

The build stamps the last three lines: `make uf2` with the image id (`KIND = "image"`,
the code frozen into flash), `make firmware` and `samsara deploy` with the bundle's hash
(`KIND = "bundle"`, `.mpy` files on the file system).  Sources run as they are (the
virtual board, the tests) say `"dev"` and `"source"`.  `TAG` is the one place the
version and hash stand together as a literal, so the host can find them in an image
file (`samsara_host.fwstamp.image_facts`).
"""

VERSION = "0.1.0"
HASH = "dev"
KIND = "source"
TAG = "samsara-image 0.1.0 dev"
