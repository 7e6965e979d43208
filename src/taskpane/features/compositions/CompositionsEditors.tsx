import { Button, Checkbox, Field, Spinner, Text, Textarea } from "@fluentui/react-components";
import { useCallback, useState } from "react";
import type { UdfRecord, UdfWithEquation, VectorRecord } from "../../../api/types";
import { inspectUdf, previewUdf, updateUdfEquation, updateVectorFile, type LayerPreview } from "./compositions-actions";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { FilePicker, type PickedFile } from "../../ui/FilePicker";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.compositions;

/**
 * The service finds the record to update by its name (published `PUT /vector` and `PUT /udf`), so
 * an update cannot rename: the pane says so where it offers one.
 */
function RenameNote(props: { kind: "layer" | "UDF"; name: string; testId: string }) {
  const { t } = useI18n();
  return (
    <Text size={200} data-testid={props.testId}>
      {t("compositions.edit.renameNote", { kind: props.kind === "layer" ? "layer" : "udf", name: props.name })}
    </Text>
  );
}

/**
 * Replace a vector layer's content with a new .geojson file (keeps its id and name). Test ids `vector-update-…-<id>`.
 */
export function UpdateVectorForm(props: { vector: VectorRecord; onDone: () => void }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client } = useServices();
  const [file, setFile] = useState<PickedFile | null>(null);
  const task = useTask<VectorRecord>();
  const ids = IDS.vectorUpdate(props.vector.id);
  return (
    <Stack className={css.inlineForm} data-testid={ids.form}>
      <RenameNote kind="layer" name={props.vector.name} testId={ids.note} />
      <FilePicker
        accept=".geojson,.json,application/geo+json"
        label={t("compositions.edit.file")}
        testId={ids.file}
        onPicked={setFile}
      />
      <Button
        size="small"
        appearance="primary"
        className={css.start}
        disabled={!client || !file || task.running}
        data-testid={ids.submit}
        onClick={() => {
          if (!client || !file) return;
          task.start(
            (signal) =>
              updateVectorFile(client, { name: props.vector.name, fileName: file.fileName, text: file.text }, signal),
            (done) => done && props.onDone(),
          );
        }}
      >
        {t("compositions.edit.replace")}
      </Button>
      <TaskStatus
        task={task}
        testId={ids.id}
        success={(v) => t("compositions.edit.replaced", { name: v.name, date: v.updateDate })}
      />
    </Stack>
  );
}

/** Edit a UDF's input layers and jq operation, loaded from the service. Test ids `udf-edit-…-<id>`. */
export function EditUdfForm(props: { udf: UdfRecord; layerNames: string[]; onDone: () => void }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client } = useServices();
  const [layers, setLayers] = useState<string[] | null>(null);
  const [operation, setOperation] = useState("");
  const save = useTask<UdfRecord>();
  const ids = IDS.udfEdit(props.udf.id);
  const load = useCallback((signal: AbortSignal) => inspectUdf(client!, props.udf.id, signal), [client, props.udf.id]);
  const current = useLoader<UdfWithEquation>(client ? load : null, [client, props.udf.id]);
  // The form starts from the UDF as the service holds it (set while rendering, once per load).
  const [formFrom, setFormFrom] = useState<UdfWithEquation | undefined>(undefined);
  if (current.data && current.data !== formFrom) {
    setFormFrom(current.data);
    setLayers(current.data.equation.inputLayers);
    setOperation(current.data.equation.operation);
  }
  if (current.error) return <ErrorNotice error={current.error} testId={ids.loadError} />;
  if (layers === null) return <Spinner size="tiny" label={t("compositions.edit.loading")} />;
  const choices = [...new Set([...props.layerNames, ...layers])];
  return (
    <Stack className={css.inlineForm} data-testid={ids.form}>
      <RenameNote kind="UDF" name={props.udf.name} testId={ids.note} />
      <fieldset className={css.fieldset}>
        <legend className={css.legend}>{t("compositions.udf.layers")}</legend>
        {choices.map((layer) => (
          <Checkbox
            key={layer}
            label={layer}
            checked={layers.includes(layer)}
            data-testid={ids.layer(layer)}
            onChange={(_, d) =>
              setLayers((current) =>
                d.checked ? [...(current ?? []), layer] : (current ?? []).filter((l) => l !== layer),
              )
            }
          />
        ))}
      </fieldset>
      <Field label={t("compositions.udf.operation")}>
        <Textarea
          value={operation}
          onChange={(_, d) => setOperation(d.value)}
          data-testid={ids.operation}
          resize="vertical"
          className={css.code}
        />
      </Field>
      <Button
        size="small"
        appearance="primary"
        className={css.start}
        disabled={!client || save.running}
        data-testid={ids.submit}
        onClick={() => {
          if (!client) return;
          save.start(
            (signal) => updateUdfEquation(client, { name: props.udf.name, inputLayers: layers, operation }, signal),
            (done) => done && props.onDone(),
          );
        }}
      >
        {t("compositions.edit.save")}
      </Button>
      <TaskStatus task={save} testId={ids.id} success={(u) => t("compositions.edit.saved", { name: u.name })} />
    </Stack>
  );
}

/**
 * Run a UDF without storing its result and show the layer it yields. A new `revision` (the UDF
 * was edited) clears a shown preview, which no longer matches. Test ids `udf-run-<id>`, `udf-preview-<id>`.
 */
export function RunUdfPreview(props: { udf: UdfRecord; revision?: number }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client } = useServices();
  const task = useTask<LayerPreview>();
  // The revision the shown run was made at: derived in render, so an edit hides the old preview in
  // the same frame as the edit's result rather than one effect later.
  const [ranAt, setRanAt] = useState(props.revision);
  const current = ranAt === props.revision;
  const ids = {
    run: IDS.udfRun(props.udf.id),
    preview: IDS.udfPreview(props.udf.id),
  };
  return (
    <Stack gap={4} className={css.shrink}>
      <Button
        size="small"
        className={css.start}
        disabled={!client || task.running}
        data-testid={ids.run.id}
        onClick={() => {
          if (!client) return;
          setRanAt(props.revision);
          task.start((signal) => previewUdf(client, props.udf.id, signal));
        }}
      >
        {t("compositions.run")}
      </Button>
      {current ? (
        <TaskStatus
          task={task}
          testId={ids.run.id}
          success={(p) => (
            <span data-testid={ids.preview.summary}>
              {p.propertyNames.length > 0
                ? t("compositions.run.done", {
                    name: p.name,
                    count: p.featureCount,
                    properties: p.propertyNames.join(", "),
                  })
                : t("compositions.run.doneNoProperties", { name: p.name, count: p.featureCount })}
            </span>
          )}
        />
      ) : null}
      {current && task.state.status === "done" ? <PreviewTable preview={task.state.result} ids={ids.preview} /> : null}
    </Stack>
  );
}

/** The first rows of a previewed layer, scrolling sideways inside the pane when wide. */
function PreviewTable(props: { preview: LayerPreview; ids: { id: string; rows: string } }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { preview } = props;
  return (
    <Stack gap={4} className={css.shrink} data-testid={props.ids.id}>
      <div className={css.scrollX}>
        <table className={css.sampleTable} data-testid={props.ids.rows}>
          <thead>
            <tr>
              {preview.propertyNames.map((n) => (
                <th key={n} className={css.sampleHeader}>
                  {n}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, r) => (
              <tr key={r}>
                {row.map((v, c) => (
                  <td key={c} className={css.sampleCell}>
                    {v === null ? "" : String(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {preview.featureCount > preview.rows.length ? (
        <Text size={200}>
          {t("compositions.run.first", { shown: preview.rows.length, count: preview.featureCount })}
        </Text>
      ) : null}
    </Stack>
  );
}
