import { z } from "zod";
import "./zod-config";

/** An id as found in a path or a reference. Ids are opaque; unknown ones are simply not found. */
export const objectId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Not a valid id");

/** A stored image's name, e.g. "avatar/3c2f….png". */
export const imageName = z
  .string()
  .max(200)
  .regex(/^(avatar|cover)\/[A-Za-z0-9_-]+\.(png|jpe?g)$/, "Not a valid image name");
