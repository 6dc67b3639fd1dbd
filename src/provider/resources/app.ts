/**
 * App: the app-level fields (title, description, category) of an app that its versions create.
 * Declare it after the first version, e.g. `name: version.appName`, which also orders it after that
 * version. Creating it patches the app; destroying it deletes the app with all its versions.
 */
import type * as pulumi from "@pulumi/pulumi";
import { AppPatch, apps } from "../../api/apps";
import { name as nameSchema } from "../../api/common";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";

export interface AppArgs {
  name: pulumi.Input<string>;
  title?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  category?: pulumi.Input<string>;
}

const OUTPUTS = ["type", "latestVersion", "status", "createdAt", "createdBy", "updatedAt", "updatedBy"] as const;
type Inputs = { name: string; title?: string; description?: string; category?: string };

const patchBody = (i: Inputs) => ({ title: i.title, description: i.description, category: i.category });

async function patch(client: import("../../client").SvcClient, i: Inputs): Promise<WireRecord> {
  const body = patchBody(i);
  if (Object.values(body).every((v) => v === undefined)) return (await client.call(apps.get, { params: { app_name: i.name } })) as WireRecord;
  return (await client.call(apps.patch, { params: { app_name: i.name }, body })) as WireRecord;
}

export const appKind = defineKind<Inputs>({
  name: "App",
  noun: "app",
  args: { name: { replaces: true }, title: {}, description: {}, category: {} },
  required: ["name"],
  id: (i) => i.name,
  schema: AppPatch.extend({ name: nameSchema(64) }),
  // The app exists once a version created it: creating this resource takes its fields over.
  create: ({ client }, i) => patch(client, i),
  read: async ({ client }, id) => (await client.call(apps.get, { params: { app_name: id } })) as WireRecord,
  update: ({ client }, _id, news) => patch(client, news),
  async delete({ client }, id) {
    await client.call(apps.delete, { params: { app_name: id } });
  },
  outputs: (r) => ({
    type: r.type,
    latestVersion: r.latest_version,
    status: r.status,
    createdAt: r.created_at,
    createdBy: r.created_by,
    updatedAt: r.updated_at,
    updatedBy: r.updated_by,
  }),
});

export class App extends SvcResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly type: pulumi.Output<string>;
  declare readonly latestVersion: pulumi.Output<string>;
  declare readonly status: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: AppArgs, opts?: pulumi.CustomResourceOptions) {
    super("App", name, args, OUTPUTS, opts);
  }
}
