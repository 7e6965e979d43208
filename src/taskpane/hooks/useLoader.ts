import { useCallback, useEffect, useRef, useState } from "react";

/** A list or record loaded from the service: data, loading flag, error, and a reload. */
export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  error: unknown;
  reload: () => void;
}

/**
 * Loads data whenever one of `deps` changes (e.g. the connection or the chosen portfolio) and on
 * reload. `deps` must keep the same length at a call site, like a React dependency list.
 * `load` receives an AbortSignal that fires when a newer load starts or the panel unmounts. A null
 * `load` means "nothing to load yet" (e.g. no portfolio chosen).
 */
export function useLoader<T>(load: ((signal: AbortSignal) => Promise<T>) | null, deps: readonly unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const current = loadRef.current;
    if (!current) {
      setData(undefined);
      setLoading(false);
      setError(undefined);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    setError(undefined);
    current(controller.signal).then(
      (value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setData(undefined);
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps decide when to reload
  }, [...deps, generation, load === null]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, loading, error, reload };
}
