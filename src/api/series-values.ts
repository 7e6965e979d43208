/**
 * One timeseries item's values by time key, as the add-in holds them.
 *
 * Why not the plain object the service sends: a projected series is keyed by year ("1980" …
 * "2100"), and to V8 those keys are array indices. Parsed, each item's 121 values become a sparse
 * dictionary of elements, every value boxed as its own heap number. A paste of 5,000 series holds
 * pages of them while they wait their turn to be written, so they outlive scavenges and get copied:
 * measured on a 2-core machine, garbage collection took 103–205 ms of a 5,000-series read, against
 * 35–55 ms with each page's series held as below from parsing on
 * (bench/history/streaming-paste.md, "Rows 3 and 7a with the series held compactly").
 *
 * Here the keys are one array shared by every item of the same shape (one page of a read has one
 * or two shapes) and the numbers sit unboxed in a Float64Array. A value that is not a number
 * (the service's contract says numbers; a null or text would be an outlier) is kept as it came.
 */
export class SeriesValues {
  private constructor(
    private readonly shape: SeriesShape,
    private readonly numbers: Float64Array,
    /** Values that are not numbers, by position (absent when every value is a number). */
    private readonly others: ReadonlyMap<number, unknown> | undefined,
  ) {}

  /** No values (an item without `risk_exposure`). */
  static readonly EMPTY: SeriesValues = new SeriesValues(
    { keys: [], position: new Map() },
    new Float64Array(0),
    undefined,
  );

  /**
   * The values of a parsed `risk_exposure` object, in its key order. `shapes`, shared over a read,
   * lets items with the same keys share one key array; without it each item has its own.
   */
  static from(record: Readonly<Record<string, unknown>> | null | undefined, shapes?: SeriesShapes): SeriesValues {
    if (record === null || record === undefined || typeof record !== "object") return SeriesValues.EMPTY;
    const keys = Object.keys(record);
    if (keys.length === 0) return SeriesValues.EMPTY;
    const numbers = new Float64Array(keys.length);
    let others: Map<number, unknown> | undefined;
    for (let i = 0; i < keys.length; i++) {
      const value = record[keys[i]!];
      if (typeof value === "number") numbers[i] = value;
      else {
        numbers[i] = Number.NaN;
        (others ??= new Map()).set(i, value);
      }
    }
    return new SeriesValues((shapes ?? new SeriesShapes()).of(keys), numbers, others);
  }

  /**
   * `value` as SeriesValues: itself, or the values of a plain record. RISK.TIMESERIES reads its
   * series through this, as the persistent cache may hold series an earlier version kept as records.
   */
  static of(value: SeriesValues | Readonly<Record<string, unknown>> | null | undefined): SeriesValues {
    return value instanceof SeriesValues ? value : SeriesValues.from(value);
  }

  /** The time keys (`YYYY`, or `YYYY-MM` for observed series), in the order the service sent them. */
  get keys(): readonly string[] {
    return this.shape.keys;
  }

  /** How many values. */
  get size(): number {
    return this.numbers.length;
  }

  /** The value at a position of {@link keys}. */
  at(position: number): unknown {
    const value = this.numbers[position];
    // NaN never comes from JSON: it marks a value kept in `others`.
    return value !== undefined && Number.isNaN(value) ? this.others?.get(position) : value;
  }

  /** The value of a time key; undefined when the series has no such key. */
  get(key: string): unknown {
    const position = this.shape.position.get(key);
    return position === undefined ? undefined : this.at(position);
  }

  /** The values as the service sent them: time key → value (for JSON, tests and the persistent cache). */
  toRecord(): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < this.numbers.length; i++) record[this.shape.keys[i]!] = this.at(i);
    return record;
  }
}

/** The keys of a series and each key's position. */
interface SeriesShape {
  readonly keys: readonly string[];
  readonly position: ReadonlyMap<string, number>;
}

/**
 * The key arrays of one read, so series with the same keys share one (and one position map).
 * Compares with the shapes seen so far, newest first: a read has few shapes (projected, observed).
 */
export class SeriesShapes {
  private readonly seen: SeriesShape[] = [];

  /** The shape of these keys: one seen before when the keys are the same, in the same order. */
  of(keys: readonly string[]): SeriesShape {
    for (let s = this.seen.length - 1; s >= 0; s--) if (sameKeys(this.seen[s]!.keys, keys)) return this.seen[s]!;
    const shape: SeriesShape = { keys, position: new Map(keys.map((key, i) => [key, i])) };
    // A bounded list: a read whose items all differ in shape still compares against a few.
    if (this.seen.push(shape) > 8) this.seen.shift();
    return shape;
  }
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
