"""The physical controls: GPIO seat buttons and LEDs, and the serial board with its firmware."""
