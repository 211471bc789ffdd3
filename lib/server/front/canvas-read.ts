// GET /api/trees/{id}?fields=canvas in the fast read (ADR 038, "Later"): the editor's one read,
// put together from parts this process keeps, so that what it reads from the database follows
// what changed since the last read, not the size of the tree.
//
// Per tree, the front keeps its people part (by people generation) with the ids in it, the top of
// its tree part (the row's keys and the top of the structure, by tree generation) and each
// chunk's text (ADR 037, by chunk key and row version), with references written as positions in
// those ids. A read with nothing of the tree part changed reads the people part alone; otherwise
// it reads the tree's head (its small row, the top of its structure and every chunk's key and
// version: one primary-key row) and then only the chunks a save rewrote (a one-child patch: one).
// The answer is joined in JavaScript as `heirloom_tree_text` joins it in SQL, byte for byte the
// route handler's. Loaded outside Next's bundle: no "server-only" module may be imported here.
import { setImmediate } from "node:timers/promises";
import { LRUCache } from "lru-cache";
import type { FrontDb } from "./front-db";
import { type DeflatedPart, deflateLast, deflateMiddle, gzipOf } from "./gzip-parts";
import {
  TREE_CANVAS_HEAD_FOR_SESSION_SQL,
  TREE_CANVAS_HEAD_IDS_FOR_SESSION_SQL,
  TREE_CANVAS_JSON_FOR_SESSION_SQL,
  TREE_CANVAS_PEOPLE_PART_FOR_SESSION_SQL,
} from "../sql/reads";
import { type CutText, cutAtChunks, joinChunks } from "../trees/chunk-text";
import {
  indexJsonbRefs,
  indexTreeRefs,
  listedIds,
  positionsOf,
  withPeopleList,
} from "../trees/ref-names";

/** The editor's tree as GET /api/trees/{id}?fields=canvas answers it, and its cache key. */
export interface CanvasAnswer {
  json: string;
  /** The same gzipped (level 1), from the parts' deflated forms, made once and kept with them. */
  gzip(): Promise<Buffer>;
  version: number;
  detailsVersion: number;
  /** The tree's body generation (tree + people generations): the gzipped body's cache key. */
  generation: number;
}

/** How many bytes of chunks are indexed between two turns of the event loop. */
const YIELD_EVERY_BYTES = 256 * 1024;

/** The token's claims: username, session id, account id (fast-reads.ts claimsOf). */
export type Claims = [string, string, string];

/** What the caller read of the tree just before, in one snapshot (the body cache's check). */
export interface KnownTree {
  treeGeneration: number;
  peopleGeneration: number;
  version: number;
  detailsVersion: number;
}

interface KeptPeople {
  generation: number;
  json: string;
  ids: readonly string[];
  /** Each id's position (positionsOf), made when a read first indexes a text against them. */
  positions?: Map<string, number>;
  /** The answer's end, `,"people":[…]}`, deflated: made when a gzipped answer first wants it. */
  tail?: Promise<DeflatedPart>;
}

/** A text with its references as positions in the kept people's ids, cut at placeholders. */
interface KeptPiece {
  pieces: CutText;
  /** References left as stored (to nobody in those ids). */
  unresolved: number;
  bytes: number;
}

interface KeptTree {
  /** The people part of the last read: every piece here was indexed against its ids. */
  people: KeptPeople;
  /** The tree generation the top was read at. */
  treeGeneration: number;
  /** `head`, the top of the structure and `tail` (TREE_CANVAS_HEAD_FOR_SESSION_SQL). */
  top: KeptPiece;
  /** Each chunk by key, with the row version it was read at. */
  chunks: Map<number, KeptChunk>;
  /** The answer up to its people (the tree part joined, without its closing brace), once made. */
  open?: string;
  /** …and deflated, when a gzipped answer first wants it. */
  openPart?: Promise<DeflatedPart>;
}

type KeptChunk = KeptPiece & { xmin: string };

/** TREE_CANVAS_HEAD_FOR_SESSION_SQL's rows: the head (`key` null), then the chunks not kept. */
interface HeadRow extends Record<string, unknown> {
  key: number | null;
  xmin: string | null;
  text: string | null;
  head: string;
  root: string;
  tail: string;
  chunks: string | null;
  ids: string | null;
  version: number;
  detailsVersion: number;
  treeGeneration: number;
  peopleGeneration: number;
}

interface PeopleRow extends Record<string, unknown> {
  json: string;
  generation: number;
  treeGeneration: number;
  version: number;
  detailsVersion: number;
}

/**
 * Whether pieces indexed against the `kept` ids are right for `ids`: every kept id is at the
 * same position in the new list (a rename, an edit or a new Sim moves no one). A reference left as
 * stored then still is only while the list is the very same (a longer one may now hold it).
 */
function indexedStill(kept: readonly string[] | undefined, ids: readonly string[]) {
  const leads = kept !== undefined && (kept === ids || kept.every((id, i) => ids[i] === id));
  const same = leads && kept.length === ids.length;
  return (piece: KeptPiece | undefined) =>
    piece !== undefined && leads && (piece.unresolved === 0 || same);
}

/** `key:xmin,…` (TREE_CANVAS_HEAD_FOR_SESSION_SQL) → each chunk's version by key. */
function chunkVersions(list: string | null): Map<number, string> {
  const versions = new Map<number, string>();
  if (!list) return versions;
  for (const entry of list.split(",")) {
    const at = entry.indexOf(":");
    versions.set(Number(entry.slice(0, at)), entry.slice(at + 1));
  }
  return versions;
}

/** A text indexed against `people`'s ids and cut at its placeholders. */
function indexPiece(text: string, people: KeptPeople): KeptPiece {
  const indexed = indexJsonbRefs(text, (people.positions ??= positionsOf(people.ids)));
  return { pieces: cutAtChunks(indexed.text), unresolved: indexed.unresolved, bytes: text.length };
}

/**
 * Whether a people part is of the head's snapshot: the same tree and people generations (both
 * only grow, and every write to the tree or its people bumps one). Otherwise a write came between
 * them, and the caller reads the one statement.
 */
const sameSnapshot = (part: PeopleRow, treeGeneration: number, peopleGeneration: number) =>
  Number(part.treeGeneration) === treeGeneration &&
  Number(part.generation) - Number(part.treeGeneration) === peopleGeneration;

/** The answer's end after its tree part: the people list as its last key. */
const peopleTail = (json: string) => Buffer.from(`,"people":${json}}`);

/** `made`, which forgets itself (`forget`) should it fail (memory): the next answer tries again. */
function unlessFailed<T>(made: Promise<T>, forget: () => void): Promise<T> {
  return made.catch((error: unknown) => {
    forget();
    throw error;
  });
}

/**
 * The people's deflated tail, made once for as long as they are kept (or the one `started` as
 * their part came), and forgotten should it fail.
 */
const tailOf = (people: KeptPeople, started?: Promise<DeflatedPart>) =>
  (people.tail ??= unlessFailed(started ?? deflateLast(peopleTail(people.json)), () => {
    people.tail = undefined;
  }));

const peopleOf = (row: PeopleRow, generation: number): KeptPeople => ({
  generation,
  json: row.json,
  ids: listedIds(row.json),
});

export interface CanvasReaderOptions {
  db: FrontDb;
  /** How many bytes of trees' parts to keep (0 keeps none: every read reads every part). */
  keepBytes: number;
}

export type CanvasReader = (
  treeId: string,
  claims: Claims,
  known?: KnownTree,
  /** The answer will be gzipped: the people's part is deflated as soon as it is read. */
  gzip?: boolean,
) => Promise<CanvasAnswer | undefined>;

export function createCanvasReader({ db, keepBytes }: CanvasReaderOptions): CanvasReader {
  const kept =
    keepBytes > 0
      ? new LRUCache<string, KeptTree>({
          maxSize: keepBytes,
          maxEntrySize: keepBytes / 4,
          // text lengths, and the deflated parts' bytes kept with them (the people's tail twice:
          // its bytes are kept for the gzip trailer's checksum), estimated when the tree is kept
          sizeCalculation: (tree) => {
            const people = tree.people.json.length;
            let bytes = 2.2 * people + 40 * tree.people.ids.length + 1.2 * tree.top.bytes;
            for (const chunk of tree.chunks.values()) bytes += 1.2 * chunk.bytes;
            return Math.ceil(bytes);
          },
        })
      : null;

  const readPeople = async (treeId: string, claims: Claims) =>
    (
      await db.query<PeopleRow>(
        "tree_canvas_people_part",
        TREE_CANVAS_PEOPLE_PART_FOR_SESSION_SQL,
        [treeId, ...claims],
      )
    )[0];

  /** The one statement, one snapshot: when the parts were read across a write. */
  async function readWhole(treeId: string, claims: Claims): Promise<CanvasAnswer | undefined> {
    const rows = await db.query<{
      json: string;
      people: string;
      version: number;
      detailsVersion: number;
      generation: number;
    }>("tree_canvas_json", TREE_CANVAS_JSON_FOR_SESSION_SQL, [treeId, ...claims]);
    const row = rows[0];
    if (!row) return undefined;
    const json = withPeopleList(indexTreeRefs(row.json, listedIds(row.people)), row.people);
    return {
      json,
      gzip: async () => gzipOf([await deflateLast(Buffer.from(json))]),
      version: row.version,
      detailsVersion: row.detailsVersion,
      generation: Number(row.generation),
    };
  }

  /** The answer from a tree part's pieces and the people they were indexed against. */
  function answer(
    treeId: string,
    tree: KeptTree,
    row: { version: number; detailsVersion: number },
  ): CanvasAnswer | null {
    if (tree.open === undefined) {
      const chunks = new Map<number, CutText>();
      for (const [key, chunk] of tree.chunks) chunks.set(key, chunk.pieces);
      const open = joinChunks(tree.top.pieces, chunks);
      if (open === null) return null;
      tree.open = open;
    }
    const open = tree.open;
    kept?.set(treeId, tree);
    const { people } = tree;
    return {
      json: withPeopleList({ open, unresolved: 0 }, people.json),
      // the tree part and the people deflated at once, on two of libuv's threads
      gzip: async () => {
        tree.openPart ??= unlessFailed(deflateMiddle(Buffer.from(open)), () => {
          tree.openPart = undefined;
        });
        return gzipOf(await Promise.all([tree.openPart, tailOf(people)]));
      },
      version: row.version,
      detailsVersion: row.detailsVersion,
      generation: tree.treeGeneration + tree.people.generation,
    };
  }

  /**
   * The tree part is the one kept (the caller read its generation): the people part alone, when
   * the kept people are not current, and no statement at all when they are. Undefined when the
   * kept pieces do not serve after all (the general path then reads), null for no tree.
   */
  async function fromKeptTree(
    treeId: string,
    claims: Claims,
    before: KeptTree,
    known: KnownTree,
    gzip: boolean,
  ): Promise<CanvasAnswer | null | undefined> {
    let people = before.people;
    let row: { version: number; detailsVersion: number } = known;
    if (people.generation !== known.peopleGeneration) {
      const part = await readPeople(treeId, claims);
      if (!part) return null;
      if (Number(part.treeGeneration) !== before.treeGeneration) return undefined;
      people = peopleOf(part, Number(part.generation) - Number(part.treeGeneration));
      if (gzip) void tailOf(people).catch(() => undefined);
      const still = indexedStill(before.people.ids, people.ids);
      if (!still(before.top) || ![...before.chunks.values()].every(still)) return undefined;
      row = part;
    }
    return answer(treeId, { ...before, people }, row) ?? undefined;
  }

  return async (treeId, claims, known, gzip = false) => {
    const before = kept?.get(treeId);
    if (before && known?.treeGeneration === before.treeGeneration) {
      const fromKept = await fromKeptTree(treeId, claims, before, known, gzip);
      if (fromKept !== undefined) return fromKept ?? undefined;
    }
    // The people part is most of a fresh read. Unless the kept one is current (as far as the
    // caller knows), it is asked for at once: PostgreSQL reads it on another connection, the
    // embedded database right after the head, while the chunks are indexed here against the ids
    // the head read with them.
    const peopleKept =
      before && (known === undefined || before.people.generation === known.peopleGeneration);
    const [name, text] = peopleKept
      ? ["tree_canvas_head", TREE_CANVAS_HEAD_FOR_SESSION_SQL]
      : ["tree_canvas_head_ids", TREE_CANVAS_HEAD_IDS_FOR_SESSION_SQL];
    const keptChunks = [...(before?.chunks ?? [])].map(([key, chunk]) => `${key}:${chunk.xmin}`);
    const rows = db.query<HeadRow>(name, text, [treeId, ...claims, keptChunks.join(",")]);
    // (a gzipped answer's people are deflated on another thread as soon as they come)
    let tail: Promise<DeflatedPart> | undefined;
    const early = peopleKept
      ? undefined
      : readPeople(treeId, claims).then((part) => {
          if (part && gzip) {
            tail = deflateLast(peopleTail(part.json));
            tail.catch(() => undefined);
          }
          return part;
        });
    early?.catch(() => undefined);

    const read = await rows;
    const head = read.find((row) => row.key === null);
    if (!head) return undefined;
    const treeGeneration = Number(head.treeGeneration);
    const peopleGeneration = Number(head.peopleGeneration);

    // the people the pieces are indexed against: the kept ones, the ids read with the head, or
    // (the kept ones not current after all) the people part read now
    let people: KeptPeople | undefined =
      before?.people.generation === peopleGeneration ? before.people : undefined;
    if (!people && peopleKept) {
      const part = await readPeople(treeId, claims);
      if (!part) return undefined;
      if (!sameSnapshot(part, treeGeneration, peopleGeneration)) return readWhole(treeId, claims);
      people = peopleOf(part, peopleGeneration);
      if (gzip) void tailOf(people).catch(() => undefined);
    }
    const ids = people?.ids ?? head.ids?.split(",") ?? [];
    const into: KeptPeople = people ?? { generation: peopleGeneration, json: "", ids };

    const still = indexedStill(before?.people.ids, ids);
    const top =
      before?.treeGeneration === treeGeneration && still(before.top)
        ? before.top
        : // the head and the tail hold no reference (strings, the heirs' ids as strings), but
          // they are indexed with the top of the structure as one text, as the whole read does
          indexPiece(`${head.head}${head.root}${head.tail}`, into);
    const fresh = new Map<number, KeptChunk>();
    let since = 0;
    for (const row of read) {
      if (row.key === null) continue;
      fresh.set(Number(row.key), { ...indexPiece(row.text!, into), xmin: row.xmin! });
      // a turn of the event loop every 256 kB or so: the chunks of a structure at its limit
      // (16 MB) would otherwise hold every other request for some 80 ms
      since += row.text!.length;
      if (since >= YIELD_EVERY_BYTES) {
        since = 0;
        await setImmediate();
      }
    }
    const chunks: KeptTree["chunks"] = new Map();
    for (const [key, xmin] of chunkVersions(head.chunks)) {
      const held = before?.chunks.get(key);
      const chunk = fresh.get(key) ?? (held?.xmin === xmin && still(held) ? held : undefined);
      // a kept chunk indexed against a list in which a Sim has moved since: nothing kept of the
      // tree serves, and the one statement answers
      if (!chunk) {
        kept?.delete(treeId);
        return readWhole(treeId, claims);
      }
      chunks.set(key, chunk);
    }

    if (!people) {
      const part = await early!;
      if (!part) return undefined;
      if (!sameSnapshot(part, treeGeneration, peopleGeneration)) return readWhole(treeId, claims);
      // the same generations: the very people whose ids the head read, in that order
      people = { ...into, json: part.json };
      if (tail) void tailOf(people, tail).catch(() => undefined);
    }
    return (
      answer(treeId, { people, treeGeneration, top, chunks }, head) ?? readWhole(treeId, claims)
    );
  };
}
