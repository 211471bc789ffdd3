import "server-only";
import { SignJWT } from "jose";
import { getJwtSecret } from "./secret";
import { hmacKey, TOKEN_ALGORITHM, type TokenClaims, verifyTokenWith } from "./verify";

export type { TokenClaims } from "./verify";

export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export async function signToken(claims: TokenClaims): Promise<string> {
  return new SignJWT({ username: claims.username, aid: claims.aid, sid: claims.sid })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
    .sign(await hmacKey(await getJwtSecret()));
}

/** Verifies signature, algorithm (HS256 only, so `alg: none` is refused) and expiry. */
export async function verifyToken(token: string): Promise<TokenClaims | null> {
  return verifyTokenWith(token, await getJwtSecret());
}
