/** Charts of the fake: recorded with their type, source range and series, never drawn. */
import { FakeClientObject, FakeRequestContext, journalDelivery } from "./context";
import { invalidArgument, propertyNotLoaded } from "./errors";
import { formatAddress, parseLocal, splitSheet } from "./a1";
import { FakeClientResult, FakeCollection } from "./collection";
import type { ChartModel, SheetModel } from "./model";
import { FakeRange } from "./range";
import { recorder } from "./recorder";
import { checkChartAdd, checkSeriesRange } from "./rules";

/** Excel.Chart. */
export class FakeChart extends FakeClientObject<ChartModel> {
  protected readonly typeName = "Chart";
  protected readonly scalarProperties = ["id", "name", "chartType"] as const;

  constructor(context: FakeRequestContext, path: string, resolver: () => ChartModel | null) {
    super(context, path, resolver);
  }

  protected override isGone(c: ChartModel): boolean {
    return c.deleted;
  }

  protected readProperty(c: ChartModel, property: string): unknown {
    if (property === "id") return c.id;
    if (property === "name") return c.name;
    if (property === "chartType") return c.type;
    throw invalidArgument(`The fake Chart cannot load '${property}'.`);
  }

  get id(): string {
    return this.get("id");
  }
  get name(): string {
    return this.get("name");
  }
  /** The chart's type as charts.add set it (excel.chart#excel-excel-chart-charttype-member, ExcelApi 1.7). */
  get chartType(): string {
    return this.get("chartType");
  }
  set name(value: string) {
    this.set("name", value, (c) => {
      c.name = value;
    });
  }

  private settings(name: string): unknown {
    return recorder(this.context, this.path, name, () => {
      const c = this.resolve();
      return (path, value) => {
        c.settings[path] = value;
      };
    });
  }
  get title(): unknown {
    return this.settings("title");
  }
  get legend(): unknown {
    return this.settings("legend");
  }
  get axes(): unknown {
    return this.settings("axes");
  }
  get format(): unknown {
    return this.settings("format");
  }
  setPosition(startCell: string | FakeRange, endCell?: string | FakeRange): void {
    this.enqueueOn("setPosition", [String(startCell), String(endCell ?? "")], (c) => {
      c.settings.position = [
        typeof startCell === "string" ? startCell : "range",
        typeof endCell === "string" ? endCell : "range",
      ];
    });
  }

  get series(): FakeChartSeriesCollection {
    return new FakeChartSeriesCollection(this);
  }
}

/** chart.series: add(name), load() of the items, and per-series setValues / setXAxisValues. */
export class FakeChartSeriesCollection {
  private loaded: FakeChartSeries[] | undefined;

  constructor(private readonly chart: FakeChart) {}

  /** The series listed by the last load(), after its sync. */
  get items(): FakeChartSeries[] {
    if (!this.loaded) throw propertyNotLoaded("ChartSeriesCollection", "items");
    return this.loaded;
  }

  /** Lists the chart's series at sync. */
  load(): this {
    this.chart.context.enqueue({
      name: "load",
      target: "chart.series",
      apply: () => {
        // A chart made by charts.add has a series per row (or column) of its source until series are added.
        const c = this.chart.resolve();
        const count = Math.max(c.series.length, sourceSeriesCount(c));
        return () => {
          const before = this.loaded;
          journalDelivery(() => (this.loaded = before));
          this.loaded = Array.from({ length: count }, (_, i) => new FakeChartSeries(this.chart, () => i));
          return count;
        };
      },
    });
    return this;
  }

  add(name?: string): FakeChartSeries {
    const holder: { index?: number } = {};
    this.chart.context.enqueue({
      name: "series.add",
      target: "chart.series",
      payload: name ?? null,
      apply: () => {
        const c = this.chart.resolve();
        c.series.push({ name });
        holder.index = c.series.length - 1;
      },
    });
    return new FakeChartSeries(this.chart, () => holder.index);
  }

  getItemAt(index: number): FakeChartSeries {
    return new FakeChartSeries(this.chart, () => index);
  }
}

/** One chart series, recording which ranges feed it. */
export class FakeChartSeries {
  constructor(
    private readonly chart: FakeChart,
    private readonly index: () => number | undefined,
  ) {}

  private update(name: string, payload: unknown, fn: (s: ChartModel["series"][number]) => void): void {
    this.chart.context.enqueue({
      name,
      target: "chart.series",
      payload,
      apply: () => {
        const c = this.chart.resolve();
        const i = this.index();
        if (i === undefined) throw invalidArgument("The series was not created.");
        while (c.series.length <= i) c.series.push({});
        fn(c.series[i]);
      },
    });
  }
  set name(value: string) {
    this.update("series.name", value, (s) => {
      s.name = value;
    });
  }
  /**
   * The address a dimension of the series reads (ExcelApi 1.15,
   * excel.chartseries#excel-excel-chartseries-getdimensiondatasourcestring-member(1)): "Values", or
   * "Categories" / "XValues" for what setXAxisValues set. A series made by charts.add reads its row
   * (seriesBy Rows) or column of the chart's source data until setValues replaces it.
   */
  getDimensionDataSourceString(dimension: string): FakeClientResult<string> {
    const result = new FakeClientResult<string>();
    this.chart.context.enqueue({
      name: "series.getDimensionDataSourceString",
      target: "chart.series",
      payload: dimension,
      apply: () => {
        const c = this.chart.resolve();
        const i = this.index();
        if (i === undefined || i >= Math.max(c.series.length, sourceSeriesCount(c)))
          throw invalidArgument("The series does not exist.");
        const s = c.series[i] ?? {};
        let address: string;
        if (dimension === "Values") address = s.values ?? sourceLine(c, i);
        else if (dimension === "Categories" || dimension === "XValues") address = s.xValues ?? "";
        else throw invalidArgument(`The fake cannot read the ${dimension} of a series.`);
        return () => {
          result.deliver(address);
          return address;
        };
      },
    });
    return result;
  }
  setValues(range: FakeRange): void {
    this.update("series.setValues", null, (s) => {
      const t = range.resolve();
      checkSeriesRange(t.rect, "setValues");
      s.values = formatAddress(t.sheet.name, t.rect);
    });
  }
  setXAxisValues(range: FakeRange): void {
    this.update("series.setXAxisValues", null, (s) => {
      const t = range.resolve();
      checkSeriesRange(t.rect, "setXAxisValues");
      s.xValues = formatAddress(t.sheet.name, t.rect);
    });
  }
}

function sourceSeriesCount(c: ChartModel): number {
  const rect = parseLocal(splitSheet(c.sourceAddress).local);
  return byRows(c, rect) ? rect.rows : rect.cols;
}

function byRows(c: ChartModel, rect: { rows: number; cols: number }): boolean {
  return c.seriesBy === "Rows" || (c.seriesBy === "Auto" && rect.cols > rect.rows);
}

/** Row (seriesBy Rows) or column `index` of a chart's source data: the values of its series `index`. */
function sourceLine(c: ChartModel, index: number): string {
  const { sheet, local } = splitSheet(c.sourceAddress);
  const rect = parseLocal(local);
  const line = byRows(c, rect)
    ? { row: rect.row + index, col: rect.col, rows: 1, cols: rect.cols }
    : { row: rect.row, col: rect.col + index, rows: rect.rows, cols: 1 };
  return formatAddress(sheet ?? "", line);
}

/** worksheet.charts. */
export class FakeChartCollection extends FakeCollection<ChartModel, FakeChart> {
  protected readonly typeName = "ChartCollection";

  constructor(
    context: FakeRequestContext,
    path: string,
    private readonly sheet: () => SheetModel,
  ) {
    super(context, path);
  }

  protected list(): ChartModel[] {
    return this.sheet().charts.filter((c) => !c.deleted);
  }

  protected itemProxy(c: ChartModel, path: string): FakeChart {
    return new FakeChart(this.context, path, () => c);
  }

  add(type: string, sourceData: FakeRange, seriesBy: string = "Auto"): FakeChart {
    let created: ChartModel | null = null;
    const model = this.context.host.model;
    this.context.enqueue({
      name: "charts.add",
      target: this.path,
      payload: [type, seriesBy],
      apply: () => {
        checkChartAdd(type, seriesBy);
        const sheet = this.sheet();
        const source = sourceData.resolve();
        const n = sheet.charts.length + 1;
        created = {
          id: model.newId("chart"),
          name: `Chart ${n}`,
          type,
          sourceAddress: formatAddress(source.sheet.name, source.rect),
          seriesBy,
          series: [],
          settings: {},
          deleted: false,
        };
        sheet.charts.push(created);
        model.note({ kind: "charts", sheetName: sheet.name });
      },
    });
    return new FakeChart(this.context, `${this.path}.add`, () => created);
  }
}
