/**
 * The benchmark's Colyseus server process (run by Node 22: Colyseus 0.18 needs it; colyseus-process.ts spawns it
 * with `--experimental-transform-types`): a `Server` on the ws transport hosting the room 'game'
 * (colyseus-room.ts) on STEADYFRAME_PORT of 127.0.0.1. Over IPC it says `listening`, and answers `report`
 * ({ roomId }) with what that room kept: each client's steps and the shots' verdicts.
 */
import { Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { BenchRoom, rooms } from './colyseus-room.ts';

const port = Number(process.env.STEADYFRAME_PORT);
const server = new Server({ transport: new WebSocketTransport(), greet: false });
server.define('game', BenchRoom);
await server.listen(port, '127.0.0.1');

process.on('message', (message: { type: string; roomId?: string }) => {
  if (message.type !== 'report') return;
  const room = [...rooms].find((r) => r.roomId === message.roomId);
  process.send!({ type: 'report', log: room === undefined ? null : Object.fromEntries(room.log), verdicts: room?.verdicts ?? [] });
});
process.send?.({ type: 'listening' });
