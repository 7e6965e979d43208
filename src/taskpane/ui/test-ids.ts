/**
 * Every `data-testid` the task pane renders, as typed constants: the panels set them from here and
 * the tests (jest and browser) find elements by the same constants, so a misspelt or renamed id
 * fails the typecheck instead of a test at run time. Ids are grouped by the pane's feature folder.
 *
 * Families of ids share a prefix: a task's status area (`taskStatusIds`: `-progress`, `-cancel`,
 * `-error`, `-result`), a portfolio select (`-reload`, `-error`), a problem list (`-item`,
 * `-link`) and so on. A family's `id` is the prefix itself, which is what the panel passes to the
 * shared widget (`testId={TEST_IDS.sync.task.id}`); the widget derives the rest with the same
 * function, and a test reads `TEST_IDS.sync.task.result`.
 */

/** A prefix and its `${prefix}-${part}` ids, each part a key, typed to the letter. */
export type IdParts<P extends string, S extends string> = { readonly id: P } & { readonly [K in S]: `${P}-${K}` };

/** The ids `${prefix}-${part}` of each part, keyed by part, with `id` the prefix. */
export function idParts<P extends string, S extends string>(prefix: P, parts: readonly S[]): IdParts<P, S> {
  const ids: Record<string, string> = { id: prefix };
  for (const part of parts) ids[part] = `${prefix}-${part}`;
  return ids as IdParts<P, S>;
}

/** A task's status area (`TaskStatus`): progress bar and message, Cancel, failure, success message. */
export const taskStatusIds = <P extends string>(prefix: P) =>
  idParts(prefix, ["progress", "cancel", "error", "result"]);
/** `DownloadButton`: the button, its task's status and the saved file (`-file`). */
export const downloadIds = <P extends string>(prefix: P) =>
  idParts(prefix, ["progress", "cancel", "error", "result", "file"]);
/** `PortfolioSelect`: the select, its reload button and the error of the last load. */
export const portfolioSelectIds = <P extends string>(prefix: P) => idParts(prefix, ["reload", "error"]);
/** `FilePicker`: the `<input type=file>` (set files on it) and the visible button. */
export const filePickerIds = <P extends string>(prefix: P) => idParts(prefix, ["button"]);
/** `ListHeading`: its reload button. */
export const listHeadingIds = <P extends string>(prefix: P) => idParts(prefix, ["reload"]);
/** A list of problems with their cells: one `-item` per problem (with `data-address`), `-link` selects the cell. */
export const problemListIds = <P extends string>(prefix: P) => idParts(prefix, ["item", "link"]);
/** A table with one `-row` per line. */
export const tableIds = <P extends string>(prefix: P) => idParts(prefix, ["row"]);

/**
 * The offer to sync many RISK.SEARCH points (`SearchPointsOffer`), under its own prefix in each pane:
 * the check and the sync are tasks with status areas of their own.
 */
export function searchOfferIds<P extends string>(prefix: P) {
  return {
    ...idParts(prefix, ["none", "made", "timing", "caveat", "accept", "done", "declined"]),
    check: taskStatusIds(`${prefix}-check`),
    sync: taskStatusIds(`${prefix}-sync`),
  };
}

/** A composition list's item: a vector layer or a UDF by its id. */
function compositionItemIds(kind: "vector" | "udf", id: number | string) {
  return {
    item: `${kind}-item-${id}`,
    inspect: `${kind}-inspect-${id}`,
    inspectError: `${kind}-inspect-error-${id}`,
    details: `${kind}-details-${id}`,
    /** Opens the editor: `vector-update-<id>` or `udf-edit-<id>`. */
    edit: kind === "vector" ? `vector-update-${id}` : `udf-edit-${id}`,
    delete: `${kind}-delete-${id}`,
    deleteConfirm: `${kind}-delete-confirm-${id}`,
    deleteError: `${kind}-delete-error-${id}`,
  } as const;
}

/** The test ids of the pane, by feature. */
export const TEST_IDS = {
  refresh: {
    all: "refresh-all",
    task: taskStatusIds("refresh"),
    recalculating: "refresh-recalculating",
    scopeChoice: "scope-choice",
    /** A radio of `scopeChoice`: `selection`, `sheet` or `workbook`. */
    scopeOption: <S extends string>(scope: S) => `scope-${scope}` as const,
    scopeOnlyErrors: "scope-only-errors",
    scopeCount: "scope-count",
    scopeRecount: "scope-recount",
    scopeCountError: "scope-count-error",
    scopeRefresh: "scope-refresh",
    scope: taskStatusIds("scope"),
    scopeDone: "scope-done",
  },
  portfolios: {
    portfolio: portfolioSelectIds("portfolios-portfolio"),
    assets: taskStatusIds("portfolios-assets"),
    delete: taskStatusIds("portfolios-delete"),
    usage: taskStatusIds("portfolios-usage"),
    confirm: "portfolios-confirm",
    confirmSynced: "portfolios-confirm-synced",
    confirmCells: "portfolios-confirm-cells",
    confirmDelete: "portfolios-confirm-delete",
    confirmKeep: "portfolios-confirm-keep",
    deleted: "portfolios-deleted",
  },
  visual: {
    visualPortfolio: portfolioSelectIds("visual-portfolio"),
    visualScenario: "visual-scenario",
    visualWindow: "visual-window",
    visualHazard: "visual-hazard",
    matrixCells: "matrix-cells",
    matrixStart: "matrix-start",
    matrix: taskStatusIds("matrix"),
    compareStart: "compare-start",
    compare: taskStatusIds("compare"),
    mapPanel: "map-panel",
    mapError: "map-error",
    mapLegend: "map-legend",
    mapText: "map-text",
    mapOverlay: "map-overlay",
    mapOverlayError: "map-overlay-error",
    mapSelection: "map-selection",
    mapPasteAssets: "map-paste-assets",
    mapPaste: taskStatusIds("map-paste"),
    mapCanvas: "map-canvas",
    mapTooltip: "map-tooltip",
    mapZoomIn: "map-zoom-in",
    mapZoomOut: "map-zoom-out",
    mapZoomReset: "map-zoom-reset",
  },
  static: {
    scope: "static-scope",
    /** A radio of `scope`: `selection`, `sheet` or `workbook`. */
    scopeOption: <S extends string>(scope: S) => `static-scope-${scope}` as const,
    convert: "static-convert",
    restore: "static-restore",
    confirm: "static-confirm",
    confirmYes: "static-confirm-yes",
    confirmNo: "static-confirm-no",
    countError: "static-count-error",
    task: taskStatusIds("static"),
    done: "static-done",
    restoreTask: taskStatusIds("restore"),
    restoreDone: "restore-done",
  },
  changes: {
    snapshot: taskStatusIds("changes-snapshot"),
    threshold: "changes-threshold",
    compare: "changes-compare",
    task: taskStatusIds("changes"),
    summary: "changes-summary",
  },
  summary: {
    portfolio: portfolioSelectIds("summary-portfolio"),
    scenario: "summary-scenario",
    extended: "summary-extended",
    extendedScenario: "summary-extended-scenario",
    start: "summary-start",
    download: downloadIds("summary-download"),
    task: taskStatusIds("summary"),
  },
  export: {
    portfolio: portfolioSelectIds("export-portfolio"),
    download: taskStatusIds("export-download"),
    ready: "export-ready",
    save: "export-save",
    contentsError: "export-contents-error",
    unpack: taskStatusIds("export-unpack"),
  },
  timeseries: {
    portfolio: portfolioSelectIds("ts-portfolio"),
    catalogError: "ts-catalog-error",
    hazard: "ts-hazard",
    indicator: "ts-indicator",
    indicatorInfo: "ts-indicator-info",
    scenario: "ts-scenario",
    measure: "ts-measure",
    startDate: "ts-start-date",
    endDate: "ts-end-date",
    chartAssets: "ts-chart-assets",
    /** An asset's checkbox in the chart, by its `portfolio_index`. */
    chartAsset: (portfolioIndex: number) => `ts-chart-asset-${portfolioIndex}` as const,
    estimate: "ts-estimate",
    start: "ts-start",
    download: downloadIds("ts-download"),
    task: taskStatusIds("ts"),
  },
  lastGood: {
    failurePolicy: "failure-policy",
    failurePolicyError: "failure-policy-error",
    failurePolicyKeep: "failure-policy-keep",
    staleNone: "stale-none",
    staleCount: "stale-count",
    staleList: "stale-list",
    staleCell: "stale-cell",
    staleRetry: taskStatusIds("stale-retry"),
    cacheClear: taskStatusIds("cache-clear"),
  },
  explain: {
    start: "explain-start",
    task: taskStatusIds("explain"),
    source: "explain-source",
    /** One line of the explanation by its key (`spill`, `arguments`, `hazard`, `window`, …). */
    line: <K extends string>(key: K) => `explain-${key}` as const,
  },
  impact: {
    portfolio: portfolioSelectIds("impact-portfolio"),
    hazard: "impact-hazard",
    scenario: "impact-scenario",
    value: "impact-value",
    currency: "impact-currency",
    rollup: "impact-rollup",
    start: "impact-start",
    task: taskStatusIds("impact"),
    problems: "impact-problems",
    problemsItem: "impact-problems-item",
  },
  compositions: {
    list: listHeadingIds("compositions"),
    listError: "compositions-list-error",
    vectorFile: filePickerIds("vector-file"),
    vectorName: "vector-name",
    vectorUpload: taskStatusIds("vector-upload"),
    udfName: "udf-name",
    udfLayers: "udf-layers",
    udfOperation: "udf-operation",
    udfActivateAfter: "udf-activate-after",
    udfCreate: taskStatusIds("udf-create"),
    vectorsEmpty: "vectors-empty",
    vectorList: "vector-list",
    udfsEmpty: "udfs-empty",
    udfList: "udf-list",
    /** A layer's checkbox in the new UDF's form. */
    udfLayer: (layer: string) => `udf-layer-${layer}` as const,
    vector: (id: number | string) => compositionItemIds("vector", id),
    udf: (id: number | string) => ({
      ...compositionItemIds("udf", id),
      activate: taskStatusIds(`udf-activate-${id}`),
    }),
    /** Updating a layer (rename = delete + create): its form, note, file input and submit, and its task. */
    vectorUpdate: (id: number | string) => ({
      ...taskStatusIds(`vector-update-${id}`),
      form: `vector-update-form-${id}`,
      note: `vector-update-note-${id}`,
      file: `vector-update-file-${id}`,
      submit: `vector-update-submit-${id}`,
    }),
    /** Editing a UDF: its form, note, one checkbox per layer, operation, submit, and its task. */
    udfEdit: (id: number | string) => ({
      ...taskStatusIds(`udf-edit-${id}`),
      form: `udf-edit-form-${id}`,
      note: `udf-edit-note-${id}`,
      loadError: `udf-edit-load-error-${id}`,
      layer: (layer: string) => `udf-edit-layer-${id}-${layer}`,
      operation: `udf-edit-operation-${id}`,
      submit: `udf-edit-submit-${id}`,
    }),
    /** Running a UDF: its button and task, then the preview with its summary and table of rows. */
    udfRun: (id: number | string) => taskStatusIds(`udf-run-${id}`),
    udfPreview: (id: number | string) => idParts(`udf-preview-${id}`, ["summary", "rows"]),
  },
  builder: {
    function: "builder-function",
    formula: "builder-formula",
    problems: "builder-problems",
    preview: "builder-preview",
    previewError: "builder-preview-error",
    previewValue: "builder-preview-value",
    mode: "builder-mode",
    modeColumn: "builder-mode-column",
    modeFill: "builder-mode-fill",
    insert: taskStatusIds("builder-insert"),
    inserted: "builder-inserted",
    searchOffer: searchOfferIds("builder-search-offer"),
    /** The function dropdown's option for a RISK function, e.g. `builder-function-SUMMARY`. */
    functionOption: (fn: string) => `builder-function-${fn}` as const,
    /** A parameter's field (dropdown, or input for numbers) and what goes with it. */
    param: <N extends string>(name: N) => ({
      ...idParts(`builder-param-${name}`, ["cell", "clear", "error"]),
      useSelection: `builder-param-${name}-use-selection`,
      selectionError: `builder-param-${name}-selection-error`,
    }),
  },
  sync: {
    searchOffer: searchOfferIds("search-offer"),
    /** A category of the sync's diff (`added`, `removed`, `moved`, `relabelled`; `data-count`) and its `-item` rows. */
    diffCategory: <C extends string>(category: C) => idParts(`sync-diff-${category}`, ["item"]),
    diff: "sync-diff",
    diffSummary: "sync-diff-summary",
    conversions: "sync-conversions",
    conversionsRow: "sync-conversions-row",
    convert: "sync-convert",
    converted: "sync-converted",
    warnings: problemListIds("sync-warnings"),
    dropdown: "sync-dropdown",
    dropdownDone: "sync-dropdown-done",
    mapping: tableIds("sync-mapping"),
    findingsError: "sync-findings-error",
    idsWritten: "sync-ids-written",
    identity: "sync-identity",
    identityBlocked: "sync-identity-blocked",
    identityRow: "sync-identity-row",
    writeIds: "sync-write-ids",
    countryUnavailable: "sync-country-unavailable",
    countrySummary: "sync-country-summary",
    countryOutside: problemListIds("sync-country-outside"),
    countryNear: problemListIds("sync-country-near"),
    countryUnchecked: problemListIds("sync-country-unchecked"),
    countryError: "sync-country-error",
    countryFixed: "sync-country-fixed",
    countryFixes: "sync-country-fixes",
    countryFixesRow: "sync-country-fixes-row",
    countryFix: "sync-country-fix",
    geocodePreview: "geocode-preview",
    geocodePreviewRow: "geocode-preview-row",
    geocodeMissing: "geocode-missing",
    geocodeCellsFrom: "geocode-cells-from",
    geocodeCellsUnknown: "geocode-cells-unknown",
    geocodePrecision: "geocode-precision",
    geocodeTooCoarse: "geocode-too-coarse",
    geocode: "geocode",
    geocodeFind: "geocode-find",
    geocodeFindError: "geocode-find-error",
    geocodeRun: taskStatusIds("geocode-run"),
    geocodeWrite: taskStatusIds("geocode-write"),
    geocodeWritten: "geocode-written",
    geocodeProblems: problemListIds("geocode-problems"),
    geocodeNothing: "geocode-nothing",
    geocodeNoGeocoder: "geocode-no-geocoder",
    geocodeOffline: "geocode-offline",
    geocodeConsent: "geocode-consent",
    geocodeConsentWhat: "geocode-consent-what",
    geocodePublicCap: "geocode-public-cap",
    geocodeSend: "geocode-send",
    geocodeStopped: "geocode-stopped",
    geocodeResume: "geocode-resume",
    geocodeSummary: "geocode-summary",
    geocodeAttribution: "geocode-attribution",
    geocodeWriteFlagged: "geocode-write-flagged",
    geocodeAccept: "geocode-accept",
    geocodeDiscard: "geocode-discard",
    portfolio: "sync-portfolio",
    start: "sync-start",
    check: "sync-check",
    checkError: "sync-check-error",
    selectError: "sync-select-error",
    sourceSelection: "sync-source-selection",
    sourceTable: "sync-source-table",
    table: "sync-table",
    checkResult: "sync-check-result",
    checkProblems: problemListIds("sync-check-problems"),
    mappingConfirm: "sync-mapping-confirm",
    mappingConfirmTable: tableIds("sync-mapping-confirm-table"),
    mappingSend: "sync-mapping-send",
    mappingStop: "sync-mapping-stop",
    outsideConfirm: "sync-outside-confirm",
    outsideStop: "sync-outside-stop",
    outsideSend: "sync-outside-send",
    confirm: "sync-confirm",
    confirmReplace: "sync-confirm-replace",
    confirmKeep: "sync-confirm-keep",
    tooMany: "sync-too-many",
    split: "sync-split",
    problems: problemListIds("sync-problems"),
    outsideDeclined: "sync-outside-declined",
    mappingDeclined: "sync-mapping-declined",
    task: taskStatusIds("sync"),
    declined: "sync-declined",
    done: "sync-done",
    splitDone: "sync-split-done",
  },
  nature: {
    superproject: "nature-superproject",
    superprojectsError: "nature-superprojects-error",
    list: listHeadingIds("nature"),
    subprojectsError: "nature-subprojects-error",
    empty: "nature-empty",
    subprojects: "nature-subprojects",
    subproject: (id: number | string) => `nature-subproject-${id}` as const,
    /** A sub-project's button that exports it to a sheet (one task, `export`, for all). */
    exportOne: (id: number | string) => `nature-export-${id}` as const,
    export: taskStatusIds("nature-export"),
    file: filePickerIds("nature-file"),
    name: "nature-name",
    create: taskStatusIds("nature-create"),
  },
  connection: {
    firstRun: "connection-first-run",
    defaultNotice: "connection-default-notice",
    savedNotice: "connection-saved-notice",
    baseUrl: "connection-base-url",
    natureUrl: "connection-nature-url",
    apiKey: "connection-api-key",
    project: "connection-project",
    test: "connection-test",
    save: "connection-save",
    reset: "connection-reset",
    testProgress: "connection-test-progress",
    testError: "connection-test-error",
    saveError: "connection-save-error",
    saveResult: "connection-save-result",
    testResult: "connection-test-result",
  },
  /** The geocoder's settings, under Connection. */
  geocoder: {
    saved: "geocoder-saved",
    kindPelias: "geocoder-kind-pelias",
    kindNominatim: "geocoder-kind-nominatim",
    url: "geocoder-url",
    key: "geocoder-key",
    email: "geocoder-email",
    rate: "geocoder-rate",
    concurrency: "geocoder-concurrency",
    publicPolicy: "geocoder-public-policy",
    save: "geocoder-save",
    forget: "geocoder-forget",
    saveError: "geocoder-save-error",
  },
  layer: {
    vector: "layer-vector",
    vectorReload: "layer-vector-reload",
    vectorError: "layer-vector-error",
    portfolio: portfolioSelectIds("layer-portfolio"),
    start: "layer-start",
    task: taskStatusIds("layer"),
  },
  pasted: {
    listError: "pasted-list-error",
    none: "pasted-none",
    list: "pasted-list",
    item: "pasted-item",
    notRefreshed: "pasted-item-not-refreshed",
    problem: "pasted-problem",
    refresh: "pasted-refresh",
    reload: "pasted-reload",
    task: taskStatusIds("pasted"),
    sort: taskStatusIds("pasted-sort"),
    result: "pasted-result",
    summary: "pasted-summary",
    outcome: "pasted-outcome",
    acceptKey: "pasted-accept-key",
    keyed: "pasted-keyed",
    added: "pasted-added",
    sortAgain: "pasted-sort-again",
    removed: "pasted-removed",
    columnsAdded: "pasted-columns-added",
    columnsUnserved: "pasted-columns-unserved",
    followers: "pasted-followers",
    deletedByHand: "pasted-deleted-by-hand",
    restore: "pasted-restore",
    edited: "pasted-edited",
    editedCell: "pasted-edited-cell",
    keepMine: "pasted-keep-mine",
    takeService: "pasted-take-service",
    /** What a kind's steps after the refresh said (the disclosure's old tables), one per report. */
    followUp: "pasted-follow-up",
    /** The work such a report offers (the upgrade), and its task's status. */
    offer: taskStatusIds("pasted-offer"),
  },
  check: {
    panel: "check-panel",
    withFormula: "check-with-formula",
    run: "check-run",
    copy: "check-copy",
    running: "check-running",
    error: "check-error",
    noAnswer: "check-no-answer",
    report: "check-report",
  },
  disclosure: {
    portfolio: portfolioSelectIds("disclosure-portfolio"),
    value: "disclosure-value",
    currency: "disclosure-currency",
    currencyColumn: "disclosure-currency-column",
    revenue: "disclosure-revenue",
    adaptation: "disclosure-adaptation",
    start: "disclosure-start",
    task: taskStatusIds("disclosure"),
    refresh: taskStatusIds("disclosure-refresh"),
    upgrade: taskStatusIds("disclosure-upgrade"),
  },
  shell: {
    commandOutcome: "command-outcome",
    usageProgress: "usage-progress",
    usageLine: "usage-line",
    taskpane: "taskpane",
    /** A group of sections: `setup`, `formulas`, `pull`, `portfolios`. */
    group: <G extends string>(group: G) => `group-${group}` as const,
    /** A section by its feature's `id`, and its header button. */
    section: <S extends string>(section: S) => `section-${section}` as const,
    sectionHeader: <S extends string>(section: S) => `section-${section}-header` as const,
    connectionSummary: "connection-summary",
    noWorkbookNotice: "no-workbook-notice",
    connectionUnusable: "connection-unusable",
    sectionSearch: "section-search",
    sectionSearchEmpty: "section-search-empty",
    excelNotAnswering: "excel-not-answering",
    excelNotAnsweringWait: "excel-not-answering-wait",
    excelNotAnsweringCancel: "excel-not-answering-cancel",
    excelCancelledWaiting: "excel-cancelled-waiting",
  },
} as const;
