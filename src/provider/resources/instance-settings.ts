/** InstanceSettings: the platform's one settings record. */
import type * as pulumi from "@pulumi/pulumi";
import { InstanceSettingsUpdate, instance } from "../../api/instance";
import { declareKind, defineOutputs, echoes, type OutputValues, type DeclaredOutputs } from "../kind";
import type { SvcClient } from "../../client";
import { registerKind } from "../registry";
import { SvcResource } from "../shim";
import type { Resolved } from "../input-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";
import { containedIn } from "../values";

/** One schedule of the compute nodes. */
interface Schedule {
  /** Whether the schedule runs; unset: the platform's value. */
  enabled?: boolean;
  /** Seconds between runs, an integer from 1 to 604800 (one week); unset: the platform's value. */
  interval?: number;
}
/** The arguments of {@link InstanceSettings}. */
export interface InstanceSettingsArgs {
  /**
   * The compute nodes' (ACP) schedules: `autoUpdate` (default: disabled, every 86400 s), `metrics`
   * (default: enabled, every 60 s) and `status` (default: enabled, every 30 s), each
   * `{ enabled, interval }` with the interval an integer number of seconds from 1 to 604800 (one
   * week). Unset keys keep the platform's values. Changes update in place.
   */
  acp: pulumi.Input<{
    /** Automatic updates of the nodes' software; default: disabled, every 86400 s. */
    autoUpdate?: pulumi.Input<Schedule>;
    /** Metrics reports; default: enabled, every 60 s. */
    metrics?: pulumi.Input<Schedule>;
    /** Status reports; default: enabled, every 30 s. */
    status?: pulumi.Input<Schedule>;
  }>;
}

/** The platform's defaults (restored on delete). */
export const INSTANCE_SETTINGS_DEFAULTS = {
  acp: { auto_update: { enabled: false, interval: 86400 }, metrics: { enabled: true, interval: 60 }, status: { enabled: true, interval: 30 } },
};

type Inputs = Resolved<InstanceSettingsArgs>;
proves<Same<Inputs["acp"], CamelCasedDeep<NonNullable<BodyOf<typeof instance.settingsUpdate>["acp"]>>>>();

const body = (i: Inputs) => ({ acp: { auto_update: i.acp.autoUpdate, metrics: i.acp.metrics, status: i.acp.status } });
const apply = async (client: SvcClient, i: Inputs) => await client.call(instance.settingsUpdate, { body: body(i) });
/** Takes the record over: writes the declared values only when the platform does not already hold them (no mutating call otherwise). */
const takeOver = async (client: SvcClient, i: Inputs) => {
  const held = await client.call(instance.settingsGet, {});
  return containedIn(body(i), held) ? held : apply(client, i);
};

/** The instance settings' computed outputs, read from the platform's record. */
const instanceSettingsOutputs = defineOutputs(instance.settingsGet, {
  // The record itself, typed as the class declares it: one schedule per key.
  effective: echoes(["acp"], (r): { acp: Record<string, Schedule> } => r),
});

const instanceSettingsKind = registerKind(
  declareKind<Inputs>()({
    name: "InstanceSettings",
    platformTerm: "instance settings",
    args: { acp: { required: true, nested: true } },
    id: () => "instance-settings",
    schema: InstanceSettingsUpdate,
    // The settings always exist: create applies the declared values, destroy restores the defaults.
    onDestroy: "reset",
    create: ({ client }, i) => takeOver(client, i),
    endpoints: { read: instance.settingsGet, update: instance.settingsUpdate },
    async delete({ client }) {
      await client.call(instance.settingsUpdate, { body: INSTANCE_SETTINGS_DEFAULTS });
    },
    outputs: instanceSettingsOutputs,
  }),
);

/**
 * The platform's one settings record (a singleton: declare it once per platform). Creating the
 * resource takes the record over and applies the declared values (no write when the platform
 * already holds them); changes update in place;
 * destroying it restores the documented defaults.
 */
export class InstanceSettings extends SvcResource {
  /** The settings as the platform holds them (declared and untouched keys), snake_case as on the platform. */
  declare readonly effective: pulumi.Output<{ acp: Record<string, Schedule> }>;

  constructor(name: string, args: InstanceSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(instanceSettingsKind, name, args, opts);
  }
}

proves<Same<OutputValues<typeof instanceSettingsOutputs>, DeclaredOutputs<InstanceSettings, keyof typeof instanceSettingsOutputs>>>();
