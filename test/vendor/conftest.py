"""
Shared set-up of the vendor-client suites (test_api_client.py, test_sdk_client.py): the emulator they
talk to, unique names, the operation each test runs, and the run's report.

Run by test/vendor/vendor-clients.test.ts, which starts the emulator and passes its address in
SVC_BASE_URL; each suite runs in the virtual environment of its client (scripts/vendor-clients/setup.sh),
and skips when its client is not installed there.

- `@op("METHOD /path")` names the operation (the spec's path, relative to /api/v4) a test runs; the
  coverage test of each suite checks that every operation the client and the emulator share has one.
- `@spec_over_client("...")` marks a test whose request or answer the emulator refuses because the
  spec says otherwise: it must fail (xfail, strict), quoting the spec's sentence; the README lists it.
- `@previous_generation("...")` marks a request of the previous client that the current client and
  the facts file both build otherwise (the current client wins): it must fail, for that reason.
- `@known_difference("...")` marks a difference not fixed yet (xfail, strict: fixing it fails the
  test until the mark goes); the README lists these too.
- SVC_VENDOR_REPORT names a JSON file where the run writes each test's operation, outcome and reason.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import urllib.parse
import urllib.request
import uuid

import pytest

BASE_URL = os.environ.get("SVC_BASE_URL", "").rstrip("/")

_results: list[dict[str, object]] = []


def _refuse_skipped_items(_logger: object, _method: str, event: dict[str, object]) -> dict[str, object]:
    """The clients drop a list item their models cannot parse with only a warning: here it fails the test."""
    if event.get("event") == "Skipped invalid item":
        raise AssertionError(f"the client dropped a list item its model could not parse: {event.get('error')}")
    return event


try:
    import structlog

    structlog.configure(processors=[_refuse_skipped_items, *structlog.get_config()["processors"]])
except ImportError:  # pragma: no cover - both clients log through structlog
    pass


def op(*operations: str):
    """The operations (`METHOD /path`, the spec's path) a test runs."""
    return pytest.mark.op(*operations)


def spec_over_client(sentence: str):
    """The emulator follows the spec against the client here: the test must fail, for this reason."""
    return pytest.mark.xfail(strict=True, reason=f"spec over client: {sentence}")


def known_difference(what: str):
    """A difference from the client not fixed yet (see the README): the test must fail, for this reason."""
    return pytest.mark.xfail(strict=True, reason=f"open: {what}")


def previous_generation(what: str):
    """A request of the previous client that the current client and the facts file both build otherwise: it must fail."""
    return pytest.mark.xfail(strict=True, reason=f"previous generation: {what}")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "op(*operations): the API operations a test runs")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if BASE_URL:
        return
    skip = pytest.mark.skip(reason="SVC_BASE_URL is not set: no emulator to run against")
    for item in items:
        item.add_marker(skip)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        marker = item.get_closest_marker("op")
        xfail = item.get_closest_marker("xfail")
        status = "xfailed" if hasattr(report, "wasxfail") and report.skipped else report.outcome
        _results.append(
            {
                "test": item.nodeid,
                "operations": list(marker.args) if marker else [],
                "outcome": status,
                "reason": xfail.kwargs.get("reason") if xfail else None,
                "message": str(report.longrepr)[-2000:] if report.failed else None,
            }
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("SVC_VENDOR_REPORT")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"results": _results}, f, indent=1)


# The operation a client method calls, as its generated docstring names it: ``GET`` ``/api/v4/...``.
CLIENT_OPERATION = re.compile(r"``(GET|POST)`` ``/api/v4(/[^`]*)``")


def normalized(operation: str) -> str:
    return re.sub(r"\{[^}]+\}", "{}", operation)


def assert_every_shared_operation_tested(request: pytest.FixtureRequest, models: dict[str, object], minimum: int) -> None:
    """Every operation a client method calls that the emulator serves has a test (an `@op`) in this file."""
    client_ops = set()
    for model in models.values():
        for name in vars(model):
            doc = getattr(getattr(model, name), "__doc__", None) or ""
            for m in CLIENT_OPERATION.finditer(doc):
                client_ops.add(f"{m.group(1)} {normalized(m.group(2))}")
    with urllib.request.urlopen(f"{BASE_URL}/api/v4/openapi.json") as answer:
        served = json.load(answer)["paths"]
    emulator_ops = {f"{method.upper()} {normalized(path.removeprefix('/api/v4'))}" for path, ops in served.items() for method in ops}
    shared = client_ops & emulator_ops
    here = request.node.fspath
    tested = {normalized(o) for item in request.session.items if item.fspath == here for m in item.iter_markers("op") for o in m.args}
    assert len(shared) >= minimum
    assert sorted(shared - tested) == []


def api_call(method: str, path: str, body: object | None = None) -> int:
    """A request to the API as the built-in admin, outside the clients (set-up a client cannot make): its status."""
    form = urllib.parse.urlencode({"grant_type": "password", "username": "admin@example.com", "password": "admin", "client_id": "svc-cli"}).encode()
    with urllib.request.urlopen(f"{BASE_URL}/auth/realms/svc/protocol/openid-connect/token", data=form) as answer:
        token = json.load(answer)["access_token"]
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{BASE_URL}/api/v4{path}", data=data, method=method, headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return answer.status


_counter = itertools.count(1)
_run = uuid.uuid4().hex[:6]


def unique_name(prefix: str) -> str:
    """A name no other test (or earlier run against the same emulator) uses."""
    return f"{prefix}-{_run}-{next(_counter)}"


@pytest.fixture
def unique():
    return unique_name
