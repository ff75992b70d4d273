/**
 * Where a client's input event puts what the server adds, in the payload the server's step reads
 * (`tick.input.payload(i, j)`): the publisher (net/client-inputs.ts) writes them, the game's step reads them.
 *
 * ```text
 *  payload   0: the player   1: the made time (with the publisher's input.madeTime)   then the client's values
 *            0: the player   1 ...: the client's values                                (without it)
 * ```
 */

/** Payload value 0 of a client's input on the server: the player who sent it (`PublisherClient.player`). */
export const INPUT_PLAYER = 0;

/**
 * Payload value 1 of a client's input on the server, where the publisher's `input.madeTime` is set: the render
 * time the client was showing when it made the event (shared-clock ms), what `tick.rewind` takes.
 */
export const INPUT_MADE_TIME = 1;
