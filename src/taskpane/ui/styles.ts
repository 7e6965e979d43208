import { makeStyles, tokens } from "@fluentui/react-components";

/**
 * The pane's shared small styles, as Fluent classes (one way to style: `makeStyles`, no inline
 * style objects). Values computed at run time (a map marker's position, a legend swatch's
 * colour) stay inline, which is what Fluent recommends for dynamic values.
 */
export const usePaneStyles = makeStyles({
  /** Items one under the other, 4 px apart, where the element must stay a plain `div` (a live region). */
  column: { display: "flex", flexDirection: "column", gap: "4px" },
  /** A button or notice that keeps its own width inside a column instead of stretching. */
  start: { alignSelf: "flex-start" },
  /** Takes the free width of a row and may shrink below its content (long names wrap). */
  grow: { flex: "1 1 0", minWidth: 0 },
  /** Takes a whole line of a wrapping row (a record's name above its buttons). */
  fullLine: { flex: "1 1 100%", minWidth: 0, wordBreak: "break-word" },
  /** A list of label: value facts in two aligned columns (`<dl>`). */
  facts: { margin: 0, display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: "8px", rowGap: "2px" },
  /** A wrapper that takes no box of its own (keeps a `<dt>`/`<dd>` pair in its grid). */
  contents: { display: "contents" },
  term: { fontWeight: tokens.fontWeightSemibold },
  definition: { margin: 0, wordBreak: "break-word" },
  /** The caption of a `<details>` block the analyst opens. */
  disclosure: { cursor: "pointer", fontSize: tokens.fontSizeBase300 },
  /** A column of checkboxes that scrolls once it is long. */
  checkList: { maxHeight: "160px", overflowY: "auto", display: "flex", flexDirection: "column" },
  /** One of several fields sharing a wrapping row, each at least 90 px wide. */
  tile: { flex: "1 1 90px" },
  /** A field that never widens the pane past its width. */
  contained: { minWidth: 0, maxWidth: "100%", overflow: "hidden" },
  /** May shrink below its content inside a flex container. */
  shrink: { minWidth: 0 },
  /** Long unbroken text (names, URLs, ids) wraps instead of widening the pane. */
  breakWord: { wordBreak: "break-word", minWidth: 0 },
  /** File names and paths, which have no spaces to wrap at. */
  breakAll: { wordBreak: "break-all" },
  /** Code the analyst reads or edits (jq programs, formulas). */
  code: { fontFamily: "Consolas, monospace" },
  /** A block of preformatted text that wraps in the pane. */
  pre: { whiteSpace: "pre-wrap", wordBreak: "break-word", fontSize: "12px", margin: "4px 0" },
  /** A list of records laid out by its items, without bullets. */
  plainList: { listStyleType: "none", margin: 0, padding: 0 },
  /** A bulleted list of messages under a notice. */
  bulletList: { margin: "4px 0 0", paddingLeft: "18px" },
  /** A bulleted list that is the whole message (no space above). */
  summaryList: { margin: 0, paddingLeft: "18px" },
  /** The buttons under a question (Delete / Keep), set off from it. */
  actions: { marginTop: "6px" },
  /** A bulleted list that scrolls once it is long (a shorter one, inside a form). */
  shortScrollingList: { margin: "4px 0 0", paddingLeft: "18px", maxHeight: "200px", overflowY: "auto" },
  /** A bulleted list right under its caption. */
  tightList: { margin: "2px 0 0", paddingLeft: "18px" },
  /** A bulleted list of notes in smaller text. */
  smallList: { margin: 0, paddingLeft: "18px", fontSize: "13px" },
  /** A formula as the builder shows it before inserting it. */
  preview: { fontSize: "13px" },
  /** A cell address beside its field. */
  cellAddress: { flex: "1 1 0", fontFamily: "Consolas, monospace" },
  /** Buttons side by side (8 px apart); `wrapCentered` lets them wrap beside a label. */
  buttons: { display: "flex", gap: "8px" },
  wrapCentered: { alignItems: "center", flexWrap: "wrap" },
  /** Set off from what is above: a little (4 px) or a bit more (6 px). */
  above4: { marginTop: "4px" },
  above6: { marginTop: "6px" },
  /** A bulleted list that scrolls once it is long. */
  scrollingList: { margin: "4px 0 0", paddingLeft: "18px", maxHeight: "240px", overflowY: "auto" },
  /** One record of a list, ruled off from the next. */
  listItem: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, padding: "4px 0", minWidth: 0 },
  /** A list item laid out as a row: its name, then its buttons. */
  itemRow: { display: "flex", gap: "4px", alignItems: "center" },
  /** A group of checkboxes under a caption, without the browser's frame. */
  fieldset: { border: "none", margin: 0, padding: 0 },
  legend: { fontSize: tokens.fontSizeBase300, marginBottom: "4px" },
  /** A form opened inside a list item. */
  inlineForm: { padding: "6px 0" },
  /** Wide content (a table) scrolls sideways inside the pane. */
  scrollX: { overflowX: "auto", maxWidth: "100%" },
  /** A compact table of sample rows. */
  sampleTable: { borderCollapse: "collapse", fontSize: "12px" },
  sampleHeader: { textAlign: "left", padding: "0 6px", borderBottom: `1px solid ${tokens.colorNeutralStroke1}` },
  sampleCell: { padding: "0 6px", whiteSpace: "nowrap" },
  /** Secondary and tertiary text. */
  muted: { color: tokens.colorNeutralForeground2 },
  faint: { color: tokens.colorNeutralForeground3 },
  /** A heading without the browser's margin. */
  flush: { margin: 0 },
  hidden: { display: "none" },
});
