/**
 * The events suite's worker side: `tick.emit` + the commit for one N a tick, timed in a worker as a step runs them
 * (shared/event-costs.ts, side `emit`). One N per worker, so that the emit call site sees one emitter, as in a
 * simulation worker. The page sends `setup`, then asks for one sample at a time (taking turns with the other Ns).
 */
import { eventRig, sampleRig, warmUp, type EventRig, type EventsToPage, type EventsToWorker } from './shared/event-costs.ts';

const post = (message: EventsToPage) => self.postMessage(message);
let rig: EventRig | null = null;
let batches = 1;

self.addEventListener('message', (event: MessageEvent<EventsToWorker>) => {
  try {
    const data = event.data;
    if (data.type === 'setup') {
      rig = eventRig('emit', data.n);
      batches = warmUp(rig, data.sampleMs);
      post({ type: 'ready', capacity: rig.capacity, ticks: rig.ticks, batches });
    } else if (rig !== null) {
      post({ type: 'sample', perTickMs: sampleRig(rig, batches), lost: rig.lost });
    }
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) });
  }
});
