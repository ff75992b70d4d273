/**
 * The server's state as the wire carries it (core/quantize.ts): every quantised field's values replaced by
 * `dequantise(quantise(v))`, in place. A server that calls it at the end of its step keeps the quantised values as
 * its truth, as Gaffer on Games' physics does: what the clients draw is then the server's state bit for bit, and a
 * client that predicts or replays (issue 41) computes from the same numbers as the server.
 */
import { fieldQuantizer, type FieldQuantizer } from './quantize.ts';
import { isGameField, type FieldViews, type Schema } from './schema.ts';

const quantizers = new WeakMap<Schema, readonly { readonly name: string; readonly width: number; readonly q: FieldQuantizer }[]>();
const scratch = new Uint32Array(16);

/** Quantises entities 0 to count − 1 of every field of `schema` that has `quantize`, in place. Allocates nothing after its first call for a schema. */
export function quantizeFields<S extends Schema>(schema: S, fields: FieldViews<S>, count: number): void {
  let list = quantizers.get(schema);
  if (list === undefined) {
    list = Object.entries(schema)
      .filter(([, spec]) => !isGameField(spec) && spec.quantize !== undefined)
      .map(([name, spec]) => {
        const { kind, width, quantize } = spec as { kind: string; width: number; quantize: never };
        return { name, width, q: fieldQuantizer({ name, kind, width, quantize }) };
      });
    quantizers.set(schema, list);
  }
  for (const { name, width, q } of list) {
    const values = (fields as Readonly<Record<string, Float32Array>>)[name]!;
    const raw = new Uint32Array(values.buffer, values.byteOffset, values.length);
    for (let i = 0; i < count; i++) {
      q.encode(values, raw, i * width, scratch, 0);
      q.decode(scratch, 0, values, raw, i * width);
    }
  }
}
