import "server-only";
import { z } from "zod";
import { imageName, objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { logger } from "@/lib/server/logger";
import { getStorage } from "@/lib/server/storage";
import { readStream } from "@/lib/server/storage/storage";
import { variantKey } from "./delete-upload-files";
import { getResizedImage } from "./get-resized-image";

/** The avatar sizes the bundle is made at (the variants the image export embeds). */
export const TREE_AVATAR_SIZES = ["100x100", "200x200"] as const;
export type TreeAvatarSize = (typeof TREE_AVATAR_SIZES)[number];

export const treeAvatarsQuery = z.object({
  size: z
    .enum(TREE_AVATAR_SIZES, { error: `size must be one of ${TREE_AVATAR_SIZES.join(", ")}` })
    .default("100x100"),
});

const TREE_NOT_FOUND = "Tree not found";
/**
 * Avatars read (or made) at once. Making a missing variant is CPU work for sharp (about 2-3 ms
 * for a small avatar); 16 or 32 at a time measured no faster than 8 on two cores.
 */
export const TREE_AVATAR_CONCURRENCY = 8;

/** The stored names of the avatars of a tree's people, each once, in a stable order. */
export async function treeAvatarNames(ownerId: string, treeId: string): Promise<string[]> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const tree = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: { id: true },
  });
  if (!tree) throw notFound(TREE_NOT_FOUND);
  const rows = await db.person.findMany({
    where: { treeId, avatar: { not: null } },
    select: { avatar: true },
    distinct: ["avatar"],
    orderBy: { avatar: "asc" },
  });
  return rows
    .map((row) => row.avatar)
    .filter((name): name is string => name !== null && imageName.safeParse(name).success);
}

/** One avatar at `size` as a data: URI: the cached variant, or made now; null when it is gone. */
async function avatarDataUri(size: TreeAvatarSize, name: string): Promise<string | null> {
  try {
    const cached = await getStorage().get(variantKey(size, name));
    let bytes: Buffer;
    let contentType: string;
    if (cached) {
      bytes = await cached.bytes();
      contentType = cached.contentType;
    } else {
      const made = await getResizedImage(size, name);
      bytes = Buffer.isBuffer(made.body) ? made.body : await readStream(made.body);
      contentType = made.contentType;
    }
    return `data:${contentType};base64,${bytes.toString("base64")}`;
  } catch (error) {
    // A missing original answers 404 from getResizedImage; anything else is logged. Either way
    // the avatar is left out and the client draws the default one in its place.
    if (!(error instanceof ApiError)) {
      logger.warn({ err: error, image: name }, "tree avatars: image could not be read");
    }
    return null;
  }
}

/**
 * Every distinct avatar of the owner's tree at `size`, as the JSON text
 * `{"avatars":{"<image name>":"data:<type>;base64,…"}}`, streamed as the images are read: a few
 * at a time, in order, so memory stays bounded however many there are. Images that cannot be
 * read are left out. 404 when the tree is not the owner's (checked before anything is sent).
 */
export async function getTreeAvatars(
  ownerId: string,
  treeId: string,
  size: TreeAvatarSize,
): Promise<ReadableStream<Uint8Array>> {
  const names = await treeAvatarNames(ownerId, treeId);
  const encoder = new TextEncoder();
  const pending: Promise<string | null>[] = [];
  let started = 0;
  let sent = 0;
  let first = true;
  const startNext = () => {
    while (started < names.length && pending.length < TREE_AVATAR_CONCURRENCY) {
      pending.push(avatarDataUri(size, names[started]!));
      started += 1;
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"avatars":{'));
      startNext();
    },
    // Each pull enqueues something (a stream whose pull enqueues nothing is not pulled again).
    async pull(controller) {
      while (sent < names.length) {
        const uri = await pending.shift()!;
        const name = names[sent]!;
        sent += 1;
        startNext();
        if (uri !== null) {
          controller.enqueue(
            encoder.encode(`${first ? "" : ","}${JSON.stringify(name)}:${JSON.stringify(uri)}`),
          );
          first = false;
          return;
        }
      }
      controller.enqueue(encoder.encode("}}"));
      controller.close();
    },
  });
}
