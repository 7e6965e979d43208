/**
 * Formatting objects (range.format.fill, chart.title, conditional-format rules, ...) that the
 * fake records but does not interpret. Built with an ES Proxy so any property path works:
 * setting a property queues an operation that stores `path = value` in a settings record;
 * calling a method queues a recorded call; reading a property returns a deeper recorder.
 */
import type { FakeRequestContext } from "./context";
import { checkRecordedApi } from "./requirements";

/** Where recorded settings go. */
export type SettingsSink = (path: string, value: unknown) => void;

/** A recorder for the object at `path`; `resolveSink` runs during sync. */
export function recorder(
  context: FakeRequestContext,
  target: string,
  path: string,
  resolveSink: () => SettingsSink,
): unknown {
  const local: Record<string, unknown> = {};
  return new Proxy(function () {} as object, {
    get(_t, prop) {
      if (typeof prop !== "string") return undefined;
      if (prop === "toJSON") return () => ({ ...local });
      if (prop === "then") return undefined; // never look like a promise
      if (prop === "load") return () => undefined;
      if (prop in local) return local[prop];
      return recorder(context, target, path ? `${path}.${prop}` : prop, resolveSink);
    },
    set(_t, prop, value) {
      if (typeof prop !== "string") return false;
      local[prop] = value;
      const full = path ? `${path}.${prop}` : prop;
      checkRecordedApi(context, full);
      context.enqueue({ name: `set:${full}`, target, payload: value, apply: () => resolveSink()(full, value) });
      return true;
    },
    apply(_t, _this, args) {
      checkRecordedApi(context, path);
      context.enqueue({ name: `call:${path}`, target, payload: args, apply: () => resolveSink()(`${path}()`, args) });
      return undefined;
    },
  });
}
