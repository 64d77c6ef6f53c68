#!/usr/bin/env bash
# Installs the pinochle table on Raspberry Pi OS (Bookworm, Pi 4 or Pi 5), or updates it:
#   sudo deploy/install-pi.sh             install (safe to run again after a `git pull`)
#   deploy/install-pi.sh --dry-run        print what it would do and change nothing
#
# picamera2, OpenCV, numpy, Pillow and lgpio come from Debian (apt). The venv sees them through
# --system-site-packages, and pip never installs numpy or OpenCV into it: a pip numpy beside
# Debian's breaks picamera2. So the project goes in with --no-deps, and before that only its
# pure-Python dependencies, once a pip dry run has shown that none of Debian's would be replaced.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/pinochle-table                 # the code (the unit file's ExecStart points here)
VENV=$PREFIX/.venv
STATE=/var/lib/pinochle-table              # the journal (the unit's StateDirectory)
SERVICE_USER=pinochle
SERVICE_GROUPS=(gpio video dialout)        # GPIO chips, the camera, the serial board
UNIT=pinochle-table.service
UDEV_RULE=99-pinochle-board.rules
# Flask, waitress and pyserial from Debian too: the versions CI's Pi lane tests
# (deploy/pi-versions.txt). avahi-daemon answers for <hostname>.local, the page's address.
APT_PACKAGES=(python3-opencv python3-numpy python3-pil python3-lgpio python3-threadpoolctl
              python3-flask python3-waitress python3-serial avahi-daemon python3-venv rsync)
# picamera2 without its recommends (the Qt and OpenGL preview windows a headless table never opens)
APT_NO_RECOMMENDS=(python3-picamera2)
EXTRA_PIP=(mpremote)                       # flashes the board (deploy/flash-board.sh)

# Run in the installed venv: picamera2 and lgpio import; numpy, OpenCV, Pillow are Debian's.
read -r -d '' CHECK_VENV_PY <<'PY' || true
import numpy, cv2, picamera2, lgpio, PIL
for module in (numpy, cv2, PIL):
    if not module.__file__.startswith("/usr/lib/python3/"):
        raise SystemExit(f"{module.__name__} comes from {module.__file__}, not from Debian: "
                         "picamera2 would break; remove it from the venv")
print("the venv sees Debian's picamera2, OpenCV, numpy, Pillow and lgpio")
PY

dry_run=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) dry_run=1 ;;
        -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
        *) echo "install-pi.sh: unknown option $arg (use --dry-run or nothing)" >&2; exit 2 ;;
    esac
done

say() { printf '== %s\n' "$*"; }
# Runs a command, or with --dry-run prints it (shell-quoted) after "+".
run() {
    if [ "$dry_run" -eq 1 ]; then
        printf '+'; printf ' %q' "$@"; printf '\n'
    else
        "$@"
    fi
}
die() { echo "install-pi.sh: $*" >&2; exit 1; }
on_pi() { grep -qi 'raspberry pi' /proc/device-tree/model 2>/dev/null; }
venv_ok() {
    [ -x "$VENV/bin/python" ] \
        && grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" 2>/dev/null
}

if [ "$dry_run" -eq 1 ]; then
    say "dry run: nothing is changed"
    on_pi || say "note: this is not a Raspberry Pi; on one, run it with sudo and no --dry-run"
else
    [ "$(id -u)" -eq 0 ] || die "run it as root: sudo $0"
    on_pi || die "this is not a Raspberry Pi (no 'Raspberry Pi' in /proc/device-tree/model);" \
                 "use --dry-run to see the steps"
fi

say "Debian packages"
missing_of() { local p; for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done; }
mapfile -t missing < <(missing_of "${APT_PACKAGES[@]}")
mapfile -t missing_lean < <(missing_of "${APT_NO_RECOMMENDS[@]}")
if [ ${#missing[@]} -gt 0 ] || [ ${#missing_lean[@]} -gt 0 ]; then
    run apt-get update
fi
if [ ${#missing[@]} -gt 0 ]; then
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi
if [ ${#missing_lean[@]} -gt 0 ]; then
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${missing_lean[@]}"
fi
[ ${#missing[@]} -gt 0 ] || [ ${#missing_lean[@]} -gt 0 ] \
    || say "all there: ${APT_PACKAGES[*]} ${APT_NO_RECOMMENDS[*]}"

say "the service user $SERVICE_USER (groups ${SERVICE_GROUPS[*]})"
for g in "${SERVICE_GROUPS[@]}"; do
    getent group "$g" >/dev/null || run groupadd --system "$g"
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir "$STATE" --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups "$(IFS=,; echo "${SERVICE_GROUPS[*]}")" "$SERVICE_USER"

say "the code in $PREFIX"
if [ "$SRC" != "$PREFIX" ]; then
    run mkdir -p "$PREFIX"
    # --delete drops files removed upstream; the venv and build leftovers are left alone.
    # The Pi runs the rules core as pure Python: a development tree's mypyc build stays behind.
    run rsync -a --delete --exclude=/.venv --exclude=/.git --exclude=__pycache__ \
        --exclude='*.egg-info' --exclude=.pytest_cache --exclude=.mypy_cache \
        --exclude=.ruff_cache --exclude='/table/rules/*.so' --exclude=/table/rules/_native.json \
        "$SRC/" "$PREFIX/"
fi

say "the venv $VENV (it sees Debian's packages)"
if ! venv_ok; then
    run rm -rf "$VENV"   # a venv made without Debian's packages would miss picamera2
    run python3 -m venv --system-site-packages "$VENV"
fi
# The project's dependencies less numpy and Pillow, plus mpremote (deploy/pip_guard.py knows
# which distributions must come from Debian).
mapfile -t requirements < <(python3 "$SRC/deploy/pip_guard.py" requirements \
                                    "$SRC/pyproject.toml" "${EXTRA_PIP[@]}")
[ ${#requirements[@]} -gt 0 ] || die "cannot read the dependencies from $SRC/pyproject.toml"
pip=("$VENV/bin/python" -m pip --disable-pip-version-check)
report=$(mktemp)
trap 'rm -f "$report"' EXIT
run "${pip[@]}" install --dry-run --quiet --report "$report" "${requirements[@]}"
run python3 "$SRC/deploy/pip_guard.py" check "$report"
run "${pip[@]}" install --quiet "${requirements[@]}"
run "${pip[@]}" install --quiet --no-deps --editable "$PREFIX"
run "$VENV/bin/python" -c "$CHECK_VENV_PY"
# The service user cannot write __pycache__ under $PREFIX, so compile once here.
run "$VENV/bin/python" -m compileall -q "$PREFIX/table" "$PREFIX/vision" \
    "$PREFIX/firmware_bridge" "$PREFIX/web_ui"

say "the service and the board's udev rule"
run install -m 0644 "$SRC/deploy/$UNIT" "/etc/systemd/system/$UNIT"
run install -m 0644 "$SRC/deploy/$UDEV_RULE" "/etc/udev/rules.d/$UDEV_RULE"
run systemctl daemon-reload
run udevadm control --reload-rules
run udevadm trigger --subsystem-match=tty --action=add
run systemctl try-restart "$UNIT"   # an update: restart it if it was running
run systemctl enable --now avahi-daemon   # phones find the table as <hostname>.local

say "the settings ($STATE/table.toml) and the table card"
# The PIN is made once and saved in table.toml; the card prints it with the address.
run mkdir -p "$STATE"   # systemd's StateDirectory= makes it too, on the first start
run chown "$SERVICE_USER:$SERVICE_USER" "$STATE"
run runuser -u "$SERVICE_USER" -- env PINOCHLE_CONFIG="$STATE" "$VENV/bin/pinochle-table" \
    print-card --out "$STATE/table-card.pdf"
address="http://$(hostname).local:8080/"

say "done. Next:"
cat <<EOF
  deploy/flash-board.sh                 the Pico board's program (if you use the board)
  sudo systemctl enable --now $UNIT
                                        start the table now and at every boot
  journalctl -u $UNIT -f
                                        its output: the page's address and the table PIN
  The page: $address (port and PIN: $STATE/table.toml)
  The table card to print: sudo cp $STATE/table-card.pdf ~/
EOF
