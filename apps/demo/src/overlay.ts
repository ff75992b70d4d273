/**
 * The live overlay: a card per measure, each a sparkline with its newest reading beside the title. Frame
 * measures get one sample per rendered frame, worker measures one per tick.
 */
import { Plot, type PlotOptions } from './plot.ts';

const BLUE = '#5ab4f0';
const PALE = '#c9d4df';
const AMBER = '#f0b44a';
const TEAL = '#4fd1b5';
const GREEN = '#5fd068';
const RED = '#f06a5a';
const VIOLET = '#b48cf0';

const CARDS = {
  frameTime: {
    title: 'frame time',
    legend: [['between frames', PALE], ['main-thread work', BLUE]],
    plot: { series: [{ color: BLUE, style: 'bars' }, { color: PALE, style: 'line' }], min: 0, max: 20, guides: [1000 / 60, 2000 / 60] },
  },
  interval: {
    title: 'render interval',
    legend: [['interval', AMBER], ['display refresh', PALE]],
    plot: { series: [{ color: PALE, style: 'step' }, { color: AMBER, style: 'step' }], min: 0, max: 20 },
  },
  ticks: {
    title: 'ticks per frame',
    legend: [['ticks the frame moved on', TEAL]],
    plot: { series: [{ color: TEAL, style: 'bars' }], min: 0, max: 1 },
  },
  alpha: {
    title: 'alpha',
    legend: [['where the frame falls between two ticks', BLUE]],
    plot: { series: [{ color: BLUE, style: 'line' }], min: 0, max: 1, guides: [0, 1] },
  },
  age: {
    title: 'state age',
    legend: [['state ahead of the frame (below 0), on purpose', GREEN], ['late', RED]],
    plot: { series: [{ color: GREEN, style: 'signed', above: RED }], min: -20, max: 5, guides: [0] },
  },
  jitter: {
    title: 'worker tick jitter',
    legend: [['made − due, per tick', AMBER]],
    plot: { series: [{ color: AMBER, style: 'dots' }], min: -10, max: 10, guides: [0] },
  },
  step: {
    title: 'worker step',
    legend: [['ms per tick', VIOLET]],
    plot: { series: [{ color: VIOLET, style: 'bars' }], min: 0, max: 2 },
  },
  lock: {
    title: 'lock contention',
    legend: [['spins per frame', VIOLET], ['missed', RED]],
    plot: { series: [{ color: VIOLET, style: 'bars' }, { color: RED, style: 'bars' }], min: 0, max: 4 },
  },
} satisfies Record<string, { title: string; legend: readonly (readonly [string, string])[]; plot: PlotOptions }>;

export type CardName = keyof typeof CARDS;

export class Overlay {
  readonly plots: Record<CardName, Plot>;
  readonly #values: Record<CardName, HTMLElement>;

  constructor(root: HTMLElement) {
    const plots: Partial<Record<CardName, Plot>> = {};
    const values: Partial<Record<CardName, HTMLElement>> = {};
    for (const [name, card] of Object.entries(CARDS) as [CardName, (typeof CARDS)[CardName]][]) {
      const element = document.createElement('div');
      element.className = 'card';
      element.dataset.card = name;
      const head = document.createElement('div');
      head.className = 'card-head';
      const title = document.createElement('span');
      title.textContent = card.title;
      const value = document.createElement('span');
      value.className = 'value';
      head.append(title, value);
      const canvas = document.createElement('canvas');
      const legend = document.createElement('div');
      legend.className = 'legend';
      for (const [label, color] of card.legend) {
        const item = document.createElement('span');
        item.style.setProperty('--swatch', color);
        item.textContent = label;
        legend.append(item);
      }
      element.append(head, canvas, legend);
      root.append(element);
      plots[name] = new Plot(canvas, card.plot);
      values[name] = value;
    }
    this.plots = plots as Record<CardName, Plot>;
    this.#values = values as Record<CardName, HTMLElement>;
  }

  /** The reading beside a card's title. */
  setValue(name: CardName, text: string): void {
    const element = this.#values[name];
    if (element.textContent !== text) element.textContent = text;
  }

  draw(now: number): void {
    for (const plot of Object.values(this.plots)) plot.draw(now);
  }
}
