// Whether a request's Accept-Encoding allows gzip (RFC 9110 §12.5.3): `gzip;q=0` refuses it,
// `*` stands for every coding not named, and a missing header allows anything (but the servers
// here then send the identity: an old client without the header is better served plain).

/** The weight the header gives gzip: 0 when refused or unnamed. */
export function gzipWeight(header: string | string[] | undefined): number {
  const text = Array.isArray(header) ? header.join(",") : header;
  if (!text) return 0;
  let gzip: number | null = null;
  let any: number | null = null;
  // At most the first 64 codings: a header of thousands costs no more than that.
  for (const part of text.split(",", 64)) {
    const [rawName = "", ...params] = part.split(";");
    const name = rawName.trim().toLowerCase();
    let weight = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9](?:\.[0-9]{0,3})?)\s*$/i.exec(param);
      if (match?.[1]) weight = Math.min(1, Number(match[1]));
    }
    if (name === "gzip" || name === "x-gzip") gzip = weight;
    else if (name === "*") any = weight;
  }
  return gzip ?? any ?? 0;
}

/** True when the client takes a gzipped body. */
export function acceptsGzip(req: { headers: { "accept-encoding"?: string | string[] } }): boolean {
  return gzipWeight(req.headers["accept-encoding"]) > 0;
}
