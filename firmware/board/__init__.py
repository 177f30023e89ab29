"""Drivers of the Samsara board: the only code that imports `machine`, `rp2` or `neopixel`.

Each driver takes its `Pin`/bus objects from the caller (main.py builds them from
`board_config`) and has the same small interface as its simulated twin
(docs/core-api.md "Drivers", docs/firmware.md):

    sr165.ShiftRegisterScanner   n_positions, scan(buf)      74HC165 chain over SPI
    hall.HallScanner             n_positions, scan(buf)      CD74HC4067 muxes + ADC
    calibrate.HallCalibrator     begin / step / status       guided Hall calibration
    leds.LedChain                show(scene240)              WS2812 chain via neopixel
    buttons.Buttons              poll(now_ms)                roll / undo, long press
    watchdog.Watchdog            feed()                      machine.WDT wrapper

Importing this package imports no hardware module; each driver module imports only
what it uses.
"""

