import { Button, Field, Select, Text, mergeClasses } from "@fluentui/react-components";
import { useCallback, useState } from "react";
import type { SubProject } from "../../../api/types";
import {
  createSubprojectFromFile,
  listSubprojects,
  listSuperprojects,
  pasteSubprojectSummary,
  proposeSubprojectName,
} from "./nature-actions";
import type { PastedSheet } from "../../ui/pane-types";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { FilePicker, type PickedFile } from "../../ui/FilePicker";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { usePaneStyles } from "../../ui/styles";
import { TextField } from "../../ui/TextField";
import { ListHeading } from "../../ui/ListHeading";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** Superprojects, their sub-projects, create one from GeoJSON, export a summary to a sheet. */
export function NaturePanel() {
  const css = usePaneStyles();
  const { t } = useI18n();
  const { client, run, forget } = useServices();
  const [superproject, setSuperproject] = useState("");
  const [generation, setGeneration] = useState(0);
  const loadSupers = useCallback((signal: AbortSignal) => listSuperprojects(client!, signal), [client]);
  const supers = useLoader<string[]>(client ? loadSupers : null, [client]);
  // A listed superproject is always chosen (set while rendering: it settles in one extra pass).
  if (supers.data?.length && !supers.data.includes(superproject)) setSuperproject(supers.data[0]);
  const loadSubs = useCallback(
    (signal: AbortSignal) => listSubprojects(client!, superproject, signal),
    [client, superproject],
  );
  const subs = useLoader<SubProject[]>(client && superproject ? loadSubs : null, [client, superproject, generation]);
  const [file, setFile] = useState<PickedFile | null>(null);
  const create = useTask<SubProject>();
  const [subName, setSubName] = useState("");
  const nameTaken = subName.trim() !== "" && (subs.data ?? []).some((s) => s.name === subName.trim());
  const paste = useTask<PastedSheet>();

  return (
    <Stack>
      <Field label={t("nature.superproject")}>
        <Select
          value={superproject}
          onChange={(_, d) => setSuperproject(d.value)}
          data-testid={TEST_IDS.nature.superproject}
          disabled={!supers.data?.length}
        >
          {!supers.data?.length ? (
            <option value="">
              {supers.loading ? t("nature.superproject.loading") : t("nature.superproject.none")}
            </option>
          ) : null}
          {(supers.data ?? []).map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </Field>
      {supers.error ? <ErrorNotice error={supers.error} testId={TEST_IDS.nature.superprojectsError} /> : null}
      <ListHeading
        title={t("nature.subprojects")}
        list={subs}
        testId={TEST_IDS.nature.list.id}
        errorTestId={TEST_IDS.nature.subprojectsError}
      />
      {subs.data && subs.data.length === 0 ? (
        <Text size={200} data-testid={TEST_IDS.nature.empty}>
          {t("nature.subprojects.none")}
        </Text>
      ) : null}
      <ul className={css.plainList} data-testid={TEST_IDS.nature.subprojects}>
        {(subs.data ?? []).map((s) => (
          <li
            key={s.id}
            className={mergeClasses(css.listItem, css.itemRow)}
            data-testid={TEST_IDS.nature.subproject(s.id)}
          >
            <Text className={mergeClasses(css.grow, css.breakWord)}>
              {s.name} <Text size={200}>({s.status})</Text>
            </Text>
            <Button
              size="small"
              disabled={!run || paste.running}
              data-testid={TEST_IDS.nature.exportOne(s.id)}
              onClick={() =>
                client &&
                run &&
                paste.start((signal, onProgress) =>
                  pasteSubprojectSummary({ client, run, subproject: { id: s.id, name: s.name }, signal, onProgress }),
                )
              }
            >
              {t("nature.toSheet")}
            </Button>
          </li>
        ))}
      </ul>
      <TaskStatus
        task={paste}
        testId={TEST_IDS.nature.export.id}
        success={(r) => t("nature.toSheet.done", { rows: r.rowCount, sheet: r.sheetName })}
      />
      <Text weight="semibold">{t("nature.new")}</Text>
      <FilePicker
        accept=".geojson,.json,application/geo+json"
        label={t("nature.new.file")}
        testId={TEST_IDS.nature.file.id}
        onPicked={(picked) => {
          setFile(picked);
          // Propose the first feature's "Entity Name"; the user may change it.
          setSubName(picked ? proposeSubprojectName(picked.text) : "");
        }}
      />
      <TextField
        label={t("nature.new.name")}
        hint={superproject ? t("nature.new.name.hint", { superproject }) : t("nature.new.name.hintNoSuperproject")}
        validationState={nameTaken ? "error" : "none"}
        validationMessage={nameTaken ? t("nature.new.name.taken", { superproject, name: subName.trim() }) : undefined}
        value={subName}
        onChange={setSubName}
        placeholder={t("nature.new.name.placeholder")}
        testId={TEST_IDS.nature.name}
      />
      <Button
        appearance="primary"
        disabled={!client || !file || !superproject || create.running || subName.trim() === "" || nameTaken}
        data-testid={TEST_IDS.nature.create.id}
        onClick={() => {
          if (!client || !file) return;
          create.start(
            (signal) =>
              createSubprojectFromFile(
                client,
                { superproject, fileName: file.fileName, text: file.text, name: subName },
                signal,
                { run, forget },
              ),
            (created) => created && setGeneration((g) => g + 1),
          );
        }}
      >
        {t("nature.create")}
      </Button>
      <TaskStatus
        task={create}
        testId={TEST_IDS.nature.create.id}
        success={(s) => t("nature.created", { name: s.name, status: s.status })}
      />
    </Stack>
  );
}
