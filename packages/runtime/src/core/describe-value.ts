/**
 * One way to name a wrong value in an error message, for the runtime's and the worker's option checks: the
 * type when it is not the one asked for ("got the string '60'", not "got 60"), the value when it is.
 */

/** `value` as an error message names it: "the string '60'", "NaN", "-5", "an object", "undefined"... */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return String(value);
    case 'string':
      return `the string '${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    case 'bigint':
      return `the bigint ${String(value)}n`;
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      if (value === null) return 'null';
      return Array.isArray(value) ? 'an array' : 'an object';
  }
}

/**
 * Checks an option that must be a number in [min, max] (a whole one if `integer`), and returns it; throws a
 * RangeError that names the option, what it must be, and what it got (its type, when it is not a number).
 */
export function checkNumber(name: string, value: unknown, min: number, options: { readonly integer?: boolean; readonly max?: number; readonly what?: string } = {}): number {
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const integer = options.integer === true;
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value))) return value;
  const what =
    options.what ??
    `a finite ${integer ? 'whole ' : ''}number ${Number.isFinite(max) ? `from ${min} to ${max}` : `of at least ${min}`}`;
  throw new RangeError(`steadyframe: ${name} must be ${what}; got ${describeValue(value)}`);
}
