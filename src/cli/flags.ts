/** Parsers of the command-line flags' values: each names what it expects when a value is refused. */
import { InvalidArgumentError } from "commander";

export const integer = (min: number, max: number, what: string) => (v: string) => {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`must be ${what} from ${min} to ${max}`);
  return n;
};
export const port = integer(0, 65535, "a port number");
export const fraction = (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError("must be a number from 0 to 1");
  return n;
};
export const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
export const statuses = (v: string) =>
  list(v).map((s) => {
    if (!/^\d{3}$/.test(s)) throw new InvalidArgumentError(`'${s}' is not an HTTP status`);
    return Number(s);
  });

/** `key=value`, repeatable: the values gathered in one record. */
export const keyValue = (v: string, previous: Record<string, string> = {}) => {
  const at = v.indexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`'${v}' is not key=value (e.g. svc:baseUrl=http://127.0.0.1:4010)`);
  return { ...previous, [v.slice(0, at)]: v.slice(at + 1) };
};
