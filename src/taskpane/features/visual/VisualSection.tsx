import { Spinner } from "@fluentui/react-components";
import { Suspense, lazy } from "react";
import { useI18n } from "../../ui/i18n";

// The map and risk-sheet panel is a chunk of its own, fetched when its section is first opened,
// so the pane's first paint does not grow with it (the map's basemap is a further chunk).
const VisualPanel = lazy(() =>
  import(/* webpackChunkName: "visual-panel" */ "./VisualPanel").then((m) => ({ default: m.VisualPanel })),
);

/** The "Map, risk matrix and scenarios" section, loaded on first open. */
export function VisualSection() {
  const { t } = useI18n();
  return (
    <Suspense fallback={<Spinner size="tiny" label={t("visual.loading")} />}>
      <VisualPanel />
    </Suspense>
  );
}
