#!/usr/bin/env bash
# Install tilewatch as a service on Raspberry Pi OS (Bookworm or later) or any
# Debian-like Linux with systemd. Run from a checkout:  sudo systemd/install.sh
#
#   PREFIX=/opt/tilewatch   where the code and its venv go
#   PORT=8080               the phone page's port (http://<hostname>.local:PORT)
#   CAMERA=picam            picam | usb:0 | sim  (written to the config once)
set -euo pipefail

PREFIX=${PREFIX:-/opt/tilewatch}
PORT=${PORT:-8080}
CAMERA=${CAMERA:-picam}
SRC=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run as root (sudo systemd/install.sh)" >&2
    exit 2
fi

echo "==> system packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# python3-picamera2 exists only on Raspberry Pi OS; a USB webcam needs none of it.
extra=()
if apt-cache show python3-picamera2 >/dev/null 2>&1; then
    extra+=(python3-picamera2)
elif [ "$CAMERA" = "picam" ]; then
    echo "install.sh: python3-picamera2 is not available here; use CAMERA=usb:0" >&2
    exit 2
fi
# avahi makes the Pi reachable as <hostname>.local from the phones.
apt-get install -y -qq --no-install-recommends python3-venv python3-pip avahi-daemon "${extra[@]}"

echo "==> user 'tilewatch' (in group video for the camera)"
if ! id tilewatch >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/tilewatch --shell /usr/sbin/nologin tilewatch
fi
usermod -aG video tilewatch

echo "==> code and venv in $PREFIX"
mkdir -p "$PREFIX"
# --system-site-packages: picamera2 and libcamera come from the OS, not pip.
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install -q --upgrade pip
"$PREFIX/venv/bin/pip" install -q "$SRC"
install -m 0644 "$SRC/README.md" "$PREFIX/README.md"

echo "==> config /etc/tilewatch/config.toml (kept if it exists)"
mkdir -p /etc/tilewatch
if [ ! -f /etc/tilewatch/config.toml ]; then
    cat > /etc/tilewatch/config.toml <<CONF
# tilewatch settings; every key has a default (see README, "Configuration").
[camera]
source = "$CAMERA"

[server]
host = "0.0.0.0"
port = $PORT

[storage]
path = "/var/lib/tilewatch/tilewatch.sqlite"
CONF
fi
chown -R root:tilewatch /etc/tilewatch
chmod 0750 /etc/tilewatch

echo "==> service"
sed "s|@PREFIX@|$PREFIX|g" "$SRC/systemd/tilewatch.service" > /etc/systemd/system/tilewatch.service
systemctl daemon-reload
systemctl enable --now tilewatch.service

echo
echo "tilewatch is running. Open http://$(hostname).local:$PORT on a phone on the same network."
echo "Logs: journalctl -u tilewatch -f     Checks: sudo -u tilewatch $PREFIX/venv/bin/tilewatch doctor --config /etc/tilewatch/config.toml"
