// Statements run on PGlite over PostgreSQL's extended protocol directly, for a hot path with large
// parameters (the recorder's batch: ~130 KB of JSON for five episodes). Several statements go in
// one exchange — Parse (once per instance for a prepared one), Bind with text parameters, Execute —
// and one Sync, so they run as one implicit transaction. PGlite's own query() measures a
// parameter's UTF-8 length in a JavaScript loop and copies it through a buffer grown in steps, and
// the form used before (EXECUTE with the values written as literals) made PostgreSQL's scanner read
// every byte once more: the recorder's write costs about 10% less CPU this way (rollouts/README.md).
import type { PGlite } from '@electric-sql/pglite';

export interface BoundStatement {
  /** SQL with $1… placeholders (a Prisma.Sql's text); parameter types are inferred from it. */
  text: string;
  values: readonly unknown[];
  /**
   * Parse once per PGlite instance under a generated name and only bind it afterwards (a statement
   * run often, whose planning is worth keeping); otherwise parsed as the unnamed statement.
   */
  prepare?: boolean;
}

/** A row of the last statement: every column in PostgreSQL's text output, null for NULL. */
export type BoundRow = Record<string, string | null>;

/**
 * A value as a text-format parameter, read by the type the statement infers for it; undefined: not
 * expressible (an object, a non-finite number, a NUL character, a non-string array item).
 */
export function textParam(v: unknown): string | null | undefined {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : undefined;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return v.includes('\0') ? undefined : v;
  if (Array.isArray(v)) {
    const items: string[] = [];
    for (const x of v) {
      if (typeof x !== 'string' || x.includes('\0')) return undefined;
      items.push(`"${x.replace(/["\\]/g, '\\$&')}"`);
    }
    return `{${items.join(',')}}`;
  }
  return undefined;
}

const names = new WeakMap<PGlite, Map<string, string>>();
let nameCount = 0;

/**
 * Runs the statements in order, in one implicit transaction, and returns the last one's rows; or
 * undefined, sending nothing, when a value is not expressible as a text parameter. Holds PGlite's
 * transaction and query locks for the exchange, like its own exec() (Prisma's interactive
 * transactions take the same transaction lock). A failure throws PGlite's DatabaseError, and
 * nothing of the exchange is kept. A prepared statement dropped behind our back (DEALLOCATE: code
 * 26000) is parsed again at the next call.
 */
export async function runBound(
  lite: PGlite,
  statements: readonly BoundStatement[],
): Promise<BoundRow[] | undefined> {
  await lite.waitReady;
  let known = names.get(lite);
  if (!known) {
    known = new Map();
    names.set(lite, known);
  }
  const writer = new MessageWriter();
  const parsed = new Map<string, string>();
  for (const [i, st] of statements.entries()) {
    const params: (string | null)[] = [];
    for (const v of st.values) {
      const p = textParam(v);
      if (p === undefined) return undefined;
      params.push(p);
    }
    let name = '';
    if (st.prepare) {
      const have = known.get(st.text) ?? parsed.get(st.text);
      name = have ?? `bound_${++nameCount}`;
      if (!have) {
        parsed.set(st.text, name);
        writer.parse(name, st.text);
      }
    } else {
      writer.parse('', st.text);
    }
    writer.bind(name, params);
    // Only the last statement is described: its RowDescription names the data rows that follow.
    if (i === statements.length - 1) writer.describe();
    writer.execute();
  }
  writer.sync();
  let messages: Awaited<ReturnType<PGlite['execProtocol']>>['messages'];
  try {
    messages = await lite._runExclusiveTransaction(() =>
      lite._runExclusiveQuery(async () => (await lite.execProtocol(writer.bytes())).messages),
    );
  } catch (error) {
    if ((error as { code?: string }).code === '26000') known.clear();
    throw error;
  }
  for (const [text, name] of parsed) known.set(text, name);
  let columns: string[] = [];
  const rows: BoundRow[] = [];
  for (const m of messages) {
    if (m.name === 'rowDescription') {
      columns = (m as unknown as { fields: { name: string }[] }).fields.map((f) => f.name);
    } else if (m.name === 'dataRow' && columns.length > 0) {
      const fields = (m as unknown as { fields: (string | null)[] }).fields;
      const row: BoundRow = {};
      for (const [i, c] of columns.entries()) row[c] = fields[i] ?? null;
      rows.push(row);
    }
  }
  return rows;
}

/** Frontend messages of one exchange, written into one buffer (grown by doubling). */
class MessageWriter {
  private buf = Buffer.allocUnsafe(1024);
  private at = 0;
  private ensure(n: number) {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
  private start(type: string): number {
    this.ensure(5);
    this.buf[this.at] = type.charCodeAt(0);
    const lengthAt = this.at + 1;
    this.at += 5;
    return lengthAt;
  }
  private end(lengthAt: number) {
    this.buf.writeInt32BE(this.at - lengthAt, lengthAt);
  }
  private cstring(s: string) {
    this.ensure(Buffer.byteLength(s) + 1);
    this.at += this.buf.write(s, this.at);
    this.buf[this.at++] = 0;
  }
  private int16(n: number) {
    this.ensure(2);
    this.at = this.buf.writeInt16BE(n, this.at);
  }
  private int32(n: number) {
    this.ensure(4);
    this.at = this.buf.writeInt32BE(n, this.at);
  }
  /** Parse: the statement's text under `name` ('' for the unnamed statement), types inferred. */
  parse(name: string, text: string) {
    const l = this.start('P');
    this.cstring(name);
    this.cstring(text);
    this.int16(0);
    this.end(l);
  }
  /** Bind: the statement to the unnamed portal, text parameters, text results. */
  bind(name: string, params: readonly (string | null)[]) {
    const l = this.start('B');
    this.cstring('');
    this.cstring(name);
    this.int16(0);
    this.int16(params.length);
    for (const p of params) {
      if (p === null) {
        this.int32(-1);
        continue;
      }
      const n = Buffer.byteLength(p);
      this.int32(n);
      this.ensure(n);
      this.at += this.buf.write(p, this.at);
    }
    this.int16(0);
    this.end(l);
  }
  /** Describe the unnamed portal (its RowDescription gives the column names). */
  describe() {
    const l = this.start('D');
    this.ensure(1);
    this.buf[this.at++] = 'P'.charCodeAt(0);
    this.cstring('');
    this.end(l);
  }
  /** Execute the unnamed portal, every row. */
  execute() {
    const l = this.start('E');
    this.cstring('');
    this.int32(0);
    this.end(l);
  }
  sync() {
    this.end(this.start('S'));
  }
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }
}
