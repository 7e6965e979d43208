import { makeStyles, mergeClasses } from "@fluentui/react-components";
import type { HTMLAttributes } from "react";

const useLayoutStyles = makeStyles({
  stack: { display: "flex", flexDirection: "column" },
  row: { display: "flex" },
  wrap: { flexWrap: "wrap" },
  alignEnd: { alignItems: "flex-end" },
  gap4: { gap: "4px" },
  gap8: { gap: "8px" },
});

type Gap = 4 | 8;

/** The pane's two spacings between stacked or side-by-side items: tight (4 px) and normal (8 px). */
function gapClass(styles: ReturnType<typeof useLayoutStyles>, gap: Gap): string {
  return gap === 4 ? styles.gap4 : styles.gap8;
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
  className,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { gap?: Gap; wrap?: boolean; alignEnd?: boolean }) {
  const styles = useLayoutStyles();
  return (
    <div
      {...rest}
      className={mergeClasses(
        styles.row,
        gapClass(styles, gap),
        wrap && styles.wrap,
        alignEnd && styles.alignEnd,
        className,
      )}
    />
  );
}
