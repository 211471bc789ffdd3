// Whether bytes are a Sims 4 save or tray item, with no dependency (lib/import/detect.ts runs it,
// and the reader is loaded only for the files that need it).

/** True when the bytes start like a DBPF package ("DBPF"). */
export function looksLikeDbpf(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x44 &&
    bytes[1] === 0x42 &&
    bytes[2] === 0x50 &&
    bytes[3] === 0x46
  );
}

export const TRAY_HEADER = 8;

export function u32le(bytes: Uint8Array, at: number): number {
  return (
    (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0
  );
}

/**
 * True when the bytes look like a tray item: an 8-byte header (two u32; whatever the first one
 * says) whose second value is the length of the rest, then a protobuf field tag.
 */
export function looksLikeTrayItem(bytes: Uint8Array): boolean {
  if (bytes.length < TRAY_HEADER + 2) return false;
  const tag = bytes[TRAY_HEADER]!;
  return (
    u32le(bytes, 4) === bytes.length - TRAY_HEADER && tag >= 0x08 && [0, 1, 2, 5].includes(tag & 7)
  );
}

export function looksLikeSims4(bytes: Uint8Array): boolean {
  return looksLikeDbpf(bytes) || looksLikeTrayItem(bytes);
}

/** What a player is told when a file given as a save is not one. */
export const NOT_A_SAVE =
  "This file is not a Sims 4 save or tray item. Choose a Slot_0000000N.save file from the game's saves folder, or a .trayitem from its Tray folder.";
