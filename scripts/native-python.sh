#!/usr/bin/env bash
# The Python environment test/native/python.test.ts runs the Python SDK in: a virtual environment
# under the user's cache (${XDG_CACHE_HOME:-~/.cache}/pulumi-svc/python-sdk/venv, or $SVC_PYTHON_SDK_VENV)
# with pulumi==3.272.0 from PyPI, and the pulumi_svc wheel that `node scripts/sdk.js python` builds from
# schema/schema.json. Nothing is written into the repository but sdk/ (ignored). Python is $PYTHON,
# else python3 (3.9 or later). Prints the environment's python.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${SVC_PYTHON_SDK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc/python-sdk/venv}"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' 2>/dev/null; then
  echo "python SDK: $python is missing or older than 3.9 (set PYTHON to a Python 3.9+ interpreter)" >&2
  exit 1
fi
requirements="pulumi==3.272.0 setuptools wheel"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.requirements" 2>/dev/null)" != "$requirements" ]; then
  echo "python SDK: creating $venv" >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  # shellcheck disable=SC2086
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input $requirements
  echo "$requirements" >"$venv/.requirements"
fi
wheel="$(SVC_SDK_PYTHON="$venv/bin/python" node scripts/sdk.js python | tail -1)"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --no-deps --force-reinstall "$wheel" >&2
echo "$venv/bin/python"
