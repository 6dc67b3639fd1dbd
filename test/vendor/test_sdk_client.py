"""
The vendor's previous Python client, `kelvin-sdk-client` (module `kelvin.sdk.client`), against the
emulator: every operation the client and the emulator share, each request built by the client's own
models and each answer parsed by them.

How the client is pointed at the emulator: its configuration takes the emulator's base URL as is; it
reads the instance metadata document (`GET /metadata`) for the realm and logs in at
`{url}/auth/realms/{realm}` (password grant, client `svc-cli`). The keychain and the token store are
off, so a run leaves nothing behind.

Its page walk sends only `next` and `page_size` after the first page (no filters, no body), so the
paging tests here list without filters and check what they created is in the walk, each record once.
"""

from __future__ import annotations

import time

import pytest

from conftest import BASE_URL, api_call, assert_every_shared_operation_tested, op, previous_generation, spec_over_client, unique_name

client_module = pytest.importorskip("kelvin.sdk.client")
from kelvin.sdk.client.error import APIError  # noqa: E402


@pytest.fixture(scope="module")
def sdk():
    c = client_module.Client(
        config={"url": BASE_URL, "username": "admin@example.com", "client_id": "svc-cli", "retries": 0},
        password="admin",
        use_keychain=False,
        store_token=False,
        login=True,
    )
    yield c
    c.logout()


@pytest.fixture(scope="module")
def world(sdk):
    unique = unique_name
    w = type("World", (), {})()
    w.cluster = unique("sdk-edge")
    sdk.cluster.create_cluster(data={"name": w.cluster, "title": "Edge", "type": "k3s"})
    w.asset_type = unique("sdk-type")
    sdk.asset.create_asset_type(data={"name": w.asset_type, "title": "Pump type"})
    w.assets = [unique("sdk-pump") for _ in range(3)]
    for a in w.assets:
        sdk.asset.create_asset(data={"name": a, "title": a, "asset_type_name": w.asset_type})
    return w


def status_of(excinfo: pytest.ExceptionInfo[APIError]) -> int:
    return excinfo.value.response.status_code


def walk_contains(listed, names: list[str]) -> None:
    """The walk holds every named record, and no record twice."""
    seen = [x.name for x in listed]
    assert len(seen) == len(set(seen))
    assert set(names) <= set(seen)


def test_every_shared_operation_has_a_test(request):
    from kelvin.sdk.client.client import MODELS

    assert_every_shared_operation_tested(request, MODELS, minimum=40)


@op("GET /instance/status/get")
def test_instance_status(sdk):
    assert sdk.instance_health_status.get_instance_health_status().status is True


@op("GET /instance/auditlog/list", "GET /instance/auditlog/{audit_logger_id}/get")
def test_audit_log(sdk, world):
    entries = sdk.audit_logger.list_audit_log(identifier=[world.cluster], page_size=2)
    assert len(entries) >= 1
    assert sdk.audit_logger.get_audit_log(audit_logger_id=str(entries[0].id)).id == entries[0].id


@op("POST /orchestration/clusters/create", "GET /orchestration/clusters/{cluster_name}/get", "POST /orchestration/clusters/{cluster_name}/update")
def test_cluster_create_get_update(sdk, unique):
    name = unique("sdk-edge")
    assert sdk.cluster.create_cluster(data={"name": name, "title": "Edge A", "type": "k3s"}).name == name
    assert sdk.cluster.get_cluster(cluster_name=name).title == "Edge A"
    assert sdk.cluster.update_cluster(cluster_name=name, data={"title": "Edge B"}).title == "Edge B"


@op("GET /orchestration/clusters/list")
def test_cluster_list_pages(sdk, world, unique):
    names = [unique("sdk-paged") for _ in range(3)]
    for n in names:
        sdk.cluster.create_cluster(data={"name": n, "title": "P", "type": "k3s"})
    walk_contains(sdk.cluster.list_cluster(page_size=2), names)


@op("GET /orchestration/clusters/list")
@spec_over_client("Part 2, List conventions: page_size | integer, 1 to 1000, default 20")
def test_cluster_list_with_the_clients_default_page_size(sdk):
    sdk.cluster.list_cluster()


@op("GET /orchestration/clusters/{cluster_name}/manifests/get")
def test_cluster_manifests(sdk, world):
    assert sdk.cluster.get_cluster_manifests(cluster_name=world.cluster, version="1.0.0") is not None


@op("GET /orchestration/clusters/provision/bin/download")
def test_provision_binary(sdk):
    assert b"".join(sdk.cluster.download_cluster_provision_binary())


@op("POST /assets/types/create", "GET /assets/types/{asset_type_name}/get", "POST /assets/types/{asset_type_name}/update", "POST /assets/types/{asset_type_name}/delete")
def test_asset_type_lifecycle(sdk, unique):
    name = unique("sdk-type")
    assert sdk.asset.create_asset_type(data={"name": name, "title": "T"}).name == name
    assert sdk.asset.get_asset_type(asset_type_name=name).title == "T"
    assert sdk.asset.update_asset_type(asset_type_name=name, data={"title": "T2"}).title == "T2"
    sdk.asset.delete_asset_type(asset_type_name=name)
    with pytest.raises(APIError) as e:
        sdk.asset.get_asset_type(asset_type_name=name)
    assert status_of(e) == 404


@op("GET /assets/types/list", "POST /assets/types/list", "POST /assets/types/delete")
def test_asset_type_lists_and_bulk_delete(sdk, world, unique):
    names = [unique("sdk-tlist") for _ in range(3)]
    for n in names:
        sdk.asset.create_asset_type(data={"name": n, "title": n})
    walk_contains(sdk.asset.list_asset_type(page_size=2), names)
    walk_contains(sdk.asset.list_asset_type_advanced(page_size=2, data={}), names)
    sdk.asset.delete_bulk_asset_type(data={"names": names})
    assert len(sdk.asset.list_asset_type(names=names, page_size=10)) == 0


@op("POST /assets/create", "GET /assets/{asset_name}/get", "POST /assets/{asset_name}/update", "POST /assets/{asset_name}/delete")
def test_asset_lifecycle(sdk, world, unique):
    name = unique("sdk-asset")
    assert sdk.asset.create_asset(data={"name": name, "title": "A", "asset_type_name": world.asset_type}).name == name
    assert sdk.asset.get_asset(asset_name=name).title == "A"
    assert sdk.asset.update_asset(asset_name=name, data={"title": "A2"}).title == "A2"
    sdk.asset.delete_asset(asset_name=name)
    with pytest.raises(APIError) as e:
        sdk.asset.get_asset(asset_name=name)
    assert status_of(e) == 404


@op("GET /assets/list", "POST /assets/list")
def test_asset_lists(sdk, world):
    walk_contains(sdk.asset.list_asset(page_size=2), world.assets)
    walk_contains(sdk.asset.list_asset_advanced(page_size=2, data={}), world.assets)
    # One page with a filter (the walk would drop it after the first page).
    assert sorted(a.name for a in sdk.asset.list_asset(asset_type_name=[world.asset_type], page_size=10)) == sorted(world.assets)


@op("POST /assets/bulk/create")
def test_asset_bulk_create(sdk, world, unique):
    names = [unique("sdk-bulk") for _ in range(2)]
    sdk.asset.create_bulk_asset(data={"assets": [{"name": n, "title": n, "asset_type_name": world.asset_type} for n in names]})
    assert sdk.asset.get_asset(asset_name=names[1]).name == names[1]


@op("GET /assets/status/count/get", "GET /assets/status/current/get")
def test_asset_status(sdk, world):
    assert sdk.asset.get_asset_status_count().total >= len(world.assets)
    assert sdk.asset.get_asset_statuses() is not None


@op("POST /asset-insights/get")
def test_asset_insights(sdk, world):
    got = sdk.asset_insights_item.get_assets_insights(page_size=10, data={"asset_names": world.assets})
    assert sorted(a.name for a in got) == sorted(world.assets)


def package_of(sdk, name: str) -> bytes:
    """Asks until the package is built: until then (202) the client hands back the JSON progress body."""
    for _ in range(400):
        chunks = list(sdk.workload.download_workload_package_file(workload_name=name) or [])
        if chunks and all(isinstance(c, bytes) for c in chunks):
            return b"".join(chunks)
        time.sleep(0.05)
    raise AssertionError("the package was not ready after 20 s")


def registry_app(sdk, unique, type_: str = "docker", version: str = "1.0.0", name: str | None = None) -> str:
    app = name or unique("sdk-reg")
    sdk.app.create_app(data={"payload": {"name": app, "title": "Registry app", "description": "d", "type": type_, "version": version}})
    return app


@op(
    "POST /appregistry/create",
    "GET /appregistry/{app_name}/get",
    "GET /appregistry/{app_name}/versions/{app_version}/get",
    "POST /appregistry/{app_name}/update",
    "GET /appregistry/list",
    "POST /appregistry/{app_name}/versions/{app_version}/delete",
    "POST /appregistry/{app_name}/delete",
)
def test_app_registry(sdk, unique):
    app = registry_app(sdk, unique)
    assert sdk.app.get_app(app_name=app).name == app
    assert sdk.app.get_app_version(app_name=app, app_version="1.0.0").version == "1.0.0"
    assert sdk.app.update_app(app_name=app, data={"title": "Renamed"}).title == "Renamed"
    walk_contains(sdk.app.list_apps(page_size=2), [app])
    registry_app(sdk, unique, version="1.1.0", name=app)
    sdk.app.delete_app_version(app_name=app, app_version="1.1.0")
    sdk.app.delete_app(app_name=app)
    with pytest.raises(APIError) as e:
        sdk.app.get_app(app_name=app)
    assert status_of(e) == 404


@op(
    "POST /workloads/deploy",
    "GET /workloads/{workload_name}/get",
    "GET /workloads/list",
    "GET /workloads/{workload_name}/stop",
    "GET /workloads/{workload_name}/start",
    "GET /workloads/{workload_name}/logs/get",
    "GET /workloads/{workload_name}/download",
    "POST /workloads/{workload_name}/undeploy",
)
def test_legacy_workloads(sdk, world, unique):
    app = registry_app(sdk, unique)
    name = unique("sdk-lw")[:32]
    assert sdk.workload.deploy_workload(data={"app_name": app, "app_version": "1.0.0", "name": name, "cluster_name": world.cluster, "payload": {}}).name == name
    assert sdk.workload.get_workload(workload_name=name).app_name == app
    walk_contains(sdk.workload.list_workload(page_size=2), [name])
    sdk.workload.stop_workload(workload_name=name)
    sdk.workload.start_workload(workload_name=name)
    assert sdk.workload.get_workload_logs(workload_name=name, tail_lines="5") is not None
    assert package_of(sdk, name)[:2] == b"PK"
    sdk.workload.undeploy_workload(workload_name=name)


@op("POST /bridges/deploy")
@previous_generation("its BridgeDeploy has no app_name, which the current client and the facts file (§3.10) require")
def test_bridge_deploy(sdk, world, unique):
    app = registry_app(sdk, unique, type_="bridge")
    sdk.bridge.deploy_bridge(data={"name": unique("sdk-br")[:32], "cluster_name": world.cluster, "app_name": app, "app_version": "1.0.0", "protocol": "opcua", "payload": {}})


@op("GET /bridges/{bridge_name}/get", "GET /bridges/list", "POST /bridges/{bridge_name}/delete")
def test_bridges(sdk, world, unique):
    # Deployed over HTTP as the current client would (this client cannot, see above), then read and
    # deleted through this client.
    app = registry_app(sdk, unique, type_="bridge")
    name = unique("sdk-br")[:32]
    body = {"name": name, "cluster_name": world.cluster, "app_name": app, "app_version": "1.0.0", "protocol": "opcua", "payload": {}}
    assert api_call("POST", "/bridges/deploy", body) == 201
    assert sdk.bridge.get_bridge(bridge_name=name).name == name
    walk_contains(sdk.bridge.list_bridge(page_size=2), [name])
    sdk.bridge.delete_bridge(bridge_name=name)
