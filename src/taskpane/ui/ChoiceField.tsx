import { Field, Select } from "@fluentui/react-components";
import { SCENARIOS } from "../../shared/vocabulary";

/** One entry of a ChoiceField: a plain value, or a value shown under another label. */
export type Choice = string | { value: string; label: string };

/**
 * A labelled drop-down of choices, optionally led by an empty entry ("All hazards", "(none)").
 * Every filter list of the pane is one of these, so they look and behave alike.
 */
export function ChoiceField(props: {
  label: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
  /** The `data-testid` of the select element. */
  testId: string;
  /** Label of a leading entry whose value is "" (omit for none). */
  emptyLabel?: string;
  hint?: string;
  /** Sizing inside the row that holds it (a `usePaneStyles` class). */
  className?: string;
}) {
  return (
    <Field label={props.label} hint={props.hint} className={props.className}>
      <Select value={props.value} onChange={(_, data) => props.onChange(data.value)} data-testid={props.testId}>
        {props.emptyLabel !== undefined ? <option value="">{props.emptyLabel}</option> : null}
        {props.choices.map((choice) => {
          const { value, label } = typeof choice === "string" ? { value: choice, label: choice } : choice;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </Select>
    </Field>
  );
}

/**
 * The choice of a scenario among the service's, led by "all scenarios" in the pane's words: every
 * section that pastes per scenario asks it alike.
 */
export function ScenarioChoice(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The leading entry's label (value ""): all scenarios. */
  allLabel: string;
  testId: string;
}) {
  return (
    <ChoiceField
      label={props.label}
      value={props.value}
      onChange={props.onChange}
      choices={SCENARIOS}
      emptyLabel={props.allLabel}
      testId={props.testId}
    />
  );
}
