import { Button, Field, Input, MessageBar, MessageBarBody, MessageBarTitle, Text } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import type { ConnectionConfig } from "../../../api/config";
import type { Project } from "../../../api/types";
import { connectionRequired, resetConnection, saveConnection } from "../../../shared/connection";
import { listProjects, testConnection, type ConnectionCheck } from "./connection-actions";
import { describeError } from "../../ui/describe-error";
import { useServices } from "../../ui/services";
import { useTask } from "../../ui/hooks/use-task";
import { ChoiceField } from "../../ui/ChoiceField";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { Row, Stack } from "../../ui/layout";
import { GeocoderSettingsPanel } from "./GeocoderSettingsPanel";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.connection;

/**
 * Base URL, nature URL, API key (a password field), project from GET /projects/,
 * Test connection, Save, and back to the demo emulator. The key is kept by the shared connection
 * store outside the workbook; this panel never logs it.
 */
export function ConnectionPanel() {
  const { config, isDefault } = useServices();
  const { t } = useI18n();
  const [form, setForm] = useState<ConnectionConfig>(config);
  const [projects, setProjects] = useState<Project[]>([]);
  const test = useTask<ConnectionCheck>();
  const save = useTask<ConnectionConfig>();

  // A saved or reset connection replaces what the form shows (set while rendering, React's
  // "adjust state when a prop changes", so the stale form never paints).
  const [formOf, setFormOf] = useState(config);
  if (formOf !== config) {
    setFormOf(config);
    setForm(config);
  }

  // The picker lists the projects of the saved connection until a test lists others.
  useEffect(() => {
    const controller = new AbortController();
    listProjects(config, { signal: controller.signal }).then(setProjects, () => setProjects([]));
    return () => controller.abort();
  }, [config]);

  const field = (key: keyof ConnectionConfig) => (_: unknown, data: { value: string }) =>
    setForm((f) => ({ ...f, [key]: data.value }));
  const projectOptions = projects.map((p) => p.project_name);
  if (form.project && !projectOptions.includes(form.project) && !projects.some((p) => p.project_id === form.project))
    projectOptions.unshift(form.project);

  const runTest = () =>
    test.start(async (signal) => {
      const check = await testConnection(form, { signal });
      setProjects(check.projects);
      if (!form.project && check.projects.length > 0)
        setForm((f) => ({ ...f, project: check.projects[0].project_name }));
      return check;
    });

  return (
    <Stack>
      {isDefault && connectionRequired() ? (
        <MessageBar intent="warning" data-testid={IDS.firstRun} layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>{t("connection.firstRun.title")}</MessageBarTitle>
            {t("connection.firstRun.body")}
          </MessageBarBody>
        </MessageBar>
      ) : isDefault ? (
        <MessageBar intent="info" data-testid={IDS.defaultNotice} layout="multiline">
          <MessageBarBody>{t("connection.demoNotice")}</MessageBarBody>
        </MessageBar>
      ) : (
        <Text size={200} data-testid={IDS.savedNotice}>
          {t("connection.saved", { server: config.baseUrl, project: config.project ?? t("connection.project.none") })}
        </Text>
      )}
      {(["baseUrl", "natureUrl"] as const).map((url) => (
        <Field key={url} label={t(`connection.${url}.label`)} hint={t(`connection.${url}.hint`)}>
          {/* type text: a path such as /risk-api is a valid setting, though not an absolute URL. */}
          <Input value={form[url]} onChange={field(url)} data-testid={IDS[url]} type="text" inputMode="url" />
        </Field>
      ))}
      <Field label={t("connection.apiKey.label")}>
        <Input
          value={form.apiKey}
          onChange={field("apiKey")}
          data-testid={IDS.apiKey}
          type="password"
          autoComplete="off"
        />
      </Field>
      <ChoiceField
        label={t("connection.project.label")}
        hint={projects.length === 0 ? t("connection.project.hint") : undefined}
        value={form.project ?? ""}
        onChange={(project) => setForm((f) => ({ ...f, project }))}
        choices={projectOptions}
        emptyLabel={projectOptions.length === 0 ? t("connection.project.none") : undefined}
        testId={IDS.project}
      />
      <Row wrap>
        <Button onClick={runTest} disabled={test.running} data-testid={IDS.test}>
          {t("connection.test")}
        </Button>
        <Button
          appearance="primary"
          onClick={() => save.start(() => saveConnection(form))}
          disabled={save.running}
          data-testid={IDS.save}
        >
          {t("connection.save")}
        </Button>
        <Button
          onClick={() => save.start(() => resetConnection())}
          disabled={save.running || isDefault}
          data-testid={IDS.reset}
        >
          {connectionRequired() ? t("connection.forget") : t("connection.useDemo")}
        </Button>
      </Row>
      {test.state.status === "running" ? <Text data-testid={IDS.testProgress}>{t("connection.testing")}</Text> : null}
      {test.state.status === "failed" ? <ErrorNotice error={test.state.error} testId={IDS.testError} /> : null}
      {test.state.status === "done" ? <TestResult check={test.state.result} project={form.project} /> : null}
      {save.state.status === "failed" ? <ErrorNotice error={save.state.error} testId={IDS.saveError} /> : null}
      {save.state.status === "done" ? (
        <Text size={200} data-testid={IDS.saveResult}>
          {t("connection.savedResult")}
        </Text>
      ) : null}
      <GeocoderSettingsPanel />
    </Stack>
  );
}

function TestResult(props: { check: ConnectionCheck; project: string | undefined }) {
  const { check } = props;
  const i18n = useI18n();
  const { t } = i18n;
  const natureText = check.nature.ok
    ? t("connection.result.nature", { count: check.nature.superprojects.length })
    : t("connection.result.natureFailed", { reason: describeError(check.nature.error, i18n).title });
  return (
    <MessageBar
      intent={check.projectKnown && check.nature.ok ? "success" : "warning"}
      data-testid={IDS.testResult}
      layout="multiline"
    >
      <MessageBarBody>
        <div>{t("connection.result.connected", { count: check.projects.length })}</div>
        {!check.projectKnown ? (
          <div>{t("connection.result.unknownProject", { project: props.project ?? "" })}</div>
        ) : null}
        <div>{natureText}</div>
      </MessageBarBody>
    </MessageBar>
  );
}
