/** Our server's process (child.ts): `start` a server of the game (../ours-host.ts), `report` what it kept, `close`. */
import { startOursHost, type OursHost } from '../ours-host.ts';
import type { OursSetup } from '../ours-game.ts';
import { serve } from './ipc.ts';

let host: OursHost | null = null;

serve({
  async start(args) {
    host = await startOursHost(args.setup as OursSetup, args.worker as string);
    return host.url;
  },
  report: () => ({ poses: [...host!.poses], verdicts: host!.verdicts, clients: host!.clients.map((c) => c.stats) }),
  close: () => host?.close(),
});
