/**
 * Snapshot of a platform: its inventory read through the typed client and written as a fixture that
 * `svc-emulator serve --seed` loads. The reading itself (what is read, what is written, what is left
 * out) is the emulator's fixture writer, src/emulator/snapshot/reader.ts, which the emulator's own
 * snapshot endpoint uses too.
 */
import type { SvcClient } from "../client";
import { readPlant, type SnapshotEvent, type SnapshotOptions, type SnapshotResult } from "../emulator/snapshot/reader";
import { SNAPSHOT_PAGE_SIZE, withPageSize, type PlantSource } from "../emulator/snapshot/source";

/**
 * Reads through the typed client: `client.paginate` for every list (both pagination conventions,
 * one page in memory at a time), `client.call` for the rest; answers checked against the table's
 * schemas, 429s and transient failures retried by the client.
 */
export function clientSource(client: SvcClient, pageSize = SNAPSHOT_PAGE_SIZE): PlantSource {
  return {
    list: (ep, input) => client.paginate(ep, withPageSize(input, pageSize) as never),
    get: (ep, input) => client.call(ep, (input ?? {}) as never),
  };
}

/**
 * Reads the platform `client` talks to and writes its inventory as a fixture to `options.out`.
 * Progress, and every record that is left out or written in part, go to `onProgress` as they happen.
 */
export async function snapshot(client: SvcClient, options: SnapshotOptions, onProgress?: (event: SnapshotEvent) => void): Promise<SnapshotResult> {
  return readPlant(clientSource(client, options.pageSize), options, onProgress);
}
