/**
 * Defined by webpack's DefinePlugin at build time: the service URL the add-in uses when the user has
 * configured none (the dev server sets "/emulator", a path it proxies to the local emulator). Absent
 * in Node, so read it behind `typeof __DEFAULT_SERVICE_URL__ !== "undefined"`.
 */
declare const __DEFAULT_SERVICE_URL__: string | undefined;

/**
 * Defined by webpack's DefinePlugin: the add-in's version (package.json `version`), recorded in
 * the provenance of every pasted sheet. Absent in Node: read it through src/shared/version.ts.
 */
declare const __ADDIN_VERSION__: string | undefined;

/**
 * Defined by webpack's DefinePlugin: true in a production build with no default service URL,
 * where there is no emulator to fall back on, so the user must enter a connection first.
 */
declare const __CONNECTION_REQUIRED__: boolean | undefined;

/**
 * Defined by webpack's DefinePlugin: which build this is ("production build of 2026-11-25T08:00Z"),
 * for "Check the add-in". Absent in Node: read it through src/shared/version.ts.
 */
declare const __ADDIN_BUILD__: string | undefined;
