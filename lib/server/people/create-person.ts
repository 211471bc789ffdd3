import "server-only";
import type { CreatePersonBody } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import { sanitizeRichText } from "@/lib/server/sanitize";
import { TREE_NOT_FOUND } from "@/lib/server/trees/get-tree";
import { asJson } from "@/lib/server/trees/serialize";
import { claimUploads } from "@/lib/server/uploads/claim-uploads";
import { type TaggedPerson, personSelect, taggedPerson } from "./serialize";

/** Adds a person to the owner's tree. Links are set separately (PUT {links}). */
export async function createPerson(ownerId: string, body: CreatePersonBody): Promise<TaggedPerson> {
  return db.$transaction(async (tx) => {
    const tree = await tx.tree.findFirst({
      where: { id: body.tree, ownerId, deletedAt: null },
      select: { id: true },
    });
    if (!tree) throw notFound(TREE_NOT_FOUND);
    await claimUploads(tx, ownerId, [body.avatar]);
    const row = await tx.person.create({
      data: {
        treeId: tree.id,
        avatar: body.avatar,
        firstName: body.firstName,
        lastName: body.lastName,
        bio: sanitizeRichText(body.bio),
        traits: body.traits,
        aspirations: body.aspirations,
        lifeStates: body.lifeStates,
        custom: asJson(body.custom),
        gameId: body.gameId ?? null,
      },
      select: personSelect,
    });
    return taggedPerson(row);
  });
}
