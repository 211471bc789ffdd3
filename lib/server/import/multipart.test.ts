import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/server/http/errors";
import { FirstFilePart, multipartBoundary, NO_FILE_PART, readPartHeaders } from "./multipart";

const CRLF = "\r\n";
const body = (parts: string[], boundary = "XyZ") =>
  Buffer.from(
    `preamble to ignore${CRLF}` +
      parts.map((p) => `--${boundary}${CRLF}${p}${CRLF}`).join("") +
      `--${boundary}--${CRLF}epilogue`,
    "latin1",
  );
const filePart = (content: string, name = "Slot_00000003.save") =>
  `Content-Disposition: form-data; name="file"; filename="${name}"${CRLF}Content-Type: application/octet-stream${CRLF}${CRLF}${content}`;

/** Feeds `bytes` in chunks of `size` and answers the file part's bytes and name. */
async function parse(bytes: Buffer, size: number, boundary = "XyZ") {
  const out: Buffer[] = [];
  const parser = new FirstFilePart(boundary, async (b) => {
    out.push(Buffer.from(b));
  });
  for (let i = 0; i < bytes.length && !parser.complete; i += size)
    await parser.push(bytes.subarray(i, i + size));
  parser.end();
  return { file: Buffer.concat(out).toString("latin1"), name: parser.fileName };
}

describe("FirstFilePart (issue 32, finding 14)", () => {
  // content that holds CR LFs, dashes and beginnings of the delimiter (never all of it: a client
  // picks a boundary its content does not hold), to be cut at every place
  const content = `DBPF\r\n--Xy almost\r\n--XY and \r\n-- and \r\u00ff\u0000 bytes\r\n-`;
  const bytes = body([
    `Content-Disposition: form-data; name="note"${CRLF}${CRLF}text --XyZ- field`,
    filePart(content),
    filePart("second"),
  ]);

  it("streams the first file part, whatever the chunks' sizes", async () => {
    for (let size = 1; size <= bytes.length; size += 1) {
      expect(await parse(bytes, size)).toEqual({ file: content, name: "Slot_00000003.save" });
    }
  });

  it("takes a part named file without a file name, and the body's first delimiter without a CR LF before it", async () => {
    const bare = Buffer.from(
      `--b${CRLF}Content-Disposition: form-data; name="file"${CRLF}${CRLF}abc${CRLF}--b--`,
      "latin1",
    );
    expect(await parse(bare, 3, "b")).toEqual({ file: "abc", name: null });
  });

  it("refuses a form without a file, one cut short, and headers past the cap", async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (e: unknown) => e as ApiError,
      );
    const noFile = await refusal(
      parse(body([`Content-Disposition: form-data; name="note"${CRLF}${CRLF}x`]), 7),
    );
    expect([noFile?.status, noFile?.message]).toEqual([400, NO_FILE_PART]);
    const cut = await refusal(parse(Buffer.from(`--XyZ${CRLF}${filePart("abc")}`, "latin1"), 5));
    expect(cut?.message).toMatch(/damaged or incomplete/);
    const notMultipart = await refusal(parse(Buffer.from("DBPF raw bytes", "latin1"), 4));
    expect(notMultipart?.message).toMatch(/damaged or incomplete/);
    const huge = await refusal(
      parse(
        Buffer.from(
          `--XyZ${CRLF}X-Long: ${"a".repeat(20_000)}${CRLF}${CRLF}x${CRLF}--XyZ--`,
          "latin1",
        ),
        4096,
      ),
    );
    expect(huge?.message).toMatch(/more than 16 KB of headers/);
  });

  it("reads boundaries and file names as browsers and curl send them", () => {
    expect(multipartBoundary("multipart/form-data; boundary=------------------------abc")).toBe(
      "------------------------abc",
    );
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b"')).toBe("a b");
    expect(multipartBoundary("application/octet-stream")).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
    expect(() => multipartBoundary("multipart/form-data")).toThrow(/needs a boundary/);
    expect(
      readPartHeaders('Content-Disposition: form-data; name="file"; filename="a \\"b\\".save"'),
    ).toEqual({
      name: "file",
      fileName: 'a "b".save',
    });
    expect(
      readPartHeaders(
        "content-disposition: form-data; name=file; filename*=UTF-8''%C3%A9t%C3%A9.save",
      ).fileName,
    ).toBe("été.save");
  });
});
