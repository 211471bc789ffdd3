// The secret that marks the front server's own renders of /gallery (front/gallery.ts), shared
// with the page through globalThis: the front and Next's bundle are two module graphs of one
// process (front/process-singletons.ts). The front renders the Gallery as it renders public pages
// (front/server.ts's renderPage), with the same header and secret. No imports, so both graphs
// load it alike.

/** The request header that carries the secret (published/snapshot-url.ts's RENDER_HEADER). */
export const GALLERY_RENDER_HEADER = "x-heirloom-render";

const holder = globalThis as { __heirloomGalleryRenderSecret?: string };

export function setGalleryRenderSecret(secret: string): void {
  holder.__heirloomGalleryRenderSecret = secret;
}

/** Whether a request's header value is this process's render secret. */
export function isGalleryRender(value: string | null | undefined): boolean {
  const secret = holder.__heirloomGalleryRenderSecret;
  return Boolean(secret && value && value === secret);
}
