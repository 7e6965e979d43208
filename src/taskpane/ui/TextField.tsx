import { Field, Input } from "@fluentui/react-components";

/**
 * A one-line text input under its label, hint and validation message: the pane's text fields
 * (a portfolio name, a label key, a currency) written once.
 */
export function TextField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The `data-testid` of the input element. */
  testId: string;
  hint?: string;
  placeholder?: string;
  validationState?: "error" | "warning" | "success" | "none";
  validationMessage?: string;
}) {
  return (
    <Field
      label={props.label}
      hint={props.hint}
      validationState={props.validationState}
      validationMessage={props.validationMessage}
    >
      <Input
        value={props.value}
        onChange={(_, d) => props.onChange(d.value)}
        placeholder={props.placeholder}
        data-testid={props.testId}
      />
    </Field>
  );
}
