#!/usr/bin/env bash
# Creates the Python environments test/vendor/vendor-clients.test.ts runs the vendor's clients in:
# <venv>/api with kelvin-python-api-client (the current client) and <venv>/sdk with kelvin-sdk-client
# (the previous one; the two pin different python-keycloak lines, so they cannot share one), each with
# pytest, every package pinned by requirements-api.txt / requirements-sdk.txt beside this script.
#
# <venv> is $SVC_VENDOR_VENV, else ${XDG_CACHE_HOME:-~/.cache}/pulumi-svc/vendor-venv (the test looks in
# the same place); nothing is written into the repository. Python is $PYTHON, else python3.11, else
# python3 (3.10 or later). Run again, it only reinstalls an environment whose requirements changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${SVC_VENDOR_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc/vendor-venv}"

python="${PYTHON:-}"
if [ -z "$python" ]; then
  if command -v python3.11 >/dev/null 2>&1; then python=python3.11; else python=python3; fi
fi
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "vendor clients: $python is missing or older than 3.10 (set PYTHON to a Python 3.10+ interpreter)" >&2
  exit 1
fi

for client in api sdk; do
  requirements="$here/requirements-$client.txt"
  target="$venv/$client"
  stamp="$target/.requirements.sha256"
  wanted="$(sha256sum "$requirements" | cut -d' ' -f1)"
  if [ -x "$target/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    echo "vendor clients: $target is up to date" >&2
    continue
  fi
  echo "vendor clients: creating $target" >&2
  rm -rf "$target"
  "$python" -m venv "$target"
  "$target/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements"
  echo "$wanted" >"$stamp"
done
echo "$venv"
