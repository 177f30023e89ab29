"""Online play: two boards, one game, over a standard MQTT broker (docs/online.md).

    code.py    the game's code: its id (the topics) and its secret (the key)
    wire.py    messages on the broker: topics, sealing and opening (AES-GCM)
    peer.py    one side's part of the game: numbered messages, joint dice, the record
    mqtt.py    the MQTT connection (paho-mqtt) and the broker's URL
    bridge.py  a board and the broker joined: `samsara online host|join`
    watch.py   a spectator: `samsara online watch`
    relay.py   Mosquitto with the project's configuration: `samsara relay`
    load.py    many simulated games at once: `samsara online load`
    cmd.py     the command line
"""

NAME_MAX = 24
"""The longest player's name in an online game (characters): both boards' logs, the
messages and the bridges' lines carry it (`--name`, the app's Online page)."""
