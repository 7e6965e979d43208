import { segment, type CallOptions, type Transport } from "../http";
import { PagedList } from "../pagination";
import type { Asset, AssetsQuery, MessageResponse, Portfolio } from "../types";

/** Portfolios and their assets, in the configured project. */
export class Portfolios {
  constructor(private readonly transport: Transport) {}

  /** Every portfolio of the project (the service returns them all in one answer). */
  list(call?: CallOptions): Promise<Portfolio[]> {
    return this.transport.get("portfolios.list", "/portfolios/", call);
  }

  get(name: string, call?: CallOptions): Promise<Portfolio> {
    return this.transport.get("portfolios.get", `/portfolios/${segment(name)}/`, call);
  }

  /**
   * Creates an empty portfolio. Names: 3 to 30 letters, digits, `_` and `-` (else BadRequestError naming
   * `portfolio_name`). ConflictError when it exists.
   */
  create(name: string, call?: CallOptions): Promise<Portfolio> {
    return this.transport.post("portfolios.create", "/portfolios/", call, { json: { portfolio_name: name } });
  }

  /**
   * Deletes a portfolio and its assets. The service answers 200 with `{message}`; an older one
   * answered 204 with no body, read here as a message of our own.
   */
  async delete(name: string, call?: CallOptions): Promise<MessageResponse> {
    const path = `/portfolios/${segment(name)}/`;
    const answer = await this.transport.delete("portfolios.delete", path, call, { responseType: "optional-json" });
    return messageOf(answer, `Portfolio ${name} deleted.`);
  }

  /** The portfolio's assets, paged (`rows` ≤ 250), optionally filtered by `entity_id`. */
  assets(name: string, query: Omit<AssetsQuery, "page"> = {}, call?: CallOptions): PagedList<Asset> {
    const { rows, ...filters } = query;
    const path = `/portfolios/${segment(name)}/assets`;
    return new PagedList<Asset>(
      (page, pageRows, pageCall) =>
        this.transport.get("portfolios.assets", path, pageCall, { query: { ...filters, page, rows: pageRows } }),
      { rows, ...call },
    );
  }

  /**
   * Uploads a CSV (`entity_id,entity_name,lat,lng,label:<key>,...`) as the multipart file field
   * `asset`. It REPLACES the portfolio's assets and starts generating risk data (202). Never retried:
   * a repeated upload is the caller's decision.
   */
  async importAssets(name: string, csv: string, call?: CallOptions & { fileName?: string }): Promise<MessageResponse> {
    const form = new FormData();
    form.append("asset", new Blob([csv], { type: "text/csv" }), call?.fileName ?? `${name}.csv`);
    const path = `/portfolios/${segment(name)}/assets/import/`;
    const answer = await this.transport.post("portfolios.importAssets", path, call, {
      body: form,
      responseType: "optional-json",
    });
    return messageOf(answer, `Assets imported into ${name}.`);
  }

  /** The assets CSV as it was uploaded. */
  exportAssets(name: string, call?: CallOptions): Promise<string> {
    const path = `/portfolios/${segment(name)}/assets/export`;
    return this.transport.get("portfolios.exportAssets", path, call, { responseType: "text" });
  }
}

/**
 * The published `MessageResponse` of an answer: its fields as sent when it carries a `message`
 * string (extra fields kept), else `fallback` (an empty body, or an older server's other shape,
 * whose fields are kept beside it).
 */
export function messageOf(answer: unknown, fallback: string): MessageResponse {
  if (answer !== null && typeof answer === "object" && !Array.isArray(answer)) {
    const fields = answer as Record<string, unknown>;
    return typeof fields.message === "string" ? (fields as MessageResponse) : { ...fields, message: fallback };
  }
  return { message: fallback };
}
