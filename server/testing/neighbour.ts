import type { Socket } from 'node:net';
import type { RunningServer } from '../main';

// Tests reach servers through the loopback range only. A neighbour on the network is played from a loopback
// source address: the server sees every connection from NEIGHBOUR_SOURCE as coming from NEIGHBOUR, a
// documentation address.
export const NEIGHBOUR_SOURCE = '127.0.0.3';
export const NEIGHBOUR = '192.0.2.10';

/** Makes `server` see the connections from NEIGHBOUR_SOURCE as a neighbour's on the network. */
export function seeNeighbourAt(server: RunningServer): void {
  server.server.prependListener('connection', (socket: Socket) => {
    if (socket.remoteAddress?.endsWith(NEIGHBOUR_SOURCE)) {
      Object.defineProperty(socket, 'remoteAddress', { value: NEIGHBOUR });
    }
  });
}
