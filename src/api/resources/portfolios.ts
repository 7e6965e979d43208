import { segment, type CallOptions, type Transport } from "../http";
import { PagedList } from "../pagination";
import type { Asset, AssetsQuery, MessageResponse, Portfolio } from "../types";

/** Portfolios and their assets, in the configured project. */
export class Portfolios {
  constructor(private readonly transport: Transport) {}

  /** Every portfolio of the project (the service returns them all in one answer). */
  list(call?: CallOptions): Promise<Portfolio[]> {
    return this.transport.send(
      {
        operation: "portfolios.list",
        method: "GET",
        area: "base",
        path: "/portfolios/",
        project: true,
        responseType: "json",
      },
      call,
    );
  }

  get(name: string, call?: CallOptions): Promise<Portfolio> {
    return this.transport.send(
      {
        operation: "portfolios.get",
        method: "GET",
        area: "base",
        path: `/portfolios/${segment(name)}/`,
        project: true,
        responseType: "json",
      },
      call,
    );
  }

  /**
   * Creates an empty portfolio. Names: 3 to 30 letters, digits, `_` and `-` (else BadRequestError naming
   * `portfolio_name`). ConflictError when it exists.
   */
  create(name: string, call?: CallOptions): Promise<Portfolio> {
    return this.transport.send(
      {
        operation: "portfolios.create",
        method: "POST",
        area: "base",
        path: "/portfolios/",
        project: true,
        json: { portfolio_name: name },
        responseType: "json",
      },
      call,
    );
  }

  /**
   * Deletes a portfolio and its assets. The service answers 200 with `{message}`; an older one
   * answered 204 with no body, read here as a message of our own.
   */
  async delete(name: string, call?: CallOptions): Promise<MessageResponse> {
    const answer = await this.transport.send<unknown>(
      {
        operation: "portfolios.delete",
        method: "DELETE",
        area: "base",
        path: `/portfolios/${segment(name)}/`,
        project: true,
        responseType: "optional-json",
      },
      call,
    );
    return messageOf(answer, `Portfolio ${name} deleted.`);
  }

  /** The portfolio's assets, paged (`rows` ≤ 250), optionally filtered by `entity_id`. */
  assets(name: string, query: Omit<AssetsQuery, "page"> = {}, call?: CallOptions): PagedList<Asset> {
    const { rows, ...filters } = query;
    return new PagedList<Asset>(
      (page, pageRows, pageCall) =>
        this.transport.send(
          {
            operation: "portfolios.assets",
            method: "GET",
            area: "base",
            path: `/portfolios/${segment(name)}/assets`,
            project: true,
            query: { ...filters, page, rows: pageRows },
            responseType: "json",
          },
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
  async importAssets(name: string, csv: string, call?: CallOptions & { fileName?: string }): Promise<MessageResponse> {
    const form = new FormData();
    form.append("asset", new Blob([csv], { type: "text/csv" }), call?.fileName ?? `${name}.csv`);
    const answer = await this.transport.send<unknown>(
      {
        operation: "portfolios.importAssets",
        method: "POST",
        area: "base",
        path: `/portfolios/${segment(name)}/assets/import/`,
        project: true,
        body: form,
        responseType: "optional-json",
      },
      call,
    );
    return messageOf(answer, `Assets imported into ${name}.`);
  }

  /** The assets CSV as it was uploaded. */
  exportAssets(name: string, call?: CallOptions): Promise<string> {
    return this.transport.send(
      {
        operation: "portfolios.exportAssets",
        method: "GET",
        area: "base",
        path: `/portfolios/${segment(name)}/assets/export`,
        project: true,
        responseType: "text",
      },
      call,
    );
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
