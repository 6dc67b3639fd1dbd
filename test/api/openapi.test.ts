import fs from "node:fs";
import path from "node:path";
import { openApiDocument } from "../../src/api/openapi";
import { endpoints } from "../../src/api/endpoints";
import type { Json } from "../helpers/emulator";

describe("schema/openapi.json", () => {
  const file = path.resolve(__dirname, "../../schema/openapi.json");

  test("is current: regenerate with `npm run openapi` after changing the endpoint table", () => {
    const committed = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(committed).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });

  test("is OpenAPI 3.1 for API version 4.0.0 with bearer security and the error model", () => {
    const doc = openApiDocument() as Json;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("4.0.0");
    expect(doc.servers[0].url).toBe("{base_url}/api/v4");
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.schemas.Error.properties.errors).toBeDefined();
  });

  test("holds every operation of the table, with its permission", () => {
    const doc = openApiDocument() as Json;
    for (const e of endpoints) {
      const op = doc.paths[e.path]?.[e.method.toLowerCase()];
      expect(op?.operationId).toBe(e.id);
      expect(op["x-permission"]).toBe(e.permission ? `svc.permission.${e.permission}` : null);
    }
  });
});
