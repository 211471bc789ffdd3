// Test data, shared by the API tests and prisma/seed.ts. Users are inserted directly (so tests do
// not depend on the account endpoints); trees and people go through the API like a client's.
import { randomBytes, randomUUID } from "node:crypto";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { hashPassword } from "@/lib/server/auth/password";
import { createSession } from "@/lib/server/auth/session";
import { db } from "@/lib/server/db";
import { type ApiResponse, api, call, detailOf } from "./api";

export const DEFAULT_PASSWORD = "correct horse battery staple";

export interface TestUser {
  username: string;
  email: string;
  password: string;
  token: string;
}

// argon2 is slow by design; users made with the same password share one hash (salt included).
const hashes = new Map<string, Promise<string>>();

/** A username that is valid (3-32 of [A-Za-z0-9._-]) and unique. */
export const uniqueUsername = (prefix = "sim") =>
  `${prefix}_${randomBytes(6).toString("hex")}`.slice(0, 32);

/** Inserts a user row and answers its credentials and a valid bearer token. */
export async function createUser(
  overrides: Partial<Omit<TestUser, "token">> = {},
): Promise<TestUser> {
  const username = overrides.username ?? uniqueUsername();
  const email = overrides.email ?? `${username.toLowerCase()}@example.test`;
  const password = overrides.password ?? DEFAULT_PASSWORD;
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  const passwordHash = await hashes.get(password)!;
  const user = await db.user.create({
    data: { id: username, email, passwordHash },
    select: { id: true, accountId: true },
  });
  const token = await createSession(user);
  return { username, email, password, token };
}

function expectOk<T>(response: ApiResponse<T>, what: string): T {
  if (response.status !== 200) {
    throw new Error(`${what} answered ${response.status}: ${detailOf(response)}`);
  }
  return response.body;
}

/** Creates a tree through POST /api/trees. */
export async function createTree(
  token: string,
  overrides: Partial<Pick<Tree, "title" | "description" | "cover">> = {},
): Promise<Tree> {
  const body = { title: "The Pleasant Legacy", description: "<p>Generation one</p>", ...overrides };
  return expectOk(await api.post<Tree>("/api/trees", body, { token }), "POST /api/trees");
}

/** Adds a person to a tree through POST /api/people. */
export async function createPerson(
  token: string,
  treeId: string,
  overrides: Partial<Omit<Person, "_id" | "tree" | "links">> = {},
): Promise<Person> {
  const body = {
    tree: treeId,
    firstName: "Bella",
    lastName: "Goth",
    bio: "<p>Vanished one night.</p>",
    traits: ["Romantic", "Snob"],
    aspirations: ["Soulmate"],
    lifeStates: ["Sim"],
    custom: [{ title: "Favourite colour", value: "Black" }],
    ...overrides,
  };
  return expectOk(await api.post<Person>("/api/people", body, { token }), "POST /api/people");
}

/**
 * Places one new Sim at the root of a tree without one (the Gallery never lists an empty tree,
 * issue 36); answers the Sim.
 */
export async function giveSim(token: string, treeId: string, name = "Ada Founder"): Promise<Person> {
  const [firstName = "", lastName = ""] = name.split(" ");
  const person = await createPerson(token, treeId, { firstName, lastName });
  const data: TreeNode = {
    person: { _id: person._id },
    partners: [],
    children: [],
    parentType: "NONE",
    parents: [],
    adoptiveParents: [],
    hidden: false,
  };
  expectOk(await api.patch(`/api/trees/${treeId}`, { data }, { token }), "PATCH /api/trees/{id}");
  return person;
}

/** Inserts `count` people into a tree in one statement (for big trees); answers their ids. */
export async function insertPeople(treeId: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  await db.person.createMany({
    data: ids.map((id, i) => ({ id, treeId, firstName: `Sim ${i + 1}`, lastName: "Legacy" })),
  });
  return ids;
}

/**
 * A synthetic legacy of `nodes` nodes, `branching` children per node, breadth first. Every node
 * places people from `peopleIds`: a main person, `partnerRows` MARRIED/EX_PARTNER rows of two,
 * two biological parents and one adoptive parent (about 670 bytes of JSON a node with uuid ids).
 */
export function buildLegacy(
  peopleIds: string[],
  {
    nodes,
    branching = 3,
    partnerRows = 3,
  }: { nodes: number; branching?: number; partnerRows?: number },
): TreeNode {
  if (peopleIds.length === 0) throw new Error("buildLegacy needs at least one person");
  const ref = (i: number) => ({ _id: peopleIds[i % peopleIds.length]! });
  const all: TreeNode[] = [];
  for (let i = 0; i < nodes; i++) {
    all.push({
      person: ref(i),
      partners: Array.from({ length: partnerRows }, (_, row) => ({
        type: row % 2 === 0 ? ("MARRIED" as const) : ("EX_PARTNER" as const),
        people: [ref(i + row + 1), ref(i + row + 2)],
      })),
      children: [],
      parentType: i % 7 === 0 ? "ABDUCTION" : "NONE",
      parents: [ref(i + 3), ref(i + 4)],
      adoptiveParents: [ref(i + 5)],
      hidden: false,
    });
    if (i > 0) all[Math.floor((i - 1) / branching)]!.children.push(all[i]!);
  }
  return all[0]!;
}

/**
 * Uploads an image the way the client does (signed URL, PUT, confirm); answers its stored name.
 * A same-origin URL is PUT through the in-process API; a presigned bucket URL (S3 with direct
 * uploads) goes over HTTP to the bucket.
 */
export async function uploadImage(
  token: string,
  bytes: Buffer,
  dir: "avatar" | "cover" = "avatar",
): Promise<string> {
  const type = bytes[0] === 0x89 ? "image/png" : "image/jpeg";
  const url = expectOk(
    await api.get<{ filename: string; uploadURL: string }>(
      `/api/upload/url?type=${encodeURIComponent(type)}&dir=${dir}`,
      { token },
    ),
    "GET /api/upload/url",
  );
  const target = new URL(url.uploadURL);
  const init = { rawBody: new Uint8Array(bytes), headers: { "content-type": type } };
  if (target.pathname.startsWith("/api/upload/file/")) {
    expectOk(await call("PUT", target.pathname + target.search, init), "PUT to the upload URL");
  } else {
    const put = await fetch(target, { method: "PUT", body: init.rawBody, headers: init.headers });
    if (!put.ok) throw new Error(`PUT to the bucket answered ${put.status}: ${await put.text()}`);
  }
  return expectOk(
    await api.put<{ filename: string }>("/api/upload/confirm", { image: url.filename }, { token }),
    "PUT /api/upload/confirm",
  ).filename;
}
