/**
 * A failed create, read, update or delete is one line naming the resource and the operation, with a
 * code that says what went wrong (the platform refused, did not answer, or an error of the catalog
 * underneath, whose code it keeps) and the error underneath as its cause.
 */
import { SvcApiError, SvcConnectError } from "../../src/client";
import { SvcError } from "../../src/errors";
import type { Kind } from "../../src/provider/kind";
import { describeFailure } from "../../src/provider/lifecycle";

const kind = { name: "Label" } as Kind;
const request = { method: "POST", path: "/datalabels/labels/create", retryable: false, detail: "title: too long" };

test("the platform's refusal: SVC_PLATFORM_REFUSED, the resource, the operation and the answer, the client's error as cause", () => {
  const refused = new SvcApiError({ ...request, status: 400 });
  const err = describeFailure(kind, "l1", "create", refused);
  expect(err.code).toBe("SVC_PLATFORM_REFUSED");
  expect(err.message).toBe(`Label 'l1': create failed: ${refused.message} [SVC_PLATFORM_REFUSED]`);
  expect(err.cause).toBe(refused);
});

test("no answer: SVC_PLATFORM_UNREACHABLE", () => {
  const lost = new SvcConnectError({ ...request, retryable: true, detail: "ECONNREFUSED" });
  expect(describeFailure(kind, "l1", "read", lost)).toMatchObject({ code: "SVC_PLATFORM_UNREACHABLE", cause: lost });
});

test("an error of the catalog keeps its code, stated once at the end", () => {
  const gone = new SvcError("SVC_OBJECT_GONE", "the label no longer exists on the platform");
  const err = describeFailure(kind, "l1", "update", gone);
  expect(err).toMatchObject({ code: "SVC_OBJECT_GONE", cause: gone });
  expect(err.message).toBe("Label 'l1': update failed: the label no longer exists on the platform [SVC_OBJECT_GONE]");
});

test("anything else: SVC_OPERATION_FAILED, with its message", () => {
  const err = describeFailure(kind, undefined, "delete", new TypeError("x is undefined"));
  expect(err).toMatchObject({ code: "SVC_OPERATION_FAILED", message: "Label: delete failed: x is undefined [SVC_OPERATION_FAILED]" });
});
