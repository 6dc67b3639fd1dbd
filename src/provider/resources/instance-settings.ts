/**
 * InstanceSettings: the platform's one settings record. Creating the resource adopts it and applies
 * the declared values; destroying it restores the documented defaults.
 */
import type * as pulumi from "@pulumi/pulumi";
import { InstanceSettingsUpdate, instance } from "../../api/instance";
import { defineKind, type WireRecord } from "../kind";
import { SvcResource } from "../shim";

interface Schedule {
  enabled?: boolean;
  interval?: number;
}
export interface InstanceSettingsArgs {
  /** ACP schedules; each { enabled, interval (seconds) }. Unset keys keep the platform's values. */
  acp: pulumi.Input<{ autoUpdate?: pulumi.Input<Schedule>; metrics?: pulumi.Input<Schedule>; status?: pulumi.Input<Schedule> }>;
}

/** The platform's defaults (restored on delete). */
export const INSTANCE_SETTINGS_DEFAULTS = {
  acp: { auto_update: { enabled: false, interval: 86400 }, metrics: { enabled: true, interval: 60 }, status: { enabled: true, interval: 30 } },
};

type Inputs = { acp: { autoUpdate?: Schedule; metrics?: Schedule; status?: Schedule }; [k: string]: unknown };

const body = (i: Inputs) => ({ acp: { auto_update: i.acp.autoUpdate, metrics: i.acp.metrics, status: i.acp.status } });
const apply = async (client: import("../../client").SvcClient, i: Inputs) => (await client.call(instance.settingsUpdate, { body: body(i) })) as WireRecord;

export const instanceSettingsKind = defineKind<Inputs>({
  name: "InstanceSettings",
  noun: "instance settings",
  args: { acp: { nested: true } },
  required: ["acp"],
  id: () => "instance-settings",
  schema: InstanceSettingsUpdate,
  // The settings always exist: create applies the declared values, destroy restores the defaults.
  onDestroy: "reset",
  create: ({ client }, i) => apply(client, i),
  read: async ({ client }) => (await client.call(instance.settingsGet, {})) as WireRecord,
  update: ({ client }, _id, i) => apply(client, i),
  async delete({ client }) {
    await client.call(instance.settingsUpdate, { body: INSTANCE_SETTINGS_DEFAULTS });
  },
  outputs: (r) => ({ effective: r }),
});

export class InstanceSettings extends SvcResource {
  /** The settings as the platform holds them (declared and untouched keys). */
  declare readonly effective: pulumi.Output<{ acp: Record<string, Schedule> }>;

  constructor(name: string, args: InstanceSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super("InstanceSettings", name, args, ["effective"], opts);
  }
}
