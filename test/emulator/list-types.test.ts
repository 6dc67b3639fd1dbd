/**
 * A list's sort getters are checked against the endpoint's sort keys at compile time: the keys keep
 * their literal types from the table to the handler, so a getter named wrong or missing does not
 * compile. The lines marked @ts-expect-error must fail to type-check; the last test compiles this
 * file and fails if any of them compiles (or anything else does not).
 */
import path from "node:path";
import ts from "typescript";
import type { z } from "zod";
import { clusters } from "../../src/api/clusters";
import { type workloads } from "../../src/api/workloads";
import { inventoryList, part1List, type SortGetters, type SortKeyOf } from "../../src/emulator/list";

type WorkloadListQuery = z.output<NonNullable<typeof workloads.list.query>>;

interface Row {
  name: string;
  title: string;
}
const rows: Row[] = [
  { name: "b", title: "Bee" },
  { name: "a", title: "Ay" },
];
const clusterQuery = clusters.list.query!.parse({ page_size: "10" });

/** Never called: each statement is a compile-time check. */
export function compileTimeChecks(workloadQuery: WorkloadListQuery): void {
  // @ts-expect-error "cluster.nmae" is not a sort key of clusters.list
  inventoryList(rows, clusterQuery, { key: (r) => r.name, sort: { "cluster.name": (r) => r.name, "cluster.nmae": (r) => r.name } });
  // @ts-expect-error the getter of "cluster.name" is missing
  inventoryList(rows, clusterQuery, { key: (r) => r.name, sort: {} });
  // @ts-expect-error the workload list sorts by more keys than this names
  part1List(rows, workloadQuery, { key: (r) => r.name, sort: { name: (r) => r.name } });
  // @ts-expect-error "cluster.title" is not a sort key of clusters.list
  const wrong: SortKeyOf<typeof clusters.list> = "cluster.title";
  // @ts-expect-error getters declared apart from the call are checked where they are declared
  const apart = { "cluster.name": (r: Row) => r.name, "cluster.title": (r: Row) => r.title } satisfies SortGetters<typeof clusters.list, Row>;
  void [wrong, apart];
}

describe("Sort keys keep their literal types", () => {
  test("the getters the endpoint's keys name sort the list", () => {
    const reply = inventoryList(rows, { ...clusterQuery, sort_asc: false }, { key: (r) => r.name, sort: { "cluster.name": (r) => r.name } });
    expect((reply.body as { data: Row[] }).data.map((r) => r.name)).toEqual(["b", "a"]);
    const keys: Array<SortKeyOf<typeof workloads.list>> = ["name", "app_version", "status_state"];
    expect(keys).toHaveLength(3);
  });

  test("this file type-checks: every @ts-expect-error above meets the error it expects", () => {
    const configPath = path.resolve(__dirname, "../../tsconfig.json");
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, path.dirname(configPath));
    const program = ts.createProgram([__filename], { ...config.options, noEmit: true, incremental: false });
    const problems = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(__filename))
      .map((d) => `${d.start !== undefined && d.file ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : "?"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
    expect(problems).toEqual([]);
  });
});
