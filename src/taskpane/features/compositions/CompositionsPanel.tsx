import { Button, Checkbox, Divider, Field, Text, Textarea } from "@fluentui/react-components";
import { useCallback, useState } from "react";
import type { UdfRecord, VectorRecord } from "../../../api/types";
import {
  activateUdf,
  createUdf,
  deleteUdf,
  deleteVector,
  describeLayer,
  inspectUdf,
  inspectVector,
  listCompositions,
  uploadVectorFile,
  type CompositionsListing,
  type CreatedUdf,
} from "./compositions-actions";
import { nameFromFileName } from "../../ui/geojson-file";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { EditUdfForm, RunUdfPreview, UpdateVectorForm } from "./CompositionsEditors";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { FilePicker, type PickedFile } from "../../ui/FilePicker";
import { TaskStatus } from "../../ui/TaskStatus";
import { Row, Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TextField } from "../../ui/TextField";
import { ListHeading } from "../../ui/ListHeading";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.compositions;

/**
 * Upload a vector from a .geojson file; create a UDF (name, input layers from the
 * project's vectors, jq operation) and activate it; list, inspect and delete vectors and UDFs;
 * update a vector (new file) or a UDF (new equation) by name, and run a UDF to preview its layer.
 */
export function CompositionsPanel() {
  const { t } = useI18n();
  const { client } = useServices();
  const [generation, setGeneration] = useState(0);
  const load = useCallback((signal: AbortSignal) => listCompositions(client!, signal), [client]);
  const listing = useLoader<CompositionsListing>(client ? load : null, [client, generation]);
  const changed = () => setGeneration((g) => g + 1);

  return (
    <Stack gap={12}>
      <UploadVector onDone={changed} />
      <Divider />
      <CreateUdf vectors={listing.data?.vectors ?? []} onDone={changed} />
      <Divider />
      <ListHeading title={t("compositions.list")} list={listing} testId={IDS.list.id} errorTestId={IDS.listError} />
      {listing.data ? <Listing listing={listing.data} onChanged={changed} /> : null}
    </Stack>
  );
}

function UploadVector(props: { onDone: () => void }) {
  const { t } = useI18n();
  const { client } = useServices();
  const [file, setFile] = useState<PickedFile | null>(null);
  const [name, setName] = useState("");
  const task = useTask<VectorRecord>();
  return (
    <Stack>
      <Text weight="semibold">{t("compositions.upload")}</Text>
      <FilePicker
        accept=".geojson,.json,application/geo+json"
        label={t("compositions.upload.file")}
        testId={IDS.vectorFile.id}
        onPicked={(picked) => {
          setFile(picked);
          if (picked && name === "") setName(nameFromFileName(picked.fileName));
        }}
      />
      <TextField label={t("compositions.upload.name")} value={name} onChange={setName} testId={IDS.vectorName} />
      <Button
        appearance="primary"
        disabled={!client || !file || task.running}
        data-testid={IDS.vectorUpload.id}
        onClick={() => {
          if (!client || !file) return;
          task.start(
            (signal) => uploadVectorFile(client, { name, fileName: file.fileName, text: file.text }, signal),
            (done) => done && props.onDone(),
          );
        }}
      >
        {t("compositions.upload.start")}
      </Button>
      <TaskStatus
        task={task}
        testId={IDS.vectorUpload.id}
        success={(v) => t("compositions.upload.done", { name: v.name, id: String(v.id), status: v.status })}
      />
    </Stack>
  );
}

function CreateUdf(props: { vectors: VectorRecord[]; onDone: () => void }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client } = useServices();
  const [name, setName] = useState("");
  const [layers, setLayers] = useState<string[]>([]);
  const [operation, setOperation] = useState("");
  const [activate, setActivate] = useState(true);
  const task = useTask<CreatedUdf>();
  const layerNames = [...new Set(props.vectors.map((v) => v.name))];
  return (
    <Stack>
      <Text weight="semibold">{t("compositions.udf")}</Text>
      <TextField label={t("compositions.udf.name")} value={name} onChange={setName} testId={IDS.udfName} />
      <fieldset className={css.fieldset} data-testid={IDS.udfLayers}>
        <legend className={css.legend}>{t("compositions.udf.layers")}</legend>
        {layerNames.length === 0 ? <Text size={200}>{t("compositions.udf.noLayers")}</Text> : null}
        {layerNames.map((layer) => (
          <Checkbox
            key={layer}
            label={layer}
            checked={layers.includes(layer)}
            data-testid={IDS.udfLayer(layer)}
            onChange={(_, d) =>
              setLayers((current) => (d.checked ? [...current, layer] : current.filter((l) => l !== layer)))
            }
          />
        ))}
      </fieldset>
      <Field label={t("compositions.udf.operation")} hint={t("compositions.udf.operation.hint")}>
        <Textarea
          value={operation}
          onChange={(_, d) => setOperation(d.value)}
          data-testid={IDS.udfOperation}
          resize="vertical"
          className={css.code}
        />
      </Field>
      <Checkbox
        label={t("compositions.udf.activateAfter")}
        checked={activate}
        onChange={(_, d) => setActivate(d.checked === true)}
        data-testid={IDS.udfActivateAfter}
      />
      <Button
        appearance="primary"
        disabled={!client || task.running}
        data-testid={IDS.udfCreate.id}
        onClick={() => {
          if (!client) return;
          task.start(
            (signal) =>
              createUdf(
                client,
                { name, inputLayers: layers.filter((l) => layerNames.includes(l)), operation, activate },
                signal,
              ),
            (done) => done && props.onDone(),
          );
        }}
      >
        {t("compositions.udf.create")}
      </Button>
      <TaskStatus
        task={task}
        testId={IDS.udfCreate.id}
        success={(r) =>
          r.vector
            ? t("compositions.udf.createdActive", {
                name: r.udf.name,
                layer: r.vector.name,
                id: String(r.vector.id),
                status: r.vector.status,
              })
            : t("compositions.udf.created", { name: r.udf.name, id: String(r.udf.id) })
        }
      />
    </Stack>
  );
}

function Listing(props: { listing: CompositionsListing; onChanged: () => void }) {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { vectors, udfs } = props.listing;
  const layerNames = [...new Set(vectors.map((v) => v.name))];
  return (
    <Stack>
      <Text size={200}>{t("compositions.vectors", { count: vectors.length })}</Text>
      {vectors.length === 0 ? (
        <Text size={200} data-testid={IDS.vectorsEmpty}>
          {t("compositions.vectors.none")}
        </Text>
      ) : null}
      <ul className={css.plainList} data-testid={IDS.vectorList}>
        {vectors.map((v) => (
          <Item key={String(v.id)} kind="vector" record={v} layerNames={layerNames} onChanged={props.onChanged} />
        ))}
      </ul>
      <Text size={200}>{t("compositions.udfs", { count: udfs.length })}</Text>
      {udfs.length === 0 ? (
        <Text size={200} data-testid={IDS.udfsEmpty}>
          {t("compositions.udfs.none")}
        </Text>
      ) : null}
      <ul className={css.plainList} data-testid={IDS.udfList}>
        {udfs.map((u) => (
          <Item key={String(u.id)} kind="udf" record={u} layerNames={layerNames} onChanged={props.onChanged} />
        ))}
      </ul>
    </Stack>
  );
}

/** One vector or UDF with Inspect, Update/Edit, Run (UDF) and Delete (Delete asks once more). */
function Item(props: {
  kind: "vector" | "udf";
  record: VectorRecord | UdfRecord;
  layerNames: string[];
  onChanged: () => void;
}) {
  const { client } = useServices();
  const css = usePaneStyles();
  const { t, format } = useI18n();
  const { record, kind } = props;
  const inspect = useTask<string>();
  const remove = useTask<void>();
  const [confirming, setConfirming] = useState(false);
  const id = String(record.id);
  const ids = kind === "vector" ? IDS.vector(id) : IDS.udf(id);
  const activateTask = useTask<VectorRecord>();
  const [editing, setEditing] = useState(false);
  const [revision, setRevision] = useState(0);
  return (
    <li className={css.listItem} data-testid={ids.item}>
      <Row gap={4} center wrap>
        {/* The name takes its own line: four buttons would squeeze it to a few letters a line. */}
        <Text className={css.fullLine}>
          {record.name} {"status" in record && record.status ? <Text size={200}>({record.status})</Text> : null}
        </Text>
        <Button
          size="small"
          data-testid={ids.inspect}
          onClick={() =>
            client &&
            inspect.start(async (signal) => {
              if (kind === "vector")
                return format(describeLayer((await inspectVector(client, record.id, signal)).geojson));
              const udf = await inspectUdf(client, record.id, signal);
              return t("compositions.item.udfDetails", {
                layers: udf.equation.inputLayers.join(", "),
                operation: udf.equation.operation,
              });
            })
          }
        >
          {t("compositions.item.inspect")}
        </Button>
        <Button size="small" aria-expanded={editing} data-testid={ids.edit} onClick={() => setEditing((e) => !e)}>
          {kind === "vector" ? t("compositions.item.update") : t("compositions.item.edit")}
        </Button>
        {kind === "udf" ? (
          <Button
            size="small"
            data-testid={IDS.udf(id).activate.id}
            onClick={() => {
              if (!client) return;
              activateTask.start(
                (signal) => activateUdf(client, record.id, signal),
                (done) => done && props.onChanged(),
              );
            }}
          >
            {t("compositions.item.activate")}
          </Button>
        ) : null}
        {confirming ? (
          <>
            <Button
              size="small"
              appearance="primary"
              data-testid={ids.deleteConfirm}
              onClick={() => {
                setConfirming(false);
                if (!client) return;
                // The list reloads whether or not the delete succeeded: it shows what the service holds.
                remove.start(
                  () => (kind === "vector" ? deleteVector(client, record.id) : deleteUdf(client, record.id)),
                  () => props.onChanged(),
                );
              }}
            >
              {t("compositions.item.deleteYes")}
            </Button>
            <Button size="small" onClick={() => setConfirming(false)}>
              {t("compositions.item.keep")}
            </Button>
          </>
        ) : (
          <Button size="small" data-testid={ids.delete} onClick={() => setConfirming(true)}>
            {t("compositions.item.delete")}
          </Button>
        )}
      </Row>
      {editing && kind === "vector" ? (
        <UpdateVectorForm vector={record as VectorRecord} onDone={props.onChanged} />
      ) : null}
      {editing && kind === "udf" ? (
        <EditUdfForm
          udf={record}
          layerNames={props.layerNames}
          onDone={() => {
            setRevision((r) => r + 1);
            props.onChanged();
          }}
        />
      ) : null}
      {kind === "udf" ? <RunUdfPreview udf={record} revision={revision} /> : null}
      {inspect.state.status === "done" ? (
        <pre className={css.pre} data-testid={ids.details}>
          {inspect.state.result}
        </pre>
      ) : null}
      {inspect.state.status === "failed" ? <ErrorNotice error={inspect.state.error} testId={ids.inspectError} /> : null}
      {remove.state.status === "failed" ? <ErrorNotice error={remove.state.error} testId={ids.deleteError} /> : null}
      <TaskStatus
        task={activateTask}
        testId={IDS.udf(id).activate.id}
        cancellable={false}
        success={(v) => t("compositions.item.activated", { name: v.name, status: v.status })}
      />
    </li>
  );
}
