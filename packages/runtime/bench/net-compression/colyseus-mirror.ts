/**
 * The same walkers in @colyseus/schema 5 (its published package), the way a Colyseus room syncs them: a state of
 * an array of entities, each with x, y and angle in its quantised types, mutated every snapshot; the server's
 * `Encoder.encode()` patch (every change since the last, on a reliable ordered socket), then
 * `discardChanges()`; a client's `Decoder` applies it. Its bytes are what `encode()` returns; Colyseus's room
 * adds a byte of its own protocol per message, and the WebSocket frame its own, not counted here (nor ours).
 *
 * The types: `t.quantized({ min, max, bits: 16 })` for x and y (16 is the narrowest wire width it has that holds
 * 1/100 m over the world: 8 bits would be steps of 0.78 m over 200 m), and `t.angle({ bits: 16 })` for the angle
 * (8 bits would be 1.4° steps, coarser than our 12 bits' 0.09°).
 */
import { Decoder, Encoder, schema, t } from '@colyseus/schema';
import type { Walkers } from './walkers.ts';

export interface ColyseusMirror {
  /** The walkers' values into the server's state (each a change). */
  write(walkers: Walkers): void;
  /** The patch of every change since the last, decoded by the client: its bytes, and the ms of each side. */
  patch(): { bytes: number; encodeMs: number; decodeMs: number };
  /** The largest difference between the client's x and y and the walkers' (its quantisation, checked). */
  worstError(walkers: Walkers): number;
}

export function createColyseusMirror(half: number, count: number): ColyseusMirror {
  const Entity = schema(
    {
      x: t.quantized({ min: -half, max: half, bits: 16 }),
      y: t.quantized({ min: -half, max: half, bits: 16 }),
      angle: t.angle({ bits: 16 }),
    },
    'Entity',
  );
  const World = schema({ entities: t.array(Entity) }, 'World');
  // its shared buffer fits the whole first patch (a one-time warning otherwise)
  Encoder.BUFFER_SIZE = Math.max(Encoder.BUFFER_SIZE, 64 * 1024);
  const state = new World();
  for (let i = 0; i < count; i++) state.entities.push(new Entity());
  const encoder = new Encoder(state);
  const mirror = new World();
  const decoder = new Decoder(mirror);
  return {
    write(walkers) {
      for (let i = 0; i < count; i++) {
        const entity = state.entities[i]!;
        entity.x = walkers.x[i]!;
        entity.y = walkers.y[i]!;
        entity.angle = walkers.heading[i]!;
      }
    },
    patch() {
      let start = performance.now();
      const bytes = encoder.encode();
      const length = bytes.byteLength;
      encoder.discardChanges();
      const encodeMs = performance.now() - start;
      start = performance.now();
      decoder.decode(bytes);
      return { bytes: length, encodeMs, decodeMs: performance.now() - start };
    },
    worstError(walkers) {
      let worst = 0;
      for (let i = 0; i < count; i++) {
        const entity = mirror.entities[i]!;
        worst = Math.max(worst, Math.abs(entity.x - walkers.x[i]!), Math.abs(entity.y - walkers.y[i]!));
      }
      return worst;
    },
  };
}
