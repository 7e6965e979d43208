/**
 * webpack loader: a message catalog (src/i18n/catalogs/<language>.json) imported with a query
 * (`en.json?cell`) becomes only the messages whose id starts with that word and a dot (`cell.*`).
 * The functions runtime needs the cells' messages, not every panel's: this keeps them out of
 * functions.js without a second copy of any catalog (src/i18n/cell-catalogs.ts).
 */
module.exports = function catalogSubsetLoader(source) {
  const prefix = `${this.resourceQuery.replace(/^\?/, "")}.`;
  if (!/^\?[a-z]+$/i.test(this.resourceQuery))
    throw new Error(`catalog subset: expected ?<prefix>, got "${this.resourceQuery}"`);
  const catalog = JSON.parse(source);
  const subset = Object.fromEntries(Object.entries(catalog).filter(([id]) => id.startsWith(prefix)));
  if (Object.keys(subset).length === 0)
    throw new Error(`catalog subset: no "${prefix}*" message in ${this.resourcePath}`);
  return JSON.stringify(subset);
};
