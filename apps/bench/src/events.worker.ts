/**
 * The events suite's worker side: `tick.emit` + the commit, timed in a worker as a step runs them
 * (shared/event-costs.ts, side `emit`). The page posts the counts and samples; the rows come back.
 */
import { measureEventCosts, type EventsToPage, type EventsToWorker } from './shared/event-costs.ts';

const post = (message: EventsToPage) => self.postMessage(message);

self.addEventListener('message', (event: MessageEvent<EventsToWorker>) => {
  measureEventCosts('emit', event.data.counts, event.data.samples, event.data.sampleMs).then(
    (rows) => post({ type: 'done', rows }),
    (error: unknown) => post({ type: 'error', message: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) }),
  );
});
