import { makeStyles, mergeClasses } from "@fluentui/react-components";
import type { HTMLAttributes } from "react";

const useLayoutStyles = makeStyles({
  stack: { display: "flex", flexDirection: "column" },
  row: { display: "flex" },
  wrap: { flexWrap: "wrap" },
  alignEnd: { alignItems: "flex-end" },
  alignCenter: { alignItems: "center" },
  spread: { justifyContent: "space-between" },
  gap4: { gap: "4px" },
  gap8: { gap: "8px" },
  gap12: { gap: "12px" },
});

type Gap = 4 | 8 | 12;

/** The pane's three spacings between items: tight (4 px), normal (8 px) and between blocks (12 px). */
function gapClass(styles: ReturnType<typeof useLayoutStyles>, gap: Gap): string {
  return gap === 4 ? styles.gap4 : gap === 8 ? styles.gap8 : styles.gap12;
}

/** Items one under the other, `gap` pixels apart (8 by default): how every panel lays out its form. */
export function Stack({ gap = 8, className, ...rest }: HTMLAttributes<HTMLDivElement> & { gap?: Gap }) {
  const styles = useLayoutStyles();
  return <div {...rest} className={mergeClasses(styles.stack, gapClass(styles, gap), className)} />;
}

/** Items side by side, `gap` pixels apart (8 by default); `wrap` lets them flow onto more lines. */
export function Row({
  gap = 8,
  wrap,
  alignEnd,
  center,
  spread,
  className,
  ...rest
}: HTMLAttributes<HTMLDivElement> & {
  gap?: Gap;
  wrap?: boolean;
  alignEnd?: boolean;
  /** Items centred vertically (a label beside a button). */
  center?: boolean;
  /** First and last item pushed to the two ends (a heading and its Reload button). */
  spread?: boolean;
}) {
  const styles = useLayoutStyles();
  return (
    <div
      {...rest}
      className={mergeClasses(
        styles.row,
        gapClass(styles, gap),
        wrap && styles.wrap,
        alignEnd && styles.alignEnd,
        center && styles.alignCenter,
        spread && styles.spread,
        className,
      )}
    />
  );
}
