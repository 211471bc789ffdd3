import { describe, expect, it } from "vitest";
import { checkUploadFile, FILE_TOO_LARGE, toCropData, WRONG_FILE_TYPE } from "./upload";

describe("checkUploadFile", () => {
  it.each([
    [{ type: "image/png", size: 1 }, null],
    [{ type: "image/jpeg", size: 10_000_000 }, null],
    [{ type: "image/jpeg", size: 10_000_001 }, FILE_TOO_LARGE],
    [{ type: "image/gif", size: 10 }, WRONG_FILE_TYPE],
    [{ type: "image/svg+xml", size: 10 }, WRONG_FILE_TYPE],
    [{ type: "text/html", size: 10 }, WRONG_FILE_TYPE],
    [{ type: "", size: 10 }, WRONG_FILE_TYPE],
    [{ type: "image/webp", size: 20_000_000 }, WRONG_FILE_TYPE],
  ])("%o → %s", (file, expected) => {
    expect(checkUploadFile(file)).toBe(expected);
  });

  it("uses the spec's texts", () => {
    expect(WRONG_FILE_TYPE).toBe("File must be a JPG or PNG");
    expect(FILE_TOO_LARGE).toBe("Files must be under 10MB in size");
  });
});

describe("toCropData", () => {
  it("rounds to whole pixels", () => {
    expect(toCropData({ x: 10.4, y: 20.6, width: 99.5, height: 100.49 })).toEqual({
      x: 10,
      y: 21,
      width: 100,
      height: 100,
    });
  });

  it("never starts before the image nor is empty", () => {
    expect(toCropData({ x: -0.7, y: -3, width: 0.2, height: 0 })).toEqual({
      x: 0,
      y: 0,
      width: 1,
      height: 1,
    });
  });
});
