/**
 * Why a WebSocket refused a client's frame below the wire (net/socket-host.ts counts them): the `ws` package
 * emits `'error'` on the socket with one of its codes (`WS_ERR_...`) and closes the connection itself with the
 * close code the error carries. Each reason is a word, as the wire's refusals are (`WireRefusal`).
 *
 * | reason    | ws codes                                                                 | close |
 * |-----------|--------------------------------------------------------------------------|-------|
 * | `utf8`    | INVALID_UTF8 (a text frame or close reason that is not UTF-8)           | 1007  |
 * | `mask`    | EXPECTED_MASK, UNEXPECTED_MASK (a client's frames must be masked)       | 1002  |
 * | `opcode`  | INVALID_OPCODE (a reserved opcode, a continuation with nothing to continue) | 1002 |
 * | `rsv`     | UNEXPECTED_RSV_1, UNEXPECTED_RSV_2_3 (an extension not agreed)          | 1002  |
 * | `control` | INVALID_CONTROL_PAYLOAD_LENGTH, EXPECTED_FIN (a control frame over 125 bytes or fragmented) | 1002 |
 * | `close`   | INVALID_CLOSE_CODE                                                      | 1002  |
 * | `size`    | UNSUPPORTED_MESSAGE_LENGTH (past `maxPayload`), UNSUPPORTED_DATA_PAYLOAD_LENGTH, TOO_MANY_BUFFERED_PARTS | 1009, 1008 |
 * | `other`   | anything else (a compression error, a failed send)                     | ws's  |
 */
export type ProtocolError = 'utf8' | 'mask' | 'opcode' | 'rsv' | 'control' | 'close' | 'size' | 'other';

// a Map, not an object: a code this file does not know (even '__proto__' or 'toString') must miss
const REASONS: ReadonlyMap<string, ProtocolError> = new Map([
  ['WS_ERR_INVALID_UTF8', 'utf8'],
  ['WS_ERR_EXPECTED_MASK', 'mask'],
  ['WS_ERR_UNEXPECTED_MASK', 'mask'],
  ['WS_ERR_INVALID_OPCODE', 'opcode'],
  ['WS_ERR_UNEXPECTED_RSV_1', 'rsv'],
  ['WS_ERR_UNEXPECTED_RSV_2_3', 'rsv'],
  ['WS_ERR_INVALID_CONTROL_PAYLOAD_LENGTH', 'control'],
  ['WS_ERR_EXPECTED_FIN', 'control'],
  ['WS_ERR_INVALID_CLOSE_CODE', 'close'],
  ['WS_ERR_UNSUPPORTED_MESSAGE_LENGTH', 'size'],
  ['WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH', 'size'],
  ['WS_ERR_TOO_MANY_BUFFERED_PARTS', 'size'],
]);

/** The reason for a socket's `'error'` (by its `code`; `other` for a code not in the table, or none). */
export function protocolError(error: unknown): ProtocolError {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return (typeof code === 'string' ? REASONS.get(code) : undefined) ?? 'other';
}

export const emptyProtocolErrors = (): Record<ProtocolError, number> => ({ utf8: 0, mask: 0, opcode: 0, rsv: 0, control: 0, close: 0, size: 0, other: 0 });
