"""The physical controls: GPIO seat buttons and lights, and the serial board with its firmware.

config (the wiring file), language (what a press means), panel (presses to the session, the
game to the lights), gpio (gpiozero pins), serial_board (the Pico over USB serial), simboard
(the board's program on a pty), presser (simulated fingers), controls (all of it for one
session), firmware/ (the board's MicroPython program).
"""
