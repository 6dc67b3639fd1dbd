/** Facts about other processes on this machine, for the locks and the published addresses that name one. */

/** Whether a process with this id runs on this machine (one owned by another user counts: EPERM). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
