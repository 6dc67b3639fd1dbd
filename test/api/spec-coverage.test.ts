/**
 * The spec is the authority: every `| METHOD | /path | ... | permission |` row of both spec parts
 * (as checked in, spec-operations.json) must be in the endpoint table with the same permission, and
 * the table must declare nothing of spec origin that the spec lacks.
 *
 * Rows that look odd but are followed as written: `force-update` of an ACP's edge apps needs only
 * acp.read; `/assets/hierarchy/tree/update` needs asset.create; `/instance/graph/dependencies/get`
 * is a GET that takes a body; the provisioning downloads need orchestration.read.
 */
import fs from "node:fs";
import path from "node:path";
import { endpoints } from "../../src/api/endpoints";
import checkedIn from "./spec-operations.json";

/**
 * The spec's rows are kept in the repository (spec-operations.json beside this file), so a clone
 * without the spec documents runs this test; `npm run spec:rows -- SPEC_DIR` regenerates them.
 */
interface Row {
  method: string;
  path: string;
  permission: string | null;
  file: string;
}
interface Extractor {
  DEFAULT_SPEC_DIR: string;
  SPEC_FILES: string[];
  specPresent(dir: string): boolean;
  extractRows(dir: string): Row[];
  rowsDocument(rows: Row[]): unknown;
  serialize(doc: unknown): string;
}
const extractor = require("../../scripts/extract-spec-rows.js") as Extractor;

const rows: Row[] = checkedIn.rows;

/** The spec documents, when they are beside the repository (or where SVC_SPEC_DIR points). */
const SPEC_DIR = path.resolve(process.env.SVC_SPEC_DIR ?? extractor.DEFAULT_SPEC_DIR);
const specPresent = extractor.specPresent(SPEC_DIR);

describe("test/api/spec-operations.json, the checked-in rows of the spec", () => {
  const title = "equals a fresh extraction from the spec documents (`npm run spec:rows` regenerates it)";
  if (specPresent) {
    test(`${title}: ${SPEC_DIR}`, () => {
      const fresh = extractor.extractRows(SPEC_DIR);
      expect(rows).toEqual(fresh);
      // Byte for byte, so the file is exactly what the script writes.
      const file = path.join(__dirname, "spec-operations.json");
      expect(fs.readFileSync(file, "utf8")).toBe(extractor.serialize(extractor.rowsDocument(fresh)));
    });
  } else {
    test.skip(`${title} — skipped: the spec documents (${extractor.SPEC_FILES.join(", ")}) are not in ${SPEC_DIR}; set SVC_SPEC_DIR to check against them`, () => undefined);
  }

  test("every row names its method, path, permission (or null) and source document", () => {
    for (const r of rows) {
      expect(r).toEqual({
        method: expect.stringMatching(/^(GET|POST)$/),
        path: expect.stringMatching(/^\//),
        permission: r.permission === null ? null : expect.stringMatching(/^[a-z_]+\.[a-z_]+$/),
        file: expect.stringMatching(/^platform-api-part-[12]\.md$/),
      });
    }
  });
});

describe("the endpoint table against the spec", () => {
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

  test("only instance status, the metadata document and the token and logout endpoints are open", () => {
    expect(
      endpoints
        .filter((e) => e.permission === null)
        .map((e) => e.path)
        .sort(),
    ).toEqual(
      [
        "/auth/realms/svc/protocol/openid-connect/token",
        "/auth/realms/svc/logout",
        "/auth/realms/svc/protocol/openid-connect/logout",
        "/auth/token/get",
        "/instance/status/get",
        "/metadata",
      ].sort(),
    );
  });
});

describe("every operation of the table is routed and reachable over HTTP", () => {
  test("each endpoint has exactly one handler, and answers something other than 404-no-route or 501", async () => {
    const { allRoutes } = await import("../../src/emulator/areas");
    const handled = new Set(allRoutes().map((r) => r.endpoint.id));
    expect(endpoints.filter((e) => !handled.has(e.id)).map((e) => e.id)).toEqual([]);

    const { startTestEmulator } = await import("../helpers/emulator");
    const emu = await startTestEmulator();
    try {
      const unreachable: string[] = [];
      for (const e of endpoints) {
        // Fill path parameters with plausible values; the answer may be a 4xx for them, never "no route".
        const path = e.path.replace(/\{([a-z_]+)\}/g, (_, p: string) =>
          p === "schedule_id" ? "6f1c2a7e-0000-4000-8000-000000000009" : p === "datalabel_id" ? "1" : p.includes("version") ? "1.0.0" : "x",
        );
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
