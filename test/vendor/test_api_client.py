"""
The vendor's current Python client, `kelvin-python-api-client` (module `kelvin.api.client`), against
the emulator: every operation the client and the emulator share, each request built by the client's
own models and each answer parsed by them (a call that returns without raising did both).

How the client is pointed at the emulator: it reads the instance metadata document (`GET /metadata`)
for the auth server's address, base path and realm, and logs in there (password grant, client
`svc-cli`). It always talks to `https://<host>` (scheme and port fixed, see its `get_hostname`); the
one change made here is the base URL of its HTTP client, set to the emulator's. Every request it
builds goes out as the client built it.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import httpx
import pytest

from conftest import BASE_URL, assert_every_shared_operation_tested, known_difference, op, spec_over_client, unique_name

client_module = pytest.importorskip("kelvin.api.client")
from kelvin.api.base.error import APIError, ResponseError  # noqa: E402


def make_client(username: str = "admin@example.com", password: str = "admin"):
    c = client_module.Client(url=BASE_URL, username=username, password=password, client_id="svc-cli", retries=1)
    c._client.base_url = httpx.URL(BASE_URL)
    return c


@pytest.fixture(scope="module")
def api():
    c = make_client()
    c.login()
    yield c
    c.logout()


def status_of(excinfo: pytest.ExceptionInfo[APIError]) -> int:
    return excinfo.value.response.status_code


# ---------------------------------------------------------------------------------------------
# A small plant the tests share: a cluster, an asset type with assets, an app with two versions.

def manifest(app: str, version: str, **extra: object) -> dict[str, object]:
    return {
        "name": app,
        "title": f"App {app}",
        "description": "emulator fidelity test",
        "type": "app",
        "version": version,
        "parameters": [{"name": "threshold", "data_type": "number", "default": 10}, {"name": "mode", "data_type": "string", "default": "normal"}],
        "schemas": {
            "parameters": {"type": "object", "properties": {"threshold": {"type": "number"}, "mode": {"type": "string"}}},
            "configuration": {"type": "object", "properties": {"rate": {"type": "number"}}},
        },
        "defaults": {"app": {"configuration": {"rate": 1}}},
        **extra,
    }


class World:
    def __init__(self, api, unique) -> None:
        self.cluster = unique("edge")
        api.orchestration.create_orchestration_clusters(data={"name": self.cluster, "title": "Edge", "type": "k3s"})
        self.asset_type = unique("pump-type")
        api.asset.create_asset_type(data={"name": self.asset_type, "title": "Pump type"})
        self.assets = [unique("pump") for _ in range(3)]
        for a in self.assets:
            api.asset.create_asset(data={"name": a, "title": a, "asset_type_name": self.asset_type})
        self.app = unique("app")
        api.apps.create_app_version(data=manifest(self.app, "1.0.0"))
        api.apps.create_app_version(data=manifest(self.app, "2.0.0"))

    def krn(self, i: int = 0) -> str:
        return f"krn:asset:{self.assets[i]}"


@pytest.fixture(scope="module")
def world(api):
    return World(api, unique_name)


def when_ready(fetch):
    """Asks until the package is built (the emulator answers 202 until then; it takes a second)."""
    for _ in range(400):
        response = fetch()
        if response.status_code != 202:
            return response
        time.sleep(0.05)
    raise AssertionError("the package was not ready after 20 s")


def new_workload(api, world: World, name: str, **extra: object):
    body = {"name": name, "app_name": world.app, "app_version": "1.0.0", "cluster_name": world.cluster, "runtime": {"resources": [{"resource": world.krn(0)}]}}
    return api.app_workloads.create_workload(data={**body, **extra.pop("body", {})}, **extra)


# ---------------------------------------------------------------------------------------------
# Coverage: every operation this client and the emulator share has a test.

def test_every_shared_operation_has_a_test(request):
    from kelvin.api.client.client import MODELS

    assert_every_shared_operation_tested(request, MODELS, minimum=80)


# ---------------------------------------------------------------------------------------------
# Authentication and instance

@op("GET /instance/status/get")
def test_instance_status(api):
    assert api.instance.get_instance_status().status is True


def test_login_with_the_metadata_document_and_refused_credentials():
    c = make_client(password="wrong")
    with pytest.raises(Exception, match="Incorrect credentials"):
        c.login()


@op("GET /instance/auditlog/list", "GET /instance/auditlog/{audit_logger_id}/get")
def test_audit_log(api, world):
    entries = api.instance.list_instance_audit_logs(page_size=2, identifier=[world.cluster])
    assert len(entries) >= 1
    one = api.instance.get_instance_audit_log(audit_logger_id=entries[0].id)
    assert one.id == entries[0].id


# ---------------------------------------------------------------------------------------------
# Clusters

@op("POST /orchestration/clusters/create", "GET /orchestration/clusters/{cluster_name}/get", "POST /orchestration/clusters/{cluster_name}/update")
def test_cluster_create_get_update(api, unique):
    name = unique("edge")
    created = api.orchestration.create_orchestration_clusters(data={"name": name, "title": "Edge A", "type": "k3s"})
    assert created.name == name
    assert api.orchestration.get_orchestration_clusters(cluster_name=name).title == "Edge A"
    updated = api.orchestration.update_orchestration_clusters(cluster_name=name, data={"title": "Edge B", "telemetry_scrape_interval": 60})
    assert updated.title == "Edge B"


@op("GET /orchestration/clusters/list")
def test_cluster_list_pages(api, unique):
    prefix = unique("paged")
    for i in range(3):
        api.orchestration.create_orchestration_clusters(data={"name": f"{prefix}-{i}", "title": "P", "type": "k3s"})
    listed = api.orchestration.list_orchestration_clusters(search=[prefix], page_size=2)
    assert [c.name for c in listed] == [f"{prefix}-{i}" for i in range(3)]


@op("GET /orchestration/clusters/list")
@spec_over_client("Part 2, List conventions: page_size | integer, 1 to 1000, default 20")
def test_cluster_list_with_the_clients_default_page_size(api):
    api.orchestration.list_orchestration_clusters()


@op("GET /orchestration/clusters/{cluster_name}/manifests/get")
def test_cluster_manifests(api, world):
    got = api.orchestration.get_orchestration_clusters_manifests(cluster_name=world.cluster, version="1.0.0")
    assert got is not None


@op("GET /orchestration/clusters/provision/bin/download")
def test_provision_binary(api):
    response = api.orchestration.download_orchestration_cluster_provision_binary(_get_response=True)
    assert response.status_code == 200 and response.read()


@op("GET /orchestration/clusters/provision/bin/download")
@spec_over_client("Part 2, Clusters: GET /orchestration/clusters/provision/bin/download | none | byte stream (the client may send arch and type)")
def test_provision_binary_for_an_architecture(api):
    api.orchestration.download_orchestration_cluster_provision_binary(arch="amd64")


# ---------------------------------------------------------------------------------------------
# Assets and asset types

@op("POST /assets/types/create", "GET /assets/types/{asset_type_name}/get", "POST /assets/types/{asset_type_name}/update", "POST /assets/types/{asset_type_name}/delete")
def test_asset_type_lifecycle(api, unique):
    name = unique("type")
    assert api.asset.create_asset_type(data={"name": name, "title": "T"}).name == name
    assert api.asset.get_asset_type(asset_type_name=name).title == "T"
    assert api.asset.update_asset_type(asset_type_name=name, data={"title": "T2"}).title == "T2"
    api.asset.delete_asset_type(asset_type_name=name)
    with pytest.raises(APIError) as e:
        api.asset.get_asset_type(asset_type_name=name)
    assert status_of(e) == 404


@op("GET /assets/types/list", "POST /assets/types/list")
def test_asset_type_lists(api, unique):
    prefix = unique("tlist")
    for i in range(3):
        api.asset.create_asset_type(data={"name": f"{prefix}-{i}", "title": f"T {i}"})
    assert [t.name for t in api.asset.list_asset_types(search=[prefix], page_size=2)] == [f"{prefix}-{i}" for i in range(3)]
    assert [t.name for t in api.asset.list_asset_types_advanced(page_size=2, data={"search": [prefix]})] == [f"{prefix}-{i}" for i in range(3)]


@op("POST /assets/types/delete")
def test_asset_type_bulk_delete(api, unique):
    names = [unique("tdel") for _ in range(2)]
    for n in names:
        api.asset.create_asset_type(data={"name": n, "title": n})
    api.asset.delete_asset_type_bulk(data={"names": names})
    assert api.asset.list_asset_types(search=[names[0]], page_size=10) == []


@op("POST /assets/create", "GET /assets/{asset_name}/get", "POST /assets/{asset_name}/update", "POST /assets/{asset_name}/delete")
def test_asset_lifecycle(api, world, unique):
    name = unique("asset")
    created = api.asset.create_asset(data={"name": name, "title": "A", "asset_type_name": world.asset_type, "properties": [{"name": "rated_power", "title": "Rated power", "value": 7.5}]})
    assert created.name == name
    assert api.asset.get_asset(asset_name=name).title == "A"
    assert api.asset.update_asset(asset_name=name, data={"title": "A2"}).title == "A2"
    api.asset.delete_asset(asset_name=name)
    with pytest.raises(APIError) as e:
        api.asset.get_asset(asset_name=name)
    assert status_of(e) == 404


@op("GET /assets/list", "POST /assets/list")
def test_asset_lists(api, world):
    names = sorted(world.assets)
    assert [a.name for a in api.asset.list_assets(asset_type_name=[world.asset_type], page_size=2)] == names
    assert [a.name for a in api.asset.list_assets_advanced(page_size=2, data={"asset_type_name": [world.asset_type]})] == names


@op("POST /assets/bulk/create", "POST /assets/bulk/delete")
def test_asset_bulk(api, world, unique):
    names = [unique("bulk") for _ in range(2)]
    api.asset.create_asset_bulk(data={"assets": [{"name": n, "title": n, "asset_type_name": world.asset_type} for n in names]})
    assert api.asset.get_asset(asset_name=names[1]).name == names[1]
    api.asset.delete_asset_bulk(data={"names": names})
    with pytest.raises(APIError):
        api.asset.get_asset(asset_name=names[0])


@op("GET /assets/status/count/get", "GET /assets/status/current/get")
def test_asset_status(api, world):
    count = api.asset.get_asset_status_count()
    assert count.total >= len(world.assets)
    current = api.asset.get_asset_status_current()
    assert current is not None


@op("POST /asset-insights/get")
def test_asset_insights(api, world):
    got = api.asset_insights.get_asset_insights(page_size=2, data={"asset_names": world.assets})
    assert sorted(a.name for a in got) == sorted(world.assets)


# ---------------------------------------------------------------------------------------------
# Apps and app versions

@op("POST /apps/create", "GET /apps/{app_name}/get", "GET /apps/{app_name}/v/{app_version}/get", "POST /apps/{app_name}/patch")
def test_app_create_get_patch(api, unique):
    app = unique("app")
    created = api.apps.create_app_version(data=manifest(app, "1.0.0"))
    assert created.name == app
    assert api.apps.get_app(app_name=app).name == app
    assert api.apps.get_app_version(app_name=app, app_version="1.0.0").version == "1.0.0"
    assert api.apps.patch_app(app_name=app, data={"title": "Renamed"}).title == "Renamed"


@op("POST /apps/{app_name}/v/{app_version}/patch", "POST /apps/{app_name}/v/{app_version}/update")
def test_app_version_patch_and_update(api, unique):
    app = unique("app")
    api.apps.create_app_version(data=manifest(app, "1.0.0"))
    patched = api.apps.patch_app_version(app_name=app, app_version="1.0.0", data={"defaults": {"app": {"configuration": {"rate": 5}}}})
    assert patched is not None
    updated = api.apps.update_app_version(app_name=app, app_version="1.0.0", data={"schemas": {"parameters": {"type": "object", "properties": {}}}, "defaults": {}})
    assert updated is not None


def image_of(version) -> tuple[str, str]:
    mode = version.image.mode
    return (getattr(mode, "value", mode), version.image.uri)


@op("POST /apps/create", "POST /apps/{app_name}/v/{app_version}/patch", "GET /apps/{app_name}/v/{app_version}/get")
def test_app_version_image(api, unique):
    # The client sends and reads the image as {mode, uri}.
    app = unique("app")
    created = api.apps.create_app_version(data=manifest(app, "1.0.0", image={"mode": "manual", "uri": "registry.example.com/app:0.9.0"}))
    assert image_of(created) == ("manual", "registry.example.com/app:0.9.0")
    patched = api.apps.patch_app_version(app_name=app, app_version="1.0.0", data={"image": {"mode": "manual", "uri": "registry.example.com/app:1.0.0"}})
    assert image_of(patched) == ("manual", "registry.example.com/app:1.0.0")
    got = api.apps.get_app_version(app_name=app, app_version="1.0.0")
    assert image_of(got) == ("manual", "registry.example.com/app:1.0.0")


@op("POST /apps/create", "GET /apps/{app_name}/v/{app_version}/get")
def test_app_version_image_sent_in_the_earlier_form(api, unique):
    # A version whose image was sent as a string (the facts file's form, which the package's releases
    # up to 0.1.0 send) reads in the client's form.
    app = unique("app")
    # The client's own request (its login and base path): its models only build the current form.
    response = api.request(path="/api/v4/apps/create", method="POST", data=manifest(app, "1.0.0", image="registry.example.com/app:1.0.0"))
    assert response.status_code == 201, response.text
    got = api.apps.get_app_version(app_name=app, app_version="1.0.0")
    assert image_of(got) == ("manual", "registry.example.com/app:1.0.0")


@op("GET /apps/list")
def test_app_list_cursor_and_limits(api, unique):
    prefix = unique("applist")
    for i in range(3):
        api.apps.create_app_version(data=manifest(f"{prefix}-{i}", "1.0.0"))
    names = [f"{prefix}-{i}" for i in range(3)]
    assert [a.name for a in api.apps.list_apps(search=[prefix], page_size=2)] == names
    assert [a.name for a in api.apps.list_apps(search=[prefix], page_size=2, direction="asc", sort_by=["name"])] == names


@op("GET /apps/list")
@spec_over_client("Part 1, Pagination, Response media types: application/x-json-limits (the client accepts only JSON media types starting application/json)")
def test_app_list_limits(api, unique):
    prefix = unique("applimits")
    for i in range(3):
        api.apps.create_app_version(data=manifest(f"{prefix}-{i}", "1.0.0"))
    assert [a.name for a in api.apps.list_apps(search=[prefix], page_size=2, pagination_type="limits")] == [f"{prefix}-{i}" for i in range(3)]


@op("GET /apps/list")
def test_app_list_stream(api, world):
    response = api.apps.list_apps(app_names=[world.app], pagination_type="stream", _get_response=True)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-json-stream")


@op("POST /apps/{app_name}/v/{app_version}/delete", "POST /apps/{app_name}/delete")
def test_app_deletes(api, unique):
    app = unique("app")
    api.apps.create_app_version(data=manifest(app, "1.0.0"))
    api.apps.create_app_version(data=manifest(app, "1.1.0"))
    api.apps.delete_app_version(app_name=app, app_version="1.1.0")
    with pytest.raises(APIError) as e:
        api.apps.get_app_version(app_name=app, app_version="1.1.0")
    assert status_of(e) == 404
    api.apps.delete_app(app_name=app)
    with pytest.raises(APIError) as e:
        api.apps.get_app(app_name=app)
    assert status_of(e) == 404


@op("POST /apps/{app_name}/v/{app_version}/deploy", "GET /apps/{app_name}/resources/list", "POST /apps/{app_name}/resources/disable", "POST /apps/{app_name}/resources/enable", "POST /apps/{app_name}/resources/delete", "POST /apps/context/list")
def test_app_deploy_and_resources(api, world, unique):
    app = unique("app")
    api.apps.create_app_version(data=manifest(app, "1.0.0"))
    deployed = api.apps.deploy_app_version(
        app_name=app,
        app_version="1.0.0",
        data={"runtime": {"resources": [{"resource": world.krn(1)}]}, "deployment": {"max_resources": 1, "target": {"type": "cluster", "cluster": {"name": world.cluster}}}},
    )
    assert deployed is not None
    resources = api.apps.list_app_resources(app_name=app, page_size=1)
    assert [str(r.resource) for r in resources] == [world.krn(1)]
    api.apps.disable_app_resources(app_name=app, data={"resources": [world.krn(1)]})
    assert [r.enabled for r in api.apps.list_app_resources(app_name=app)] == [False]
    api.apps.enable_app_resources(app_name=app, data={"resources": [world.krn(1)]})
    assert [r.enabled for r in api.apps.list_app_resources(app_name=app)] == [True]
    context = api.apps.list_apps_context(page_size=10, data={"resources": [world.krn(1)]})
    assert context is not None
    # A resource a workload still serves cannot be deleted: the deployed workloads go first.
    api.app_workloads.delete_workloads(data={"workload_names": list(deployed.workload_names)})
    api.apps.delete_app_resources(app_name=app, data={"resources": [world.krn(1)]})
    assert list(api.apps.list_app_resources(app_name=app)) == []


# ---------------------------------------------------------------------------------------------
# Parameters

def set_values(api, app: str, resource: str, parameters: list[dict[str, object]]) -> None:
    """A values update through the client: the emulator answers the spec's 204, which the client does not expect (see below)."""
    with pytest.raises(ResponseError, match="Unexpected status code 204"):
        api.app_parameters.update_app_version_parameters(app_name=app, app_version="1.0.0", data={"resource_parameters": [{"resource": resource, "parameters": parameters}]})


@op("POST /apps/{app_name}/v/{app_version}/parameters/values/update")
@spec_over_client("Part 1, App parameters: POST /apps/{app_name}/v/{app_version}/parameters/values/update | ... | 204 (the client expects 200 with a body)")
def test_parameter_values_update_answer(api, world):
    api.app_parameters.update_app_version_parameters(
        app_name=world.app, app_version="1.0.0", data={"resource_parameters": [{"resource": world.krn(1), "parameters": [{"name": "mode", "value": "eco"}]}]}
    )

@op(
    "POST /apps/{app_name}/v/{app_version}/parameters/values/update",
    "POST /apps/parameters/values/list",
    "POST /apps/parameters/history/list",
    "POST /apps/parameters/list",
    "POST /apps/{app_name}/v/{app_version}/parameters/defaults/update",
    "POST /apps/parameters/unique-values/get",
    "POST /apps/{app_name}/v/{app_version}/parameters/fallback-values/get",
)
def test_parameters(api, world):
    app = world.app
    set_values(api, app, world.krn(0), [{"name": "threshold", "value": 42, "comment": "tuned"}])
    set_values(api, app, world.krn(0), [{"name": "threshold", "value": 43}])
    values = api.app_parameters.list_app_version_parameter_values(page_size=1, data={"apps": [{"name": app, "version": "1.0.0"}], "resources": [world.krn(0)]})
    assert [(v.name, v.value) for v in values] == [("threshold", 43)]
    history = api.app_parameters.list_app_version_parameters_history(page_size=1, data={"apps": [{"name": app}], "resources": [world.krn(0)]})
    assert len(history) >= 1
    definitions = api.app_parameters.list_app_parameters(page_size=1, data={"app_names": [app]})
    assert sorted(d.name for d in definitions) == ["mode", "threshold"]
    api.app_parameters.update_app_version_parameters_defaults(app_name=app, app_version="1.0.0", data={"parameters": [{"name": "mode", "value": "eco"}]})
    unique_values = api.app_parameters.get_app_version_parameters_unique_values(data={"app_parameters": [{"app_name": app}]})
    assert unique_values is not None
    fallback = api.app_parameters.get_app_version_parameters_fallback_values(app_name=app, app_version="1.0.0", data={"resources": [world.krn(0)]})
    assert fallback is not None


# ---------------------------------------------------------------------------------------------
# Schedules

def schedule_body(world: World, **extra: object) -> dict[str, object]:
    soon = datetime.now(timezone.utc) + timedelta(days=30)
    return {
        "app_name": world.app,
        "app_version": "1.0.0",
        "scheduled_for": soon,
        "resources": [world.krn(2)],
        "parameters": {"mode": "eco"},
        "revert": {"scheduled_for": soon + timedelta(hours=8), "resource_parameters": [{"resource": world.krn(2), "parameters": {"mode": "normal"}}]},
        **extra,
    }


@op(
    "POST /apps/parameters/schedules/create",
    "GET /apps/parameters/schedules/{schedule_id}/get",
    "POST /apps/parameters/schedules/list",
    "POST /apps/parameters/schedules/{schedule_id}/apply",
    "POST /apps/parameters/schedules/{schedule_id}/delete",
)
def test_schedule_lifecycle(api, world):
    created = api.app_parameters.create_parameters_schedule(data=schedule_body(world, comment="night"))
    assert created.state == "scheduled" or getattr(created.state, "value", None) == "scheduled"
    assert str(api.app_parameters.get_parameters_schedule(schedule_id=created.id).id) == str(created.id)
    listed = api.app_parameters.list_parameters_schedule(page_size=1, data={"apps": [{"name": world.app, "version": "1.0.0"}]})
    assert str(created.id) in [str(s.id) for s in listed]
    api.app_parameters.apply_parameters_schedule(schedule_id=created.id, data={"type": "schedule"})
    api.app_parameters.apply_parameters_schedule(schedule_id=created.id, data={"type": "schedule-revert"})
    api.app_parameters.delete_parameters_schedule(schedule_id=created.id)
    with pytest.raises(APIError) as e:
        api.app_parameters.get_parameters_schedule(schedule_id=created.id)
    assert status_of(e) == 404


@op("POST /apps/parameters/schedules/create")
def test_schedule_for_a_missing_app_version_is_refused_with_a_listed_code(api, world):
    with pytest.raises(APIError) as e:
        api.app_parameters.create_parameters_schedule(data=schedule_body(world, app_version="9.9.9"))
    assert status_of(e) in (400, 409)


# ---------------------------------------------------------------------------------------------
# Workloads

@op("POST /apps/workloads/create", "GET /apps/workloads/{workload_name}/get", "POST /apps/workloads/{workload_name}/patch")
def test_workload_create_get_patch(api, world, unique):
    name = unique("wl")
    created = new_workload(api, world, name, body={"title": "Pump monitor"})
    assert created.name == name
    got = api.app_workloads.get_workload(workload_name=name)
    assert got.app_version == "1.0.0"
    patched = api.app_workloads.update_workload(workload_name=name, data={"title": "Renamed", "app_version": "2.0.0"})
    assert patched.title == "Renamed" and patched.app_version == "2.0.0"


@op("POST /apps/workloads/{workload_name}/patch", "GET /apps/workloads/{workload_name}/download", "POST /apps/workloads/apply")
def test_workload_staged_update_and_apply(api, world, unique):
    name = unique("wl")
    new_workload(api, world, name)
    staged = api.app_workloads.update_workload(workload_name=name, data={"app_version": "2.0.0", "deployment_type": "staged-only"})
    assert staged.app_version == "1.0.0" and staged.staged.app_version == "2.0.0"
    # The package is built on request; the client answers 202 while it is not ready.
    response = when_ready(lambda: api.app_workloads.download_workload(workload_name=name, _get_response=True))
    assert response.status_code == 200
    api.app_workloads.apply_workloads(data={"workload_names": [name]})
    assert api.app_workloads.get_workload(workload_name=name).app_version == "2.0.0"


@op("GET /apps/workloads/{workload_name}/download")
def test_workload_download_address(api, world, unique):
    name = unique("wl")
    new_workload(api, world, name)
    response = when_ready(lambda: api.app_workloads.download_workload(workload_name=name, address=True, _get_response=True))
    link = response.json()["url"]
    # A direct link: it works without the client's token.
    assert httpx.get(link).status_code == 200


@op("GET /apps/workloads/list")
def test_workload_list(api, world, unique):
    prefix = unique("wlist")
    for i in range(3):
        new_workload(api, world, f"{prefix}-{i}")
    listed = api.app_workloads.list_workloads(search=[prefix], page_size=2, cluster_names=[world.cluster], app_names=[world.app], staged=False)
    assert [w.name for w in listed] == [f"{prefix}-{i}" for i in range(3)]


@op("POST /apps/workloads/stop", "POST /apps/workloads/start", "POST /apps/workloads/enable", "POST /apps/workloads/delete")
def test_workload_actions(api, world, unique):
    running, pending = unique("wl"), unique("wl")
    new_workload(api, world, running)
    new_workload(api, world, pending, body={"enabled": False})
    api.app_workloads.stop_workloads(data={"workload_names": [running]})
    assert api.app_workloads.get_workload(workload_name=running).status.state == "stopped"
    api.app_workloads.start_workloads(data={"workload_names": [running]})
    assert api.app_workloads.get_workload(workload_name=running).status.state == "running"
    api.app_workloads.enable_workloads(data={"workload_names": [pending]})
    assert api.app_workloads.get_workload(workload_name=pending).status.state != "pending_deploy"
    api.app_workloads.delete_workloads(data={"workload_names": [running, pending]})
    with pytest.raises(APIError) as e:
        api.app_workloads.get_workload(workload_name=running)
    assert status_of(e) == 404


@op("POST /apps/workloads/apply")
def test_workload_apply_with_nothing_staged_answers_a_listed_code(api, world, unique):
    name = unique("wl")
    new_workload(api, world, name)
    with pytest.raises(APIError) as e:
        api.app_workloads.apply_workloads(data={"workload_names": [name]})
    assert status_of(e) in (207, 400)


@op("POST /apps/workloads/{workload_name}/resources/add", "POST /apps/workloads/{workload_name}/resources/remove", "GET /apps/workloads/{workload_name}/logs/get")
def test_workload_resources_and_logs(api, world, unique):
    name = unique("wl")
    new_workload(api, world, name)
    added = api.app_workloads.add_workload_resources(workload_name=name, data={"resources": [{"resource": world.krn(1)}]})
    assert added is not None
    api.app_workloads.remove_workload_resources(workload_name=name, data={"resources": [world.krn(1)]})
    logs = api.app_workloads.get_workload_logs(workload_name=name, tail_lines=10)
    assert logs.logs


@op("POST /apps/workloads/bulk/update")
def test_workload_bulk_update(api, world, unique):
    names = [unique("wl") for _ in range(2)]
    for n in names:
        new_workload(api, world, n)
    api.app_workloads.update_workloads_bulk(data={"workload_names": names, "app_name": world.app, "app_version": "2.0.0"})
    assert [api.app_workloads.get_workload(workload_name=n).app_version for n in names] == ["2.0.0", "2.0.0"]


# ---------------------------------------------------------------------------------------------
# Legacy workloads (/workloads), the app registry and bridges

def registry_app(api, unique) -> tuple[str, str]:
    app = unique("reg")
    # The client's registry types are its vendor's (`kelvin`, `docker`, `bridge`); the emulator's
    # `svc` is the spec's name for `kelvin`, so the tests use `docker`, which both know.
    api.deprecated_app_registry.create_legacy_app(data={"payload": {"name": app, "title": "Registry app", "description": "d", "type": "docker", "version": "1.0.0"}})
    return app, "1.0.0"


@op(
    "POST /appregistry/create",
    "GET /appregistry/{app_name}/get",
    "GET /appregistry/{app_name}/versions/{app_version}/get",
    "POST /appregistry/{app_name}/update",
    "GET /appregistry/list",
    "POST /appregistry/{app_name}/versions/{app_version}/delete",
    "POST /appregistry/{app_name}/delete",
)
def test_app_registry(api, unique):
    app, version = registry_app(api, unique)
    assert api.deprecated_app_registry.get_legacy_app_registry_app(app_name=app).name == app
    assert api.deprecated_app_registry.get_legacy_app_version(app_name=app, app_version=version).version == version
    assert api.deprecated_app_registry.update_legacy_app(app_name=app, data={"title": "Renamed"}).title == "Renamed"
    assert app in [a.name for a in api.deprecated_app_registry.list_legacy_app_registry_apps(search=[app], page_size=1)]
    api.deprecated_app_registry.create_legacy_app(data={"payload": {"name": app, "title": "Registry app", "description": "d", "type": "docker", "version": "1.1.0"}})
    api.deprecated_app_registry.delete_legacy_app_version(app_name=app, app_version="1.1.0")
    api.deprecated_app_registry.delete_legacy_app(app_name=app)
    with pytest.raises(APIError) as e:
        api.deprecated_app_registry.get_legacy_app_registry_app(app_name=app)
    assert status_of(e) == 404


@op(
    "POST /workloads/deploy",
    "GET /workloads/{workload_name}/get",
    "GET /workloads/list",
    "GET /workloads/{workload_name}/configurations/get",
    "POST /workloads/{workload_name}/configurations/update",
    "GET /workloads/{workload_name}/stop",
    "GET /workloads/{workload_name}/start",
    "GET /workloads/{workload_name}/logs/get",
    "GET /workloads/{workload_name}/download",
    "POST /workloads/apply",
    "POST /workloads/{workload_name}/undeploy",
)
def test_legacy_workloads(api, world, unique):
    # An app of the apps area: a docker app of the registry has no configuration to get or update.
    app, version = world.app, "1.0.0"
    name = unique("lw")[:32]
    deployed = api.deprecated_workload.deploy_legacy_workload(data={"app_name": app, "app_version": version, "name": name, "cluster_name": world.cluster, "payload": {}})
    assert deployed.name == name
    assert api.deprecated_workload.get_legacy_workload(workload_name=name).app_name == app
    assert name in [w.name for w in api.deprecated_workload.list_legacy_workloads(workload_name=[name], page_size=1)]
    api.deprecated_workload.update_legacy_workload_configuration(workload_name=name, data={"configuration": {"rate": 2}})
    assert api.deprecated_workload.get_legacy_workload_configuration(workload_name=name) is not None
    api.deprecated_workload.stop_workload(workload_name=name)
    api.deprecated_workload.start_workload(workload_name=name)
    assert api.deprecated_workload.get_legacy_workload_logs(workload_name=name, tail_lines=5) is not None
    response = when_ready(lambda: api.deprecated_workload.download_legacy_workload(workload_name=name, _get_response=True))
    assert response.status_code == 200
    with pytest.raises(APIError) as e:
        api.deprecated_workload.apply_legacy_workload(data={"workload_names": [name]})
    assert status_of(e) in (400, 406)
    api.deprecated_workload.undeploy_workload(workload_name=name)


@op("POST /bridges/deploy", "GET /bridges/{bridge_name}/get", "GET /bridges/list", "POST /bridges/{bridge_name}/delete")
def test_bridges(api, world, unique):
    app = unique("bridge-app")
    api.deprecated_app_registry.create_legacy_app(data={"payload": {"name": app, "title": "Bridge", "description": "d", "type": "bridge", "version": "1.0.0"}})
    name = unique("br")[:32]
    deployed = api.deprecated_bridge.deploy_bridge(data={"name": name, "cluster_name": world.cluster, "app_name": app, "app_version": "1.0.0", "payload": {}})
    assert deployed.name == name
    assert api.deprecated_bridge.get_bridge(bridge_name=name).name == name
    assert name in [b.name for b in api.deprecated_bridge.list_bridges(names=[name], page_size=1)]
    api.deprecated_bridge.delete_bridge(bridge_name=name)
