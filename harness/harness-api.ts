/**
 * `window.harness`: what browser tests (and a curious developer's console) use to drive the
 * harness quickly and read what it shows, instead of clicking cell by cell.
 */
import type { FakeCellValue, FakeExcel } from "../testing/fake-excel";
import type { FunctionRegistry } from "./custom-functions-registry";
import type { OfficeCommandsStandIn } from "./office-commands";
import type { RibbonView } from "./ribbon-view";
import type { FormulaEngine } from "./formula/engine";
import type { CellInfo, WorkbookController } from "./workbook-controller";
import type { WorkbookView } from "./workbook-view";

/** The API on `window.harness`. Addresses may name a sheet ("Assets!A1:E7"); else the active sheet. */
export interface HarnessApi {
  /** Resolves when the harness (and the demo workbook, unless ?demo=0) is ready. */
  ready: Promise<void>;
  /** Type a value or `=RISK.*(...)` formula into one cell. */
  setCell(address: string, value: unknown): void;
  /** Type a block of values/formulas whose top-left cell is `topLeft`. */
  setCells(topLeft: string, rows: unknown[][]): void;
  /** Paste tab-separated text at the active cell, as Ctrl+V of copied spreadsheet cells would. */
  paste(text: string): void;
  /** What a cell holds and shows (value, formula, text, error with message, spill anchor). */
  getCell(address: string): CellInfo;
  /** Values of a range as a 2-D array. */
  getValues(address: string): FakeCellValue[][];
  /** Select a range (and show its sheet). */
  selectRange(address: string): void;
  /** Show a sheet. */
  activateSheet(name: string): void;
  /** Sheet names in tab order. */
  sheetNames(): string[];
  /** The used range of a sheet, e.g. "Timeseries!A1:K40", or null when empty. */
  usedRange(sheetName: string): string | null;
  /** Recalculate every formula (the Recalculate button). */
  recalcAll(): void;
  /** Resolves when no formula is calculating (rejects after timeoutMs). */
  waitForIdle(timeoutMs?: number): Promise<void>;
  /** Formulas still calculating. */
  busyCount(): number;
  /** Ids of the functions the functions bundle registered. */
  registeredFunctions(): string[];
  /** Function calls made by the harness since the page loaded. */
  functionCalls(): number;
  /** The in-memory Excel (for tests that need more). */
  fake: FakeExcel;
  /** The Climate Risk tab drawn from manifest.xml, and the Office stand-ins behind it. */
  ribbon: {
    /** Click a button by label or control id, as the analyst would; resolves when its action settled. */
    click(labelOrControlId: string): Promise<void>;
    /** Whether a button is enabled (as Office.ribbon.requestUpdate last set it). */
    enabled(controlId: string): boolean;
    /** Action ids the page associated with Office.actions.associate. */
    associated(): string[];
    /** Every action run so far: by click (with whether its event was completed) or shortcut. */
    calls(): { id: string; trigger: "click" | "shortcut"; completed: boolean }[];
    /** Whether the task pane is shown. */
    paneVisible(): boolean;
    /** Close or open the pane as the analyst would (its × or the Home tab's button). */
    setPaneVisible(visible: boolean): void;
  };
}

/** Build the API object over the harness's parts. */
export function createHarnessApi(parts: {
  ready: Promise<void>;
  fake: FakeExcel;
  workbook: WorkbookController;
  view: WorkbookView;
  engine: FormulaEngine;
  registry: FunctionRegistry;
  commands: OfficeCommandsStandIn;
  ribbon: Promise<RibbonView | undefined>;
}): HarnessApi {
  const { fake, workbook, view, engine, registry } = parts;
  return {
    ready: parts.ready,
    setCell: (address, value) => workbook.setCell(address, value),
    setCells: (topLeft, rows) => workbook.setCells(topLeft, rows),
    paste: (text) => view.pasteText(text),
    getCell: (address) => workbook.getCell(address),
    getValues: (address) => workbook.getValues(address),
    selectRange: (address) => workbook.select(address),
    activateSheet: (name) => workbook.activate(name),
    sheetNames: () => fake.sheetNames(),
    usedRange: (sheetName) => fake.usedAddress(sheetName),
    recalcAll: () => workbook.recalcAll(),
    waitForIdle: (timeoutMs) => engine.waitForIdle(timeoutMs),
    busyCount: () => engine.busyCount,
    registeredFunctions: () => registry.ids(),
    functionCalls: () => engine.calls,
    fake,
    ribbon: {
      click: async (label) => {
        const view = await parts.ribbon;
        if (!view) throw new Error("The Climate Risk tab was not drawn (see the harness's problems line)");
        await view.click(label);
      },
      enabled: (controlId) => parts.commands.isEnabled(controlId),
      associated: () => parts.commands.associatedActions(),
      calls: () => parts.commands.calls.map((call) => ({ ...call })),
      paneVisible: () => parts.commands.paneVisible,
      setPaneVisible: (visible) => parts.commands.setPaneVisible(visible),
    },
  };
}
