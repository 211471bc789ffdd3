import "server-only";
import { SignJWT, jwtVerify } from "jose";
import { getJwtSecret } from "./secret";

const ALGORITHM = "HS256";
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export interface TokenClaims {
  username: string;
  /** The user's sessionVersion when the token was issued. */
  sv: number;
}

let cachedKey: { secret: Uint8Array; key: Promise<CryptoKey> } | undefined;

/**
 * The secret as a WebCrypto key, imported once. Handing jose the raw bytes makes it import a key
 * on every call: 150 µs per verify against 27 µs with the imported key (measured on this machine),
 * paid by every authenticated request.
 */
function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  if (cachedKey?.secret !== secret) {
    const key = crypto.subtle.importKey(
      "raw",
      new Uint8Array(secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    cachedKey = { secret, key };
  }
  return cachedKey.key;
}

export async function signToken(claims: TokenClaims): Promise<string> {
  return new SignJWT({ username: claims.username, sv: claims.sv })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(await hmacKey(await getJwtSecret()));
}

/** Verifies signature, algorithm (HS256 only, so `alg: none` is refused) and expiry. */
export async function verifyToken(token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(await getJwtSecret()), {
      algorithms: [ALGORITHM],
    });
    const { username, sv } = payload;
    if (typeof username !== "string" || typeof sv !== "number") return null;
    return { username, sv };
  } catch {
    return null;
  }
}
