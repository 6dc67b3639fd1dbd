/** InstanceSettings: the platform's one settings record. */
import type * as pulumi from "@pulumi/pulumi";
import { InstanceSettingsUpdate, instance } from "../../api/instance";
import { declareKind, defineOutputs, echoes, output } from "../kind";
import type { SvcClient } from "../../client";
import { registerKind } from "../registry";
import type { Resolved } from "../input-types";
import type { Schedule } from "./contract-types";
import { type BodyOf, type CamelCasedDeep, type Same, proves } from "../wire-types";
import { containedIn } from "../values";

/** The types of an {@link InstanceSettings}'s args as programs write them (their docs are the specs' below). */
interface InstanceSettingsArgTypes {
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

type Inputs = Resolved<InstanceSettingsArgTypes>;
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
  effective: output(
    "The settings as the platform holds them (declared and untouched keys), snake_case as on the platform.",
    echoes(["acp"], (r): { acp: Record<string, Schedule> } => r),
  ),
});

export const instanceSettingsKind = registerKind(
  declareKind<Inputs>()({
    name: "InstanceSettings",
    platformTerm: "instance settings",
    doc: "The platform's one settings record (a singleton: declare it once per platform). Creating the resource takes the record over and applies the declared values (no write when the platform already holds them); changes update in place; destroying it restores the documented defaults.",
    argsDoc: "The arguments of {@link InstanceSettings}.",
    args: {
      acp: {
        doc: "The compute nodes' (ACP) schedules: `autoUpdate` (default: disabled, every 86400 s), `metrics` (default: enabled, every 60 s) and `status` (default: enabled, every 30 s), each `{ enabled, interval }` with the interval an integer number of seconds from 1 to 604800 (one week). Unset keys keep the platform's values. Changes update in place.",
        required: true,
        nested: true,
      },
    },
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
