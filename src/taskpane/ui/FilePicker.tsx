import { Button, Text } from "@fluentui/react-components";
import { useRef, useState } from "react";
import { usePaneStyles } from "./styles";
import { Row } from "./layout";
import { filePickerIds } from "./test-ids";
import { useI18n } from "./i18n";

/** A file the user picked, read as text. */
export interface PickedFile {
  fileName: string;
  text: string;
}

/**
 * A keyboard-reachable file button over a hidden <input type=file>; reads the file as text.
 * Test id `${testId}` is on the input itself (so a browser test can set files on it);
 * `${testId}-button` on the visible button.
 */
export function FilePicker(props: {
  accept: string;
  label: string;
  testId: string;
  onPicked: (file: PickedFile | null) => void;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string>("");
  const css = usePaneStyles();
  const { t } = useI18n();
  return (
    <Row center wrap>
      <input
        ref={input}
        type="file"
        accept={props.accept}
        data-testid={props.testId}
        aria-label={props.label}
        className={css.hidden}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (!file) {
            setName("");
            props.onPicked(null);
            return;
          }
          setName(file.name);
          file.text().then(
            (text) => props.onPicked({ fileName: file.name, text }),
            // Moved or unreadable since it was picked: nothing is chosen, and the name says why.
            () => {
              setName(t("ui.file.unreadable", { fileName: file.name }));
              props.onPicked(null);
            },
          );
        }}
      />
      <Button
        onClick={() => input.current?.click()}
        disabled={props.disabled}
        data-testid={filePickerIds(props.testId).button}
      >
        {props.label}
      </Button>
      <Text size={200} className={css.breakAll}>
        {name || t("ui.file.none")}
      </Text>
    </Row>
  );
}
