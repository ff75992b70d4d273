/**
 * The Canvas2D fallback, for browsers without WebGL2: every body as a square plus a nose line in two paths,
 * whatever the count. Smooth to some tens of thousands of bodies; the WebGL2 renderer is the one for 100,000.
 */
import type { FieldViews } from 'steadyframe';
import { BOX_X, BOX_Y, type DemoSchema } from './schema.ts';
import { fitCanvas, SPINNER_HALF, type BodyRenderer, type CssSize, type Palette, type PanelCanvas } from './view.ts';

const css = (rgb: readonly [number, number, number]) => `rgb(${rgb.map((c) => Math.round(c * 255)).join(' ')})`;

export function create2dRenderer(canvas: PanelCanvas, palette: Palette, cssSize?: () => CssSize): BodyRenderer {
  const ctx = canvas.getContext('2d', { alpha: false })!;
  const fill = css([(palette[0][0] + palette[1][0]) / 2, (palette[0][1] + palette[1][1]) / 2, (palette[0][2] + palette[1][2]) / 2]);
  return {
    kind: 'canvas2d',
    draw(fields: FieldViews<DemoSchema>, count: number): void {
      const { width, height, scale, radius } = fitCanvas(canvas, count, cssSize?.());
      const cx = width / 2;
      const cy = height / 2;
      ctx.fillStyle = '#090b0f';
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#12161b';
      ctx.fillRect(cx - BOX_X * scale, cy - BOX_Y * scale, 2 * BOX_X * scale, 2 * BOX_Y * scale);
      const { position, angle } = fields;
      const size = Math.max(1.5, 2 * radius * scale);
      ctx.beginPath();
      for (let i = 1; i < count; i++) {
        // world y is up, canvas y is down
        ctx.rect(cx + position[2 * i]! * scale - size / 2, cy - position[2 * i + 1]! * scale - size / 2, size, size);
      }
      ctx.fillStyle = fill;
      ctx.fill();
      if (size >= 4) {
        ctx.beginPath();
        for (let i = 1; i < count; i++) {
          const x = cx + position[2 * i]! * scale;
          const y = cy - position[2 * i + 1]! * scale;
          ctx.moveTo(x, y);
          ctx.lineTo(x + Math.cos(angle[i]!) * size * 0.5, y - Math.sin(angle[i]!) * size * 0.5);
        }
        ctx.strokeStyle = '#ffffffc0';
        ctx.lineWidth = Math.max(1, size / 4);
        ctx.stroke();
      }
      if (count === 0) return;
      // the spinner
      ctx.save();
      ctx.translate(cx + position[0]! * scale, cy - position[1]! * scale);
      ctx.rotate(-angle[0]!);
      const [hl, hw] = SPINNER_HALF;
      ctx.fillStyle = '#dfe8f0';
      ctx.fillRect(-hl * scale, -hw * scale, 2 * hl * scale, 2 * hw * scale);
      ctx.fillStyle = '#ffdb59';
      ctx.fillRect(0.62 * hl * scale, -hw * scale, 0.38 * hl * scale, 2 * hw * scale);
      ctx.restore();
    },
  };
}
