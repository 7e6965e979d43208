import { useCallback, useEffect, useEffectEvent, useState } from "react";

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
  const [loading, setLoading] = useState(load !== null);
  const [error, setError] = useState<unknown>(undefined);
  const [generation, setGeneration] = useState(0);
  const hasLoad = load !== null;
  // The latest `load`, read when the effect runs: a new closure each render must not reload by itself.
  const loadLatest = useEffectEvent((signal: AbortSignal) => load!(signal));

  // When what to load changes, the state says so in the same render (React's "adjust state when a
  // prop changes"), rather than in an effect that would render twice.
  const key = [...deps, generation, hasLoad];
  const [loadedKey, setLoadedKey] = useState(key);
  if (key.length !== loadedKey.length || key.some((part, i) => !Object.is(part, loadedKey[i]))) {
    setLoadedKey(key);
    setLoading(hasLoad);
    setError(undefined);
    if (!hasLoad) setData(undefined);
  }

  useEffect(() => {
    if (!hasLoad) return;
    const controller = new AbortController();
    loadLatest(controller.signal).then(
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
  }, [...deps, generation, hasLoad]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, loading, error, reload };
}
