// Real avatar images for the seeded people: small photos-like JPEGs and PNGs (gradients and
// noise, so they compress like real pictures), written where local-disk storage keeps uploads.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { createRandom, randomHexId } from "./random";

export interface SeedAvatar {
  /** The upload's name, e.g. "avatar/0b1c….jpg": its storage key and Upload id. */
  name: string;
  contentType: "image/jpeg" | "image/png";
  width: number;
  height: number;
}

const SIDE = 480;

/** The name and type of the `index`th avatar of a seed; every third one is a PNG. */
export function seedAvatar(seed: number, index: number): SeedAvatar {
  const rand = createRandom((seed * 7919 + index * 104_729) >>> 0);
  const png = index % 3 === 2;
  return {
    name: `avatar/${randomHexId(rand)}.${png ? "png" : "jpg"}`,
    contentType: png ? "image/png" : "image/jpeg",
    width: SIDE,
    height: SIDE,
  };
}

/** The bytes of an avatar, from its name: the same name always gives the same picture. */
export async function renderAvatar(avatar: SeedAvatar): Promise<Buffer> {
  let hash = 0;
  for (const char of avatar.name) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  const rand = createRandom(hash);
  const [r0, g0, b0, r1, g1, b1] = Array.from({ length: 6 }, () => Math.floor(rand() * 256));
  const pixels = Buffer.alloc(avatar.width * avatar.height * 3);
  for (let y = 0; y < avatar.height; y += 1) {
    for (let x = 0; x < avatar.width; x += 1) {
      const t = (x + y) / (avatar.width + avatar.height);
      const noise = (rand() - 0.5) * 40;
      const offset = (y * avatar.width + x) * 3;
      pixels[offset] = Math.max(0, Math.min(255, r0! + (r1! - r0!) * t + noise));
      pixels[offset + 1] = Math.max(0, Math.min(255, g0! + (g1! - g0!) * t + noise));
      pixels[offset + 2] = Math.max(0, Math.min(255, b0! + (b1! - b0!) * t + noise));
    }
  }
  const image = sharp(pixels, { raw: { width: avatar.width, height: avatar.height, channels: 3 } });
  return avatar.contentType === "image/png"
    ? image.png().toBuffer()
    : image.jpeg({ quality: 85 }).toBuffer();
}

/**
 * Writes the avatars under `uploadsDir` (as LocalDiskStorage does: temp file, then rename) unless
 * a file is already there; answers each avatar's size in bytes.
 */
export async function writeAvatarFiles(
  uploadsDir: string,
  avatars: readonly SeedAvatar[],
): Promise<number[]> {
  await fs.mkdir(path.join(uploadsDir, "avatar"), { recursive: true });
  const sizes: number[] = [];
  for (const avatar of avatars) {
    const full = path.join(uploadsDir, avatar.name);
    const existing = await fs.stat(full).catch(() => null);
    if (existing?.isFile()) {
      sizes.push(existing.size);
      continue;
    }
    const bytes = await renderAvatar(avatar);
    const temporary = `${full}.${randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, full);
    sizes.push(bytes.length);
  }
  return sizes;
}
