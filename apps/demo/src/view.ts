/**
 * What a panel's renderer needs to know, whichever API draws it: where the box sits in the canvas and how
 * big a body is. World units, y up; the box is centred and keeps its aspect.
 */
import { BOX_X, BOX_Y } from './schema.ts';
import type { FieldViews } from 'steadyframe';
import type { DemoSchema } from './schema.ts';

export interface BodyRenderer {
  readonly kind: 'webgl2' | 'canvas2d';
  /** Draws bodies 0 .. count - 1 (body 0 is the spinner) from interpolated fields. */
  draw(fields: FieldViews<DemoSchema>, count: number): void;
}

/** The two colours a panel's bodies are mixed from, as 0..1 RGB. */
export type Palette = readonly [readonly [number, number, number], readonly [number, number, number]];

export const LEFT_PALETTE: Palette = [
  [0.98, 0.58, 0.3],
  [0.93, 0.33, 0.42],
];
export const RIGHT_PALETTE: Palette = [
  [0.3, 0.8, 0.96],
  [0.48, 0.56, 1.0],
];

export interface Viewport {
  /** Backing-store pixels. */
  readonly width: number;
  readonly height: number;
  /** Backing-store pixels per world unit. */
  readonly scale: number;
  /** A body's radius in world units, for this many bodies. */
  readonly radius: number;
}

/** Margin around the box, as a fraction of its size. */
const MARGIN = 1.03;
/** The spinner's half length and half width, world units. */
export const SPINNER_HALF = [0.34, 0.05] as const;

/** A canvas's CSS size and the device pixel ratio. */
export interface CssSize {
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
}

/** A canvas on the page, or one drawn from a render worker, with where its CSS size comes from. */
export type PanelCanvas = HTMLCanvasElement | OffscreenCanvas;

/** The CSS size of a canvas on the page. */
export const cssSizeOf = (canvas: HTMLCanvasElement): CssSize => ({ width: canvas.clientWidth, height: canvas.clientHeight, dpr: globalThis.devicePixelRatio || 1 });

/**
 * Sizes the canvas's backing store to its CSS box (times the pixel ratio) and says how the world maps onto it.
 * `size` says the CSS box: read off the element on the page, handed over (resize) in a render worker.
 */
export function fitCanvas(canvas: PanelCanvas, count: number, size: CssSize = cssSizeOf(canvas as HTMLCanvasElement)): Viewport {
  const ratio = size.dpr;
  const width = Math.max(1, Math.round(size.width * ratio));
  const height = Math.max(1, Math.round(size.height * ratio));
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  const scale = Math.min(width / (2 * BOX_X * MARGIN), height / (2 * BOX_Y * MARGIN));
  // bodies shrink as they multiply, between about 1 and 5 CSS pixels of radius
  const radiusPx = Math.min(5, Math.max(0.9, 230 / Math.sqrt(Math.max(1, count)))) * ratio;
  return { width, height, scale, radius: radiusPx / scale };
}
