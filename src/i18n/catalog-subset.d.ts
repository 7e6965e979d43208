/**
 * A catalog file imported with `?cell`: only its `cell.*` messages (webpack keeps the rest out,
 * scripts/catalog-subset-loader.js). Typed as the cells' catalog (./cell-catalogs.ts).
 */
declare module "*.json?cell" {
  const cells: import("./cell-catalogs").CellCatalog;
  export default cells;
}
