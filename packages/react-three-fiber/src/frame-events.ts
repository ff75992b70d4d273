/**
 * `useFrameEvents` and `useGameState`: what the worker's steps tell the page (`tick.emit`, game fields), answered
 * in the animation frame that shows it. Both run in the provider's own loop, right after its `pace()`: on a
 * refresh the pacer keeps, `runtime.events` and `runtime.state` are that frame's (the events of every tick up to
 * the one it shows that no frame presented before); on a skipped refresh nothing is presented, so nothing runs.
 */
import { useFrame } from '@react-three/fiber';
import { useRef, useState } from 'react';
import type { GameEvent, GameField, Schema } from 'steadyframe';
import { UPDATE_PRIORITY, useSteadyframeContext } from './provider.tsx';

/**
 * Calls `handler` for each event the frame presents, in tick order, each exactly once, in the animation frame that
 * first shows its tick (after the provider's pace, before your useFrame callbacks; the frame's picture is drawn
 * at RENDER_PRIORITY after them): a sound, a flash or a particle burst lands with the picture. `event` is one
 * reused object over the ring's memory: read it during the call, copy out what you keep. The latest `handler`
 * is called (a new function each render is fine: it is kept in a ref); nothing is allocated per event.
 */
export function useFrameEvents(handler: (event: GameEvent) => void): void {
  const { runtime, paced } = useSteadyframeContext();
  const latest = useRef(handler);
  latest.current = handler;
  // one visitor for the component's life: forEach calls it with the ring's reused event object
  const [visit] = useState(() => (event: GameEvent) => latest.current(event));
  useFrame(() => {
    if (paced()) runtime.events.forEach(visit);
  }, UPDATE_PRIORITY);
}

/**
 * A game field (`scope: 'game'`) as React state: the component renders again when the value the shown frame has
 * changes, with the frame that shows the change (a score, lives, a phase: `none` fields, which change now and
 * then). A field that blends (`linear`, `angle`) changes every frame; read it from `useSteadyframe().state` in
 * a useFrame instead, not through React.
 */
export function useGameState<S extends Schema>(field: GameField<S>): number {
  const { runtime, paced } = useSteadyframeContext<S>();
  const [value, setValue] = useState(() => runtime.state[field]);
  const shown = useRef(value);
  useFrame(() => {
    if (!paced()) return;
    const now = runtime.state[field];
    if (!Object.is(now, shown.current)) {
      shown.current = now;
      setValue(now);
    }
  }, UPDATE_PRIORITY);
  return value;
}
