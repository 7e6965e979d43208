import { request } from "node:http";

/**
 * A fetch over node:http with one connection per request (`agent: false`), for the emulator tests.
 * Node's global fetch keeps sockets of aborted read-ahead pages in its pool, and the emulator's
 * close() then waits for its keep-alive timeout (about 70 s); with this fetch every socket ends
 * with its request, so the suite stays fast. http only: tests talk to 127.0.0.1.
 */
export const closingFetch: typeof fetch = (input, init) =>
  new Promise<Response>((resolve, reject) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const source = input instanceof Request ? input : undefined;
    const method = init?.method ?? source?.method ?? "GET";
    const headers = new Headers(init?.headers ?? source?.headers);
    const signal = init?.signal ?? source?.signal ?? undefined;
    if (signal?.aborted) return reject(signal.reason ?? new DOMException("aborted", "AbortError"));

    const bodyPromise: Promise<Buffer | undefined> =
      source && source.body && method !== "GET"
        ? source.arrayBuffer().then((b) => Buffer.from(b))
        : Promise.resolve(undefined);
    bodyPromise.then((body) => {
      const req = request(url, { method, headers: Object.fromEntries(headers), agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          const status = res.statusCode ?? 500;
          const nullBody = status === 204 || status === 304;
          resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
        res.on("error", reject);
      });
      const onAbort = () => {
        req.destroy();
        reject(signal?.reason ?? new DOMException("aborted", "AbortError"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      req.on("close", () => signal?.removeEventListener("abort", onAbort));
      req.on("error", reject);
      req.end(body);
    }, reject);
  });
