/**
 * A client of the rooms tests' game, as a game's page would make it: `createNodeRuntime` with the client's
 * simulation worker (fixtures/client.worker.ts, bundled for Node 20 as an app ships it), the Colyseus server's
 * address as `setup.url`, a frame every 16 ms. What each frame drew is kept, with whether its entities agree.
 */
import type { Frame, Runtime } from 'steadyframe';
import type { NetworkStats } from 'steadyframe/network';
import { createNodeRuntime } from 'steadyframe/node';
import { buildWorkerModule } from 'steadyframe/testing/node';
import { fileURLToPath } from 'node:url';
import type { GameClientCommands } from '../fixtures/client.worker.ts';
import { GAME_CAPACITY, gameSchema, INPUT_WIDTH } from '../fixtures/game-schema.ts';

let module: Promise<string> | null = null;
const clientModule = () => (module ??= buildWorkerModule(fileURLToPath(new URL('../fixtures/client.worker.ts', import.meta.url))));

/** A frame as drawn: the server tick its entities show (x0), whether they are one whole state, and the game fields. */
export interface Drawn {
  /** When it was drawn: ms on the shared timeline of the process's threads (`performance.timeOrigin + now()`). */
  readonly at: number;
  readonly x0: number;
  /** How far the entities are from one state of the server's: x1 − x0 − 1 and y0 + 2·x0, the larger (0: whole). */
  readonly torn: number;
  readonly marks: number;
  readonly markPlayer: number;
  readonly markValue: number;
  /** The game's steps since init and the chain at them (game-schema.ts): one server state's, exactly. */
  readonly steps: number;
  readonly chain: number;
}

export interface GameClient {
  readonly runtime: Runtime<typeof gameSchema, GameClientCommands>;
  readonly drawn: Drawn[];
  network(): Promise<NetworkStats>;
  joins(): Promise<Array<{ roomId: string; sessionId: string }>>;
  /** When each join was, on the timeline of `Drawn.at`. */
  joinTimes(): Promise<number[]>;
  dispose(): Promise<void>;
}

export async function gameClient(url: string): Promise<GameClient> {
  const runtime = await createNodeRuntime<typeof gameSchema, GameClientCommands>({
    worker: await clientModule(),
    schema: gameSchema,
    capacity: GAME_CAPACITY,
    setup: { url },
    input: { payloadWidth: INPUT_WIDTH },
  });
  await runtime.start();
  const drawn: Drawn[] = [];
  const draw = (f: Frame<typeof gameSchema> | null): void => {
    if (f === null || f.count < 2) return;
    const p = f.fields.position;
    const torn = Math.max(Math.abs(p[2]! - p[0]! - 1), Math.abs(p[1]! + 2 * p[0]!));
    const { marks, markPlayer, markValue, steps, chain } = f.state;
    drawn.push({ at: performance.timeOrigin + performance.now(), x0: p[0]!, torn, marks, markPlayer, markValue, steps, chain });
  };
  const frames = setInterval(() => draw(runtime.frame()), 16);
  return {
    runtime,
    drawn,
    network: () => runtime.commands.network(),
    joins: () => runtime.commands.joins(),
    joinTimes: () => runtime.commands.joinTimes(),
    async dispose() {
      clearInterval(frames);
      await runtime.dispose();
    },
  };
}
