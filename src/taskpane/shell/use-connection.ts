import { useEffect, useMemo, useState } from "react";
import { RiskClient } from "../../api/client";
import type { ConnectionConfig } from "../../api/config";
import { getConnection, isDefaultConnection, onConnectionChange } from "../../shared/connection";

/** The live connection and a client for it; re-renders when the connection store changes. */
export interface ConnectionState {
  config: ConnectionConfig;
  /** True while the local emulator's demo connection is in use (nothing saved). */
  isDefault: boolean;
  /** A client for the connection, or null when it cannot be used (the error says why). */
  client: RiskClient | null;
  clientError: unknown;
}

/** Subscribes to the shared connection store (the same one the RISK.* functions read). */
export function useConnection(): ConnectionState {
  const [config, setConfig] = useState<ConnectionConfig>(() => getConnection());
  const [isDefault, setIsDefault] = useState<boolean>(() => isDefaultConnection());
  useEffect(
    () =>
      onConnectionChange((next) => {
        setConfig(next);
        setIsDefault(isDefaultConnection());
      }),
    [],
  );
  const { client, clientError } = useMemo(() => {
    try {
      return { client: new RiskClient(config), clientError: undefined as unknown };
    } catch (error) {
      return { client: null, clientError: error };
    }
  }, [config]);
  return { config, isDefault, client, clientError };
}
