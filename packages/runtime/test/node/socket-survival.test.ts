/**
 * The multiplayer guide's server, as written, survives anything a socket can send (issue 38). The server is the
 * recipe of site/guides/multiplayer.md itself, cut from the page at test time (two changes, each checked to apply:
 * loopback and a free port for 8080; the game's schema, imported from a fixture; its worker is a fixture's), bundled and run in a child
 * process: a process death is then something the test sees, not something that takes the test down with it.
 *
 * ```text
 *  test process                                          child: the guide's server (--expose-gc)
 *  a well-behaved client ── pings once a second ───────▶ WebSocketServer ── hostSnapshots ── publisher
 *        counts its snapshots (20 a second)  ◀─────────  (report: memory after a GC, host.stats, ticks' inputs)
 *  probes: one hand-made frame each over a raw TCP socket after a real upgrade, one at a time, then at once
 *  storm (STORM_MS): random bytes, damaged real messages, a ping flood, an input flood, connect/drop churn, a
 *         reader that never reads
 * ```
 *
 * Pass: the process lives; each probe is answered with its close code, its socket ended within the host's grace,
 * and counted by reason; the well-behaved client receives, through the storm, within 10% of the snapshots the
 * server publishes (and that is at least half the nominal rate); the flooding client's inputs stay within its allowance; the server's heap after a GC returns to within
 * 20% of where it started. Against the socket host before issue 38 the first probe kills the process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildWorkerModule, mulberry32 } from 'steadyframe/testing/node';
import { computeLayout } from '../../src/core/layout.ts';
import type { PublisherRefusal } from '../../src/net/publisher.ts';
import type { ProtocolError } from '../../src/net/socket-errors.ts';
import { CLOSE_GRACE_MS, type HostClose } from '../../src/net/socket-host.ts';
import { decodePong, encodeInputs, encodePing, maxClientMessageBytes, MAX_INPUTS_PER_MESSAGE, messageType, MESSAGE, wireFormat } from '../../src/net/wire.ts';
import { schema } from './fixtures/readme-game-schema.ts';

/** The guide's server: 60 Hz ticks, `every: 3`. */
const PUBLISH_PER_SECOND = 20;
/** The guide's `capacity` and `input: { payloadWidth: 3 }` (the player, then the client's two values). */
const CAPACITY = 64;
const CLIENT_INPUT_WIDTH = 2;
/** The publisher's default allowance (client-inputs.ts DEFAULT_INPUTS_PER_SECOND), a burst of as many. */
const INPUTS_PER_SECOND = 120;
const STORM_MS = 10_000;
const format = wireFormat(computeLayout(schema, CAPACITY));
const MAX_MESSAGE = maxClientMessageBytes(CLIENT_INPUT_WIDTH);

/** What the child says when asked ('report'): memory after a GC, the host's stats, the game's inputs seen. */
interface Report {
  readonly memory: NodeJS.MemoryUsage;
  readonly stats: {
    readonly open: number;
    readonly refused: Record<PublisherRefusal, number>;
    readonly protocolErrors: Record<ProtocolError, number>;
    readonly closed: Record<HostClose, number>;
  } | null;
  readonly sent: number;
  readonly inputsSeen: number;
}

/** The test's window into the child, appended after the recipe (the recipe's `runtime`, `publisher`, `host`). */
const HARNESS = `
process.on('message', (message) => {
  if (message !== 'report') return;
  globalThis.gc?.();
  void runtime.commands.inputsSeen().then((inputsSeen) =>
    process.send({ memory: process.memoryUsage(), stats: host?.stats ?? null, sent: publisher.stats.sent, inputsSeen }));
});`;

/**
 * The multiplayer guide's server block (site/guides/multiplayer.md), from its `// server.ts (Node)` line to the end
 * of its code block.
 */
function readmeServer(port: number): string {
  const guide = readFileSync(new URL('../../../../site/guides/multiplayer.md', import.meta.url), 'utf8');
  const start = guide.indexOf('// server.ts (Node)\n');
  expect(start, 'site/guides/multiplayer.md has no `// server.ts (Node)` block').toBeGreaterThan(0);
  const recipe = guide.slice(start, guide.indexOf('\n```', start));
  const listen = 'new WebSocketServer({ port: 8080';
  expect(recipe, 'the recipe listens on port 8080').toContain(listen);
  const schemaImport = "import { schema } from './game.schema';";
  expect(recipe, "the recipe imports the game's schema from ./game.schema").toContain(schemaImport);
  const schemaFile = fileURLToPath(new URL('./fixtures/readme-game-schema.ts', import.meta.url));
  return [recipe.replace(schemaImport, `import { schema } from ${JSON.stringify(schemaFile)};`).replace(listen, `new WebSocketServer({ host: '127.0.0.1', port: ${port}`), HARNESS].join('\n');
}

/** A port free on 127.0.0.1 now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The recipe bundled into one ES module, its `./game.worker.js` beside it (the fixture game, bundled). */
async function bundleServer(port: number): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'steadyframe-readme-server-'));
  const worker = await buildWorkerModule(fileURLToPath(new URL('./fixtures/readme-game.worker.ts', import.meta.url)));
  copyFileSync(worker, join(outDir, 'game.worker.js'));
  writeFileSync(join(outDir, 'package.json'), '{ "type": "module" }');
  // the recipe's source goes under this package's node_modules (ignored by git), so that its bare imports
  // (steadyframe/node, ws) resolve as in an app
  const sourceDir = mkdtempSync(join(fileURLToPath(new URL('../../node_modules/', import.meta.url)), '.readme-server-'));
  const entry = join(sourceDir, 'server.ts');
  writeFileSync(entry, readmeServer(port));
  await build({
    configFile: false,
    logLevel: 'warn',
    build: { ssr: entry, outDir, emptyOutDir: false, minify: false, target: 'node20', rollupOptions: { output: { format: 'es', entryFileNames: 'server.mjs' } } },
    ssr: { noExternal: true, target: 'node' },
  });
  rmSync(sourceDir, { recursive: true, force: true });
  return join(outDir, 'server.mjs');
}

let child: ChildProcess;
let port = 0;
/** The bundled server's folder, removed at the end. */
let bundleDir = '';
let output = '';
const reports: Array<(report: Report) => void> = [];

/** The child's state for an assertion's message: how it ended, and what it printed. */
const died = () => `the server process ended (exit ${String(child.exitCode)}, signal ${String(child.signalCode)}):\n${output.slice(-3000)}`;
const alive = () => child.exitCode === null && child.signalCode === null;

function report(): Promise<Report> {
  if (!alive()) return Promise.reject(new Error(died()));
  return new Promise((resolve, reject) => {
    reports.push(resolve);
    child.send('report');
    setTimeout(() => reject(new Error(`no report from the server in 5 s; ${died()}`)), 5000).unref();
  });
}

/** Polls until `predicate` holds; fails with `what` after `timeoutMs` (a hang guard, not a timing check). */
async function waitFor(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await predicate())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}; alive: ${alive()}`);
    await sleep(20);
  }
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The well-behaved client: a `ws` socket that pings on the client's schedule (once a second) and notes when
 * each snapshot arrives.
 */
class GoodClient {
  readonly arrivals: number[] = [];
  pongs = 0;
  closed = false;
  readonly #socket: WebSocket;
  readonly #timer: ReturnType<typeof setInterval>;
  constructor(url: string) {
    this.#socket = new WebSocket(url);
    this.#socket.on('message', (data: Buffer) => {
      const type = messageType(format, new Uint8Array(data));
      if (type === MESSAGE.SNAPSHOT) this.arrivals.push(performance.now());
      if (type === MESSAGE.PONG) this.pongs++;
    });
    this.#socket.on('close', () => (this.closed = true));
    this.#socket.on('error', () => {});
    let sequence = 0;
    this.#timer = setInterval(() => {
      if (this.#socket.readyState === WebSocket.OPEN) this.#socket.send(encodePing(format, { sequence: sequence++, clientSent: performance.now() }));
    }, 1000);
  }
  /** Snapshots that arrived in [from, to). */
  between(from: number, to: number): number {
    return this.arrivals.filter((t) => t >= from && t < to).length;
  }
  close(): void {
    clearInterval(this.#timer);
    this.#socket.close();
  }
}
let good: GoodClient;

beforeAll(async () => {
  port = await freePort();
  const server = await bundleServer(port);
  bundleDir = dirname(server);
  child = fork(server, [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  child.stdout!.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr!.on('data', (data: Buffer) => (output += data.toString()));
  child.on('message', (message) => reports.shift()?.(message as Report));
  // the server listens once its runtime has started: try until a client is served
  await waitFor('the guide server to serve snapshots', async () => {
    if (!alive()) throw new Error(died());
    const client = new GoodClient(`ws://127.0.0.1:${port}`);
    await sleep(300);
    if (client.arrivals.length > 0) {
      good = client;
      return true;
    }
    client.close();
    return false;
  }, 20_000);
}, 60_000);

afterAll(() => {
  good?.close();
  if (child !== undefined && alive()) child.kill();
  if (bundleDir !== '') rmSync(bundleDir, { recursive: true, force: true });
});

/** Whether the server is alive and serving: the well-behaved client gets a snapshot newer than now (1 s at most). */
async function serving(): Promise<boolean> {
  const since = performance.now();
  while (performance.now() - since < 1000) {
    if (good.arrivals.at(-1)! > since) return alive();
    await sleep(10);
  }
  return false;
}

/** A frame as a client writes it (masked unless told), any header bit or length at will. */
function frame(opcode: number, payload: Uint8Array, options: { fin?: boolean; rsv?: number; mask?: boolean; length?: number; high?: number } = {}): Buffer {
  const { fin = true, rsv = 0, mask = true, length = payload.length, high = 0 } = options;
  const head: number[] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode];
  const m = mask ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126 && high === 0) head.push(m | length);
  else if (length < 65_536 && high === 0) {
    head.push(m | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(length);
  } else {
    head.push(m | 127);
    extended = Buffer.alloc(8);
    extended.writeUInt32BE(high, 0);
    extended.writeUInt32BE(length >>> 0, 4);
  }
  const key = mask ? randomBytes(4) : Buffer.alloc(0);
  const body = Buffer.from(payload);
  if (mask) for (let i = 0; i < body.length; i++) body[i] = body[i]! ^ key[i % 4]!;
  return Buffer.concat([Buffer.from(head), extended, key, body]);
}

/**
 * A raw TCP socket upgraded to a WebSocket by a real handshake; resolves with it and what came after the 101.
 * `allowHalfOpen`: the socket does not end its side when the server ends its own (a peer that never finishes a close).
 */
function upgraded(allowHalfOpen = false): Promise<{ socket: Socket; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen });
    let got = Buffer.alloc(0);
    const guard = setTimeout(() => reject(new Error('no upgrade in 5 s')), 5000);
    socket.on('error', () => {});
    socket.on('connect', () => {
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    const onData = (data: Buffer) => {
      got = Buffer.concat([got, data]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      clearTimeout(guard);
      if (!got.subarray(0, end).toString().startsWith('HTTP/1.1 101')) reject(new Error(`not upgraded: ${got.subarray(0, end).toString()}`));
      else resolve({ socket, rest: got.subarray(end + 4) });
    };
    socket.on('data', onData);
  });
}

/** The close code in the server's frames (unmasked), or null if it sent no close frame. */
function closeCode(bytes: Buffer): number | null {
  let at = 0;
  while (at + 2 <= bytes.length) {
    const opcode = bytes[at]! & 0x0f;
    let length = bytes[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(at + 2);
      start += 2;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(at + 2));
      start += 8;
    }
    if (opcode === 0x8) return length >= 2 ? bytes.readUInt16BE(start) : 1005;
    at = start + length;
  }
  return null;
}

/**
 * Sends `bytes` after a handshake and waits for the server to end the connection: its close code and how soon.
 * Half open, it waits only for the server to end its side, and the socket is left for the caller to destroy.
 */
async function probe(bytes: Buffer, allowHalfOpen = false): Promise<{ code: number | null; endedMs: number; socket: Socket }> {
  const { socket, rest } = await upgraded(allowHalfOpen);
  let got = rest;
  socket.on('data', (data: Buffer) => (got = Buffer.concat([got, data])));
  const sent = performance.now();
  socket.write(bytes);
  // a hang guard: the host drops the socket within CLOSE_GRACE_MS of the close
  const guard = setTimeout(() => socket.destroy(), 5000);
  await new Promise((resolve) => {
    socket.on('close', resolve);
    if (allowHalfOpen) socket.on('end', resolve);
  });
  clearTimeout(guard);
  return { code: closeCode(got), endedMs: performance.now() - sent, socket };
}

/** Every frame-level fault `ws` refuses: the frame, the close code it answers with, the reason the host counts. */
const PROBES: ReadonlyArray<{ name: string; bytes: () => Buffer; code: number; reason: ProtocolError }> = [
  { name: 'a text frame with invalid UTF-8', bytes: () => frame(0x1, new Uint8Array([0xff, 0xfe, 0xfd])), code: 1007, reason: 'utf8' },
  { name: 'an unmasked client frame', bytes: () => frame(0x2, new Uint8Array(8), { mask: false }), code: 1002, reason: 'mask' },
  { name: 'a reserved opcode (3)', bytes: () => frame(0x3, new Uint8Array(4)), code: 1002, reason: 'opcode' },
  { name: 'a continuation with nothing to continue', bytes: () => frame(0x0, new Uint8Array(4)), code: 1002, reason: 'opcode' },
  { name: 'a header announcing 200 MiB', bytes: () => frame(0x2, new Uint8Array(0), { length: 200 * 1024 * 1024 }), code: 1009, reason: 'size' },
  { name: 'a length past 2^53', bytes: () => frame(0x2, new Uint8Array(0), { high: 0x0040_0000 }), code: 1009, reason: 'size' },
  { name: 'a message one byte past maxPayload', bytes: () => frame(0x2, new Uint8Array(MAX_MESSAGE + 1)), code: 1009, reason: 'size' },
  { name: 'a ping of 126 bytes', bytes: () => frame(0x9, new Uint8Array(126)), code: 1002, reason: 'control' },
  { name: 'a fragmented ping', bytes: () => frame(0x9, new Uint8Array(4), { fin: false }), code: 1002, reason: 'control' },
  { name: 'a close with code 999', bytes: () => frame(0x8, new Uint8Array([0x03, 0xe7])), code: 1002, reason: 'close' },
  { name: 'RSV1 set, no extension agreed', bytes: () => frame(0x2, new Uint8Array(4), { rsv: 4 }), code: 1002, reason: 'rsv' },
  { name: 'RSV2 set', bytes: () => frame(0x2, new Uint8Array(4), { rsv: 2 }), code: 1002, reason: 'rsv' },
  { name: 'RSV3 set', bytes: () => frame(0x2, new Uint8Array(4), { rsv: 1 }), code: 1002, reason: 'rsv' },
];

/** The reasons the probes should have counted, `times` each. */
function expectedErrors(times: number): Record<ProtocolError, number> {
  const counts: Record<ProtocolError, number> = { utf8: 0, mask: 0, opcode: 0, rsv: 0, control: 0, close: 0, size: 0, other: 0 };
  for (const p of PROBES) counts[p.reason] += times;
  return counts;
}

it('refuses every frame-level fault, one at a time, with its close code, ends the socket and counts it; the process lives', async () => {
  for (const p of PROBES) {
    const { code, endedMs } = await probe(p.bytes());
    expect(await serving(), `after ${p.name}: ${died()}`).toBe(true);
    expect([p.name, code], p.name).toEqual([p.name, p.code]);
    expect(endedMs, `${p.name}: the socket ended ${endedMs.toFixed(0)} ms after the frame`).toBeLessThan(CLOSE_GRACE_MS + 1000);
  }
  const { stats } = await report();
  expect(stats?.protocolErrors).toEqual(expectedErrors(1));
  expect(stats?.closed.protocol).toBe(PROBES.length);
  expect(good.closed).toBe(false);
}, 30_000);

it('refuses them all at once, the same, and drops the sockets of peers that never finish the close', async () => {
  // half open: these peers never end their side, so the server holds each socket until the host's terminate
  // (ws alone would wait for its closeTimeout, 30 s)
  const results = await Promise.all(PROBES.map((p) => probe(p.bytes(), true)));
  const closing = performance.now();
  expect(await serving(), died()).toBe(true);
  expect(results.map((r) => r.code)).toEqual(PROBES.map((p) => p.code));
  await waitFor('the server to drop the half-open sockets', async () => (await report()).stats?.open === 1, CLOSE_GRACE_MS + 1000);
  const droppedMs = performance.now() - closing;
  for (const r of results) r.socket.destroy();
  expect(droppedMs).toBeLessThan(CLOSE_GRACE_MS + 1000);
  const { stats } = await report();
  expect(stats?.protocolErrors).toEqual(expectedErrors(2));
  expect(good.closed).toBe(false);
}, 30_000);

/** Runs `body` over and over (each a connection's life) until `until`, at most `max` times. */
async function loop(until: number, max: number, body: () => Promise<void>): Promise<void> {
  for (let i = 0; i < max && performance.now() < until; i++) await body();
}

/** A `ws` client; resolves when open (or null when it could not open). */
function open(): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}`);
    socket.on('error', () => resolve(null));
    socket.on('open', () => resolve(socket));
  });
}

/** Sends what `next` makes every `everyMs` until the socket closes or `until`; then closes it. */
async function sendUntil(socket: WebSocket, until: number, everyMs: number, next: () => Uint8Array | null): Promise<void> {
  while (socket.readyState === WebSocket.OPEN && performance.now() < until) {
    const bytes = next();
    if (bytes !== null) socket.send(bytes);
    await sleep(everyMs);
  }
  socket.terminate();
}

it("keeps the well-behaved client's 20 snapshots a second, the input allowance and its memory through a storm", async () => {
  const before = await report();
  const random = mulberry32(38);
  const start = performance.now();
  const until = start + STORM_MS;
  let churned = 0;
  let floodSent = 0;
  const attackers: Array<Promise<void>> = [];
  // random bytes, up to the payload limit: refused by the wire, then closed for refusing (DEFAULT_MAX_REFUSING_MS)
  for (let k = 0; k < 3; k++) {
    attackers.push(
      loop(until, 20, async () => {
        const socket = await open();
        if (socket !== null) await sendUntil(socket, until, 10, () => randomBytes(1 + Math.floor(random() * MAX_MESSAGE)));
      }),
    );
  }
  // damaged real messages: a ping or an input message with bytes flipped, or cut short
  const real = [encodePing(format, { sequence: 1, clientSent: 0 }), encodeInputs(format, [{ time: 0, code: 1, payload: [1, 2] }], CLIENT_INPUT_WIDTH)];
  attackers.push(
    loop(until, 20, async () => {
      const socket = await open();
      if (socket === null) return;
      await sendUntil(socket, until, 5, () => {
        const bytes = real[Math.floor(random() * real.length)]!.slice();
        if (random() < 0.3) return bytes.subarray(0, Math.floor(random() * bytes.length));
        for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
          const at = Math.floor(random() * bytes.length);
          bytes[at] = bytes[at]! ^ (1 + Math.floor(random() * 255));
        }
        return bytes;
      });
    }),
  );
  // a WebSocket ping flood: 50 pings at once, again on every new connection (the host closes each at the 11th)
  attackers.push(
    loop(until, 40, async () => {
      const socket = await open();
      if (socket === null) return;
      for (let i = 0; i < 50 && socket.readyState === WebSocket.OPEN; i++) socket.ping();
      await new Promise((resolve) => {
        socket.on('close', resolve);
        setTimeout(resolve, 2000);
      });
      socket.terminate();
      await sleep(100);
    }),
  );
  // the wire's pings, a thousand a second (the publisher answers MAX_PINGS_PER_SECOND)
  attackers.push(
    loop(until, 5, async () => {
      const socket = await open();
      if (socket !== null) await sendUntil(socket, until, 1, () => encodePing(format, { sequence: 0, clientSent: performance.now() }));
    }),
  );
  // an input flood: full messages of valid events, stamped with the server's now (learnt from a pong)
  attackers.push(
    (async () => {
      const socket = await open();
      if (socket === null) return;
      const offset = await new Promise<number>((resolve) => {
        socket.on('message', (data: Buffer) => {
          const bytes = new Uint8Array(data);
          if (messageType(format, bytes) !== MESSAGE.PONG) return;
          const pong = decodePong(format, bytes);
          resolve(pong.serverSent - (pong.clientSent + performance.now()) / 2);
        });
        socket.send(encodePing(format, { sequence: 0, clientSent: performance.now() }));
      });
      let sequence = 0;
      await sendUntil(socket, until, 5, () => {
        const time = performance.now() + offset - 20;
        const events = Array.from({ length: MAX_INPUTS_PER_MESSAGE }, () => ({ time, code: 1, payload: [1, 1] }));
        const bytes = encodeInputs(format, events, CLIENT_INPUT_WIDTH, sequence);
        sequence += events.length;
        floodSent += events.length;
        return bytes;
      });
    })(),
  );
  // connect and drop: an upgrade then a reset, a TCP connection dropped mid-handshake
  attackers.push(
    loop(until, 400, async () => {
      const socket = await open();
      socket?.terminate();
      const raw = connect(port, '127.0.0.1');
      raw.on('error', () => {});
      raw.on('connect', () => raw.end('GET / HTTP/1.1\r\nUpgrade: websocket\r\n'));
      churned += 2;
      await sleep(20);
    }),
  );
  // a reader that never reads: upgraded, paused, kept to the end
  const readers = await Promise.all([upgraded(), upgraded()]);
  for (const r of readers) r.socket.pause();
  // the server's count of states published, at the storm's height and at its end (each as the reply came)
  const stormed = await report();
  const stormedAt = performance.now();
  await Promise.all(attackers);
  const ended = performance.now();
  const calmed = await report();
  const calmedAt = performance.now();
  for (const r of readers) r.socket.destroy();
  expect(await serving(), died()).toBe(true);

  // the well-behaved client through the storm: what it received against what the server published meanwhile.
  // Not against the nominal 20 a second: a machine busy with other work slows the server's own publishing (a CI
  // run's did 17.4 a second through the storm), and that is not the storm's doing. What the storm could take,
  // and must not, is the good client's share of what was published (a snapshot in flight at either end: 2 more)
  const seconds = (calmedAt - stormedAt) / 1000;
  const published = calmed.sent - stormed.sent;
  const snapshots = good.between(stormedAt, calmedAt);
  const what = `${snapshots} snapshots received of ${published} published in ${seconds.toFixed(1)} s`;
  expect(seconds).toBeGreaterThanOrEqual(6);
  expect(Math.abs(snapshots - published), what).toBeLessThanOrEqual(0.1 * published + 2);
  // and the storm did not stop the publishing: at least half the nominal rate (a hang guard, not a timing)
  expect(published, what).toBeGreaterThan(0.5 * PUBLISH_PER_SECOND * seconds);
  expect(good.closed).toBe(false);

  // every attacker's connection has gone: only the well-behaved client is left
  await waitFor('the storm connections to close', async () => (await report()).stats?.open === 1, 10_000);
  const after = await report();
  const stats = after.stats!;
  const stormSeconds = (ended - start) / 1000;
  // the flood's inputs reached the game within the allowance (a burst, then INPUTS_PER_SECOND), and did reach it
  const inputs = after.inputsSeen - before.inputsSeen;
  expect(inputs, `${inputs} of ${floodSent} flooded events taken in ${stormSeconds.toFixed(1)} s`).toBeLessThanOrEqual(INPUTS_PER_SECOND * (stormSeconds + 1));
  expect(inputs).toBeGreaterThan(INPUTS_PER_SECOND * stormSeconds * 0.5);
  // each attack was refused where it should be, and counted
  expect(stats.refused.flood, 'input and ping floods refused').toBeGreaterThan(floodSent / 2);
  expect(stats.closed.pings, 'ping floods closed').toBeGreaterThan(1);
  expect(stats.closed.refusals, 'refusal-only connections closed').toBeGreaterThan(0);
  expect(stats.refused.magic + stats.refused.truncated, 'random and cut messages refused').toBeGreaterThan(100);
  expect(churned).toBeGreaterThan(50);
  // memory: the server's heap after a GC, back within 20% of where it started
  const heap = after.memory.heapUsed / before.memory.heapUsed;
  console.info(
    `socket survival: ${what} (nominal rate ${PUBLISH_PER_SECOND}/s); heap ${(before.memory.heapUsed / 2 ** 20).toFixed(1)} -> ${(after.memory.heapUsed / 2 ** 20).toFixed(1)} MiB, ` +
      `rss ${(before.memory.rss / 2 ** 20).toFixed(0)} -> ${(after.memory.rss / 2 ** 20).toFixed(0)} MiB; inputs ${inputs} of ${floodSent}; ${JSON.stringify(stats)}`,
  );
  expect(heap, 'the heap after the storm over the heap before it, each after a GC').toBeLessThan(1.2);
}, 60_000);
