/** The transport's `maxPayload` for a steadyframe room's clients (the server side: the client bundle never needs it). */
import { maxClientMessageBytes } from 'steadyframe/node';
import { ROOM_HEADER_BYTES } from './protocol.ts';

/**
 * The largest frame a client of a steadyframe room sends: its largest steadyframe message (an input message of
 * the most events, each with `inputWidth` payload values: `maxClientMessageBytes`) with Colyseus's header. Give
 * it to the transport as `maxPayload` (`new WebSocketTransport({ maxPayload: maxRoomMessageBytes(2) })`): its
 * default, 4 KiB, refuses a full input message, and `ws`'s own, 100 MiB, buffers anything.
 */
export function maxRoomMessageBytes(inputWidth: number): number {
  return maxClientMessageBytes(inputWidth) + ROOM_HEADER_BYTES;
}
