/** The bulk runner every bulk endpoint answers through: 200/201/204, 207 with a result per item, or a rejection. */
import { errors } from "../../src/api/errors";
import { runBulk, type MultiStatusOptions } from "../../src/emulator/bulk";

/** Fails the items named `bad-*` with a 404, `taken` with a 409; records the items applied. */
function run(items: string[], options: MultiStatusOptions) {
  const applied: string[] = [];
  const reply = runBulk(
    items,
    (n) => n,
    (n) => {
      if (n.startsWith("bad-")) throw errors.NOT_FOUND(`record '${n}' not found`);
      if (n === "taken") throw errors.CONFLICT(`record '${n}' already exists`);
      applied.push(n);
    },
    options,
  );
  return { reply, applied };
}

test("all succeed: the success status, no body (or the results where the area answers them)", () => {
  expect(run(["a", "b"], { okStatus: 204, allFailed: "reject" }).reply).toEqual({ status: 204 });
  expect(run(["a"], { okStatus: 201, allFailed: "report", resultsOnSuccess: true }).reply).toEqual({
    status: 201,
    body: { results: [{ name: "a", http_status_code: 201 }] },
  });
});

test("some fail: 207 with a result per item in request order; the others are applied", () => {
  const { reply, applied } = run(["a", "bad-x", "taken", "b"], { okStatus: 200, allFailed: "reject" });
  expect(applied).toEqual(["a", "b"]);
  expect(reply).toEqual({
    status: 207,
    body: {
      results: [
        { name: "a", http_status_code: 200 },
        { name: "bad-x", http_status_code: 404, message: ["record 'bad-x' not found"] },
        { name: "taken", http_status_code: 409, message: ["record 'taken' already exists"] },
        { name: "b", http_status_code: 200 },
      ],
    },
  });
});

test("all fail: `reject` throws the first failure's kind with every message; `report` answers 207", () => {
  let thrown: unknown;
  try {
    run(["bad-x", "taken"], { okStatus: 204, allFailed: "reject" });
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toMatchObject({ status: 404, code: errors.NOT_FOUND.code, messages: ["record 'bad-x' not found", "record 'taken' already exists"] });
  expect(run(["bad-x"], { okStatus: 200, allFailed: "report" }).reply).toEqual({
    status: 207,
    body: { results: [{ name: "bad-x", http_status_code: 404, message: ["record 'bad-x' not found"] }] },
  });
});

test("an error that is not an API error is not an item's result: it fails the request", () => {
  expect(() =>
    runBulk(
      ["a"],
      (n) => n,
      () => {
        throw new TypeError("bug");
      },
      { okStatus: 200, allFailed: "report" },
    ),
  ).toThrow(TypeError);
});
