/**
 * Compile-time tests with marked mistakes: a fixture marks each line that must not compile with
 * `// @ts-expect-error <text its error names>` on the line before. The fixture must compile as it is
 * (an unused directive is an error too: a mistake the types no longer catch), and without the
 * directives each marked line must fail, naming the text, and no other line may.
 */
import path from "node:path";
import ts from "typescript";

const DIRECTIVE = /^(\s*)\/\/ @ts-expect-error (.+)$/;

export interface Diagnostic {
  /** 1-based line; 0 for a diagnostic without a place. */
  line: number;
  message: string;
}

/** The compiler's diagnostics on `fixture`, compiled with `source` as its text. */
export function compileFixture(fixture: string, source: string, options: ts.CompilerOptions): Diagnostic[] {
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => (path.resolve(file) === fixture ? source : read(file));
  const getSource = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError) => (path.resolve(file) === fixture ? ts.createSourceFile(file, source, language) : getSource(file, language, onError));
  const program = ts.createProgram([fixture], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
    message: `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
  }));
}

/** Each marked mistake: the line after its directive, and the text its error must name. */
export function markedMistakes(text: string): Array<{ line: number; names: string }> {
  return text
    .split("\n")
    .map((l, i) => ({ line: i + 2, names: DIRECTIVE.exec(l)?.[2] }))
    .filter((m): m is { line: number; names: string } => m.names !== undefined);
}

/** What is wrong with the marked mistakes once their directives are removed: each message names a line. */
export function unmetMistakes(text: string, compile: (source: string) => Diagnostic[]): string[] {
  const mistakes = markedMistakes(text);
  const bare = text
    .split("\n")
    .map((l) => l.replace(DIRECTIVE, "$1//"))
    .join("\n");
  const errors = compile(bare);
  return [
    ...mistakes
      .filter((m) => !errors.some((e) => e.line === m.line && e.message.includes(m.names)))
      .map((m) => `line ${m.line}: no error naming ${m.names}; errors: ${JSON.stringify(errors.filter((e) => e.line === m.line))}`),
    ...errors.filter((e) => !mistakes.some((m) => m.line === e.line)).map((e) => `line ${e.line}: an error on a line not marked: ${e.message}`),
  ];
}
