/**
 * Writes a fixture document section by section as its entries arrive, so that a snapshot never holds
 * more than the entry at hand. Each entry is rendered on its own (the same entry always gives the
 * same text); a file is written under a temporary name and renamed when complete, so that a failed
 * snapshot leaves no half-written fixture behind.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { stringify } from "yaml";

/** Where the text goes: a file (see `fileSink`), a string (`memorySink`), or anything that takes text. */
export interface TextSink {
  write(text: string): void;
  /** The text is complete. */
  close?(): void;
  /** The snapshot failed: drop what was written. */
  abort?(): void;
}

/** Writes to `path` through a temporary file in the same folder, renamed over `path` on close. */
export function fileSink(path: string): TextSink {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const fd = openSync(temp, "w", 0o600);
  let open = true;
  const finish = () => {
    if (!open) return false;
    open = false;
    return true;
  };
  return {
    write(text) {
      writeSync(fd, text);
    },
    close() {
      if (!finish()) return;
      fsyncSync(fd);
      closeSync(fd);
      renameSync(temp, path);
    },
    abort() {
      if (!finish()) return;
      closeSync(fd);
      rmSync(temp, { force: true });
    },
  };
}

/** Collects the text in memory (tests, scripts that post-process the fixture). */
export function memorySink(): TextSink & { text(): string } {
  const parts: string[] = [];
  return { write: (t) => void parts.push(t), text: () => parts.join("") };
}

/** Discards everything (the parity check reads the platform without writing). */
export const nullSink: TextSink = { write: () => undefined };

const YAML_OPTIONS = { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false } as const;

/** One list entry as YAML, indented under its section key. */
export function renderEntry(entry: unknown): string {
  return stringify([entry], YAML_OPTIONS)
    .split("\n")
    .map((line) => (line === "" ? line : `  ${line}`))
    .join("\n");
}

const comment = (line: string) => `# ${line.replace(/[\r\n]+/g, " ")}`.trimEnd() + "\n";

export class FixtureWriter {
  private current: string | undefined;
  private readonly started = new Set<string>();

  constructor(private readonly sink: TextSink) {}

  comments(lines: string[]): void {
    this.sink.write(lines.map(comment).join(""));
  }

  /** Appends an entry to `section`; a section's entries must come together. */
  entry(section: string, entry: unknown): void {
    if (this.current !== section) {
      if (this.started.has(section)) throw new Error(`fixture writer: section '${section}' was already closed`);
      this.started.add(section);
      this.current = section;
      this.sink.write(`\n${section}:\n`);
    }
    this.sink.write(renderEntry(entry));
  }

  /** Ends the current section (the next entry must start another). */
  endSection(): void {
    this.current = undefined;
  }

  close(): void {
    this.sink.close?.();
  }

  abort(): void {
    this.sink.abort?.();
  }
}
