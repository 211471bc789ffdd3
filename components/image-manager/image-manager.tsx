"use client";
import Image from "next/image";
import { useEffect, useId, useRef, useState } from "react";
import Cropper, { type Area } from "react-easy-crop";
import { cropImage, uploadImage, type UploadDir } from "@/lib/client/upload";
import { notify } from "@/lib/client/toast";
import { UPLOAD_TYPES } from "@/lib/schemas/upload";
import { Button, buttonClasses } from "@/components/ui/button";
import { originalImageUrl, resizedImageUrl, type ImageSize } from "../../lib/image-url";

/** SPEC.md section 4, image flow: idle → uploading → crop-selection → cropping → idle. */
type Phase =
  | { name: "idle" }
  | { name: "uploading"; progress: number }
  | { name: "crop-selection"; image: string }
  | { name: "cropping"; image: string };

interface ImageManagerProps {
  /** What the image is, e.g. "Avatar" or "Cover Image"; buttons and alt texts are built from it. */
  label: string;
  dir: UploadDir;
  /** The stored file name, or null when there is no image. */
  value: string | null;
  onChange: (filename: string | null) => void;
  /** Width / height of the crop box: 1 for avatars. */
  aspect: number;
  /** The server size the preview is shown at. */
  previewSize: Extract<ImageSize, "200x200" | "600x320">;
}

/**
 * Uploads an image with progress, then offers a crop (react-easy-crop). The upload gives its file
 * name to the form at once; a crop then replaces it with the cropped file, and skipping the crop
 * keeps the upload as it is.
 */
export function ImageManager({
  label,
  dir,
  value,
  onChange,
  aspect,
  previewSize,
}: ImageManagerProps) {
  const inputId = useId();
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const [previewWidth, previewHeight] = previewSize.split("x").map(Number) as [number, number];

  async function onFileChosen(input: HTMLInputElement) {
    const file = input.files?.[0];
    // Lets the same file be chosen again after a failure.
    input.value = "";
    if (!file) return;
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setPhase({ name: "uploading", progress: 0 });
    try {
      const filename = await uploadImage(
        file,
        dir,
        (progress) => setPhase({ name: "uploading", progress }),
        controller.signal,
      );
      onChange(filename);
      setCrop({ x: 0, y: 0 });
      setZoom(1);
      setArea(null);
      setPhase({ name: "crop-selection", image: filename });
    } catch {
      // The reason is already in a toast (or the upload was abandoned).
      if (!controller.signal.aborted) setPhase({ name: "idle" });
    }
  }

  async function onCrop(image: string) {
    if (!area) return;
    setPhase({ name: "cropping", image });
    try {
      const cropped = await cropImage(image, area);
      onChange(cropped);
      notify.success("Image cropped");
      setPhase({ name: "idle" });
    } catch {
      setPhase({ name: "crop-selection", image });
    }
  }

  const busy = phase.name === "uploading" || phase.name === "cropping";
  const lowerLabel = label.toLowerCase();

  return (
    <fieldset className="flex flex-col gap-2" aria-busy={busy}>
      <legend className="mb-1 text-sm font-medium text-neutral-800">{label}</legend>

      {phase.name === "idle" || phase.name === "uploading" ? (
        <div
          className="relative flex items-center justify-center overflow-hidden rounded-md border border-dashed border-neutral-300 bg-neutral-50"
          style={{ maxWidth: previewWidth, aspectRatio: `${previewWidth} / ${previewHeight}` }}
        >
          {value ? (
            <Image
              src={resizedImageUrl(value, previewSize)}
              alt={`${label} preview`}
              width={previewWidth}
              height={previewHeight}
              unoptimized
              className="h-full w-full object-cover"
            />
          ) : (
            <span className="p-4 text-center text-sm text-neutral-500">No {lowerLabel} yet</span>
          )}
        </div>
      ) : null}

      {phase.name === "uploading" ? (
        <div role="status" className="flex items-center gap-2 text-sm text-neutral-700">
          <progress
            className="h-2 w-48 accent-plum-600"
            max={1}
            value={phase.progress}
            aria-label={`Uploading ${lowerLabel}`}
          />
          <span>Uploading… {Math.round(phase.progress * 100)}%</span>
        </div>
      ) : null}

      {phase.name === "crop-selection" || phase.name === "cropping" ? (
        <div className="flex flex-col gap-2">
          <p id={`${inputId}-crop-help`} className="text-sm text-neutral-700">
            Drag (or focus the crop area and use the arrow keys) and zoom to choose the part of the
            image to keep, then crop it, or keep the whole image.
          </p>
          <div
            className="relative w-full overflow-hidden rounded-md bg-neutral-900"
            style={{ maxWidth: 600, height: 320 }}
          >
            <Cropper
              image={originalImageUrl(phase.image)}
              crop={crop}
              zoom={zoom}
              aspect={aspect}
              roundCropAreaPixels
              onCropChange={setCrop}
              onZoomChange={setZoom}
              onCropComplete={(_, pixels) => setArea(pixels)}
              mediaProps={{ alt: `${label} to crop` }}
              cropperProps={{
                role: "group",
                "aria-label": `${label} crop area`,
                "aria-describedby": `${inputId}-crop-help`,
              }}
            />
          </div>
          <label className="flex items-center gap-2 text-sm text-neutral-700">
            Zoom
            <input
              type="range"
              min={1}
              max={3}
              step={0.05}
              value={zoom}
              onChange={(event) => setZoom(Number(event.target.value))}
              className="w-48 accent-plum-600"
            />
          </label>
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              disabled={!area || phase.name === "cropping"}
              busy={phase.name === "cropping"}
              onClick={() => void onCrop(phase.image)}
            >
              Crop Image
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={phase.name === "cropping"}
              onClick={() => setPhase({ name: "idle" })}
            >
              Keep Uncropped
            </Button>
          </div>
        </div>
      ) : null}

      {phase.name === "idle" ? (
        <div className="flex flex-wrap gap-2">
          <input
            id={inputId}
            type="file"
            accept={UPLOAD_TYPES.join(",")}
            className="peer sr-only"
            onChange={(event) => void onFileChosen(event.currentTarget)}
          />
          <label
            htmlFor={inputId}
            className={buttonClasses({
              variant: "secondary",
              size: "sm",
              className:
                "cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-plum-500",
            })}
          >
            {value ? `Replace ${label}` : `Upload ${label}`}
          </label>
          {value ? (
            <Button size="sm" variant="ghost" onClick={() => onChange(null)}>
              Remove {label}
            </Button>
          ) : null}
        </div>
      ) : null}
      <p className="text-xs text-neutral-600">JPG or PNG, under 10MB.</p>
    </fieldset>
  );
}
