/**
 * The page's simulation worker: the server's world through the network client (the URL comes from the page's
 * setup), this player's own ship predicted (prediction.ts), so it answers a key in the next frame. The URL says
 * which server: http(s)://host:port is a Colyseus process, where the worker joins the room ROOM by name through
 * matchmaking (`colyseusRoom`: seated in a room of whichever process holds it); ws(s)://... is server.ts's bare
 * WebSocket server.
 */
import { colyseusRoom } from '@steadyframe/colyseus/client';
import { networkClient, type SocketFactory, type SocketLike } from 'steadyframe/network';
import { exposeSimulation } from 'steadyframe/worker';
import { predictOwnShip } from './prediction.ts';
import { PAGE_INPUT_WIDTH, ROOM, schema } from './schema.ts';

const viaColyseus = colyseusRoom(ROOM);
/** The realm's WebSocket, as the network client's default socket is (it sends bytes, which is all a SocketLike does). */
const BareSocket = WebSocket as unknown as new (url: string) => SocketLike;
const socket: SocketFactory = (url) => (/^https?:/.test(url) ? viaColyseus(url) : new BareSocket(url));

exposeSimulation(networkClient({ schema, inputWidth: PAGE_INPUT_WIDTH, predict: predictOwnShip, socket }));
