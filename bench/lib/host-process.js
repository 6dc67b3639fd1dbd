"use strict";
/**
 * The dynamic-provider host the engine kit started from this process, found among this process's
 * children (Linux /proc): its CPU time and its peak resident memory; and the CPU time of the children
 * that have ended (a Pulumi CLI command and its hosts). Elsewhere the figures are absent.
 */
const fs = require("node:fs");

const CLK_TCK = 100;

function childPids(pid = process.pid) {
  const out = [];
  let tasks;
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tasks) {
    try {
      out.push(...fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Pids of the provider hosts running as children of this process. */
function hostPids() {
  return childPids().filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider");
    } catch {
      return false;
    }
  });
}

/** CPU seconds (user + system) and peak resident memory (VmHWM, MB) of a process; undefined when unknown. */
function usage(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cpuS = (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return { cpuS, peakMb: hwm ? Number(hwm[1]) / 1024 : undefined, rssMb: rss ? Number(rss[1]) / 1024 : undefined };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + system) of this process's children that have ended and been waited for, and
 * of theirs: the Pulumi CLI of a command and the provider hosts it started, once the command is over.
 */
function endedChildrenCpuS() {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/**
 * The one host a stack started between two calls: `before` lists the host pids that existed before
 * the stack started. Undefined when none (or several) can be told apart.
 */
function newHost(before) {
  const fresh = hostPids().filter((p) => !before.includes(p));
  return fresh.length === 1 ? fresh[0] : undefined;
}

module.exports = { hostPids, newHost, usage, endedChildrenCpuS };
