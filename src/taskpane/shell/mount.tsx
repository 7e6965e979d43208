import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { refreshFunctions } from "../../functions/engine/default-engine";
import { loadConnection } from "../../shared/connection";
import { App } from "./App";
import { excelRunner } from "./excel-runner";

/** Options of {@link mountTaskpane}. */
export interface MountOptions {
  /** Office's host (Excel), or null outside Office (the browser harness provides a fake Excel). */
  host: Office.HostType | null;
  /** Empties the functions' cache; defaults to the RISK.* engine's refresh on this page. */
  emptyCache?: () => void;
}

/**
 * The task pane UI chunk's entry: loads the stored connection (shared with the RISK.* functions)
 * and renders the panes into `root`. Returns the React root so a host page can unmount it.
 */
export function mountTaskpane(root: HTMLElement, options: MountOptions): Root {
  const reactRoot = createRoot(root);
  // Render at once with the connection known so far; the store announces the loaded one.
  void loadConnection();
  reactRoot.render(
    <StrictMode>
      {/* The root provider: no Fluent class exists outside it yet, so its two fixed values stay inline. */}
      <FluentProvider theme={webLightTheme} style={{ minHeight: "100%", background: "transparent" }}>
        <App run={excelRunner()} emptyCache={options.emptyCache ?? refreshFunctions} host={options.host} />
      </FluentProvider>
    </StrictMode>,
  );
  return reactRoot;
}
