import { createContext, useContext } from "react";
import type { RiskClient } from "../../api/client";
import type { ConnectionConfig } from "../../api/config";
import type { ForgetChange } from "./data-change";
import type { ExcelRunner } from "./pane-types";

/** What every panel needs: the client for the current connection and a way to reach the workbook. */
export interface TaskpaneServices {
  config: ConnectionConfig;
  isDefault: boolean;
  /** Null when the connection cannot be used; panels then ask the user to fix it. */
  client: RiskClient | null;
  clientError: unknown;
  /** Excel.run, or null when no workbook is available (a page opened outside Excel). */
  run: ExcelRunner | null;
  /** Empties the RISK.* functions' cache (the engine's refresh). */
  emptyCache: () => void;
  /** Drops the RISK.* functions' cached results of data the pane changed (a sync, a delete, a nature create). */
  forget: ForgetChange;
}

export const TaskpaneContext = createContext<TaskpaneServices | null>(null);

/** The panel's services; throws when used outside the task pane root (a programming error). */
export function useServices(): TaskpaneServices {
  const services = useContext(TaskpaneContext);
  if (!services) throw new Error("useServices() outside <TaskpaneContext.Provider>");
  return services;
}
