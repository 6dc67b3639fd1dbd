/** App: the app-level fields of an app that its versions create. */
import type * as pulumi from "@pulumi/pulumi";
import { AppPatch, apps } from "../../api/apps";
import { workloads } from "../../api/workloads";
import type { SvcClient } from "../../client";
import { name as nameSchema } from "../../api/common";
import { declareKind, defineOutputs, type RecordOf, output } from "../kind";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";
import { SvcError } from "../../errors";

/** The types of an {@link App}'s args as programs write them (their docs are the specs' below). */
interface AppArgTypes {
  name: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  category?: pulumi.Input<string>;
}

/**
 * An app's computed outputs: its own, fixed fields. The latest version, status and update time move
 * with other resources of the stack (versions, workloads) and are read with `getApp`.
 */
const appOutputs = defineOutputs(apps.get, {
  type: output("The app's type, fixed by its first version: `app`, `importer`, `exporter` or `docker`.", (r) => r.type),
  createdAt: output("When the app was created (RFC 3339), by its first version.", (r) => r.created_at),
  createdBy: output("Who created the app.", (r) => r.created_by),
});
type Inputs = Resolved<AppArgTypes>;
type AppRecord = RecordOf<typeof apps.get>;

const patchBody = (i: Inputs) => ({ title: i.title, description: i.description, category: i.category });

async function patch(client: SvcClient, i: Inputs): Promise<AppRecord> {
  const body = patchBody(i);
  if (Object.values(body).every((v) => v === undefined)) return await client.call(apps.get, { params: { app_name: i.name } });
  return await client.call(apps.patch, { params: { app_name: i.name }, body });
}

const POLL_MS = 500;

/** Resolves once no workload runs the app; fails after `timeoutMs` naming the workloads that remain. */
async function waitUntilUndeployed(client: SvcClient, app: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await client.call(workloads.list, { query: { app_names: [app], page_size: 20 } });
    if (page.data.length === 0) return;
    if (Date.now() + POLL_MS > deadline) {
      const names = page.data.map((w) => w.name).join(", ");
      throw new SvcError(
        "SVC_APP_STILL_RUNS",
        `app '${app}' still runs as workload(s) ${names} after ${Math.round(timeoutMs / 1000)} s: delete them first (a workload outside this stack keeps the app), or raise svc:operationTimeoutSeconds`,
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export const appKind = registerKind(
  declareKind<Inputs>()({
    name: "App",
    platformTerm: "app",
    doc: "The app-level fields (title, description, category) of an app that its versions create. Declare it after the first version, e.g. `name: version.appName`, which also orders it after that version. Creating it patches the app; a new `name` replaces it, other changes update in place. Destroying it waits until no workload runs the app, then deletes the app with all its versions. Its outputs are the app's own, fixed fields (type, creation). The app's latest version, status and update time move whenever its versions or workloads change, which are other resources of the stack: kept in this resource's state they would be stale after every such change (and every refresh would report them), so the App does not report them; `getApp` reads them.",
    argsDoc: "The arguments of an {@link App}.",
    args: {
      name: {
        doc: "The app's name, as its first {@link AppVersion} created it (e.g. `version.appName`): {rule}. Changing it replaces the App resource.",
        output: "The app's name (its id on the platform).",
        required: true,
        replaces: true,
      },
      title: { doc: "The app's display title, {rule}; default: left as the versions set it. Changes update in place." },
      description: { doc: "The app's description, {rule}; default: left as the versions set it. Changes update in place." },
      category: { doc: "The app's category, free text {rule}; default: none. Changes update in place." },
    },
    id: (i) => i.name,
    schema: AppPatch.extend({ name: nameSchema(64) }),
    // The app exists once a version created it: creating this resource takes its fields over.
    create: ({ client }, i) => patch(client, i),
    endpoints: { read: apps.get },
    update: ({ client }, _id, news) => patch(client, news),
    async delete({ client, settings }, id) {
      // The platform refuses to delete an app that still runs as workloads. Workloads of the same stack
      // are deleted at the same time (nothing orders them before the app), so wait for them to go.
      await waitUntilUndeployed(client, id, settings.operationTimeoutSeconds * 1000);
      await client.call(apps.delete, { params: { app_name: id } });
    },
    outputs: appOutputs,
  }),
);
