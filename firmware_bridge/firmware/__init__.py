"""The serial board's program (MicroPython on a Raspberry Pi Pico).

`wire`, `link`, `buttons` and `board` are its logic: they import nothing from `machine`, so the
same files run on the board, on CPython in the tests, and in the simulated board. `main.py` is
the thin layer that binds the Pico's pins. On the board this folder is copied to `/pinochle_fw/`
and `main.py` to `/main.py` (see the README: flashing with mpremote).
"""
