import { Button, Checkbox, MessageBar, MessageBarBody, MessageBarTitle, Text } from "@fluentui/react-components";
import { useRef, useState } from "react";
import { bulkProblem, loadGeocoder, type GeocoderSettings } from "../../../shared/geocoder-connection";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { ProblemList } from "./ProblemList";
import { TaskStatus } from "../../ui/TaskStatus";
import { usePaneStyles } from "../../ui/styles";
import {
  geocodeSheet,
  hazardCells,
  readAddressSheet,
  placeOffline,
  writeGeocoded,
  type AddressSheet,
  type GeocodePreview as Preview,
  type HazardCells,
} from "./geocode-actions";
import { GeocodePreview } from "./GeocodePreview";
import { ASSUMED_LATENCY_MS, estimateMs, formatEstimate } from "./model/geocode/pace";
import type { WritePlan } from "./model/geocode/write-plan";
import { selectProblemCell, type AssetSource } from "./sync-actions";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.sync;

/** What "Find coordinates" found before anything is sent. */
interface Found {
  sheet: AddressSheet;
  settings?: GeocoderSettings;
}

/** The latency last timed per geocoder URL, so the next estimate starts from it. */
const timedLatency = new Map<string, number>();

function estimateFor(settings: GeocoderSettings, count: number): string {
  const latencyMs = timedLatency.get(settings.url) ?? ASSUMED_LATENCY_MS;
  return formatEstimate(
    estimateMs(count, { perSecond: settings.perSecond, concurrency: settings.concurrency, latencyMs }),
  );
}

/**
 * Coordinates for rows with an address and none: the analyst first sees which host receives which
 * columns for how many rows and how long it will take, and agrees; then a preview; only on accept
 * are coordinates written (never over existing ones), and nothing goes to the risk service until
 * the analyst syncs. Test ids start with `geocode-`.
 */
export function GeocodePanel(props: { source: () => AssetSource; portfolio: string }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client, run } = useServices();
  const find = useTask<Found>();
  const ask = useTask<Preview>();
  const write = useTask<WritePlan>();
  const [writeFlagged, setWriteFlagged] = useState(false);
  const cells = useRef<HazardCells | undefined>(undefined);
  const found = find.state.status === "done" ? find.state.result : undefined;
  const preview = ask.state.status === "done" ? ask.state.result : undefined;

  const start = () =>
    run &&
    find.start(async () => {
      ask.reset();
      write.reset();
      const [sheet, settings] = await Promise.all([readAddressSheet(run, props.source()), loadGeocoder()]);
      return { sheet, settings };
    });
  const offline = (f: Found) =>
    ask.start(async (signal) => {
      write.reset();
      cells.current = await hazardCells(client, props.portfolio, signal).catch(() => undefined);
      return placeOffline(f.sheet, cells.current);
    });
  const send = (f: Found & { settings: GeocoderSettings }) =>
    ask.start(async (signal, onProgress) => {
      write.reset();
      cells.current = await hazardCells(client, props.portfolio, signal).catch(() => undefined);
      const total = f.sheet.rows.length;
      const result = await geocodeSheet({
        settings: f.settings,
        sheet: f.sheet,
        cells: cells.current,
        signal,
        onRow: (_, done, latencyMs) => {
          if (latencyMs !== undefined) timedLatency.set(f.settings.url, latencyMs);
          onProgress({
            message: t("sync.geocode.progress", { done, total, left: estimateFor(f.settings, total - done) }),
            fraction: done / total,
          });
        },
      });
      if (result.run.latencyMs !== undefined) timedLatency.set(f.settings.url, result.run.latencyMs);
      return result;
    });

  return (
    <div className={css.column} data-testid={IDS.geocode}>
      <Button
        size="small"
        className={css.start}
        onClick={start}
        disabled={!run || find.running || ask.running}
        data-testid={IDS.geocodeFind}
      >
        {t("sync.geocode.find")}
      </Button>
      {find.state.status === "failed" ? <ErrorNotice error={find.state.error} testId={IDS.geocodeFindError} /> : null}
      {found ? (
        <FoundSummary
          found={found}
          onSend={send}
          onOffline={() => offline(found)}
          asking={ask.running || preview !== undefined}
        />
      ) : null}
      {ask.state.status === "done" ? null : <TaskStatus task={ask} testId={IDS.geocodeRun.id} success={() => null} />}
      {preview && found ? (
        <PreviewAndAccept
          preview={preview}
          writeFlagged={writeFlagged}
          setWriteFlagged={setWriteFlagged}
          onResume={() => send(found as Found & { settings: GeocoderSettings })}
          onAccept={(rows) => run && write.start(() => writeGeocoded(run, found.sheet, rows, preview.source))}
          onDiscard={() => ask.reset()}
          writing={write.running || write.state.status === "done"}
        />
      ) : null}
      <TaskStatus
        task={write}
        testId={IDS.geocodeWrite.id}
        success={(plan) => (
          <span data-testid={IDS.geocodeWritten}>
            {t("sync.geocode.written", {
              rows: plan.rows,
              columns: plan.newColumns.length > 0 ? plan.newColumns.join(", ") : "none",
              range: plan.range,
            })}
          </span>
        )}
      />
    </div>
  );
}

/** The rows found, the problems with their cells, and the consent: which host receives what, for how many rows. */
function FoundSummary(props: {
  found: Found;
  onSend: (found: Found & { settings: GeocoderSettings }) => void;
  onOffline: () => void;
  asking: boolean;
}) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { run } = useServices();
  const { sheet, settings } = props.found;
  const count = sheet.rows.length;
  const overPublicCap = settings ? bulkProblem(settings, count) : undefined;
  return (
    <>
      {sheet.problems.length > 0 ? (
        <ProblemList
          problems={sheet.problems}
          testId={IDS.geocodeProblems.id}
          intent="warning"
          title={t("sync.geocode.problems", { count: sheet.problems.length })}
          onSelect={(address) => run && void selectProblemCell(run, address).catch(() => undefined)}
        />
      ) : null}
      {count === 0 ? (
        <Text size={200} data-testid={IDS.geocodeNothing}>
          {t("sync.geocode.nothing", { address: sheet.address, withCoordinates: sheet.withCoordinates })}
        </Text>
      ) : !settings ? (
        <Text size={200} data-testid={IDS.geocodeNoGeocoder}>
          {t("sync.geocode.noGeocoder", { count })}
          {props.asking ? null : (
            <Button size="small" className={css.above6} onClick={props.onOffline} data-testid={IDS.geocodeOffline}>
              {t("sync.geocode.offline")}
            </Button>
          )}
        </Text>
      ) : props.asking ? null : (
        <MessageBar intent={overPublicCap ? "warning" : "info"} layout="multiline" data-testid={IDS.geocodeConsent}>
          <MessageBarBody>
            <MessageBarTitle>
              {t("sync.geocode.consentTitle", { count, host: new URL(settings.url).host })}
            </MessageBarTitle>
            <div data-testid={IDS.geocodeConsentWhat}>
              {t("sync.geocode.consentWhat", {
                host: new URL(settings.url).host,
                columnCount: sheet.sentColumns.length,
                columns: sheet.sentColumns.join(", "),
                count,
                address: sheet.address,
                estimate: estimateFor(settings, count),
                perSecond: settings.perSecond,
                concurrency: settings.concurrency,
              })}
            </div>
            {overPublicCap ? (
              <div data-testid={IDS.geocodePublicCap}>{overPublicCap}</div>
            ) : (
              <Button
                appearance="primary"
                size="small"
                className={css.above6}
                onClick={() => props.onSend({ sheet, settings })}
                data-testid={IDS.geocodeSend}
              >
                {t("sync.geocode.send", { count })}
              </Button>
            )}
          </MessageBarBody>
        </MessageBar>
      )}
    </>
  );
}

function PreviewAndAccept(props: {
  preview: Preview;
  writeFlagged: boolean;
  setWriteFlagged: (value: boolean) => void;
  onResume: () => void;
  onAccept: (rows: Preview["rows"]) => void;
  onDiscard: () => void;
  writing: boolean;
}) {
  const css = usePaneStyles();
  const { t, format } = useI18n();
  const { preview } = props;
  const placed = preview.rows.filter((row) => row.place);
  const flagged = placed.filter((row) => row.flags.length > 0);
  const accepted = props.writeFlagged ? placed : placed.filter((row) => row.flags.length === 0);
  const stopped = preview.run.stopped;
  return (
    <div className={css.column}>
      {stopped ? (
        <MessageBar intent="warning" layout="multiline" data-testid={IDS.geocodeStopped}>
          <MessageBarBody>
            {t("sync.geocode.stopped", {
              reason: stopped === "cancelled" ? t("sync.geocode.cancelled") : format(stopped.said),
              placed: placed.length,
            })}
            <Button size="small" className={css.above6} onClick={props.onResume} data-testid={IDS.geocodeResume}>
              {t("sync.geocode.resume")}
            </Button>
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <Text size={200} data-testid={IDS.geocodeSummary}>
        {t("sync.geocode.summary", { placed: placed.length, total: preview.rows.length, flagged: flagged.length })}
      </Text>
      <GeocodePreview rows={preview.rows} cellsFrom={preview.cells?.portfolio} />
      {preview.attribution ? (
        <Text size={200} data-testid={IDS.geocodeAttribution}>
          {preview.attribution}
        </Text>
      ) : null}
      {flagged.length > 0 ? (
        <Checkbox
          checked={props.writeFlagged}
          onChange={(_, d) => props.setWriteFlagged(d.checked === true)}
          label={t("sync.geocode.writeFlagged", { count: flagged.length })}
          data-testid={IDS.geocodeWriteFlagged}
        />
      ) : null}
      <div className={css.buttons}>
        <Button
          appearance="primary"
          size="small"
          disabled={accepted.length === 0 || props.writing}
          onClick={() => props.onAccept(accepted)}
          data-testid={IDS.geocodeAccept}
        >
          {t("sync.geocode.accept", { count: accepted.length })}
        </Button>
        <Button size="small" onClick={props.onDiscard} disabled={props.writing} data-testid={IDS.geocodeDiscard}>
          {t("sync.geocode.discard")}
        </Button>
      </div>
    </div>
  );
}
