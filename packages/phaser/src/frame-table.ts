/**
 * A frame's view of one table (`frame.tables[name]`: its handles, count and zero-based views), for the
 * bindings that keep an object per entity by handle (`bindSprites` and `bindGroup` given a table).
 */
import type { Frame, FrameTable, Schema } from 'steadyframe';

/** `frame.tables[name]`. A property read: allocates nothing. */
export function frameTable(frame: Frame<Schema>, name: string): FrameTable {
  return (frame.tables as unknown as Readonly<Record<string, FrameTable>>)[name]!;
}
