"""A small plant with the Python SDK (pulumi_svc), deployed by the Python Automation API as an inline
program, one step per run: python plant.py <up|preview|refresh|destroy> [asset title].

The stack lives in $SVC_WORK_DIR (whose Pulumi.yaml names the plugin's folder) on the file backend of
$PULUMI_BACKEND_URL; $SVC_PULUMI_ROOT/bin/pulumi is the CLI. The provider's settings are the stack's
svc:* config, set from $SVC_BASE_URL, $SVC_CLIENT_ID and $SVC_CLIENT_SECRET (a secret). Prints one
JSON line: the step's resource changes (without "same") and the stack's outputs.
"""
import json
import os
import sys

import pulumi
import pulumi_svc as svc
from pulumi import automation as auto

step = sys.argv[1]
title = sys.argv[2] if len(sys.argv) > 2 else "Pump 1"


def program():
    pump = svc.AssetType("pump", name="pump", title="Pump")
    asset = svc.Asset("pump-1", name="pump-1", title=title, asset_type_name=pump.name)
    svc.Label("anomaly", name="anomaly", title="Anomaly")
    pulumi.export("path", asset.path)
    pulumi.export("state", asset.state)


env = {k: v for k, v in os.environ.items() if k.startswith("PULUMI_") or k in ("PATH", "HOME")}
stack = auto.create_or_select_stack(
    stack_name="dev",
    project_name="svc-python",
    program=program,
    opts=auto.LocalWorkspaceOptions(
        work_dir=os.environ["SVC_WORK_DIR"],
        pulumi_home=os.environ["PULUMI_HOME"],
        env_vars=env,
        secrets_provider="passphrase",
        pulumi_command=auto.PulumiCommand(root=os.environ["SVC_PULUMI_ROOT"], skip_version_check=True),
    ),
)
stack.set_all_config(
    {
        "svc:baseUrl": auto.ConfigValue(os.environ["SVC_BASE_URL"]),
        "svc:clientId": auto.ConfigValue(os.environ["SVC_CLIENT_ID"]),
        "svc:clientSecret": auto.ConfigValue(os.environ["SVC_CLIENT_SECRET"], secret=True),
    }
)


def changes(summary):
    return {op: n for op, n in (summary or {}).items() if op != "same"}


if step == "up":
    result = stack.up()
    out = {"changes": changes(result.summary.resource_changes), "outputs": {k: v.value for k, v in result.outputs.items()}}
elif step == "preview":
    result = stack.preview()
    out = {"changes": changes(result.change_summary)}
elif step == "refresh":
    result = stack.refresh()
    out = {"changes": changes(result.summary.resource_changes)}
elif step == "destroy":
    result = stack.destroy()
    out = {"changes": changes(result.summary.resource_changes)}
else:
    raise SystemExit(f"unknown step {step!r}: up, preview, refresh or destroy")
print(json.dumps(out))
