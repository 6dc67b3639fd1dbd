/** What the commands that read a platform share: the credential and selection flags, and the progress shown on stderr. */
import type { Command } from "commander";
import type { SvcClientOptions } from "../client";
import type { SnapshotEvent, SnapshotProblem } from "../plant";
import { integer, list } from "./flags";
import { SvcError } from "../errors";

export interface PlatformOptions {
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  token?: string;
  edge?: boolean;
  only?: string[];
  cluster?: string[];
  assetPath?: string;
  pageSize?: number;
}

/** The credential flags; each falls back to its SVC_* variable, as the provider's configuration does. */
export function platformFlags(cmd: Command): Command {
  return cmd
    .option("--client-id <id>", "client id: a service account, or svc-cli for users (SVC_CLIENT_ID)")
    .option("--client-secret <secret>", "service account secret (SVC_CLIENT_SECRET; prefer the variable: flags show in process lists)")
    .option("--username <user>", "user e-mail for the password grant (SVC_USERNAME)")
    .option("--password <password>", "user password (SVC_PASSWORD; prefer the variable)")
    .option("--token <token>", "a bearer token instead of a login (SVC_TOKEN; prefer the variable)")
    .option("--edge", "log in at the edge token endpoint (SVC_EDGE)")
    .option("--only <areas>", "only these areas (assets, clusters, labels, data_types, apps, workloads, bridges, instance_settings) or sections", list)
    .option("--cluster <names>", "only these clusters, with their ACPs, workloads and bridges", list)
    .option("--asset-path <prefix>", "only the assets at this path (names from the root joined by '/') and below, with their parameter values, schedules and bindings")
    .option("--page-size <n>", "page size of the lists", integer(1, 1000, "a count"));
}

export function clientOptions(url: string | undefined, o: PlatformOptions): SvcClientOptions {
  return { baseUrl: url, clientId: o.clientId, clientSecret: o.clientSecret, username: o.username, password: o.password, token: o.token, edge: o.edge };
}

export function requireUrl(flag: string, url: string | undefined): void {
  if (!url && !process.env.SVC_BASE_URL)
    throw new SvcError("SVC_PLATFORM_URL_REQUIRED", `${flag} URL is required (or set SVC_BASE_URL): the platform's base URL, e.g. https://platform.example.com`);
}

/**
 * What a snapshot is reading, on stderr: one line kept up to date on a terminal, plain lines
 * otherwise (each section when it is done, and every few seconds while a long one is read).
 * Records left out or written in part are printed as they are found.
 */
export function progressDisplay(stream: NodeJS.WriteStream = process.stderr, prefix = "") {
  const tty = stream.isTTY === true;
  let shown = "";
  let lastLine = 0;
  const clear = () => {
    if (tty && shown) stream.write("\r\x1b[2K");
  };
  const show = (text: string) => {
    if (tty) {
      clear();
      shown = `${prefix}${text}`.slice(0, Math.max(20, (stream.columns ?? 100) - 1));
      stream.write(shown);
    } else {
      stream.write(`${prefix}${text}\n`);
    }
  };
  return {
    event(e: SnapshotEvent) {
      if (e.type === "problem") {
        clear();
        stream.write(`${prefix}${e.kind === "left_out" ? "left out" : "written in part"}: ${e.section} ${e.name}: ${e.reason}\n`);
        if (tty && shown) stream.write(shown);
        return;
      }
      const now = Date.now();
      if (e.type === "reading" && e.count === 0) lastLine = now;
      if (e.type === "done") {
        if (tty) show(`${e.section}: ${e.count} written`);
        else stream.write(`${prefix}${e.section}: ${e.count} written\n`);
      } else if (tty) {
        show(`reading ${e.section}: ${e.count}`);
      } else if (now - lastLine >= 2000) {
        lastLine = now;
        show(`reading ${e.section}: ${e.count} so far`);
      }
    },
    end() {
      clear();
      shown = "";
    },
  };
}

export function describeProblems(problems: SnapshotProblem[]): string {
  const lines: string[] = [];
  for (const [kind, title] of [
    ["left_out", "left out (the fixture cannot hold them)"],
    ["incomplete", "written in part"],
  ] as const) {
    const list = problems.filter((p) => p.kind === kind);
    if (list.length === 0) continue;
    lines.push(`${list.length} ${title}:`);
    for (const p of list) lines.push(`  ${p.section} ${p.name}: ${p.reason}`);
  }
  return lines.map((l) => `${l}\n`).join("");
}
