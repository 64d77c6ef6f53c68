#!/usr/bin/env bash
# The two commands of the README:
#   deploy/table.sh run [pinochle-table run options]   the live table (simulation off a Pi)
#   deploy/table.sh test [pytest options]              the whole test suite
#   deploy/table.sh pi-test [pytest options]           the Pi lane: vision, session, web and board
#                                                      tests on the Pi's library versions
#   deploy/table.sh firmware-check                     the board's program compiled by mpy-cross
#                                                      and run on MicroPython (the Unix port)
# Installs what is missing first: Debian packages (as root, or through sudo), then a venv in
# .venv with the project and its Python dependencies (pi-test: a second venv, .venv-pi, with the
# versions of deploy/pi-versions.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in run|test|setup|pi-test|firmware-check) ;;
    *) echo "usage: $0 run|test|setup|pi-test|firmware-check [options]" >&2; exit 2;; esac

on_pi() { grep -qi 'raspberry pi' /proc/device-tree/model 2>/dev/null; }

apt_want=(python3-venv)
if on_pi; then
    # picamera2 and OpenCV must come from Debian on a Pi; pip copies of numpy/OpenCV break it.
    apt_want+=(python3-picamera2 python3-opencv python3-numpy python3-lgpio python3-pil)
else
    # card faces for the simulated camera, their SVG renderer, and the browser for page tests
    apt_want+=(kdegames-card-data-kf5 librsvg2-bin chromium fonts-dejavu-core)
    apt_want+=(shellcheck)  # tests/deploy lints the deploy scripts with it
    apt_want+=(poppler-utils)  # pdftoppm: tests print the mat and the table card as a printer does
    apt_want+=(gcc python3-dev)  # deploy/compile_rules.py compiles the rules core with mypyc
fi
missing=()
for p in "${apt_want[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing Debian packages: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
fi

# Debian's python3 is built with profile-guided and link-time optimisation; a Python built from
# source without them (pyenv's default) runs the rules core about 1.4x slower. On a Pi the venv
# must also see Debian's picamera2 and OpenCV; elsewhere it keeps to its own packages.
python=python3; [ -x /usr/bin/python3 ] && python=/usr/bin/python3
if [ ! -x .venv/bin/python ]; then
    if on_pi; then "$python" -m venv --system-site-packages .venv; else "$python" -m venv .venv; fi
fi
extras="dev"; on_pi || extras="dev,cv"
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)-$extras
if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[$extras]" >&2
    rm -f .venv/.installed-*; touch "$stamp"
fi
# the rules core in C where a compiler is at hand; a no-op while the build matches its source
.venv/bin/python deploy/compile_rules.py >&2

# The Pi lane: Debian's Python with the library versions Raspberry Pi OS Bookworm gives the table
# (deploy/pi-versions.txt), in a venv of its own; the main .venv keeps the newest wheels.
pi_venv() {
    [ -x .venv-pi/bin/python ] || "$python" -m venv .venv-pi
    local pi_stamp
    pi_stamp=.venv-pi/.installed-$(cat pyproject.toml deploy/pi-versions.txt | sha1sum | cut -c1-12)
    if [ ! -f "$pi_stamp" ]; then
        .venv-pi/bin/python -m pip install -q --disable-pip-version-check \
            -c deploy/pi-versions.txt -e ".[dev]" opencv-contrib-python-headless >&2
        rm -f .venv-pi/.installed-*; touch "$pi_stamp"
    fi
}
# the areas whose libraries differ on the Pi: OpenCV/numpy/Pillow, Flask/waitress, gpiozero, and
# the session over them. The power-cut test is left to the main lane: it checks SQLite under
# SIGKILL, and both lanes run the same Python with the same SQLite.
power_cut=tests/session/test_power_cut.py::test_sigkill_at_chosen_points_loses_nothing_and_lets_in_nothing
PI_TESTS=(tests/vision tests/session tests/web_ui tests/firmware_bridge --deselect "$power_cut")

case "$cmd" in
    run)  exec .venv/bin/pinochle-table run "$@" ;;
    test) exec .venv/bin/python -m pytest "$@" ;;
    setup) echo "set up: .venv ready" ;;
    pi-test)
        pi_venv
        .venv-pi/bin/python -c 'from importlib.metadata import version
names = "numpy opencv-contrib-python-headless pillow flask waitress gpiozero".split()
print("Pi lane:", ", ".join(f"{n} {version(n)}" for n in names))'
        exec .venv-pi/bin/python -m pytest "${PI_TESTS[@]}" "$@" ;;
    firmware-check) exec .venv/bin/python deploy/firmware_check.py "$@" ;;
esac
