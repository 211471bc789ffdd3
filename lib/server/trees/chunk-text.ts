// A stored structure's text put together from its parts in JavaScript, as `heirloom_tree_text`
// does in SQL (migration tree_chunks, ADR 037): the fast read of the editor's tree keeps each
// chunk's text between reads and asks the database only for the chunks that changed
// (lib/server/front/canvas-read.ts). Loaded by the front outside Next's bundle: no "server-only".

/**
 * A placeholder in jsonb's text form, `{"$chunk": 12}`. Nothing else in a stored structure is an
 * object with the one key `$chunk`, and inside a string a quote is written `\"`, so this matches
 * placeholders and nothing else (the SQL function cuts at the same text).
 */
const PLACEHOLDER = /\{"\$chunk": (-?\d+)\}/g;

/**
 * A text cut at its placeholders: texts at even positions, the chunk keys between them at odd
 * ones (`["{…", 3, "…", 7, "…}"]`); a text without placeholders is one piece.
 */
export type CutText = readonly (string | number)[];

export function cutAtChunks(text: string): CutText {
  const pieces: (string | number)[] = [];
  let from = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    pieces.push(text.slice(from, match.index), Number(match[1]));
    from = match.index + match[0].length;
  }
  pieces.push(from === 0 ? text : text.slice(from));
  return pieces;
}

/**
 * The whole text: `top` with each placeholder replaced by its chunk's text, the chunks' own
 * placeholders likewise, to any depth (without recursion, so a deep legacy's chain of chunks
 * costs no stack). Null when a placeholder names a chunk that is not in `chunks`, or a chunk is
 * reached twice: parts that are not one stored structure (read across a save), which the caller
 * reads again whole. Chunks that nothing reaches are left out, as the SQL function leaves them.
 */
export function joinChunks(top: CutText, chunks: ReadonlyMap<number, CutText>): string | null {
  const out: string[] = [];
  const reached = new Set<number>();
  const stack: { pieces: CutText; at: number }[] = [{ pieces: top, at: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.at === frame.pieces.length) {
      stack.pop();
      continue;
    }
    const piece = frame.pieces[frame.at]!;
    frame.at += 1;
    if (typeof piece === "string") {
      out.push(piece);
      continue;
    }
    const chunk = chunks.get(piece);
    if (!chunk || reached.has(piece)) return null;
    reached.add(piece);
    stack.push({ pieces: chunk, at: 0 });
  }
  return out.join("");
}

