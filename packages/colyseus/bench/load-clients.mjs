// The rooms bench's clients (rooms.measure.ts): a process of its own, so that what they cost is not the server's.
// `node load-clients.mjs <room name> <url>...`: reads commands on stdin, one a line, and answers each with one JSON
// line on stdout:
//   `add <n>`  joins n more clients, one after the other, each through the next URL in turn (Colyseus's
//              matchmaking: `joinOrCreate(name)` with @colyseus/sdk); answers { joined, joins: [{ ms, roomId }] },
//              ms from the join asked to the room joined (the seat reserved, the socket open, the join answered)
//   `report`   answers { clients, rooms: [each client's room id], snapshots: [each client's since the last report],
//              gaps: [each one's snapshots the server sent it that never came, by their send numbers], bytes }
//              and counts again
//   `exit`     leaves every room and ends
// Each client acknowledges every snapshot's tick as a client that decoded it does (the wire's ack, version 5:
// 16 u32 events wanted next, 20 u32 the tick), so the server sends it the deltas real clients get; it decodes
// nothing (its cost is not the server's). The steadyframe messages are the body of Colyseus bytes messages of
// type ROOM_MESSAGE (83).
import { createInterface } from 'node:readline';
import { Client } from '@colyseus/sdk';

const WIRE_VERSION = 5;
const SNAPSHOT = 1;
const ACK = 5;
const ROOM_MESSAGE = 83;

const [name, ...urls] = process.argv.slice(2);
const sdks = urls.map((url) => new Client(url));
/** Each client: its room, and its counts since the last report. */
const clients = [];
let bytes = 0;

async function join(sdk) {
  const client = { room: null, snapshots: 0, gaps: 0, lastSend: -1 };
  const began = performance.now();
  const room = await sdk.joinOrCreate(name, {});
  const ms = performance.now() - began;
  room.reconnection.enabled = false;
  room.onMessage(ROOM_MESSAGE, (data) => {
    bytes += data.byteLength;
    const head = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (head.getUint8(4) !== SNAPSHOT) return;
    if (head.getUint8(5) !== WIRE_VERSION) throw new Error(`load-clients speaks wire version ${WIRE_VERSION}; the server sent ${head.getUint8(5)}`);
    client.snapshots++;
    // the send number (u16): one the server sent this client that never came is a gap
    const send = head.getUint16(6, true);
    if (client.lastSend !== -1) client.gaps += (send - client.lastSend - 1 + 0x10000) & 0xffff;
    client.lastSend = send;
    const ack = new DataView(new ArrayBuffer(24));
    ack.setUint32(0, head.getUint32(0, true), true); // 'SFN1'
    ack.setUint8(4, ACK);
    ack.setUint8(5, WIRE_VERSION);
    ack.setUint32(8, head.getUint32(8, true), true); // the schema's hash, as the server sent it
    ack.setUint32(12, 24, true);
    ack.setUint32(16, 0, true);
    ack.setUint32(20, head.getUint32(16, true), true); // the snapshot's tick
    room.sendBytes(ROOM_MESSAGE, new Uint8Array(ack.buffer));
  });
  client.room = room;
  clients.push(client);
  return { ms, roomId: room.roomId };
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, arg] = line.split(' ');
  if (command === 'add') {
    const joins = [];
    for (let i = 0; i < Number(arg); i++) joins.push(await join(sdks[clients.length % sdks.length]));
    console.log(JSON.stringify({ joined: clients.length, joins }));
  } else if (command === 'report') {
    console.log(JSON.stringify({ clients: clients.length, rooms: clients.map((c) => c.room.roomId), snapshots: clients.map((c) => c.snapshots), gaps: clients.map((c) => c.gaps), bytes }));
    for (const client of clients) {
      client.snapshots = 0;
      client.gaps = 0;
    }
    bytes = 0;
  } else if (command === 'exit') {
    await Promise.all(clients.map((c) => c.room.leave(true).catch(() => {})));
    process.exit(0);
  }
}
