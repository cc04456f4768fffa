#!/usr/bin/env bash
# Make sure Debian's Chromium is installed at /usr/bin/chromium (used by the browser tests).
# Idempotent: quiet and exit 0 when it is already there. On a non-Debian system, say what to
# install and exit non-zero.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-chromium: $CHROMIUM is missing and this is not a Debian-like system (no apt-get)." >&2
    echo "Install Chromium with your package manager so that $CHROMIUM exists, or set" >&2
    echo "TRUC_SKIP_BROWSER=1 to skip the browser tests." >&2
    exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    echo "ensure-chromium: not root and sudo is not available; run as root:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends chromium" >&2
    exit 1
fi

echo "ensure-chromium: installing Debian's chromium (about 110 MB)..." >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null

if [ ! -x "$CHROMIUM" ]; then
    echo "ensure-chromium: apt-get finished but $CHROMIUM is still missing" >&2
    exit 1
fi
echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null || echo chromium) installed" >&2
