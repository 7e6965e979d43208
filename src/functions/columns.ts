import { isBlank, type ArgumentValue } from "./arguments";
import { ArgumentError } from "./formula-errors";
import { message } from "../i18n/messages";

/**
 * Column forms of the RISK functions: every per-row parameter is declared as a matrix (`any[][]`),
 * so Excel hands a range as a two-dimensional array and a single value as a 1×1 one. This module
 * pairs the arguments as Excel's own functions do (broadcasting) and lays the results out as one
 * spilled array. Reading each element and fetching its data stay the single-cell code's job.
 */

/** An argument as Excel passes it to a matrix parameter (or a plain value, from code outside Excel). */
export type GridArgument = ArgumentValue | readonly (readonly ArgumentValue[])[];

/** Rows × columns of an argument; a plain value or an omitted one is 1×1. */
export interface Shape {
  rows: number;
  cols: number;
}

/** The 2-D array behind an argument: a plain value becomes 1×1, a flat list one column. */
export function asGrid(value: unknown): ArgumentValue[][] {
  if (!Array.isArray(value)) return [[value as ArgumentValue]];
  if (value.length === 0) return [[null]];
  if (!value.every((row) => Array.isArray(row))) return value.map((cell) => [cell as ArgumentValue]);
  const rows = value as ArgumentValue[][];
  return rows.every((row) => row.length > 0) ? rows : rows.map((row) => (row.length > 0 ? row : [null]));
}

function shapeOf(grid: ArgumentValue[][]): Shape {
  return { rows: grid.length, cols: Math.max(...grid.map((row) => row.length)) };
}

function size(shape: Shape): string {
  return `${shape.rows}×${shape.cols}`;
}

/**
 * The shape of the spilled result, Excel's way: along each axis every argument has either 1 or the
 * same length N (a single value pairs with every row, a column with a row gives rows × columns).
 * Any other pairing is a `#VALUE!` naming the arguments that disagree and their sizes.
 */
export function broadcastShape(named: ReadonlyArray<readonly [string, ArgumentValue[][]]>): Shape {
  const out: Shape = { rows: 1, cols: 1 };
  const setters: Record<"rows" | "cols", string | undefined> = { rows: undefined, cols: undefined };
  for (const [name, grid] of named) {
    const shape = shapeOf(grid);
    for (const axis of ["rows", "cols"] as const) {
      if (shape[axis] === 1) continue;
      if (out[axis] === 1) {
        out[axis] = shape[axis];
        setters[axis] = name;
      } else if (out[axis] !== shape[axis]) {
        const first = named.find(([n]) => n === setters[axis])!;
        throw new ArgumentError(
          message("cell.argument.shapes", {
            first: first[0],
            firstSize: size(shapeOf(first[1])),
            second: name,
            secondSize: size(shape),
          }),
        );
      }
    }
  }
  return out;
}

/**
 * Along one axis, the index into an argument `length` long that pairs with element `index` of the
 * result: its own, or 0 when the argument has only one (a single value pairs with every row).
 */
export function pairedIndex(length: number, index: number): number {
  return length === 1 ? 0 : index;
}

/** The value an argument gives element (row, col) of the result: its own cell, or its only row/column. */
function pick(grid: ArgumentValue[][], row: number, col: number): ArgumentValue {
  const line = grid[pairedIndex(grid.length, row)]!;
  const value = line[pairedIndex(line.length, col)];
  return value === undefined ? null : value;
}

/** One element's arguments, in the function's parameter order. */
export type ElementArguments = ArgumentValue[];

/**
 * The arguments of a call, read for spilling. `single` is true when every argument is one value:
 * the call then behaves exactly as the single-cell function (the value, or the error in the cell).
 */
export interface ColumnCall {
  single: boolean;
  shape: Shape;
  /** The distinct argument tuples, each with the result positions it fills. */
  groups: Map<string, { args: ElementArguments; positions: number[]; blank: boolean }>;
}

/**
 * Pairs the arguments and groups the elements whose arguments are identical, so 10,000 rows over
 * 1,000 distinct points evaluate 1,000 times (and the engine then sends one request per point).
 * An element is blank, and shows "", when every argument that varies by row is blank there.
 */
export function readColumnCall(names: readonly string[], values: readonly unknown[]): ColumnCall {
  const grids = names.map((name, i) => [name, asGrid(values[i])] as const);
  const shape = broadcastShape(grids);
  const single = shape.rows === 1 && shape.cols === 1;
  const varying = grids.map(([, grid]) => grid.length > 1 || grid.some((row) => row.length > 1));
  const groups: ColumnCall["groups"] = new Map();
  for (let r = 0; r < shape.rows; r++) {
    for (let c = 0; c < shape.cols; c++) {
      const args = grids.map(([, grid]) => pick(grid, r, c));
      const key = JSON.stringify(args);
      let group = groups.get(key);
      if (!group) {
        const blank = !single && varying.some(Boolean) && args.every((value, i) => !varying[i] || isBlank(value));
        group = { args, positions: [], blank };
        groups.set(key, group);
      }
      group.positions.push(r * shape.cols + c);
    }
  }
  return { single, shape, groups };
}

/**
 * Evaluates a column call: each distinct argument tuple once (all at once, so the engine batches
 * their loads), each failure as an error value in its own elements only, blank rows as "".
 * `toError` turns a failure into the error value a cell shows.
 */
export async function spillColumnCall<T>(
  call: ColumnCall,
  element: (args: ElementArguments) => Promise<T>,
  toError: (error: unknown, args: ElementArguments) => unknown,
): Promise<unknown[][]> {
  const flat: unknown[] = new Array(call.shape.rows * call.shape.cols);
  await Promise.all(
    [...call.groups.values()].map(async (group) => {
      let shown: unknown;
      if (group.blank) shown = "";
      else {
        try {
          shown = await element(group.args);
        } catch (error) {
          shown = toError(error, group.args);
        }
      }
      for (const position of group.positions) flat[position] = shown;
    }),
  );
  const out: unknown[][] = [];
  for (let r = 0; r < call.shape.rows; r++) out.push(flat.slice(r * call.shape.cols, (r + 1) * call.shape.cols));
  return out;
}
