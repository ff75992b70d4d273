/**
 * The steadyframe wire inside a Colyseus room (ARCHITECTURE.md, "Rooms on Colyseus"): the contract both ends of
 * this package share, and nothing else (the server's room and the client's socket import it; it imports no
 * implementation). Every message of ours, each way, is one Colyseus bytes message of type ROOM_MESSAGE whose
 * body is the steadyframe message unchanged (net/wire.ts: snapshots and pongs down, pings, inputs and acks up):
 *
 * ```text
 *  a WebSocket frame:  ROOM_DATA_BYTES (1 byte) · ROOM_MESSAGE as msgpack (1 byte) · the steadyframe message
 *                      └──────────── Colyseus's header: ROOM_HEADER_BYTES ───────┘
 * ```
 *
 * Colyseus's own messages (the join handshake, its pings, a leave) ride the same socket under its own codes.
 */
/**
 * The Colyseus message type of steadyframe's messages: a number under 128, so msgpack codes it in one byte. A
 * room may take messages of its own beside them, of any other type.
 */
export const ROOM_MESSAGE = 83;

/** Bytes Colyseus puts before each message body: its protocol code and the message type. */
export const ROOM_HEADER_BYTES = 2;
