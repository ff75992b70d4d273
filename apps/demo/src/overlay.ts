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
  // the pacer's decision, in refreshes (n: a frame every n-th refresh), not ms: a refresh estimate that wobbles
  // (headless rAF is not vsync-locked) does not move it. Series 0: the slow frames the control injects, each a
  // band as long as the frame took
  interval: {
    title: 'render interval',
    legend: [['a frame every n-th refresh', AMBER], ['a slow frame', RED]],
    plot: {
      series: [{ color: RED, style: 'spans' }, { color: AMBER, style: 'step' }],
      min: 0.5,
      max: 4.5,
      fixed: true,
      guides: [1, 2, 3, 4],
      guideLabel: (n: number) => `${n}×`,
    },
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
  readonly #legends: Record<CardName, HTMLElement[]>;

  constructor(root: HTMLElement) {
    const plots: Partial<Record<CardName, Plot>> = {};
    const values: Partial<Record<CardName, HTMLElement>> = {};
    const legends: Partial<Record<CardName, HTMLElement[]>> = {};
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
      const items: HTMLElement[] = [];
      legends[name] = items;
      for (const [label, color] of card.legend) {
        const item = document.createElement('span');
        item.style.setProperty('--swatch', color);
        item.textContent = label;
        legend.append(item);
        items.push(item);
      }
      element.append(head, canvas, legend);
      root.append(element);
      plots[name] = new Plot(canvas, card.plot);
      values[name] = value;
    }
    this.plots = plots as Record<CardName, Plot>;
    this.#values = values as Record<CardName, HTMLElement>;
    this.#legends = legends as Record<CardName, HTMLElement[]>;
  }

  /** The text of one legend item of a card. */
  setLegend(name: CardName, item: number, text: string): void {
    const element = this.#legends[name][item];
    if (element !== undefined && element.textContent !== text) element.textContent = text;
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
