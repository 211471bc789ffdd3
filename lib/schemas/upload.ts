import { z } from "zod";
import { imageName } from "./common";

export const MAX_UPLOAD_BYTES = 10_000_000;
/** Decompression-bomb guard: no stored image may decode to more pixels than this. */
export const MAX_UPLOAD_PIXELS = 40_000_000;
export const UPLOAD_TYPES = ["image/png", "image/jpeg"] as const;
export const UPLOAD_DIRS = ["avatar", "cover"] as const;
/** The sizes /api/upload/{W}x{H}/{image} will make. */
export const IMAGE_SIZES = ["200x200", "600x320", "100x100", "1200x640"] as const;

export const uploadUrlQuery = z.object({
  type: z.enum(UPLOAD_TYPES, { error: "File must be a JPG or PNG" }),
  dir: z.enum(UPLOAD_DIRS, { error: "dir must be avatar or cover" }),
});

export const cropBody = z.object({
  cropData: z.object({
    x: z.number().int("Crop values must be whole pixels").min(0),
    y: z.number().int("Crop values must be whole pixels").min(0),
    width: z.number().int("Crop values must be whole pixels").min(1).max(20_000),
    height: z.number().int("Crop values must be whole pixels").min(1).max(20_000),
  }),
  image: imageName,
});

/** PUT /api/upload/confirm: the file sent to a presigned bucket URL is checked and stored. */
export const confirmBody = z.object({ image: imageName });

export const uploadUrlResponse = z.object({ filename: z.string(), uploadURL: z.string() });
export const cropResponse = z.object({ filename: z.string() });
