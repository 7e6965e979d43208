import {
  Button,
  Dropdown,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Option,
  Radio,
  RadioGroup,
  Spinner,
  Text,
  Textarea,
} from "@fluentui/react-components";
import { useMemo, useState } from "react";
import {
  BUILDER_FUNCTIONS,
  FIXED_CHOICES,
  buildFormula,
  formulasFor,
  insertFormulas,
  loadChoices,
  previewFormula,
  problemsOf,
  readSelection,
  referenceTo,
  type BuilderFunction,
  type Choice,
  type MultiRowMode,
  type ParamSpec,
  type ParamValue,
  type Preview,
} from "./formula-builder-actions";
import { describeError } from "../../ui/describe-error";
import { useServices } from "../../ui/services";
import { useLoader } from "../../ui/hooks/use-loader";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { TaskStatus } from "../../ui/TaskStatus";
import { Stack } from "../../ui/layout";
import { SearchPointsOffer } from "../sync";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import type { MessageId } from "../../../i18n/messages";

/** This section's test ids. */
const IDS = TEST_IDS.builder;

type Values = Record<string, ParamValue | undefined>;

/** Kinds typed by hand (no list): numbers, a layer's column. */
const TYPED = new Set(["number", "layer-column"]);

/**
 * The formula builder. Pick a function; each parameter offers the service's list for
 * it (or "the selected cell"); the formula text is shown and editable; a live preview shows what
 * it gives now; Insert writes it into the selection (column form or filled down for several rows).
 */
export function FormulaBuilderPanel() {
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const { client, run } = useServices();
  const [fn, setFn] = useState<BuilderFunction>("SUMMARY");
  const [values, setValues] = useState<Values>({});
  const [edited, setEdited] = useState<string | null>(null);
  const [mode, setMode] = useState<MultiRowMode>("column");
  const insert = useTask<string>();
  /** RISK.SEARCH formulas inserted so far: each one checks the sheet for the faster path again. */
  const [searchesInserted, setSearchesInserted] = useState(0);
  const params = BUILDER_FUNCTIONS[fn].params as readonly ParamSpec[];
  const built = buildFormula(fn, values);
  const text = edited ?? built;
  const problems = problemsOf(fn, values);

  const choose = (name: string, value: ParamValue | undefined) => {
    setEdited(null);
    setValues((v) => {
      const next = { ...v, [name]: value };
      // A new portfolio or hazard makes the asset, metric and indicator chosen for the old one meaningless.
      if (name === "portfolio") for (const k of ["index", "metric", "indicator"]) delete next[k];
      if (name === "hazard" || name === "scenario") for (const k of ["metric", "indicator"]) delete next[k];
      if (name === "subproject") delete next.metric;
      return next;
    });
  };

  // Live preview: re-evaluated (through the engine's cache) whenever the formula changes; none
  // while the choices have problems. A preview that fails shows why instead of spinning on.
  const previewLoad = useLoader<Preview>(problems.length > 0 ? null : () => previewFormula(run, fn, values), [
    fn,
    built,
    run,
  ]);
  const previewing = previewLoad.loading;
  const preview: Preview | null = previewLoad.error
    ? {
        error: [describeError(previewLoad.error, i18n).title, ...describeError(previewLoad.error, i18n).details].join(
          " ",
        ),
      }
    : (previewLoad.data ?? null);

  return (
    <Stack>
      <Field label={t("builder.function")}>
        <Dropdown
          value={i18n.format(BUILDER_FUNCTIONS[fn].label)}
          selectedOptions={[fn]}
          onOptionSelect={(_, d) => {
            setFn(d.optionValue as BuilderFunction);
            setValues({});
            setEdited(null);
          }}
          data-testid={IDS.function}
        >
          {(Object.keys(BUILDER_FUNCTIONS) as BuilderFunction[]).map((f) => (
            <Option key={f} value={f} data-testid={IDS.functionOption(f)}>
              {i18n.format(BUILDER_FUNCTIONS[f].label)}
            </Option>
          ))}
        </Dropdown>
      </Field>
      {params.map((p) => (
        <ParamControl
          key={`${fn}-${p.name}`}
          spec={p}
          value={values[p.name]}
          values={values}
          onChange={(v) => choose(p.name, v)}
          client={client}
          run={run}
        />
      ))}
      <Field label={t("builder.formula")}>
        <Textarea
          value={text}
          onChange={(_, d) => setEdited(d.value)}
          data-testid={IDS.formula}
          resize="vertical"
          className={css.code}
        />
      </Field>
      {problems.length > 0 && edited === null ? (
        <MessageBar intent="info" layout="multiline" data-testid={IDS.problems}>
          <MessageBarBody>
            <ul className={css.summaryList}>
              {problems
                .map((said) => i18n.format(said))
                .map((line) => (
                  <li key={line}>{line}</li>
                ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <div data-testid={IDS.preview} aria-live="polite" className={css.preview}>
        {previewing ? <Spinner size="extra-tiny" label={t("builder.previewing")} /> : null}
        {!previewing && preview?.error ? (
          <span data-testid={IDS.previewError}>{t("builder.givesError", { error: preview.error })}</span>
        ) : null}
        {!previewing && preview && !preview.error ? (
          <span data-testid={IDS.previewValue}>
            {t("builder.givesNow")} <b>{String(preview.value)}</b>
            {preview.rows !== undefined
              ? ` ${t("builder.spills", { rows: preview.rows, columns: preview.columns ?? 0 })}`
              : ""}
          </span>
        ) : null}
      </div>
      <RadioGroup value={mode} onChange={(_, d) => setMode(d.value as MultiRowMode)} data-testid={IDS.mode}>
        <Radio value="column" label={t("builder.mode.column")} data-testid={IDS.modeColumn} />
        <Radio value="fill" label={t("builder.mode.fill")} data-testid={IDS.modeFill} />
      </RadioGroup>
      <Button
        appearance="primary"
        disabled={!run || insert.running || (edited === null && problems.length > 0)}
        data-testid={IDS.insert.id}
        onClick={() =>
          run &&
          insert.start(
            async () => {
              const target = await readSelection(run);
              const formulas = edited !== null ? [edited] : formulasFor(fn, values, target, mode);
              // The column form is one formula spilling over the rows below.
              const spills = edited === null && mode === "column" && target.rows > 1;
              return insertFormulas(run, target, formulas, { spills });
            },
            (address) => {
              if (address !== undefined && fn === "SEARCH") setSearchesInserted((n) => n + 1);
            },
          )
        }
      >
        {t("builder.insert")}
      </Button>
      <TaskStatus
        task={insert}
        testId={IDS.insert.id}
        cancellable={false}
        success={(address) => <span data-testid={IDS.inserted}>{t("builder.inserted", { address })}</span>}
      />
      {fn === "SEARCH" ? (
        // Many points searched one by one take long at a real service's latency: the same offer as
        // the sync pane's, made where the analyst writes the searches, after each insert.
        <SearchPointsOffer testId={IDS.searchOffer.id} checkAfter={searchesInserted} />
      ) : null}
    </Stack>
  );
}

/** One parameter: a list (from the service or fixed), typed text, or "use the selected cell". */
function ParamControl(props: {
  spec: ParamSpec;
  value: ParamValue | undefined;
  values: Values;
  onChange: (value: ParamValue | undefined) => void;
  client: ReturnType<typeof useServices>["client"];
  run: ReturnType<typeof useServices>["run"];
}) {
  const css = usePaneStyles();
  const { t, format } = useI18n();
  const { spec, value, values, onChange, client, run } = props;
  const chosen = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) if (v?.kind === "value") out[k] = v.value;
    return out;
  }, [values]);
  const needs =
    spec.kind === "asset" || spec.kind === "indicator"
      ? [chosen.portfolio]
      : spec.kind === "metric"
        ? [chosen.portfolio, chosen.scenario, chosen.hazard, chosen.index]
        : spec.kind === "nature-metric"
          ? [chosen.subproject]
          : [];
  const listed = !TYPED.has(spec.kind);
  // useLoader reads the latest function when its deps change: the choices this list depends on.
  const load = (signal: AbortSignal) => loadChoices(client!, spec.kind, chosen, signal);
  const choices = useLoader<Choice[]>(listed && (client || FIXED_CHOICES[spec.kind]) ? load : null, [
    client,
    spec.kind,
    ...needs,
  ]);
  const [selectionError, setSelectionError] = useState<unknown>(undefined);
  const ids = IDS.param(spec.name);

  const pickSelection = async () => {
    if (!run) return;
    setSelectionError(undefined);
    try {
      const selection = await readSelection(run);
      onChange({ kind: "cell", address: referenceTo(selection) });
    } catch (error) {
      setSelectionError(error);
    }
  };

  const label = spec.optional ? t("builder.param.optional", { label: spec.label }) : format(spec.label);
  return (
    <Field label={label}>
      <div className={css.itemRow}>
        {value?.kind === "cell" ? (
          <Text data-testid={ids.cell} className={css.cellAddress}>
            {value.address}
          </Text>
        ) : listed ? (
          <Dropdown
            className={css.grow}
            placeholder={
              choices.loading
                ? t("ui.list.loading")
                : choices.data && choices.data.length === 0
                  ? t(emptyHint(spec))
                  : t("builder.param.choose")
            }
            value={
              choices.data?.find((c) => c.value === (value?.kind === "value" ? value.value : ""))?.label ??
              (value?.kind === "value" ? value.value : "")
            }
            selectedOptions={value?.kind === "value" ? [value.value] : []}
            onOptionSelect={(_, d) => onChange(d.optionValue ? { kind: "value", value: d.optionValue } : undefined)}
            disabled={!choices.data || choices.data.length === 0}
            data-testid={ids.id}
          >
            {spec.optional ? <Option value="">{t("builder.param.default")}</Option> : null}
            {(choices.data ?? []).map((c) => (
              <Option key={c.value} value={c.value} text={c.label}>
                {c.label}
              </Option>
            ))}
          </Dropdown>
        ) : (
          <Input
            className={css.grow}
            value={value?.kind === "value" ? value.value : ""}
            onChange={(_, d) => onChange({ kind: "value", value: d.value })}
            data-testid={ids.id}
          />
        )}
        {value?.kind === "cell" ? (
          <Button size="small" onClick={() => onChange(undefined)} data-testid={ids.clear}>
            {t("builder.param.clear")}
          </Button>
        ) : (
          <Button
            size="small"
            disabled={!run}
            onClick={() => void pickSelection()}
            title={t("builder.param.useSelection")}
            data-testid={ids.useSelection}
          >
            {t("builder.param.selectedCell")}
          </Button>
        )}
      </div>
      {choices.error ? <ErrorNotice error={choices.error} testId={ids.error} /> : null}
      {selectionError ? <ErrorNotice error={selectionError} testId={ids.selectionError} /> : null}
    </Field>
  );
}

/** Why a parameter's list is empty: the choice it waits for. */
function emptyHint(spec: ParamSpec): MessageId {
  switch (spec.kind) {
    case "asset":
    case "indicator":
      return "builder.empty.portfolio";
    case "metric":
      return "builder.empty.metric";
    case "nature-metric":
      return "builder.empty.subproject";
    default:
      return "builder.empty.other";
  }
}
