// `npm run bench:net`'s clients (net-scale.measure.ts): a process of its own, so that what they cost is not the
// server's. `node net-clients.mjs <port> <count>`: opens `count` WebSocket connections to the server and counts
// what arrives on each. Reads commands on stdin, one a line: `report` prints one JSON line (messages and bytes
// received since the last report, over all connections) and starts counting again; `exit` closes them and ends.
// Each connection acknowledges every snapshot's tick as a client that decoded it does (the wire's ack, version 5:
// 16 u32 events wanted next, 20 u32 the tick), so the server sends the deltas real clients get; it decodes nothing
// (its cost is not the server's).
const WIRE_VERSION = 5;
const ACK = 5;
const SNAPSHOT = 1;
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';

const [port, count] = process.argv.slice(2).map(Number);
let messages = 0;
let bytes = 0;
const sockets = [];
for (let i = 0; i < count; i++) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}`);
  socket.binaryType = 'arraybuffer';
  socket.on('message', (data) => {
    messages++;
    bytes += data.byteLength;
    const head = new DataView(data);
    if (head.getUint8(4) !== SNAPSHOT) return;
    if (head.getUint8(5) !== WIRE_VERSION) throw new Error(`net-clients speaks wire version ${WIRE_VERSION}; the server sent ${head.getUint8(5)}`);
    const ack = new DataView(new ArrayBuffer(24));
    ack.setUint32(0, head.getUint32(0, true), true); // 'SFN1'
    ack.setUint8(4, ACK);
    ack.setUint8(5, WIRE_VERSION);
    ack.setUint32(8, head.getUint32(8, true), true); // the schema's hash, as the server sent it
    ack.setUint32(12, 24, true);
    ack.setUint32(16, 0, true);
    ack.setUint32(20, head.getUint32(16, true), true); // the snapshot's tick
    socket.send(new Uint8Array(ack.buffer));
  });
  sockets.push(new Promise((resolve, reject) => {
    socket.on('open', () => resolve(socket));
    socket.on('error', reject);
  }));
}
const open = await Promise.all(sockets);
console.log(JSON.stringify({ open: open.length }));
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'report') {
    console.log(JSON.stringify({ messages, bytes }));
    messages = 0;
    bytes = 0;
  } else if (line === 'exit') {
    for (const socket of open) socket.close();
    process.exit(0);
  }
}
