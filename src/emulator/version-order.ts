/**
 * The sort key of a semantic version: a string whose plain (code unit) order is semver precedence, as
 * the `semver` package compares (1.9.0 < 1.10.0; 1.0.0-rc.2 < 1.0.0-rc.10 < 1.0.0). Lists sort by it
 * and the store's ordered indexes hold it, both comparing strings with `<`.
 *
 * The key is built so that comparing it character by character compares the versions:
 * - a number (major, minor, patch, numeric pre-release identifier) is written as its digit count
 *   (three digits) and then its digits, so a longer number sorts after a shorter one, and numbers of
 *   one length by their digits (semver numbers have no leading zeros);
 * - a release ends in `~`, after every pre-release of the same version, whose identifiers follow a
 *   space (which sorts before every character an identifier may hold);
 * - a numeric identifier starts with `0`, an alphanumeric one with `1`: numeric ones sort first;
 * - identifiers are separated by `!`, which sorts before every identifier character (`-` included),
 *   so a pre-release that is a prefix of another sorts first (rc < rc.1) and `a.b` < `a-b`;
 * - build metadata does not count (versions differing only in it share a key).
 * A value that is not a semantic version keeps its own text, sorting by it.
 */
import semver from "semver";

const number = (n: number | string): string => {
  const digits = String(n);
  return String(digits.length).padStart(3, "0") + digits;
};

export function versionSortKey(version: string): string;
export function versionSortKey(version: string | null): string | null;
export function versionSortKey(version: string | null): string | null {
  const v = version === null ? null : semver.parse(version);
  if (!v) return version;
  const release = `${number(v.major)}.${number(v.minor)}.${number(v.patch)}`;
  if (v.prerelease.length === 0) return `${release}~`;
  // semver keeps a numeric identifier too large for a safe integer as text; it still compares as a number.
  const ids = v.prerelease.map((id) => (typeof id === "number" || /^[0-9]+$/.test(id) ? `0${number(id)}` : `1${id}`));
  return `${release} ${ids.join("!")}`;
}
