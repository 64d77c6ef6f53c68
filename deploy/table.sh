#!/usr/bin/env bash
# The two commands of the README:
#   deploy/table.sh run [pinochle-table run options]   the live table (simulation off a Pi)
#   deploy/table.sh test [pytest options]              the whole test suite
# Installs what is missing first: Debian packages (as root, or through sudo), then a venv in
# .venv with the project and its Python dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in run|test|setup) ;; *) echo "usage: $0 run|test|setup [options]" >&2; exit 2;; esac

on_pi() { grep -qi 'raspberry pi' /proc/device-tree/model 2>/dev/null; }

apt_want=(python3-venv)
if on_pi; then
    # picamera2 and OpenCV must come from Debian on a Pi; pip copies of numpy/OpenCV break it.
    apt_want+=(python3-picamera2 python3-opencv python3-numpy python3-lgpio python3-pil)
else
    # card faces for the simulated camera, their SVG renderer, and the browser for page tests
    apt_want+=(kdegames-card-data-kf5 librsvg2-bin chromium fonts-dejavu-core)
    apt_want+=(shellcheck)  # tests/deploy lints the deploy scripts with it
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

case "$cmd" in
    run)  exec .venv/bin/pinochle-table run "$@" ;;
    test) exec .venv/bin/python -m pytest "$@" ;;
    setup) echo "set up: .venv ready" ;;
esac
