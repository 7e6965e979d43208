import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { StrictMode } from "react";
import { createRoot, type Root } from "react-dom/client";
import { refreshFunctions } from "../../functions/engine/default-engine";
import { loadConnection } from "../../shared/connection";
import { App } from "./App";
import { excelRunner } from "./excel-runner";
import { I18nContext } from "../ui/i18n";
import { paneTranslator } from "./language";
import { setSheetWords } from "../../excel/sheet-words";

/** Options of {@link mountTaskpane}. */
export interface MountOptions {
  /** Office's host (Excel), or null outside Office (the browser harness provides a fake Excel). */
  host: Office.HostType | null;
  /** Empties the functions' cache; defaults to the RISK.* engine's refresh on this page. */
  emptyCache?: () => void;
}

/**
 * The task pane UI chunk's entry: loads the stored connection (shared with the RISK.* functions),
 * the display language's catalog and Excel's separators, and renders the panes into `root` in that
 * language. Returns the React root so a host page can unmount it.
 */
export function mountTaskpane(root: HTMLElement, options: MountOptions): Root {
  const reactRoot = createRoot(root);
  // Render with the connection known so far; the store announces the loaded one.
  void loadConnection();
  const run = excelRunner();
  // paneTranslator never rejects (it falls back to English and en-US separators).
  void paneTranslator(options.host, run).then((i18n) => {
    // What the pane's writes put into sheets for a reader is worded in the pane's language too.
    setSheetWords(i18n.format);
    reactRoot.render(
      <StrictMode>
        {/* The root provider: no Fluent class exists outside it yet, so its two fixed values stay inline. */}
        <FluentProvider theme={webLightTheme} style={{ minHeight: "100%", background: "transparent" }}>
          <I18nContext.Provider value={i18n}>
            <App run={run} emptyCache={options.emptyCache ?? refreshFunctions} host={options.host} />
          </I18nContext.Provider>
        </FluentProvider>
      </StrictMode>,
    );
  });
  return reactRoot;
}
