// `npm run bench:net`'s clients (net-scale.measure.ts): a process of its own, so that what they cost is not the
// server's. `node net-clients.mjs <port> <count>`: opens `count` WebSocket connections to the server and counts
// what arrives on each. Reads commands on stdin, one a line: `report` prints one JSON line (messages and bytes
// received since the last report, over all connections) and starts counting again; `exit` closes them and ends.
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
