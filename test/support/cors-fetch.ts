/**
 * A fetch that keeps a browser's CORS rule, for tests in Node (whose fetch keeps none): requests go
 * over real HTTP with the page's `Origin`; a `cors` request whose answer does not allow that origin
 * rejects with the browser's bare TypeError ("Failed to fetch": the page learns nothing more), and a
 * preflighted one (custom headers) is refused before it is sent when the preflight does not allow
 * the origin. A `no-cors` request goes out without custom headers and resolves with whatever
 * answered, as its opaque response would (Fetch standard, "CORS check" and "CORS-preflight fetch").
 */
export function corsFetch(origin: string): typeof fetch {
  // The fetch of the moment, so a test may install this one as the global fetch.
  const send = globalThis.fetch;
  return async (input, init = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    const request = input instanceof Request ? input : undefined;
    const headers = new Headers(init.headers ?? request?.headers);
    const method = (init.method ?? request?.method ?? "GET").toUpperCase();
    const sameOrigin = new URL(url).origin === origin;
    // Fetch standard, Request constructor: "no-cors" needs redirect mode "follow".
    if (init.mode === "no-cors" && (init.redirect ?? "follow") !== "follow") throw new TypeError("Failed to fetch");
    if (init.mode === "no-cors" || sameOrigin) {
      // A no-cors request may carry only CORS-safelisted headers: the browser drops the rest.
      if (init.mode === "no-cors")
        for (const name of [...headers.keys()]) if (name.startsWith("x-")) headers.delete(name);
      return send(url, { ...init, headers, method, mode: undefined });
    }
    headers.set("Origin", origin);
    const allowed = (response: Response) => {
      const allow = response.headers.get("access-control-allow-origin");
      return allow === "*" || allow === origin;
    };
    const custom = [...headers.keys()].filter((name) => name.startsWith("x-"));
    if (custom.length > 0 || !["GET", "HEAD", "POST"].includes(method)) {
      const preflight = await send(url, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": method,
          "Access-Control-Request-Headers": custom.join(","),
        },
        signal: init.signal,
      });
      if (!allowed(preflight)) throw new TypeError("Failed to fetch");
    }
    const response = await send(url, { ...init, headers, method, mode: undefined, body: init.body ?? request?.body });
    if (!allowed(response)) throw new TypeError("Failed to fetch");
    return response;
  };
}
