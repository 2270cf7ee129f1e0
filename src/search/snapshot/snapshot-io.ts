import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * The file format of a search-index snapshot (snapshot.ts, ADR 0024): the magic, then sections,
 * each its payload's length (u32 LE), the CRC-32 of its payload (u32 LE) and the payload. The
 * first section is the header (JSON), the last a JSON end mark. Each section is checked against
 * its CRC before anything is built from it, so a damaged file is refused, never half-loaded into
 * CRoaring; a cut-off file ends before its end mark.
 */
export const MAGIC = Buffer.from('VTRNSNAP', 'latin1');
const HEAD = 8;
/** Writes smaller than this are gathered into one buffer (fewer system calls). */
const GATHER = 1 << 20;

export type Typed = Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

export function bytesOf(array: Typed): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}

export class SectionWriter {
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;
  written = 0;

  constructor(private readonly sink: (bytes: Uint8Array) => Promise<void>) {}

  async section(parts: readonly Uint8Array[]): Promise<void> {
    let length = 0;
    let crc = 0;
    for (const part of parts) {
      length += part.byteLength;
      crc = crc32(part, crc);
    }
    if (length > 0xffffffff) throw new Error(`snapshot section of ${length} bytes is over 4 GiB`);
    const head = Buffer.alloc(HEAD);
    head.writeUInt32LE(length, 0);
    head.writeUInt32LE(crc >>> 0, 4);
    await this.raw(head);
    for (const part of parts) await this.raw(part);
  }

  json(value: unknown): Promise<void> {
    return this.section([Buffer.from(JSON.stringify(value), 'utf8')]);
  }

  typed(array: Typed): Promise<void> {
    return this.section([bytesOf(array)]);
  }

  /** Bytes as they are (the magic); large ones go straight out, small ones are gathered. */
  async raw(bytes: Uint8Array): Promise<void> {
    this.written += bytes.byteLength;
    if (bytes.byteLength >= GATHER) {
      await this.flush();
      await this.sink(bytes);
      return;
    }
    // A copy: the caller may reuse its buffer once this resolves.
    this.gathered.push(Buffer.from(bytes));
    this.gatheredBytes += bytes.byteLength;
    if (this.gatheredBytes >= GATHER) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.gatheredBytes === 0) return;
    const all = Buffer.concat(this.gathered, this.gatheredBytes);
    this.gathered = [];
    this.gatheredBytes = 0;
    await this.sink(all);
  }
}

export class SnapshotFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotFormatError';
  }
}

export class SectionReader {
  private position = 0;

  constructor(private readonly file: fs.FileHandle) {}

  private async readFully(into: Uint8Array): Promise<void> {
    let done = 0;
    while (done < into.byteLength) {
      const { bytesRead } = await this.file.read(into, done, into.byteLength - done, this.position);
      if (bytesRead === 0) throw new SnapshotFormatError('snapshot file ends early');
      done += bytesRead;
      this.position += bytesRead;
    }
  }

  async magic(): Promise<void> {
    const bytes = Buffer.alloc(MAGIC.length);
    await this.readFully(bytes);
    if (!bytes.equals(MAGIC)) throw new SnapshotFormatError('not a search-index snapshot');
  }

  private async head(): Promise<{ length: number; crc: number }> {
    const head = Buffer.alloc(HEAD);
    await this.readFully(head);
    return { length: head.readUInt32LE(0), crc: head.readUInt32LE(4) };
  }

  private check(bytes: Uint8Array, crc: number): void {
    if (crc32(bytes) >>> 0 !== crc) throw new SnapshotFormatError('snapshot section fails its checksum');
  }

  async bytes(): Promise<Buffer> {
    const { length, crc } = await this.head();
    const bytes = Buffer.alloc(length);
    await this.readFully(bytes);
    this.check(bytes, crc);
    return bytes;
  }

  async json<T>(): Promise<T> {
    const bytes = await this.bytes();
    try {
      return JSON.parse(bytes.toString('utf8')) as T;
    } catch {
      throw new SnapshotFormatError('snapshot section is not JSON');
    }
  }

  /** A section read straight into a typed array of its size (no second copy). */
  async typed<T extends Typed>(make: (length: number) => T, bytesPer: number): Promise<T> {
    const { length, crc } = await this.head();
    if (length % bytesPer !== 0) throw new SnapshotFormatError('snapshot column has a partial element');
    const array = make(length / bytesPer);
    const bytes = bytesOf(array);
    await this.readFully(bytes);
    this.check(bytes, crc);
    return array;
  }
}

/**
 * Writes `file` atomically: into a temporary file beside it, flushed to disk, then renamed over
 * it. A failure on the way (an I/O error, a crash) leaves the previous file as it was; processes
 * sharing the directory each rename a complete file of their own.
 */
export async function writeAtomically(
  file: string,
  produce: (writer: SectionWriter) => Promise<void>,
): Promise<number> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const handle = await fs.open(temporary, 'w', 0o600);
  let renamed = false;
  try {
    const writer = new SectionWriter(async (bytes) => {
      let done = 0;
      while (done < bytes.byteLength) {
        const { bytesWritten } = await handle.write(bytes, done, bytes.byteLength - done);
        done += bytesWritten;
      }
    });
    await writer.raw(MAGIC);
    await produce(writer);
    await writer.flush();
    await handle.sync();
    await handle.close();
    await fs.rename(temporary, file);
    renamed = true;
    return writer.written;
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await fs.rm(temporary, { force: true });
    }
  }
}

/** Opens a snapshot for reading (the magic checked); the caller closes the handle. */
export async function openSnapshot(
  file: string,
): Promise<{ reader: SectionReader; close: () => Promise<void> }> {
  const handle = await fs.open(file, 'r');
  const reader = new SectionReader(handle);
  try {
    await reader.magic();
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { reader, close: () => handle.close() };
}

/** Strings per section (a JSON array each: bounded work per step). */
const STRINGS_PER_SECTION = 50_000;

/** `count` strings of `values` as JSON arrays of at most STRINGS_PER_SECTION. */
export async function writeStrings(
  w: SectionWriter,
  values: readonly string[],
  count: number,
): Promise<void> {
  for (let from = 0; from < count; from += STRINGS_PER_SECTION)
    await w.json(values.slice(from, Math.min(count, from + STRINGS_PER_SECTION)));
}

/** What writeStrings wrote, `count` strings, each handed to `into`. */
export async function readStrings(
  r: SectionReader,
  count: number,
  into: (value: string) => void,
): Promise<void> {
  for (let read = 0; read < count; ) {
    const part = await r.json<string[]>();
    if (!Array.isArray(part) || part.length === 0)
      throw new SnapshotFormatError('snapshot strings are short');
    for (const value of part) into(value);
    read += part.length;
  }
}
