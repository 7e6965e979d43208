import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { Suspense, lazy, useCallback, useMemo, useState } from "react";
import { pasteAssets } from "../portfolios";
import {
  listOverlays,
  loadMapData,
  loadOverlay,
  type MapAsset,
  type MapData,
  type Overlay,
  type OverlayChoice,
} from "./risk-views-actions";
import { selectAssetRow } from "../../ui/asset-source-actions";
import type { PastedSheet } from "../../ui/pane-types";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { RISK_LABELS } from "./model/risk-views";
import { ChoiceField } from "../../ui/ChoiceField";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import type { Translator } from "../../../i18n/translator";

/** This section's test ids. */
const IDS = TEST_IDS.visual;

// The map, its basemap and d3-geo are a chunk of their own: the pane's first paint does not wait for them.
const PortfolioMap = lazy(() => import(/* webpackChunkName: "portfolio-map" */ "./PortfolioMap"));

/** Same colours as the map's markers (kept here so the legend renders before the map chunk). */
const LEGEND: Array<[string, string]> = [
  ["HIGH", "#9C0006"],
  ["MEDIUM", "#C27C0E"],
  ["LOW", "#006100"],
  ["NONE", "#8A8886"],
];

const useStyles = makeStyles({
  legend: { display: "flex", flexWrap: "wrap", gap: "4px 12px", fontSize: "12px", alignItems: "center" },
  swatch: {
    display: "inline-block",
    width: "10px",
    height: "10px",
    marginRight: "4px",
    border: "1px solid #fff",
    outline: `1px solid ${tokens.colorNeutralStroke2}`,
  },
});

/** The chosen view of the summary the map and the sheets share. */
export interface SummaryChoice {
  portfolio: string;
  scenario: string;
  window: number;
  hazard: string;
}

/** The text alternative of the map: how many assets carry each label for the hazard. */
export function describeMap(data: MapData, choice: SummaryChoice, i18n: Translator): string {
  const counts = { LOW: 0, MEDIUM: 0, HIGH: 0, NONE: 0 };
  for (const a of data.assets) {
    const label = a.risks[choice.hazard]?.label?.toUpperCase();
    if (label === "LOW" || label === "MEDIUM" || label === "HIGH") counts[label]++;
    else counts.NONE++;
  }
  // The labels (HIGH, MEDIUM, LOW) are the service's own values, shown as they are in every language.
  const parts = [...RISK_LABELS].reverse().map((l) => `${i18n.number(counts[l])} ${l}`);
  if (counts.NONE) parts.push(i18n.t("visual.map.withoutLabel", { count: counts.NONE }));
  return i18n.t("visual.map.description", {
    assets: data.assets.length,
    portfolio: choice.portfolio,
    hazard: choice.hazard,
    scenario: choice.scenario,
    window: choice.window,
    counts: parts.join(", "),
    unlocated: data.unlocated ?? 0,
  });
}

/**
 * The portfolio map: assets coloured by label for the chosen hazard, scenario and window, a
 * legend and a text alternative, optional overlays; clicking an asset selects its row in the sheet
 * it came from, else offers to paste the asset list.
 */
export function MapPanel(props: { choice: SummaryChoice; onHazards: (hazards: string[]) => void }) {
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const { choice } = props;
  const styles = useStyles();
  const { client, run } = useServices();
  const load = useCallback(
    (signal: AbortSignal) =>
      loadMapData(client!, choice.portfolio, choice.scenario, choice.window, signal).then((d) => {
        props.onHazards(d.hazards);
        return d;
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onHazards is a state setter
    [client, choice.portfolio, choice.scenario, choice.window],
  );
  const data = useLoader<MapData>(client && choice.portfolio ? load : null, [
    client,
    choice.portfolio,
    choice.scenario,
    choice.window,
  ]);
  const overlays = useLoader<OverlayChoice[]>(client ? (signal) => listOverlays(client, signal) : null, [client]);
  const [overlayId, setOverlayId] = useState("");
  const loadChosenOverlay = useCallback(
    (signal: AbortSignal) =>
      loadOverlay(
        client!,
        overlays.data!.find((o) => `${o.kind}:${o.id}` === overlayId)!,
        signal,
      ),
    [client, overlays.data, overlayId],
  );
  const overlay = useLoader<Overlay>(client && overlayId && overlays.data ? loadChosenOverlay : null, [
    client,
    overlayId,
    overlays.data,
  ]);
  const [selection, setSelection] = useState<{ asset: MapAsset; message: string; offerPaste: boolean } | null>(null);
  const paste = useTask<PastedSheet>();

  // While another portfolio, scenario or window loads, the previous data is not shown under the new name.
  const current =
    data.data &&
    data.data.portfolio === choice.portfolio &&
    data.data.scenario === choice.scenario &&
    data.data.window === choice.window
      ? data.data
      : undefined;
  const description = useMemo(() => (current ? describeMap(current, choice, i18n) : ""), [current, choice, i18n]);
  const counts = useMemo(() => {
    const c: Record<string, number> = { LOW: 0, MEDIUM: 0, HIGH: 0, NONE: 0 };
    for (const a of current?.assets ?? []) {
      const l = a.risks[choice.hazard]?.label?.toUpperCase() ?? "NONE";
      c[l in c ? l : "NONE"]++;
    }
    return c;
  }, [current, choice.hazard]);

  const select = async (asset: MapAsset) => {
    if (!run) {
      setSelection({
        asset,
        message: t("visual.map.noWorkbook", { asset: asset.entity_name || asset.entity_id }),
        offerPaste: false,
      });
      return;
    }
    try {
      const outcome = await selectAssetRow(run, choice.portfolio, asset.entity_id, asset.portfolio_index);
      setSelection(
        "selected" in outcome
          ? {
              asset,
              message: t("visual.map.selected", { asset: asset.entity_name || asset.entity_id, at: outcome.selected }),
              offerPaste: false,
            }
          : { asset, message: outcome.notFound, offerPaste: true },
      );
    } catch (error) {
      setSelection({ asset, message: error instanceof Error ? error.message : String(error), offerPaste: false });
    }
  };

  if (!choice.portfolio) return <Text size={200}>{t("visual.map.choosePortfolio")}</Text>;
  return (
    <Stack data-testid={IDS.mapPanel}>
      {data.loading ? <Spinner size="tiny" label={t("visual.map.loading")} /> : null}
      {data.error ? <ErrorNotice error={data.error} testId={IDS.mapError} /> : null}
      {current ? (
        <>
          <div className={styles.legend} data-testid={IDS.mapLegend} aria-hidden="true">
            {LEGEND.map(([label, colour]) => (
              <span key={label}>
                <span className={styles.swatch} style={{ background: colour }} />
                {label === "NONE"
                  ? t("visual.map.legend.none", { count: counts[label] })
                  : t("visual.map.legend.label", { label, count: counts[label] })}
              </span>
            ))}
          </div>
          <Suspense fallback={<Spinner size="tiny" label={t("visual.map.loadingMap")} />}>
            <PortfolioMap
              assets={current.assets}
              hazard={choice.hazard}
              overlay={overlay.data?.geojson}
              onSelect={(a) => void select(a)}
              description={description}
            />
          </Suspense>
          <Text size={200} data-testid={IDS.mapText}>
            {description}
          </Text>
        </>
      ) : null}
      {overlays.data && overlays.data.length > 0 ? (
        <ChoiceField
          label={t("visual.map.overlay")}
          value={overlayId}
          onChange={setOverlayId}
          choices={overlays.data.map((o) => ({
            value: `${o.kind}:${o.id}`,
            label: t(o.kind === "vector" ? "visual.map.overlay.layer" : "visual.map.overlay.nature", { name: o.name }),
          }))}
          emptyLabel={t("visual.map.overlay.none")}
          testId={IDS.mapOverlay}
          className={css.contained}
        />
      ) : null}
      {overlay.loading ? <Spinner size="tiny" label={t("visual.map.loadingOverlay")} /> : null}
      {overlay.error ? <ErrorNotice error={overlay.error} testId={IDS.mapOverlayError} /> : null}
      {selection ? (
        <MessageBar
          intent={selection.offerPaste ? "info" : "success"}
          layout="multiline"
          data-testid={IDS.mapSelection}
        >
          <MessageBarBody>{selection.message}</MessageBarBody>
          {selection.offerPaste && run && client ? (
            <MessageBarActions>
              <Button
                size="small"
                data-testid={IDS.mapPasteAssets}
                disabled={paste.running}
                onClick={() =>
                  paste.start(async (signal, onProgress) => {
                    const sheet = await pasteAssets({ client, run, portfolio: choice.portfolio, signal, onProgress });
                    await select(selection.asset);
                    return sheet;
                  })
                }
              >
                {t("visual.map.pasteAssets")}
              </Button>
            </MessageBarActions>
          ) : null}
        </MessageBar>
      ) : null}
      <TaskStatus
        task={paste}
        testId={IDS.mapPaste.id}
        success={(s) => t("visual.map.pasted", { assets: s.rowCount, sheet: s.sheetName })}
      />
    </Stack>
  );
}
