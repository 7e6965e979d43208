/**
 * Collections of the fake (worksheets, tables, charts, table rows): `load("items/name")` fills
 * `items` with proxies carrying the loaded properties; `getCount()` answers a ClientResult.
 */
import { FakeClientObject, FakeRequestContext, LoadOption, journalDelivery, loadPaths } from "./context";
import { FakeErrorCodes, FakeExcelError, propertyNotLoaded } from "./errors";

/** OfficeExtension.ClientResult: `value` is readable after the next sync. */
export class FakeClientResult<T> {
  private ready = false;
  private result: T | undefined;

  /** Called by the operation that computes the value. */
  deliver(value: T): void {
    const { result, ready } = this;
    journalDelivery(() => {
      this.result = result;
      this.ready = ready;
    });
    this.result = value;
    this.ready = true;
  }

  get value(): T {
    if (!this.ready) {
      throw new FakeExcelError(
        FakeErrorCodes.propertyNotLoaded,
        'The value of the result object has not been loaded yet. Before reading the value property, call "context.sync()" on the associated request context.',
      );
    }
    return this.result as T;
  }
}

/** Base of every collection proxy; TModel is one element of the model, TItem its proxy. */
export abstract class FakeCollection<TModel, TItem extends FakeClientObject<TModel>> {
  private loadedItems: TItem[] | undefined;

  constructor(
    readonly context: FakeRequestContext,
    protected readonly path: string,
  ) {}

  protected abstract readonly typeName: string;
  /** The elements at sync time. */
  protected abstract list(): TModel[];
  /** A proxy pinned to one element. */
  protected abstract itemProxy(model: TModel, path: string): TItem;

  get items(): TItem[] {
    if (!this.loadedItems) throw propertyNotLoaded(this.typeName, "items");
    return this.loadedItems;
  }

  /** load(), load("items"), load("items/name"), load("name") all load the items. */
  load(option?: LoadOption): this {
    const props = loadPaths(option)
      .map((p) => (p.startsWith("items/") ? p.slice(6) : p))
      .filter((p) => p !== "items");
    this.context.enqueue({
      name: "load",
      target: this.path,
      payload: props,
      apply: () => {
        const models = this.list();
        const proxies = models.map((m, i) => this.itemProxy(m, `${this.path}.items[${i}]`));
        const deliveries = proxies.map((p) => p.loadNow(props));
        return () => {
          const before = this.loadedItems;
          journalDelivery(() => (this.loadedItems = before));
          this.loadedItems = proxies;
          return deliveries.map((d) => d());
        };
      },
    });
    return this;
  }

  getCount(): FakeClientResult<number> {
    const result = new FakeClientResult<number>();
    this.context.enqueue({
      name: "getCount",
      target: this.path,
      apply: () => {
        const count = this.list().length;
        return () => {
          result.deliver(count);
          return count;
        };
      },
    });
    return result;
  }
}
