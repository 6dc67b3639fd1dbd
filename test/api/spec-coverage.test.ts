/**
 * The spec is the authority: every `| METHOD | /path | ... | permission |` row of both spec parts
 * must be in the endpoint table with the same permission, and the table must declare nothing of
 * spec origin that the spec lacks.
 *
 * Rows that look odd but are followed as written: `force-update` of an ACP's edge apps needs only
 * acp.read; `/assets/hierarchy/tree/update` needs asset.create; `/instance/graph/dependencies/get`
 * is a GET that takes a body; the provisioning downloads need orchestration.read.
 */
import fs from "node:fs";
import path from "node:path";
import { endpoints } from "../../src/api/endpoints";

const SPEC_DIR = path.resolve(__dirname, "../../../shared/spec");

interface Row {
  method: string;
  path: string;
  permission: string | null;
  file: string;
}

function specRows(): Row[] {
  const rows: Row[] = [];
  for (const file of ["platform-api-part-1.md", "platform-api-part-2.md"]) {
    const text = fs.readFileSync(path.join(SPEC_DIR, file), "utf8");
    for (const line of text.split("\n")) {
      const m = /^\|\s*(GET|POST)\s*\|\s*(\/\S+)\s*\|.*\|\s*([^|]+?)\s*\|\s*$/.exec(line);
      if (!m) continue;
      const perm = m[3] === "none required" ? null : m[3];
      rows.push({ method: m[1], path: m[2], permission: perm, file });
    }
  }
  return rows;
}

describe("the endpoint table against the spec", () => {
  const rows = specRows();

  test("the spec has 158 operation rows", () => {
    expect(rows).toHaveLength(158);
  });

  test("every spec row is in the table with the same permission", () => {
    const table = new Map(endpoints.map((e) => [`${e.method} ${e.path}`, e]));
    const problems: string[] = [];
    for (const r of rows) {
      const e = table.get(`${r.method} ${r.path}`);
      if (!e) problems.push(`missing: ${r.method} ${r.path} (${r.file})`);
      else if (e.permission !== r.permission) problems.push(`permission of ${r.method} ${r.path}: table ${e.permission}, spec ${r.permission}`);
    }
    expect(problems).toEqual([]);
  });

  test("the table declares no spec operation the spec lacks", () => {
    const spec = new Set(rows.map((r) => `${r.method} ${r.path}`));
    const extra = endpoints.filter((e) => (e.source === "part1" || e.source === "part2") && !spec.has(`${e.method} ${e.path}`)).map((e) => `${e.method} ${e.path}`);
    expect(extra).toEqual([]);
  });

  test("operations outside the spec tables come from the facts file or auth, with the permissions the facts name", () => {
    const outside = endpoints.filter((e) => e.source === "facts" || e.source === "auth").map((e) => `${e.method} ${e.path} ${e.permission}`);
    expect(outside).toEqual(
      expect.arrayContaining([
        "POST /auth/realms/svc/protocol/openid-connect/token null",
        "POST /auth/token/get null",
        "POST /asset-insights/get asset_insights.read",
        "GET /assets/list asset.read",
        "GET /assets/{asset_name}/get asset.read",
      ]),
    );
  });

  test("only instance status and the token endpoints are open", () => {
    expect(endpoints.filter((e) => e.permission === null).map((e) => e.path).sort()).toEqual(
      ["/auth/realms/svc/protocol/openid-connect/token", "/auth/token/get", "/instance/status/get"].sort(),
    );
  });
});

describe("every operation of the table is routed and reachable over HTTP", () => {
  test("each endpoint has exactly one handler, and answers something other than 404-no-route or 501", async () => {
    const { allRoutes } = await import("../../src/emulator/handlers");
    const handled = new Set(allRoutes().map((r) => r.endpoint.id));
    expect(endpoints.filter((e) => !handled.has(e.id)).map((e) => e.id)).toEqual([]);

    const { startTestEmulator } = await import("../helpers/emulator");
    const emu = await startTestEmulator();
    try {
      const unreachable: string[] = [];
      for (const e of endpoints) {
        // Fill path parameters with plausible values; the answer may be a 4xx for them, never "no route".
        const path = e.path.replace(/\{([a-z_]+)\}/g, (_, p: string) => (p === "schedule_id" ? "6f1c2a7e-0000-4000-8000-000000000009" : p === "datalabel_id" ? "1" : p.includes("version") ? "1.0.0" : "x"));
        const a = await emu.call(e.method, path, e.method === "POST" ? { body: {} } : {});
        const code = a.body?.errors?.[0]?.error_code;
        if (code === 40402 || a.status === 501 || a.status >= 500) unreachable.push(`${e.method} ${e.path} → ${a.status}`);
      }
      expect(unreachable).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
