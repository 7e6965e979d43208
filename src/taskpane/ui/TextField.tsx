import { Field, Input } from "@fluentui/react-components";
import { usePaneStyles } from "./styles";

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
  /** Sizing inside the row that holds it (a `usePaneStyles` class). */
  className?: string;
}) {
  const css = usePaneStyles();
  return (
    <Field
      className={props.className}
      label={props.label}
      // A long word (a German compound, a label key) wraps rather than widening the field past the pane.
      hint={props.hint === undefined ? undefined : { children: props.hint, className: css.breakWord }}
      validationState={props.validationState}
      validationMessage={props.validationMessage}
    >
      <Input
        className={css.shrink}
        value={props.value}
        onChange={(_, d) => props.onChange(d.value)}
        placeholder={props.placeholder}
        data-testid={props.testId}
      />
    </Field>
  );
}
