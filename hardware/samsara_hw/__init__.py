"""The board's hardware configuration, read from the tables beside this package.

``hardware/`` is the source of truth for the pins, the sensor positions and the LEDs
(hardware/README.md explains every column).  One job per module:

    names      the names and counts of positions, LEDs and chips
    power      the power model of hardware/power.md (the LED budget a supply allows)
    gpio       the RP2040's GPIO function table and the board's pin functions
    csvcheck   reading and checking pins.csv, positions.csv, settings.csv: load()
    codegen    firmware/board_config.py from a checked configuration
    wiring     the builder's wiring lists

Used by the host tool (``samsara_host``), ``tools/gen_config.py``,
``hardware/schematic.py`` and the tests; the firmware reads only the generated
``firmware/board_config.py``.
"""
