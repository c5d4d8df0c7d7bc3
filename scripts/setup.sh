#!/usr/bin/env bash
# One idempotent set-up for a fresh Debian 12 machine (or a developer's):
# Debian's PostgreSQL 15 with PL/Python, sqitch with its Pg driver, pgbouncer,
# the project's virtualenv, and the PL/Python package where the server's own
# python3 finds it. Quick when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# python3-zstandard: the server's own Python decodes release chunks (voyager_pl_ext.codec);
# chromium: the web pages' browser test drives Debian's headless Chromium (no browser downloads);
# par2, p7zip-full, zip, rar: the prober's readers are tested on files these real tools make
# (rar is in Debian's non-free component, added below); nzbget: a real downloader takes the NZBs;
# systemd: systemd-analyze verifies the rendered units (`voyager deploy units`)
APT_PACKAGES=(postgresql-15 postgresql-plpython3-15 sqitch libdbd-pg-perl pgbouncer python3-venv python3-zstandard chromium
              par2 p7zip-full zip rar nzbget systemd)
# node and npm for the poster (Nyuu, below), from Debian only where the machine has no node
command -v node >/dev/null || APT_PACKAGES+=(nodejs npm)

# rar 7 (RAR 5 with -p and -hp) comes from non-free: add the component to Debian's own sources
# once (the main archive's first stanza, or its one-line entries); apt-get update follows below
sudo_=""; [ "$(id -u)" -ne 0 ] && sudo_="sudo"
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  if ! grep -Eq '^Components:.*non-free( |$)' /etc/apt/sources.list.d/debian.sources; then
    echo "setup: adding Debian's non-free component (rar)"
    $sudo_ sed -i '0,/^Components: main$/s//Components: main non-free/' /etc/apt/sources.list.d/debian.sources
  fi
elif [ -f /etc/apt/sources.list ] && ! grep -Eq '^deb .* non-free( |$)' /etc/apt/sources.list; then
  echo "setup: adding Debian's non-free component (rar)"
  $sudo_ sed -i -E 's#^(deb [^ ]+/debian [a-z]+(-updates)? main)$#\1 non-free#' /etc/apt/sources.list
fi

need_apt=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need_apt+=("$p")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  sudo_=""; [ "$(id -u)" -ne 0 ] && sudo_="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_ apt-get update -q
  # plpython3 must match the server's minor version, so both come together.
  $sudo_ apt-get install -y -q "${APT_PACKAGES[@]}"
fi
# INN 2, the real news server the tests index (its own script: Debian's postinst needs care)
bash scripts/setup_inn.sh

# Nyuu 0.4.0, the real poster the tests post with (tests/nyuu.py), into .tools/ of this
# checkout. Its native yencode builds with node-gyp against the headers Debian's nodejs
# installs (npm_config_nodedir=/usr), so nothing but the npm registry is reached.
nyuu_version=0.4.0
if [ "$(.tools/node_modules/.bin/nyuu --version 2>&1)" != "$nyuu_version" ] \
    || ! (cd .tools && node -e "require('yencode')" 2>/dev/null); then
  echo "setup: installing Nyuu $nyuu_version into .tools/"
  mkdir -p .tools
  if ! npm_config_nodedir=/usr npm install --prefix .tools --no-audit --no-fund --foreground-scripts \
      "nyuu@$nyuu_version" > .tools/npm.log 2>&1 \
      || ! (cd .tools && node -e "require('yencode')"); then
    cat .tools/npm.log >&2
    echo "setup: installing Nyuu failed (log above, and in .tools/npm.log)" >&2
    exit 1
  fi
fi

# The virtualenv: Python 3.11 (the brief's version), rebuilt when pyproject changes.
py=${VOYAGER_PYTHON:-}
if [ -z "$py" ]; then
  for c in python3.11 python3; do
    if command -v "$c" >/dev/null && "$c" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then py=$(command -v "$c"); break; fi
  done
fi
[ -n "$py" ] || { echo "setup: no Python 3.11 found" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $py"
  "$py" -m venv .venv
fi
stamp=.venv/.voyager-installed
# Reinstalled (and the Cython extension rebuilt) when the metadata or ext/ changes.
want=$(cat pyproject.toml setup.py ext/*.pyx ext/*.pxd 2>/dev/null | sha1sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing the Python packages into .venv"
  # quiet unless it fails: the build's own warnings are noise here
  if ! { .venv/bin/python -m pip install -q --upgrade pip && .venv/bin/python -m pip install -q -e ".[test]"; } \
      > .venv/pip.log 2>&1; then
    cat .venv/pip.log >&2
    echo "setup: installing the Python packages failed (log above, and in .venv/pip.log)" >&2
    exit 1
  fi
  echo "$want" > "$stamp"
fi

# PL/Python runs Debian's python3 inside the server, not the virtualenv: copy
# the plpython package into that interpreter's site-packages (every time, so
# the server always runs this checkout's code).
site=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])')
sudo_=""; [ "$(id -u)" -ne 0 ] && [ ! -w "$site" ] && sudo_="sudo"
$sudo_ mkdir -p "$site"
$sudo_ rm -rf "$site/voyager_pl"
$sudo_ cp -r "$root/plpython/voyager_pl" "$site/voyager_pl"
$sudo_ find "$site/voyager_pl" -name '__pycache__' -prune -exec rm -rf {} +
/usr/bin/python3 -c 'import voyager_pl' || { echo "setup: the server's python3 cannot import voyager_pl" >&2; exit 1; }
# The compiled codec (ext/codec.pyx, built above for CPython 3.11 like Debian's
# python3) beside it as voyager_pl_ext: voyager.nzb() writes NZBs with it, and
# there is no other writer, so a server without it is a failed set-up.
$sudo_ rm -rf "$site/voyager_pl_ext"
$sudo_ mkdir -p "$site/voyager_pl_ext"
$sudo_ touch "$site/voyager_pl_ext/__init__.py"
$sudo_ cp ext/codec.cpython-311-*.so "$site/voyager_pl_ext/"
/usr/bin/python3 -c 'from voyager_pl_ext.codec import nzb; from voyager_pl.nzb import build' \
  || { echo "setup: the server's python3 cannot load the compiled codec (voyager_pl_ext)" >&2; exit 1; }
