"""The board's main.py on MicroPython, its USB line on stdin/stdout (a pty in the test):

    micropython board_on_pty.py BOARD_DIR PINS_FILE LOG_FILE

The buttons are read from PINS_FILE and the lights and buzzer logged to LOG_FILE (see the
stand-in machine.py). A reset starts main.main() afresh, as the Pico would boot again (a new
nonce: the Pi sees a new board); "boot N" in the log counts the starts.
"""

import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, HERE)

import machine  # noqa: E402

machine.pins_file = sys.argv[2]
machine.log_file = sys.argv[3]

import main  # noqa: E402

boots = 0
while True:
    boots += 1
    machine._log(f"boot {boots}")
    try:  # noqa: SIM105 (no contextlib on MicroPython)
        main.main()
    except machine.ResetCalled:
        pass
