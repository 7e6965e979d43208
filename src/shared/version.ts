/**
 * The add-in's version, as built (package.json `version` via webpack's DefinePlugin); in Node
 * (jest, the harness server) where nothing defines it, "development".
 */
export const ADDIN_VERSION: string =
  typeof __ADDIN_VERSION__ !== "undefined" && __ADDIN_VERSION__ ? __ADDIN_VERSION__ : "development";

/** Which build this is (mode and build time, from webpack); "development (not built)" in Node. */
export const ADDIN_BUILD: string =
  typeof __ADDIN_BUILD__ !== "undefined" && __ADDIN_BUILD__ ? __ADDIN_BUILD__ : "development (not built)";
