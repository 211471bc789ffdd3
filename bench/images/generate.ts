// Deterministic test images for bench:images and the image tests: "game-like" 1920x1080
// screenshots (a rendered 3D-ish scene with sky, ground, houses, Sims, HUD panels, plumbob and
// UI text) and "photo-like" images (smooth lighting, soft shapes and sensor noise). No downloads:
// each image is drawn from a seed, as SVG rendered by sharp, plus per-pixel noise.
import sharp from "sharp";
import { createRandom } from "../../scripts/lib/legacy/generate";

/** The legacies' mulberry32; a seed of 0 (as a 32-bit integer) is taken as 1. */
const seeded = (seed: number) => createRandom(seed >>> 0 || 1);

const hsl = (h: number, s: number, l: number) =>
  `hsl(${Math.round(h)},${Math.round(s)}%,${Math.round(l)}%)`;
const WORDS = [
  "Bella",
  "Goth",
  "Mortimer",
  "Cassandra",
  "Legacy",
  "Generation",
  "Willow Creek",
  "Oasis Springs",
  "Needs",
  "Fun",
  "Hunger",
  "Social",
  "Hygiene",
  "Energy",
  "Bladder",
  "Skills",
  "Cooking 7",
  "Charisma 4",
  "§ 12,450",
  "Career",
  "Aspiration",
  "Whims",
  "Friday 9:42 AM",
];

/** A game-like screenshot (PNG bytes) at width x height. */
export async function gameScreenshot(seed: number, width = 1920, height = 1080): Promise<Buffer> {
  const r = seeded(seed * 7919 + 17);
  const hue = r() * 360;
  const parts: string[] = [];
  const horizon = height * (0.35 + r() * 0.2);
  parts.push(`<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(200 + r() * 30, 70, 55 + r() * 15)}"/><stop offset="1" stop-color="${hsl(190, 60, 85)}"/></linearGradient>
  <linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${hsl(90 + r() * 40, 45, 45)}"/><stop offset="1" stop-color="${hsl(100, 50, 25)}"/></linearGradient></defs>`);
  parts.push(`<rect width="${width}" height="${horizon}" fill="url(#sky)"/>`);
  parts.push(
    `<rect y="${horizon}" width="${width}" height="${height - horizon}" fill="url(#ground)"/>`,
  );
  for (let i = 0; i < 6; i += 1) {
    parts.push(
      `<ellipse cx="${r() * width}" cy="${r() * horizon * 0.6}" rx="${80 + r() * 160}" ry="${20 + r() * 40}" fill="white" opacity="${0.5 + r() * 0.4}"/>`,
    );
  }
  // Houses in perspective-ish blocks with windows and roofs.
  for (let i = 0; i < 4 + Math.floor(r() * 4); i += 1) {
    const w = 180 + r() * 320;
    const h = 140 + r() * 220;
    const x = r() * (width - w);
    const y = horizon - h * 0.4 + r() * 120;
    const wall = hsl(hue + r() * 60, 30 + r() * 30, 55 + r() * 25);
    parts.push(
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${wall}" stroke="${hsl(hue, 20, 30)}" stroke-width="3"/>`,
    );
    parts.push(
      `<polygon points="${x - 20},${y} ${x + w / 2},${y - h * 0.45} ${x + w + 20},${y}" fill="${hsl(hue + 180, 35, 35)}"/>`,
    );
    for (let k = 0; k < 4; k += 1) {
      parts.push(
        `<rect x="${x + 15 + k * (w / 4)}" y="${y + 25}" width="${w / 6}" height="${h / 4}" fill="${hsl(200, 50, 75)}" stroke="white" stroke-width="4"/>`,
      );
    }
  }
  // Trees.
  for (let i = 0; i < 10; i += 1) {
    const x = r() * width;
    const y = horizon + r() * (height - horizon) * 0.8;
    const s = 0.6 + (y / height) * 1.2;
    parts.push(
      `<rect x="${x - 8 * s}" y="${y - 20 * s}" width="${16 * s}" height="${70 * s}" fill="${hsl(30, 40, 25)}"/>`,
    );
    parts.push(
      `<circle cx="${x}" cy="${y - 50 * s}" r="${55 * s}" fill="${hsl(110 + r() * 30, 45, 30 + r() * 15)}"/>`,
    );
  }
  // Sims with a plumbob.
  for (let i = 0; i < 3; i += 1) {
    const x = 400 + r() * (width - 800);
    const y = horizon + 150 + r() * 200;
    parts.push(`<ellipse cx="${x}" cy="${y + 120}" rx="40" ry="10" fill="black" opacity="0.3"/>`);
    parts.push(
      `<rect x="${x - 25}" y="${y}" width="50" height="110" rx="20" fill="${hsl(r() * 360, 60, 45)}"/>`,
    );
    parts.push(`<circle cx="${x}" cy="${y - 25}" r="28" fill="${hsl(25, 45, 65 + r() * 15)}"/>`);
    parts.push(
      `<polygon points="${x},${y - 110} ${x + 14},${y - 80} ${x},${y - 60} ${x - 14},${y - 80}" fill="#3fdc3f" stroke="#1a7a1a" stroke-width="2"/>`,
    );
  }
  // HUD: needs panel with bars and labels, a top bar with text, a portrait strip.
  const panelY = height - 230;
  parts.push(
    `<rect x="20" y="${panelY}" width="520" height="210" rx="14" fill="${hsl(210, 35, 20)}" opacity="0.92"/>`,
  );
  for (let i = 0; i < 6; i += 1) {
    const col = i % 2;
    const row = Math.floor(i / 2);
    const fill = 0.2 + r() * 0.8;
    const x = 40 + col * 250;
    const y = panelY + 25 + row * 62;
    parts.push(
      `<text x="${x}" y="${y + 14}" font-family="DejaVu Sans, sans-serif" font-size="17" fill="white">${WORDS[8 + i]}</text>`,
    );
    parts.push(`<rect x="${x}" y="${y + 24}" width="210" height="18" rx="9" fill="#222"/>`);
    parts.push(
      `<rect x="${x}" y="${y + 24}" width="${210 * fill}" height="18" rx="9" fill="${fill > 0.5 ? "#4cd964" : fill > 0.3 ? "#ffcc00" : "#ff3b30"}"/>`,
    );
  }
  parts.push(
    `<rect x="0" y="0" width="${width}" height="54" fill="${hsl(210, 30, 15)}" opacity="0.85"/>`,
  );
  for (let i = 0; i < 5; i += 1) {
    const word = WORDS[Math.floor(r() * WORDS.length)]!;
    parts.push(
      `<text x="${30 + i * 300}" y="36" font-family="DejaVu Sans, sans-serif" font-size="${18 + Math.floor(r() * 6)}" fill="white">${word}</text>`,
    );
  }
  for (let i = 0; i < 4; i += 1) {
    const x = width - 110 - i * 100;
    parts.push(
      `<circle cx="${x}" cy="${height - 70}" r="40" fill="${hsl(r() * 360, 50, 50)}" stroke="white" stroke-width="4"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join("")}</svg>`;
  const base = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Game rendering: textures (fine noise) on the scene, a little, so it is not flat vector art.
  const data = base.data;
  const noise = seeded(seed + 99);
  for (let i = 0; i < data.length; i += 1) {
    data[i] = Math.max(0, Math.min(255, data[i]! + (noise() - 0.5) * 10));
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** A photo-like image (JPEG bytes, quality 92 as a phone would save it). */
export async function photo(seed: number, width = 1920, height = 1080): Promise<Buffer> {
  const r = seeded(seed * 104729 + 3);
  const hue = r() * 360;
  const parts: string[] = [];
  parts.push(
    `<defs><radialGradient id="light" cx="${r()}" cy="${r() * 0.5}" r="1"><stop offset="0" stop-color="${hsl(hue, 40, 80)}"/><stop offset="1" stop-color="${hsl(hue + 40, 35, 20)}"/></radialGradient><filter id="b"><feGaussianBlur stdDeviation="${6 + r() * 10}"/></filter></defs>`,
  );
  parts.push(`<rect width="${width}" height="${height}" fill="url(#light)"/>`);
  parts.push(`<g filter="url(#b)">`);
  for (let i = 0; i < 30; i += 1) {
    parts.push(
      `<ellipse cx="${r() * width}" cy="${r() * height}" rx="${30 + r() * 300}" ry="${30 + r() * 300}" fill="${hsl(hue + r() * 120 - 60, 20 + r() * 50, 20 + r() * 60)}" opacity="${0.3 + r() * 0.6}"/>`,
    );
  }
  parts.push(`</g>`);
  // A few sharp edges (a face-ish oval, a horizon line), as photos have some.
  parts.push(
    `<ellipse cx="${width / 2}" cy="${height / 2}" rx="${150 + r() * 80}" ry="${200 + r() * 80}" fill="${hsl(25, 40, 60)}"/>`,
  );
  parts.push(
    `<line x1="0" y1="${height * 0.7}" x2="${width}" y2="${height * (0.6 + r() * 0.2)}" stroke="${hsl(hue, 30, 30)}" stroke-width="6"/>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join("")}</svg>`;
  const base = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const data = base.data;
  const noise = seeded(seed + 7);
  for (let i = 0; i < data.length; i += 1) {
    data[i] = Math.max(0, Math.min(255, data[i]! + (noise() + noise() - 1) * 14));
  }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}
