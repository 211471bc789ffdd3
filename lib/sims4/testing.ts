// Writers for tests and benchmarks: protobuf messages, SaveGameData, DBPF 2.1 packages with any
// index flags and compression, RefPack, and tray items. Never used by the app itself.
import { deflateSync } from "node:zlib";

type Chunk = Uint8Array;

function varintBytes(value: bigint | number): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return out;
}

function concat(chunks: Chunk[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** Protobuf fields, each encoded on its own; a message is their concatenation. */
export const pb = {
  varint: (field: number, value: bigint | number): Chunk =>
    Uint8Array.from([...varintBytes(field * 8), ...varintBytes(value)]),
  fixed64: (field: number, value: bigint): Chunk => {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
    return concat([Uint8Array.from(varintBytes(field * 8 + 1)), bytes]);
  },
  bytes: (field: number, value: Uint8Array): Chunk =>
    concat([Uint8Array.from([...varintBytes(field * 8 + 2), ...varintBytes(value.length)]), value]),
  string: (field: number, value: string): Chunk => pb.bytes(field, new TextEncoder().encode(value)),
  message: (field: number, parts: Chunk[]): Chunk => pb.bytes(field, concat(parts)),
  packedVarints: (field: number, values: (bigint | number)[]): Chunk =>
    pb.bytes(field, Uint8Array.from(values.flatMap((v) => varintBytes(v)))),
  packedFixed64: (field: number, values: bigint[]): Chunk => {
    const bytes = new Uint8Array(values.length * 8);
    const view = new DataView(bytes.buffer);
    values.forEach((v, i) => view.setBigUint64(i * 8, v, true));
    return pb.bytes(field, bytes);
  },
  concat,
};

export interface FixtureSim {
  id: bigint;
  householdId: bigint;
  firstName: string;
  lastName: string;
  gender?: number;
  age?: number;
  spouse?: bigint;
  fiance?: bigint;
  steadies?: bigint[];
  aspiration?: number;
  traits?: number[];
  /** [relation type, Sim id] */
  relations?: [number, bigint][];
  occult?: number;
  /** SimData.extended_species (60): 1 human, 2 large dog, 3 cat, 4 small dog, 5 fox, 6 horse. */
  species?: number;
}

export interface FixtureSave {
  activeHouseholdId?: bigint;
  households: { id: bigint; name: string }[];
  sims: FixtureSim[];
  treeNodes?: {
    id: bigint;
    firstName: string;
    lastName: string;
    gender?: number;
    culled?: boolean;
  }[];
  /** The account block (field 3); the reader must never keep it. */
  account?: { id: bigint; persona: string };
  /** Dynasties (Royalty & Legacy): save_slot 2 → gameplay_data 8 → dynasty_service 60 → 1. */
  dynasties?: FixtureDynasty[];
}

export interface FixtureDynasty {
  name: string;
  head?: bigint;
  heir?: bigint;
  members?: { id: bigint; rank?: number; outcast?: boolean }[];
  values?: bigint[];
  description?: string;
  /** Total prestige, written as a float (wire type 5) unless `prestigeAs` says otherwise. */
  prestige?: number;
  prestigeAs?: "float" | "double" | "varint";
}

function dynastyMessage(d: FixtureDynasty): Chunk {
  const parts: Chunk[] = [pb.varint(1, 1), pb.string(2, d.name)];
  if (d.head !== undefined) parts.push(pb.fixed64(4, d.head));
  if (d.heir !== undefined) parts.push(pb.fixed64(5, d.heir));
  for (const m of d.members ?? []) {
    parts.push(
      pb.message(6, [
        pb.fixed64(1, m.id),
        ...(m.rank !== undefined ? [pb.varint(4, m.rank)] : []),
        ...(m.outcast ? [pb.varint(6, 1)] : []),
        pb.string(99, "a field the reader skips"),
      ]),
    );
  }
  if (d.values?.length) parts.push(pb.packedVarints(7, d.values));
  if (d.description !== undefined) parts.push(pb.string(10, d.description));
  if (d.prestige !== undefined) {
    const as = d.prestigeAs ?? "float";
    if (as === "varint") parts.push(pb.varint(13, d.prestige));
    else {
      const bytes = new Uint8Array(as === "float" ? 4 : 8);
      const view = new DataView(bytes.buffer);
      if (as === "float") view.setFloat32(0, d.prestige, true);
      else view.setFloat64(0, d.prestige, true);
      parts.push(concat([Uint8Array.from(varintBytes(13 * 8 + (as === "float" ? 5 : 1))), bytes]));
    }
  }
  return pb.message(1, parts);
}

function simMessage(sim: FixtureSim): Chunk[] {
  const parts: Chunk[] = [
    pb.fixed64(1, sim.id),
    pb.fixed64(4, sim.householdId),
    pb.string(5, sim.firstName),
    pb.string(6, sim.lastName),
  ];
  if (sim.gender !== undefined) parts.push(pb.varint(7, sim.gender));
  if (sim.age !== undefined) parts.push(pb.varint(8, sim.age));
  if (sim.spouse !== undefined) parts.push(pb.fixed64(15, sim.spouse));
  if (sim.aspiration !== undefined) parts.push(pb.varint(34, sim.aspiration));
  if (sim.fiance !== undefined) parts.push(pb.fixed64(68, sim.fiance));
  if (sim.steadies?.length) parts.push(pb.message(72, [pb.packedFixed64(1, sim.steadies)]));
  if (sim.species !== undefined) parts.push(pb.varint(60, sim.species));
  const attributes: Chunk[] = [pb.string(99, "an unknown field the reader skips")];
  if (sim.traits?.length) attributes.push(pb.message(10, [pb.packedVarints(1, sim.traits)]));
  if (sim.relations?.length) {
    attributes.push(
      pb.message(
        14,
        sim.relations.map(([type, id]) => pb.message(1, [pb.varint(1, type), pb.varint(2, id)])),
      ),
    );
  }
  attributes.push(pb.message(17, [pb.varint(1, sim.occult ?? 1)]));
  parts.push(pb.message(30, attributes));
  return parts;
}

/** SaveGameData with the fields the reader knows, and a few it must skip. */
export function encodeSaveGameData(save: FixtureSave): Uint8Array {
  const slot: Chunk[] = [pb.string(1, "slot name")];
  if (save.activeHouseholdId !== undefined) slot.push(pb.varint(11, save.activeHouseholdId));
  const gameplay: Chunk[] = [pb.varint(1, 7)];
  if (save.dynasties?.length) gameplay.push(pb.message(60, save.dynasties.map(dynastyMessage)));
  if (save.treeNodes?.length) {
    const nodes = save.treeNodes.map((n) =>
      pb.message(1, [
        pb.varint(1, n.id),
        pb.string(2, n.firstName),
        pb.string(3, n.lastName),
        ...(n.gender !== undefined ? [pb.varint(8, n.gender)] : []),
        pb.varint(9, n.culled === false ? 0 : 1),
      ]),
    );
    gameplay.push(pb.message(62, [pb.message(1, nodes)]));
  }
  if (gameplay.length > 1) slot.push(pb.message(8, gameplay));
  return concat([
    pb.varint(1, 12345),
    pb.message(2, slot),
    ...(save.account
      ? [pb.message(3, [pb.varint(1, save.account.id), pb.string(2, save.account.persona)])]
      : []),
    ...save.households.map((h) =>
      pb.message(5, [pb.varint(1, 1), pb.fixed64(2, h.id), pb.string(3, h.name)]),
    ),
    ...save.sims.map((s) => pb.message(6, simMessage(s))),
    pb.varint(1000, 42),
  ]);
}

/** RefPack: literal runs and 3-byte copy codes found by a 4-byte hash. */
export function refpackCompress(data: Uint8Array): Uint8Array {
  const out: number[] = [
    0x10,
    0xfb,
    (data.length >> 16) & 0xff,
    (data.length >> 8) & 0xff,
    data.length & 0xff,
  ];
  if (data.length > 0xffffff) throw new Error("fixture too large");
  const table = new Map<number, number>();
  let pos = 0;
  let literalStart = 0;
  const flushLiterals = (end: number, keep: number) => {
    // emits literals down to `keep` (0-3) bytes, which travel with the next code
    while (end - literalStart - keep >= 4) {
      const n = Math.min(112, (end - literalStart - keep) & ~3);
      out.push(0xe0 + (n >> 2) - 1, ...data.subarray(literalStart, literalStart + n));
      literalStart += n;
    }
  };
  while (pos + 4 <= data.length) {
    const key =
      data[pos]! | (data[pos + 1]! << 8) | (data[pos + 2]! << 16) | (data[pos + 3]! << 24);
    const candidate = table.get(key);
    table.set(key, pos);
    if (candidate !== undefined && pos - candidate <= 16384) {
      let length = 0;
      while (
        length < 67 &&
        pos + length < data.length &&
        data[candidate + length] === data[pos + length]
      )
        length += 1;
      if (length >= 4) {
        flushLiterals(pos, (pos - literalStart) & 3);
        const plain = pos - literalStart;
        const offset = pos - candidate - 1;
        out.push(0x80 | (length - 4), (plain << 6) | (offset >> 8), offset & 0xff);
        out.push(...data.subarray(literalStart, pos));
        pos += length;
        literalStart = pos;
        continue;
      }
    }
    pos += 1;
  }
  flushLiterals(data.length, (data.length - literalStart) & 3);
  const rest = data.length - literalStart;
  out.push(0xfc + rest, ...data.subarray(literalStart));
  return Uint8Array.from(out);
}

export type FixtureCompression = "none" | "zlib" | "refpack";

export interface FixtureResource {
  type: number;
  group?: number;
  instance?: bigint;
  data: Uint8Array;
  compression?: FixtureCompression;
}

/** A DBPF 2.1 package; `flags` says which of type, group, instance-high, instance-low are stored once. */
export function writeDbpf(resources: FixtureResource[], flags = 2): Uint8Array {
  const bodies = resources.map((r) => {
    const compression = r.compression ?? "none";
    const stored =
      compression === "zlib"
        ? deflateSync(r.data)
        : compression === "refpack"
          ? refpackCompress(r.data)
          : r.data;
    return {
      ...r,
      stored,
      code: compression === "zlib" ? 0x5a42 : compression === "refpack" ? 0xffff : 0,
    };
  });
  const header = new Uint8Array(96);
  const chunks: Uint8Array[] = [header];
  let at = 96;
  const offsets: number[] = [];
  for (const b of bodies) {
    offsets.push(at);
    chunks.push(b.stored);
    at += b.stored.length;
  }
  const first = resources[0];
  const constants = [
    flags & 1 ? (first?.type ?? 0) : null,
    flags & 2 ? (first?.group ?? 0) : null,
    flags & 4 ? Number((first?.instance ?? 0n) >> 32n) : null,
    flags & 8 ? Number((first?.instance ?? 0n) & 0xffffffffn) : null,
  ];
  const index: number[] = [flags, ...constants.filter((c): c is number => c !== null)];
  bodies.forEach((b, i) => {
    const values = [
      b.type,
      b.group ?? 0,
      Number((b.instance ?? 0n) >> 32n),
      Number((b.instance ?? 0n) & 0xffffffffn),
    ];
    values.forEach((v, k) => {
      if (constants[k] === null) index.push(v);
    });
    index.push(offsets[i]!, (b.stored.length | 0x80000000) >>> 0, b.data.length);
    index.push(-1); // compression + committed, filled below
  });
  const indexBytes = new Uint8Array(index.length * 4);
  const view = new DataView(indexBytes.buffer);
  let entry = 0;
  index.forEach((v, i) => {
    if (v === -1) {
      const b = bodies[entry++]!;
      view.setUint16(i * 4, b.code, true);
      view.setUint16(i * 4 + 2, 1, true);
    } else view.setUint32(i * 4, v >>> 0, true);
  });
  const h = new DataView(header.buffer);
  header.set([0x44, 0x42, 0x50, 0x46]);
  h.setUint32(4, 2, true);
  h.setUint32(8, 1, true);
  h.setUint32(0x24, resources.length, true);
  h.setUint32(0x2c, indexBytes.length, true);
  h.setUint32(0x40, at, true);
  chunks.push(indexBytes);
  return concat(chunks);
}

/** A .save: SaveGameData (type 0x0D) beside another resource, compressed as asked. */
export function writeSave(
  save: FixtureSave,
  options: { compression?: FixtureCompression; flags?: number } = {},
): Uint8Array {
  const compression = options.compression ?? "refpack";
  return writeDbpf(
    [
      {
        type: 0x0000000d,
        group: 0,
        instance: 0x1234n,
        data: encodeSaveGameData(save),
        compression,
      },
      {
        type: (options.flags ?? 2) & 1 ? 0x0000000d : 0x3bd45407,
        group: 0,
        instance: 0x99n,
        data: new TextEncoder().encode("thumbnail"),
        compression: "none",
      },
    ],
    options.flags ?? 2,
  );
}

export interface FixtureTraySim {
  id: bigint;
  firstName: string;
  lastName: string;
  gender?: number;
  age?: number;
  traits?: number[];
  traitNames?: string[];
  aspirationName?: string;
  relations?: [number, bigint][];
  occult?: number;
}

/** A .trayitem: the 8-byte header and TrayMetadata with one household. */
export function writeTrayItem(item: {
  id: bigint;
  name: string;
  sims: FixtureTraySim[];
}): Uint8Array {
  const sims = item.sims.map((s) =>
    pb.message(2, [
      ...(s.traits?.length ? [pb.message(1, [pb.packedVarints(1, s.traits)])] : []),
      pb.string(3, s.firstName),
      pb.string(4, s.lastName),
      pb.varint(5, s.id),
      ...(s.gender !== undefined ? [pb.varint(6, s.gender)] : []),
      ...(s.relations ?? []).map(([type, id]) =>
        pb.message(8, [pb.varint(1, type), pb.varint(2, id)]),
      ),
      ...(s.age !== undefined ? [pb.varint(9, s.age)] : []),
      ...(s.traitNames ?? []).map((name) => pb.message(10, [pb.string(2, name)])),
      ...(s.aspirationName ? [pb.message(11, [pb.string(2, s.aspirationName)])] : []),
      pb.varint(14, s.occult ?? 1),
    ]),
  );
  const payload = concat([
    pb.varint(1, item.id),
    pb.varint(2, 2),
    pb.string(4, item.name),
    pb.message(10, [pb.message(2, [pb.varint(1, item.sims.length), ...sims])]),
  ]);
  const header = new Uint8Array(8);
  new DataView(header.buffer).setUint32(0, 2, true);
  new DataView(header.buffer).setUint32(4, payload.length, true);
  return concat([header, payload]);
}

/**
 * Issue 32, finding 2: a save in which one mother has `children` children (99,990 by default),
 * each naming her in its genealogy (about 7 MB of SaveGameData, some 200 KB with zlib). The graph added
 * children with Array.includes, so this took 30-49 s of worker time; bench/stall can use it.
 */
export function manyChildrenSave(children = 99_990): Uint8Array {
  const base = 2n ** 60n;
  const household = base + 1_000_000n;
  const mother = base + 1n;
  const head = encodeSaveGameData({
    activeHouseholdId: household,
    households: [{ id: household, name: "Many" }],
    sims: [
      {
        id: mother,
        householdId: household,
        firstName: "Mother",
        lastName: "Many",
        gender: 8192,
        age: 32,
      },
    ],
  });
  // every child's message is the same but for its id (the first field, a fixed64 at byte 3):
  // written once, copied and patched, which is much faster than encoding each
  const child = (n: bigint) =>
    pb.message(
      6,
      simMessage({
        id: n,
        householdId: household,
        firstName: "Child",
        lastName: "Many",
        age: 4,
        relations: [[0, mother]],
      }),
    );
  const template = child(base + 10n);
  const out = new Uint8Array(head.length + template.length * children);
  out.set(head);
  const view = new DataView(out.buffer);
  const idAt = template.findIndex((_, i) => i > 0 && template[i - 1] === 0x09);
  for (let i = 0; i < children; i += 1) {
    const at = head.length + i * template.length;
    out.set(template, at);
    view.setBigUint64(at + idAt, base + 10n + BigInt(i), true);
  }
  // zlib, not RefPack: this writer's RefPack is plain JavaScript and slow on 7 MB
  return writeDbpf([{ type: 0x0000000d, instance: 0x1234n, data: out, compression: "zlib" }]);
}

/**
 * Issue 32, finding 6: a save whose one Sim repeats SimData field 72 (steady partners) `messages`
 * times, each with `perMessage` partner ids: 3,900 x 2,000 = 7.8 million ids, about 62 MB of
 * SaveGameData that zlib packs into some 70 KB. The reader capped each field, not their sum.
 */
export function manySteadiesSave(messages = 3_900, perMessage = 2_000): Uint8Array {
  const base = 2n ** 60n;
  const household = base + 1_000_000n;
  const ids = new Uint8Array(perMessage * 8);
  const view = new DataView(ids.buffer);
  // one partner named over and over: zlib packs it about 1,000 to 1 (a 62 MB resource, ~70 KB)
  for (let i = 0; i < perMessage; i += 1) view.setBigUint64(i * 8, base + 100n, true);
  const steady = pb.message(72, [pb.bytes(1, ids)]);
  const sim = pb.concat([
    pb.fixed64(1, base + 1n),
    pb.fixed64(4, household),
    pb.string(5, "Steady"),
    pb.string(6, "Many"),
    ...Array.from({ length: messages }, () => steady),
  ]);
  const data = pb.concat([
    pb.message(2, [pb.varint(11, household)]),
    pb.message(5, [pb.fixed64(2, household), pb.string(3, "Steadies")]),
    pb.bytes(6, sim),
  ]);
  return writeDbpf([{ type: 0x0000000d, instance: 0x1234n, data, compression: "zlib" }]);
}
