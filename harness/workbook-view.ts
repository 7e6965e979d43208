/**
 * The harness's little spreadsheet: name box, formula bar, Recalculate, a grid rendering the fake's
 * cells (with #BUSY!, errors and their messages, spilled arrays), a message line for the selected
 * cell, and sheet tabs. It re-renders whenever the fake reports a change, so whatever the task pane
 * writes through Excel.run shows up, and selecting in the grid is what the task pane reads as the
 * selection. Plain DOM on purpose: the harness must not share React with the task pane it hosts.
 */
import type { FakeChange } from "../testing/fake-excel";
import { columnLetters, formatAddress, formatLocal, parseLocal, splitSheet, type Rect } from "../testing/fake-excel/a1";
import type { SheetModel } from "../testing/fake-excel/model";
import { cellText, parseTsv } from "./cell-text";
import type { WorkbookController } from "./workbook-controller";
import { HARNESS_TEST_IDS } from "./test-ids";

const MIN_ROWS = 30;
const MIN_COLS = 10;
const MAX_ROWS_SHOWN = 400;
const MAX_COLS_SHOWN = 60;

/** Renders the workbook into `container` and handles the user's input there. */
export class WorkbookView {
  private readonly nameBox: HTMLInputElement;
  private readonly formulaBar: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly gridBox: HTMLElement;
  private readonly message: HTMLElement;
  private readonly tabs: HTMLElement;
  private renderQueued = false;
  private dragAnchor: { row: number; col: number } | undefined;
  private editing = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly workbook: WorkbookController,
  ) {
    container.innerHTML = `
      <div class="toolbar">
        <input class="name-box" data-testid="${HARNESS_TEST_IDS.nameBox}" aria-label="Name box: address of the selection" spellcheck="false" />
        <span class="fx" aria-hidden="true">fx</span>
        <input class="formula-bar" data-testid="${HARNESS_TEST_IDS.formulaBar}" aria-label="Formula bar: value or =RISK.* formula of the active cell" spellcheck="false" autocomplete="off" />
        <button type="button" data-testid="${HARNESS_TEST_IDS.recalculate}" title="Re-evaluate every formula (F9)">Recalculate</button>
        <span class="calc-status" data-testid="${HARNESS_TEST_IDS.calcStatus}" role="status" aria-live="polite"></span>
      </div>
      <div class="grid" data-testid="${HARNESS_TEST_IDS.grid}" tabindex="0" aria-label="Worksheet grid"></div>
      <div class="cell-message" data-testid="${HARNESS_TEST_IDS.cellMessage}" role="status" aria-live="polite"></div>
      <div class="sheet-tabs" data-testid="${HARNESS_TEST_IDS.sheetTabs}" role="tablist" aria-label="Sheets"></div>`;
    this.nameBox = container.querySelector(".name-box") as HTMLInputElement;
    this.formulaBar = container.querySelector(".formula-bar") as HTMLInputElement;
    this.status = container.querySelector(".calc-status") as HTMLElement;
    this.gridBox = container.querySelector(".grid") as HTMLElement;
    this.message = container.querySelector(".cell-message") as HTMLElement;
    this.tabs = container.querySelector(".sheet-tabs") as HTMLElement;

    workbook.fake.onChange((changes: FakeChange[]) => {
      void changes;
      this.scheduleRender();
    });
    workbook.engine.onActivity(() => this.renderStatus());
    this.wireEvents();
    this.render();
  }

  /** Render on the next turn (many changes in one turn render once). */
  scheduleRender(): void {
    if (this.renderQueued) return;
    this.renderQueued = true;
    setTimeout(() => {
      this.renderQueued = false;
      this.render();
    }, 0);
  }

  private get sheet(): SheetModel {
    return this.workbook.fake.model.activeSheet;
  }

  private get selection(): Rect {
    return this.sheet.selection;
  }

  // ---- rendering ----------------------------------------------------------------------------

  render(): void {
    this.renderGrid();
    this.renderTabs();
    this.renderSelectionInfo();
    this.renderStatus();
  }

  private renderGrid(): void {
    const sheet = this.sheet;
    const used = sheet.usedRect(false);
    const sel = this.selection;
    const rows = Math.min(MAX_ROWS_SHOWN, Math.max(MIN_ROWS, (used ? used.row + used.rows : 0) + 5, sel.row + 1));
    const cols = Math.min(MAX_COLS_SHOWN, Math.max(MIN_COLS, (used ? used.col + used.cols : 0) + 2, sel.col + 1));
    const engine = this.workbook.engine;
    const textRules = containsTextRules(sheet);
    const parts: string[] = ['<table class="cells"><thead><tr><th class="corner"></th>'];
    for (let c = 0; c < cols; c++) parts.push(`<th scope="col">${columnLetters(c)}</th>`);
    parts.push("</tr></thead><tbody>");
    for (let r = 0; r < rows; r++) {
      parts.push(`<tr><th scope="row">${r + 1}</th>`);
      for (let c = 0; c < cols; c++) {
        const cell = sheet.cell(r, c);
        const classes: string[] = [];
        const local = `${columnLetters(c)}${r + 1}`;
        let title = "";
        const value = cell?.value ?? "";
        if (typeof value === "number") classes.push("num");
        else if (typeof value === "string" && value !== "" && (sheet.cell(r, c + 1)?.value ?? "") === "")
          classes.push("overflow");
        if (value === "#BUSY!") classes.push("busy");
        else {
          const error = cell && value !== "" ? engine.errorAt(sheet, r, c) : undefined;
          if (error) {
            classes.push("error");
            title = error.message ? `${error.code} ${error.message}` : error.code;
          }
        }
        if (cell?.formula !== undefined) {
          classes.push("formula");
          if (!title) title = cell.formula;
          if (engine.spillOf(sheet, r, c)) classes.push("spill-anchor");
        } else if (engine.spillAnchorOf(sheet, r, c)) classes.push("spilled");
        if (inside(sel, r, c)) classes.push("selected");
        if (r === sel.row && c === sel.col) classes.push("active");
        const rule =
          typeof value === "string" && value !== ""
            ? textRules.find((t) => inside(t.rect, r, c) && value.includes(t.text))
            : undefined;
        const style = rule
          ? ` style="${rule.fill ? `background:${escapeHtml(rule.fill)};` : ""}${rule.font ? `color:${escapeHtml(rule.font)};` : ""}"`
          : "";
        parts.push(
          `<td data-cell="${local}" data-row="${r}" data-col="${c}"${classes.length ? ` class="${classes.join(" ")}"` : ""}${
            title ? ` title="${escapeHtml(title)}"` : ""
          }${style}>${escapeHtml(cellText(value, cell?.numberFormat))}</td>`,
        );
      }
      parts.push("</tr>");
    }
    parts.push("</tbody></table>");
    const scroll = { top: this.gridBox.scrollTop, left: this.gridBox.scrollLeft };
    this.gridBox.innerHTML = parts.join("");
    this.gridBox.dataset.sheet = sheet.name;
    this.gridBox.scrollTop = scroll.top;
    this.gridBox.scrollLeft = scroll.left;
  }

  private renderTabs(): void {
    const model = this.workbook.fake.model;
    const parts = model
      .liveSheets()
      .filter((s) => s.visibility === "Visible")
      .map(
        (s) =>
          `<button type="button" role="tab" data-sheet="${escapeHtml(s.name)}" aria-selected="${s === model.activeSheet}">${escapeHtml(s.name)}</button>`,
      );
    parts.push(
      `<button type="button" class="add-sheet" data-testid="${HARNESS_TEST_IDS.addSheet}" title="New sheet" aria-label="New sheet">+</button>`,
    );
    this.tabs.innerHTML = parts.join("");
  }

  private renderSelectionInfo(): void {
    const sheet = this.sheet;
    const sel = this.selection;
    if (document.activeElement !== this.nameBox) this.nameBox.value = formatLocal(sel);
    const cell = sheet.cell(sel.row, sel.col);
    if (!this.editing) this.formulaBar.value = cell?.formula ?? (cell ? cellText(cell.value, cell.numberFormat) : "");
    const error = cell ? this.workbook.engine.errorAt(sheet, sel.row, sel.col) : undefined;
    const local = `${columnLetters(sel.col)}${sel.row + 1}`;
    if (error) {
      this.message.textContent = `${local}: ${error.code}${error.message ? ` ${error.message}` : ""}`;
      this.message.className = "cell-message error";
    } else if (cell?.value === "#BUSY!") {
      this.message.textContent = `${local}: calculating…`;
      this.message.className = "cell-message";
    } else {
      const anchor = this.workbook.engine.spillAnchorOf(sheet, sel.row, sel.col);
      this.message.textContent = anchor ? `${local} is part of a spilled array` : "";
      this.message.className = "cell-message";
    }
  }

  private renderStatus(): void {
    const busy = this.workbook.engine.busyCount;
    this.status.textContent = busy > 0 ? `Calculating ${busy} formula${busy === 1 ? "" : "s"}…` : "Ready";
    this.status.dataset.busy = String(busy);
  }

  // ---- input --------------------------------------------------------------------------------

  private wireEvents(): void {
    this.gridBox.addEventListener("mousedown", (event) => {
      const td = (event.target as HTMLElement).closest("td");
      if (!td) return;
      event.preventDefault();
      this.gridBox.focus();
      const row = Number(td.dataset.row);
      const col = Number(td.dataset.col);
      const sel = this.selection;
      this.dragAnchor = event.shiftKey ? { row: sel.row, col: sel.col } : { row, col };
      this.selectRect(span(this.dragAnchor, { row, col }));
    });
    this.gridBox.addEventListener("mouseover", (event) => {
      if (!this.dragAnchor || (event.buttons & 1) === 0) return;
      const td = (event.target as HTMLElement).closest("td");
      if (td) this.selectRect(span(this.dragAnchor, { row: Number(td.dataset.row), col: Number(td.dataset.col) }));
    });
    document.addEventListener("mouseup", () => (this.dragAnchor = undefined));
    this.gridBox.addEventListener("dblclick", () => this.startEditing());
    this.gridBox.addEventListener("keydown", (event) => this.onGridKey(event));
    this.gridBox.addEventListener("paste", (event) => {
      const text = event.clipboardData?.getData("text/plain");
      if (!text) return;
      event.preventDefault();
      this.pasteText(text);
    });

    this.formulaBar.addEventListener("focus", () => (this.editing = true));
    this.formulaBar.addEventListener("blur", () => (this.editing = false));
    this.formulaBar.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        this.commitEdit(event.key === "Tab" ? { row: 0, col: 1 } : { row: 1, col: 0 });
      } else if (event.key === "Escape") {
        event.preventDefault();
        this.editing = false;
        this.renderSelectionInfo();
        this.gridBox.focus();
      }
    });
    this.nameBox.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      this.guard(() => this.workbook.select(this.nameBox.value.trim()));
      this.gridBox.focus();
    });
    this.container
      .querySelector(`[data-testid="${HARNESS_TEST_IDS.recalculate}"]`)
      ?.addEventListener("click", () => this.workbook.recalcAll());
    this.tabs.addEventListener("click", (event) => {
      const button = (event.target as HTMLElement).closest("button");
      if (!button) return;
      if (button.classList.contains("add-sheet")) {
        this.guard(() => {
          const names = new Set(this.workbook.fake.sheetNames().map((n) => n.toLowerCase()));
          let n = names.size + 1;
          while (names.has(`sheet${n}`)) n++;
          this.workbook.fake.addSheet(`Sheet${n}`);
          this.workbook.activate(`Sheet${n}`);
        });
      } else if (button.dataset.sheet) this.guard(() => this.workbook.activate(button.dataset.sheet as string));
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "F9") {
        event.preventDefault();
        this.workbook.recalcAll();
      }
    });
  }

  private onGridKey(event: KeyboardEvent): void {
    const moves: Record<string, { row: number; col: number }> = {
      ArrowUp: { row: -1, col: 0 },
      ArrowDown: { row: 1, col: 0 },
      ArrowLeft: { row: 0, col: -1 },
      ArrowRight: { row: 0, col: 1 },
      Enter: { row: 1, col: 0 },
      Tab: { row: 0, col: 1 },
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      const sel = this.selection;
      if (event.shiftKey && event.key.startsWith("Arrow")) {
        this.selectRect({ ...sel, rows: Math.max(1, sel.rows + move.row), cols: Math.max(1, sel.cols + move.col) });
      } else this.moveBy(move);
      return;
    }
    if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      this.guard(() => this.workbook.clear(formatAddress(this.sheet.name, this.selection)));
      return;
    }
    if (event.key === "F2") {
      event.preventDefault();
      this.startEditing();
      return;
    }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      this.startEditing(event.key);
    }
  }

  private startEditing(initial?: string): void {
    this.editing = true;
    if (initial !== undefined) this.formulaBar.value = initial;
    this.formulaBar.focus();
    const end = this.formulaBar.value.length;
    this.formulaBar.setSelectionRange(end, end);
  }

  private commitEdit(move: { row: number; col: number }): void {
    const sel = this.selection;
    const address = formatAddress(this.sheet.name, { row: sel.row, col: sel.col, rows: 1, cols: 1 });
    const text = this.formulaBar.value;
    this.editing = false;
    this.guard(() => this.workbook.setCell(address, text));
    this.gridBox.focus();
    this.moveBy(move);
  }

  /** Paste tab-separated text at the active cell (what a spreadsheet's copy produces). */
  pasteText(text: string): void {
    const sel = this.selection;
    const rows = parseTsv(text);
    this.guard(() =>
      this.workbook.setCells(formatAddress(this.sheet.name, { row: sel.row, col: sel.col, rows: 1, cols: 1 }), rows),
    );
  }

  private moveBy(move: { row: number; col: number }): void {
    const sel = this.selection;
    this.selectRect({ row: Math.max(0, sel.row + move.row), col: Math.max(0, sel.col + move.col), rows: 1, cols: 1 });
    this.scrollSelectionIntoView();
  }

  private selectRect(rect: Rect): void {
    this.guard(() => this.workbook.select(formatAddress(this.sheet.name, rect)));
  }

  private scrollSelectionIntoView(): void {
    setTimeout(
      () => this.gridBox.querySelector("td.active")?.scrollIntoView({ block: "nearest", inline: "nearest" }),
      0,
    );
  }

  /** Run a user action; a failure (a bad sheet name, an address) shows in the message line. */
  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.message.textContent = (error as Error).message;
      this.message.className = "cell-message error";
    }
  }
}

function inside(rect: Rect, row: number, col: number): boolean {
  return row >= rect.row && row < rect.row + rect.rows && col >= rect.col && col < rect.col + rect.cols;
}

function span(a: { row: number; col: number }, b: { row: number; col: number }): Rect {
  return {
    row: Math.min(a.row, b.row),
    col: Math.min(a.col, b.col),
    rows: Math.abs(a.row - b.row) + 1,
    cols: Math.abs(a.col - b.col) + 1,
  };
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string,
  );
}

/**
 * The sheet's "text contains" conditional formats, applied by the grid as Excel does: evaluated
 * against the cell's current value, so colours follow edits (first matching rule wins).
 */
function containsTextRules(sheet: SheetModel): Array<{ rect: Rect; text: string; fill?: string; font?: string }> {
  return sheet.conditionalFormats.flatMap((cf) => {
    const rule = cf.settings["textComparison.rule"] as { operator?: string; text?: string } | undefined;
    if (cf.type !== "ContainsText" || rule?.operator !== "Contains" || !rule.text) return [];
    const fill = cf.settings["textComparison.format.fill.color"];
    const font = cf.settings["textComparison.format.font.color"];
    return [
      {
        rect: parseLocal(splitSheet(cf.address).local),
        text: rule.text,
        fill: typeof fill === "string" ? fill : undefined,
        font: typeof font === "string" ? font : undefined,
      },
    ];
  });
}
