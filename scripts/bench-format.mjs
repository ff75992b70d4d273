// The benchmark report's number formats and tables (scripts/bench.mjs and its sections).

export const isNum = (x) => typeof x === 'number' && Number.isFinite(x);
/** A number with `digits` decimals, or an em dash. */
export const num = (x, digits = 2) => (isNum(x) ? x.toFixed(digits) : '—');
/** "median (min–max)" of a spread. */
export const sp = (s, digits = 2, scale = 1) =>
  s === undefined || !isNum(s.median) ? '—' : `${(s.median * scale).toFixed(digits)} (${(s.min * scale).toFixed(digits)}–${(s.max * scale).toFixed(digits)})`;
export const pct = (s, digits = 2) => sp(s, digits, 100);
export const ratio = (a, b) => (isNum(a) && isNum(b) && b !== 0 ? a / b : Number.NaN);
export const times = (x, digits = 2) => (isNum(x) ? `${x.toFixed(digits)}×` : '—');
export const entities = (n) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

/** A markdown table; columns whose every cell starts like a number are right-aligned. */
export function table(header, rows) {
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^[-−—\d.]/.test(String(r[i] ?? ''))));
  return [
    `| ${header.join(' | ')} |`,
    `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** median, min and max of the values (the windows of every run of one design, pooled). */
export function pooled(values) {
  const v = values.filter(isNum).sort((a, b) => a - b);
  if (v.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const mid = v.length >> 1;
  return { median: v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2, min: v[0], max: v[v.length - 1] };
}

/**
 * A suite's rows (each one run of a design at a count, with its windows), by design and count: the counts
 * measured, the runs of a design at a count, and one window number of those runs pooled.
 */
export function byDesign(rows) {
  const counts = [...new Set(rows.map((r) => r.count))].sort((a, b) => a - b);
  const at = (design, count) => rows.filter((r) => r.design === design && r.count === count);
  const of = (design, count, key) => pooled(at(design, count).flatMap((r) => r.windows.map((w) => w[key])));
  return { counts, at, of };
}
