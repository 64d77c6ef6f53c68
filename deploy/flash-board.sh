#!/usr/bin/env bash
# Copies the seat-button board's program (firmware_bridge/firmware) onto a Raspberry Pi Pico
# that already runs MicroPython, with mpremote, then restarts the board so main.py runs:
#   deploy/flash-board.sh [--port DEVICE] [--dry-run]
# The board is found as /dev/pinochle-board (deploy/99-pinochle-board.rules), else as
# MicroPython's /dev/serial/by-id/usb-MicroPython_* link, else give --port. The table must be
# stopped first (sudo systemctl stop pinochle-table): it holds the port open.
# On the board: main.py at the top, the logic modules in pinochle_fw/ (main.py imports
# pinochle_fw.board), as `pinochle-table board-flash` does.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
FIRMWARE=$SRC/firmware_bridge/firmware
BOARD_PACKAGE=pinochle_fw

port=""
dry_run=0
while [ $# -gt 0 ]; do
    case "$1" in
        --port) [ $# -ge 2 ] || { echo "flash-board.sh: --port needs a device" >&2; exit 2; }
                port=$2; shift ;;
        --dry-run) dry_run=1 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "flash-board.sh: unknown option $1 (use --port DEVICE, --dry-run)" >&2; exit 2 ;;
    esac
    shift
done

run() {
    if [ "$dry_run" -eq 1 ]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}
die() { echo "flash-board.sh: $*" >&2; exit 1; }

find_port() {
    local link
    if [ -e /dev/pinochle-board ]; then echo /dev/pinochle-board; return; fi
    for link in /dev/serial/by-id/usb-MicroPython_*; do
        if [ -e "$link" ]; then echo "$link"; return; fi
    done
}

find_mpremote() {
    local candidate
    for candidate in "${MPREMOTE:-}" "$SRC/.venv/bin/mpremote" /opt/pinochle-table/.venv/bin/mpremote \
                     "$(command -v mpremote || true)"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then echo "$candidate"; return; fi
    done
}

if [ "$dry_run" -eq 0 ] && systemctl is-active --quiet pinochle-table 2>/dev/null; then
    die "the table is running and holds the board's port: sudo systemctl stop pinochle-table," \
        "flash, then sudo systemctl start pinochle-table"
fi
[ -n "$port" ] || port=$(find_port)
if [ -z "$port" ]; then
    [ "$dry_run" -eq 1 ] || die "no Pico found (no /dev/pinochle-board, no" \
        "/dev/serial/by-id/usb-MicroPython_*): plug it in; if it is new, put MicroPython on it" \
        "first (hold BOOTSEL while plugging in, copy MicroPython's .uf2 to the RPI-RP2 drive)"
    port=/dev/pinochle-board
    echo "(no board plugged in: the commands are shown for $port)"
fi
[ "$dry_run" -eq 1 ] || [ -e "$port" ] || die "$port does not exist: is the board plugged in?"

mpremote=$(find_mpremote)
if [ -z "$mpremote" ]; then
    [ "$dry_run" -eq 1 ] || die "mpremote is not installed: sudo deploy/install-pi.sh puts it" \
        "in the table's venv, or: pip install mpremote"
    mpremote=mpremote
fi

modules=()
for file in "$FIRMWARE"/*.py; do
    [ "$(basename "$file")" = main.py ] || modules+=("$file")
done
if [ ${#modules[@]} -eq 0 ] || [ ! -f "$FIRMWARE/main.py" ]; then die "no firmware in $FIRMWARE"; fi

# `resume`: no soft reset on connecting. Ctrl-C hands the board to the REPL with a timer feeding
# its watchdog (main.py); a soft reset would stop the timer and the watchdog would restart the
# board in the middle of the copy.
board=("$mpremote" connect "$port" resume)
# mkdir fails when the folder is there from an earlier flash: make it only if missing.
run "${board[@]}" exec "import os
try:
    os.mkdir('$BOARD_PACKAGE')
except OSError:
    pass"
for file in "${modules[@]}"; do
    run "${board[@]}" cp "$file" ":$BOARD_PACKAGE/$(basename "$file")"
done
run "${board[@]}" cp "$FIRMWARE/main.py" :main.py
# A hard reset: after mpremote's raw-REPL soft reset MicroPython would not run main.py.
run "${board[@]}" reset
[ "$dry_run" -eq 1 ] || echo "flashed $port: the board restarts with the new program"
