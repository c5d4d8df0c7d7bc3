#!/usr/bin/env bash
# Debian's INN 2 (inn2), for the tests that run a real news server privately on
# loopback (tests/inn.py). Idempotent and non-interactive; quick when it is
# already there. Root (or sudo) on Debian 12 with only the package registries.
#
# Two traps of the Debian packages on a bare machine, handled here:
#  - inn2's postinst runs innconfval/makehistory, which refuse to work when the
#    host has no domain (`hostname -f` without a dot) and inn.conf sets none:
#    so inn2-inews (which ships /etc/news/inn.conf) goes first, `domain:` is set
#    in it, and only then inn2.
#  - the postinsts of inn2 (and of its cron and MTA dependencies) start their
#    daemons; innd would listen on port 119 of every address. No service is
#    started: a policy-rc.d that refuses (exit 101) is put in place for the
#    install when the machine has none, and removed after.
# The system instance stays unused and stopped; tests/inn.py runs its own
# instance under a temporary folder with its own inn.conf.
set -euo pipefail

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if installed inn2 && [ -x /usr/lib/news/bin/innd ] && [ -x /usr/lib/news/bin/nnrpd ]; then
  exit 0
fi

sudo_=""; [ "$(id -u)" -ne 0 ] && sudo_="sudo"
export DEBIAN_FRONTEND=noninteractive
echo "setup_inn: installing Debian's inn2"

policy=/usr/sbin/policy-rc.d
made_policy=""
cleanup() { if [ -n "$made_policy" ]; then $sudo_ rm -f "$policy"; fi; }
trap cleanup EXIT
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# setup_inn.sh: start no service while installing\nexit 101\n' | $sudo_ tee "$policy" >/dev/null
  $sudo_ chmod 755 "$policy"
  made_policy=1
fi

# the package lists, once (a fresh machine has none, or old ones)
if ! apt-cache show inn2 >/dev/null 2>&1 || [ -z "$(apt-cache policy inn2 | awk '/Candidate:/ {print $2}' | grep -v none)" ]; then
  $sudo_ apt-get update -q
fi

if ! installed inn2-inews; then
  $sudo_ apt-get install -y -q -o Dpkg::Options::=--force-confold inn2-inews \
    || { $sudo_ apt-get update -q && $sudo_ apt-get install -y -q -o Dpkg::Options::=--force-confold inn2-inews; }
fi

# a domain for INN when the host has none of its own
conf=/etc/news/inn.conf
if ! grep -Eq '^[[:space:]]*domain:[[:space:]]*[^[:space:]]' "$conf" && ! hostname -f 2>/dev/null | grep -q '\.'; then
  echo "setup_inn: no domain for this host: setting 'domain: localdomain' in $conf"
  if grep -Eq '^#?[[:space:]]*domain:' "$conf"; then
    $sudo_ sed -i -E '0,/^#?[[:space:]]*domain:.*/s//domain:                      localdomain/' "$conf"
  else
    echo 'domain:                      localdomain' | $sudo_ tee -a "$conf" >/dev/null
  fi
fi

$sudo_ apt-get install -y -q -o Dpkg::Options::=--force-confold inn2

for b in innd nnrpd ctlinnd; do
  [ -x "/usr/lib/news/bin/$b" ] || { echo "setup_inn: /usr/lib/news/bin/$b is missing after the install" >&2; exit 1; }
done
echo "setup_inn: $(dpkg-query -W -f='inn2 ${Version}' inn2) installed"
