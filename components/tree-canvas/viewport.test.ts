import { describe, expect, it } from "vitest";
import {
  constrainScale,
  cullRect,
  fitTransform,
  initialTransform,
  keyAction,
  openingTransform,
  panBy,
  transform,
  wheelFactor,
  zoomBy,
  VIEWPORT,
} from "./viewport";

const size = { width: 1000, height: 600 };

describe("initialTransform", () => {
  it("centres the root horizontally with 120 above it", () => {
    expect(initialTransform(size, { x: 0, y: 0 })).toEqual(transform(1, 500, 120));
    expect(initialTransform(size, { x: -40, y: 0 })).toEqual(transform(1, 540, 120));
    expect(initialTransform(size, undefined)).toEqual(transform(1, 500, 120));
  });

  it("centres a focused point in the view", () => {
    expect(initialTransform(size, { x: 0, y: 0 }, { x: 300, y: 510 })).toEqual(
      transform(1, 200, -210),
    );
  });
});

describe("panBy and zoomBy", () => {
  it("pans in screen pixels", () => {
    expect(panBy(transform(2, 10, 20), 5, -5)).toEqual(transform(2, 15, 15));
  });

  it("keeps the zoom point fixed on screen", () => {
    const before = transform(1, 100, 50);
    const after = zoomBy(before, 2, { x: 300, y: 250 });
    expect(after.scaleX).toBe(2);
    // The layout point under (300, 250) was (200, 200) and still is.
    expect((300 - after.translateX) / after.scaleX).toBe(200);
    expect((250 - after.translateY) / after.scaleY).toBe(200);
  });

  it("clamps the scale to 0.1–3", () => {
    expect(zoomBy(transform(2.8, 0, 0), 1.2, { x: 0, y: 0 }).scaleX).toBe(3);
    expect(zoomBy(transform(0.11, 0, 0), 0.5, { x: 0, y: 0 }).scaleX).toBe(0.1);
    expect(zoomBy(transform(3, 7, 9), 1.2, { x: 100, y: 100 })).toEqual(transform(3, 7, 9));
  });
});

describe("constrainScale", () => {
  it("lets a zoom inside the range through", () => {
    const next = zoomBy(transform(1, 0, 0), 1.5, { x: 10, y: 10 });
    expect(constrainScale(next, transform(1, 0, 0))).toBe(next);
  });

  it("shortens a zoom past the range around the same point", () => {
    const previous = transform(2.8, 40, -60);
    const point = { x: 300, y: 200 };
    const unclamped = {
      ...previous,
      scaleX: 3.5,
      scaleY: 3.5,
      translateX: point.x - (point.x - previous.translateX) * 1.25,
      translateY: point.y - (point.y - previous.translateY) * 1.25,
    };
    const result = constrainScale(unclamped, previous);
    expect(result.scaleX).toBe(3);
    expect((point.x - result.translateX) / 3).toBeCloseTo((point.x - previous.translateX) / 2.8);
    expect((point.y - result.translateY) / 3).toBeCloseTo((point.y - previous.translateY) / 2.8);
    expect(constrainScale(transform(0.05, 0, 0), transform(0.1, 0, 0)).scaleX).toBe(0.1);
  });
});

describe("keyAction", () => {
  it.each([
    ["ArrowLeft", { pan: [VIEWPORT.panStep, 0] }],
    ["ArrowRight", { pan: [-VIEWPORT.panStep, 0] }],
    ["ArrowUp", { pan: [0, VIEWPORT.panStep] }],
    ["ArrowDown", { pan: [0, -VIEWPORT.panStep] }],
    ["+", { zoom: 1.2 }],
    ["=", { zoom: 1.2 }],
    ["-", { zoom: 1 / 1.2 }],
    ["a", null],
    ["Enter", null],
  ])("maps %s", (key, action) => {
    expect(keyAction(key)).toEqual(action);
  });
});

describe("wheelFactor", () => {
  it("zooms in on a wheel up, out on a wheel down, within bounds", () => {
    expect(wheelFactor(-100, 0)).toBeGreaterThan(1);
    expect(wheelFactor(100, 0)).toBeLessThan(1);
    expect(wheelFactor(-10_000, 0)).toBe(1.25);
    expect(wheelFactor(10_000, 0)).toBe(0.8);
    expect(wheelFactor(3, 1)).toBeCloseTo(wheelFactor(48, 0));
  });
});

describe("cullRect", () => {
  it("covers the view plus the margin", () => {
    const matrix = transform(1, 500, 120);
    const rect = cullRect(matrix, size);
    expect(rect.minX).toBeLessThanOrEqual(-500 - VIEWPORT.cullMargin);
    expect(rect.maxX).toBeGreaterThanOrEqual(500 + VIEWPORT.cullMargin);
    expect(rect.minY).toBeLessThanOrEqual(-120 - VIEWPORT.cullMargin);
    expect(rect.maxY).toBeGreaterThanOrEqual(480 + VIEWPORT.cullMargin);
  });

  it("stays the same for small pans, so nothing re-renders", () => {
    const rect = cullRect(transform(1, 500, 120), size);
    expect(cullRect(transform(1, 503, 118), size)).toEqual(rect);
    expect(cullRect(transform(1, 500 + 600, 120), size)).not.toEqual(rect);
  });

  it("scales with the zoom", () => {
    const rect = cullRect(transform(0.1, 500, 120), size);
    expect(rect.maxX - rect.minX).toBeGreaterThanOrEqual((1000 + 2 * 240) / 0.1);
  });
});

describe("fitTransform and openingTransform", () => {
  const size = { width: 1000, height: 600 };
  it("fits a large tree inside the view, below the Tree Info button", () => {
    const bounds = { minX: -2000, maxX: 2000, minY: -54, maxY: 500 };
    const m = fitTransform(size, bounds);
    expect(m.scaleX).toBeCloseTo((1000 - 2 * VIEWPORT.fitPadding) / 4000);
    const left = m.translateX + bounds.minX * m.scaleX;
    const right = m.translateX + bounds.maxX * m.scaleX;
    const top = m.translateY + bounds.minY * m.scaleY;
    const bottom = m.translateY + bounds.maxY * m.scaleY;
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(1000);
    expect(top).toBeGreaterThanOrEqual(VIEWPORT.fitTop - 0.001);
    expect(bottom).toBeLessThanOrEqual(600);
  });

  it("never blows a small tree up beyond 1×, nor shrinks below the zoom range", () => {
    expect(fitTransform(size, { minX: -50, maxX: 50, minY: 0, maxY: 50 }).scaleX).toBe(1);
    expect(fitTransform(size, { minX: 0, maxX: 1e7, minY: 0, maxY: 50 }).scaleX).toBe(
      VIEWPORT.minScale,
    );
  });

  it("opens fitted when readable, else on the root; a focused Sim wins", () => {
    const small = { minX: -300, maxX: 300, minY: -54, maxY: 400 };
    expect(openingTransform(size, small, { x: 0, y: 0 })).toEqual(fitTransform(size, small));
    const large = { minX: -5000, maxX: 5000, minY: -54, maxY: 400 };
    expect(openingTransform(size, large, { x: 10, y: 0 })).toEqual(transform(1, 490, 120));
    expect(openingTransform(size, small, { x: 0, y: 0 }, { x: 100, y: 170 })).toEqual(
      transform(1, 400, 130),
    );
  });
});
