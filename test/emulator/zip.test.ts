/** The zip writer of the workload packages: stored entries, each with the CRC-32 of its data. */
import { zipOf } from "../../src/emulator/zip";

/** The entries of a zip, read from its central directory (located by the end record). */
function readZip(zip: Buffer): Array<{ name: string; crc: number; data: Buffer }> {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    expect(zip.readUInt32LE(local)).toBe(0x04034b50);
    expect(zip.readUInt32LE(local + 14)).toBe(crc);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26);
    out.push({ name, crc, data: zip.subarray(dataAt, dataAt + size) });
    at += 46 + nameLength;
  }
  return out;
}

test("each entry carries its data and the CRC-32 of it (the standard check value of '123456789' is cbf43926)", () => {
  const zip = zipOf([
    { name: "check.txt", data: Buffer.from("123456789") },
    { name: "empty", data: Buffer.alloc(0) },
    { name: "workload.json", data: Buffer.from('{"name": "w1"}\n') },
  ]);
  const entries = readZip(zip);
  expect(entries.map((e) => e.name)).toEqual(["check.txt", "empty", "workload.json"]);
  expect(entries[0].crc).toBe(0xcbf43926);
  expect(entries[0].data.toString()).toBe("123456789");
  expect(entries[1].crc).toBe(0);
  expect(entries[2].data.toString()).toBe('{"name": "w1"}\n');
});
