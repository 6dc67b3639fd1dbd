/**
 * Bringing an existing platform under code: `snapshot` reads a platform's inventory into a fixture
 * the emulator loads (`svc-emulator serve --seed`), and `parity` compares the answers of a platform
 * with those of an emulator seeded from its snapshot.
 */
export { snapshot } from "./snapshot";
export {
  resolveOnly,
  SNAPSHOT_AREAS,
  SNAPSHOT_SECTIONS,
  type SnapshotEvent,
  type SnapshotOptions,
  type SnapshotProblem,
  type SnapshotResult,
  type SnapshotSection,
} from "../emulator/snapshot/reader";
export { fileSink, memorySink, type TextSink } from "../emulator/snapshot/writer";
export { parity, formatParity, type ParityOptions, type ParityReport, type OperationParity, type FieldDifference, type ParityEvent } from "./parity";
export {
  generateProgram,
  generateFromFile,
  planProgram,
  vendorPackage,
  writeProgram,
  identifier,
  literal,
  type Snapshot,
  type GenerateOptions,
  type GeneratedFiles,
  type GeneratedProgram,
  type UndeclaredRecord,
} from "./generate";
