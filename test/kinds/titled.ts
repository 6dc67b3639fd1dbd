/** The kinds that are only a name and a title (asset classes, labels): one model, told apart by their table and endpoint. */
import type { SvcClient } from "../../src/client";
import type { KindName } from "../../src/provider/kinds";
import { record, type KindModel } from "./kind-model";

interface Titled {
  kind: KindName;
  /** The platform names' prefix (`class-3`). */
  prefix: string;
  /** The titles' first word (`Class 3`). */
  title: string;
  table: string;
  /** Changes the title of the object named `name` through the client. */
  editTitle(client: SvcClient, name: string): Promise<unknown>;
}

export const titled = (t: Titled): KindModel => ({
  add: (w, r, n) => w.push(t.kind, { name: `${t.prefix}-${n}`, title: `${t.title} ${n}`, ...(r.chance(0.2) ? { adopt: true } : {}) }, `${t.prefix}-${n}`),
  adopts: true,
  updates(w, d, c) {
    c.set("title", () => `${d.kind} title ${w.number()}`);
  },
  replaces(w, _d, c) {
    c.set("name", () => `${t.prefix}-${w.number()}`);
  },
  records: (a) => [record(t.table, a.name, [["title", a.title]])],
  table: { name: t.table, identity: (r) => r.name },
  drift(a, _id, d) {
    d.edit("title", "title", (c) => t.editTitle(c, a.name));
  },
});
