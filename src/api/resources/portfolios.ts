import { segment, type CallOptions, type Transport } from "../http";
import { PagedList } from "../pagination";
import type { Asset, AssetsQuery, Portfolio } from "../types";

/** Area B: portfolios and their assets, in the configured project. */
export class Portfolios {
  constructor(private readonly transport: Transport) {}

  /** Every portfolio of the project (the service returns them all in one answer). */
  list(call?: CallOptions): Promise<Portfolio[]> {
    return this.transport.send({ operation: "portfolios.list", method: "GET", area: "base", path: "/portfolios/", project: true, responseType: "json" }, call);
  }

  get(name: string, call?: CallOptions): Promise<Portfolio> {
    return this.transport.send({ operation: "portfolios.get", method: "GET", area: "base", path: `/portfolios/${segment(name)}/`, project: true, responseType: "json" }, call);
  }

  /** Creates an empty portfolio. Names: letters, digits, `_` and `-`. ConflictError when it exists. */
  create(name: string, call?: CallOptions): Promise<Portfolio> {
    return this.transport.send({ operation: "portfolios.create", method: "POST", area: "base", path: "/portfolios/", project: true, json: { portfolio_name: name }, responseType: "json" }, call);
  }

  delete(name: string, call?: CallOptions): Promise<void> {
    return this.transport.send({ operation: "portfolios.delete", method: "DELETE", area: "base", path: `/portfolios/${segment(name)}/`, project: true, responseType: "none" }, call);
  }

  /** The portfolio's assets, paged (`rows` ≤ 250), optionally filtered by `entity_id`. */
  assets(name: string, query: Omit<AssetsQuery, "page"> = {}, call?: CallOptions): PagedList<Asset> {
    const { rows, ...filters } = query;
    return new PagedList<Asset>(
      (page, pageRows, pageCall) =>
        this.transport.send(
          { operation: "portfolios.assets", method: "GET", area: "base", path: `/portfolios/${segment(name)}/assets`, project: true, query: { ...filters, page, rows: pageRows }, responseType: "json" },
          pageCall,
        ),
      { rows, ...call },
    );
  }

  /**
   * Uploads a CSV (`entity_id,entity_name,lat,lng,label:<key>,...`) as the multipart file field
   * `asset`. It REPLACES the portfolio's assets and starts generating risk data (202). Never retried:
   * a repeated upload is the caller's decision.
   */
  importAssets(name: string, csv: string, call?: CallOptions & { fileName?: string }): Promise<unknown> {
    const form = new FormData();
    form.append("asset", new Blob([csv], { type: "text/csv" }), call?.fileName ?? `${name}.csv`);
    return this.transport.send({ operation: "portfolios.importAssets", method: "POST", area: "base", path: `/portfolios/${segment(name)}/assets/import/`, project: true, body: form, responseType: "json" }, call);
  }

  /** The assets CSV as it was uploaded. */
  exportAssets(name: string, call?: CallOptions): Promise<string> {
    return this.transport.send({ operation: "portfolios.exportAssets", method: "GET", area: "base", path: `/portfolios/${segment(name)}/assets/export`, project: true, responseType: "text" }, call);
  }
}
