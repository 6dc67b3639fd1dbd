/**
 * A workload's log: every lifecycle move writes a line to it (the record keeps the last LOG_LIMIT),
 * and the logs operations serve it as the log of one pod, `<name>-0`.
 */
import { failedDependency, type ApiError } from "../../../api/errors";

export interface LogLine {
  at: string;
  text: string;
}

const LOG_LIMIT = 200;

/** The log with one more line, the oldest lines dropped past the limit. */
export const appendLog = (log: LogLine[], at: string, text: string): LogLine[] => [...log, { at, text }].slice(-LOG_LIMIT);

export interface LogsRequest {
  tail_lines?: number;
  since_time?: string;
}

/**
 * The workload's logs per pod. A workload that was never deployed has no pod: `notDeployed` makes the
 * error (424 on /apps/workloads; the legacy view, which lists no 424, answers 409).
 */
/** What reading a workload's logs needs of its record (model.ts StoredWorkload has it). */
export interface LoggedWorkload {
  name: string;
  status: { state: string };
  log: LogLine[];
}

export function workloadLogs(w: LoggedWorkload, q: LogsRequest, notDeployed: (msg: string) => ApiError = failedDependency): { logs: Record<string, string[]> } {
  if (w.status.state === "pending_deploy") {
    throw notDeployed(`workload '${w.name}' is pending (not deployed), so it has no pod to read logs from; enable it first`);
  }
  const since = q.since_time ? Date.parse(q.since_time) : undefined;
  let lines = w.log.filter((l) => since === undefined || Date.parse(l.at) >= since).map((l) => `${l.at} ${l.text}`);
  if (q.tail_lines !== undefined) lines = lines.slice(-q.tail_lines);
  return { logs: { [`${w.name}-0`]: lines } };
}
