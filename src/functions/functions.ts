/*
 * The RISK.* worksheet functions. Their JSDoc is the metadata Excel shows (autocomplete, Insert
 * Function); custom-functions-metadata-plugin generates functions.json from it and adds the
 * CustomFunctions.associate calls. Each function only delegates to the engine-backed formulas of
 * ./formulas; none calls the Excel API. Exported so benchmarks and the harness can call them as
 * Excel does (see docs/functions.md, "Calling the functions outside Excel").
 *
 * Optional parameters are typed as Excel declares them, but arrive as null (or undefined) when
 * omitted: the formulas read every argument as a ArgumentValue and apply the defaults.
 *
 * SEARCH, SUMMARY, METRIC, IMPACT, LAYER and NATURE declare every parameter as `any[][]`: the metadata
 * plugin maps a two-dimensional array type to `"dimensionality": "matrix"`, so Excel hands a range
 * whole (and a single value as a 1×1 array) and the function spills one result per row, fetching
 * each distinct point or dataset once (see ./columns.ts and docs/functions.md, "Column formulas").
 */
import { startCellLanguage } from "./cell-language";
import { defaultEngine } from "./engine/default-engine";
import {
  assets as assetsFormula,
  portfolios as portfoliosFormula,
  projects as projectsFormula,
} from "./formulas/listings";
import { layer as layerFormula } from "./formulas/layer";
import { impact as impactFormula } from "./formulas/impact";
import { metric as metricFormula } from "./formulas/metric";
import { nature as natureFormula } from "./formulas/nature";
import { search as searchFormula } from "./formulas/search";
import { summary as summaryFormula } from "./formulas/summary";
import { timeseries as timeseriesFormula } from "./formulas/timeseries";

// The messages cells show with their error values follow Office's display language.
startCellLanguage();

/**
 * Point-search risk score (or label) of one hazard at a latitude and longitude; ranges of points spill one result per row. An empty hazard spills a table of every hazard at both horizons.
 * @customfunction SEARCH
 * @helpurl https://localhost:3000/help.html#risksearch
 * @param {any[][]} lat Latitude in decimal degrees, -90 to 90 (or a range of them).
 * @param {any[][]} lng Longitude in decimal degrees, -180 to 180 (or a range of them).
 * @param {any[][]} hazard floods, cyclones, drought, heatwaves, sea_level_rise or wildfire (portfolio spellings such as flood_potential also work). Empty: a table of all hazards.
 * @param {any[][]} horizon 15yr or 30yr (15 or 30 also work).
 * @param {any[][]} [extent] local (default) or background.
 * @param {any[][]} [field] score (default) or label.
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} The score or label (one per row for ranges); with an empty hazard, a table with a header row.
 * @cancelable
 * @requiresAddress
 */
export function search(
  lat: any[][],
  lng: any[][],
  hazard: any[][],
  horizon: any[][],
  extent: any[][],
  field: any[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return searchFormula(defaultEngine(), lat, lng, hazard, horizon, extent, field, invocation);
}

/**
 * Risk score (or class) of one hazard for one asset of a portfolio; a range of assets spills one result per row. Defaults: scenario ssp245, window 30 years.
 * @customfunction SUMMARY
 * @helpurl https://localhost:3000/help.html#risksummary
 * @param {any[][]} portfolio Portfolio name.
 * @param {any[][]} index The asset's portfolio_index (0 for the first row imported) or its entity_id (text), or a range of them.
 * @param {any[][]} hazard flood_potential, cyclone, water_stress, heatwave, sea_level_rise or wildfire (search spellings such as floods also work).
 * @param {any[][]} [scenario] ssp126, ssp245 or ssp585 (default ssp245).
 * @param {any[][]} [window] Summary window in years: 5, 15 or 30 (default 30).
 * @param {any[][]} [field] score (default) for risk_score, or class for risk_class (LOW, MEDIUM, HIGH).
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} The risk score, or the risk class (one per row for ranges).
 * @cancelable
 * @requiresAddress
 */
export function summary(
  portfolio: any[][],
  index: any[][],
  hazard: any[][],
  scenario: any[][],
  window: any[][],
  field: any[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return summaryFormula(defaultEngine(), portfolio, index, hazard, scenario, window, field, invocation);
}

/**
 * One number or label of a portfolio asset's extended summary, such as structural_damage_2050_ubd or summary_label_30yr; ranges spill one result per row.
 * @customfunction METRIC
 * @helpurl https://localhost:3000/help.html#riskmetric
 * @param {any[][]} portfolio Portfolio name.
 * @param {any[][]} index The asset's portfolio_index or entity_id (text), or a range of them.
 * @param {any[][]} scenario ssp126, ssp245 or ssp585.
 * @param {any[][]} hazard flood, cyclone, water_stress, heatwave, sea_level_rise or wildfire (other spellings work too).
 * @param {any[][]} metric Metric name, e.g. structural_damage_2050_ubd, indicator_2030, summary_score_30yr.
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} The metric's number or label (one per row for ranges).
 * @cancelable
 * @requiresAddress
 */
export function metric(
  portfolio: any[][],
  index: any[][],
  scenario: any[][],
  hazard: any[][],
  metric: any[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return metricFormula(defaultEngine(), portfolio, index, scenario, hazard, metric, invocation);
}

/**
 * Structural damage fraction of one hazard for a portfolio asset (extended summary), for money at risk: value × RISK.IMPACT(...). Ranges spill one result per row; missing data is #N/A, never 0.
 * @customfunction IMPACT
 * @helpurl https://localhost:3000/help.html#riskimpact
 * @param {any[][]} portfolio Portfolio name.
 * @param {any[][]} index The asset's portfolio_index or entity_id (text), or a range of them.
 * @param {any[][]} hazard flood, cyclone, water_stress, heatwave, sea_level_rise or wildfire (other spellings work too).
 * @param {any[][]} scenario ssp126, ssp245 or ssp585.
 * @param {any[][]} period baseline, 2030, 2050 or 2080.
 * @param {any[][]} [bound] central (default), lower (16th percentile, _lbd) or upper (84th percentile, _ubd).
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} The damage fraction, 0 to 1 (one per row for ranges).
 * @cancelable
 * @requiresAddress
 */
export function impact(
  portfolio: any[][],
  index: any[][],
  hazard: any[][],
  scenario: any[][],
  period: any[][],
  bound: any[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return impactFormula(defaultEngine(), portfolio, index, hazard, scenario, period, bound, invocation);
}

/**
 * Yearly series of one hazard indicator for one asset, spilled as year and value columns with a header row.
 * @customfunction TIMESERIES
 * @helpurl https://localhost:3000/help.html#risktimeseries
 * @param {string} portfolio Portfolio name.
 * @param {any} index The asset's portfolio_index or its entity_id (text).
 * @param {string} hazard flood_potential, cyclone, water_stress, heatwave, sea_level_rise or wildfire.
 * @param {string} scenario ssp126, ssp245 or ssp585.
 * @param {string} [indicator] Indicator of the hazard (default its projection, e.g. inland_flood_prob for flood_potential).
 * @param {string} [measure] lb, mid (default) or ub.
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} A year and value table with a header row.
 * @cancelable
 * @requiresAddress
 */
export function timeseries(
  portfolio: string,
  index: any,
  hazard: string,
  scenario: string,
  indicator: string,
  measure: string,
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return timeseriesFormula(defaultEngine(), portfolio, index, hazard, scenario, indicator, measure, invocation);
}

/**
 * The projects your API key may use, with a header row.
 * @customfunction PROJECTS
 * @helpurl https://localhost:3000/help.html#riskprojects
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} project_id and project_name columns.
 * @cancelable
 * @requiresAddress
 */
export function projects(invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return projectsFormula(defaultEngine(), invocation);
}

/**
 * The portfolios of the connected project, with a header row.
 * @customfunction PORTFOLIOS
 * @helpurl https://localhost:3000/help.html#riskportfolios
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} Name, id, status and timestamps of each portfolio.
 * @cancelable
 * @requiresAddress
 */
export function portfolios(invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return portfoliosFormula(defaultEngine(), invocation);
}

/**
 * Every asset of a portfolio, with a header row.
 * @customfunction ASSETS
 * @helpurl https://localhost:3000/help.html#riskassets
 * @param {string} portfolio Portfolio name.
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} portfolio_index, entity_id, entity_name, lat, lng and label columns.
 * @cancelable
 * @requiresAddress
 */
export function assets(portfolio: string, invocation: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return assetsFormula(defaultEngine(), portfolio, invocation);
}

/**
 * Value of a vector layer applied to a portfolio, for one asset; a range of assets spills one value per row.
 * @customfunction LAYER
 * @helpurl https://localhost:3000/help.html#risklayer
 * @param {any[][]} vector Vector layer id.
 * @param {any[][]} portfolio Portfolio name.
 * @param {any[][]} index The asset's portfolio_index or entity_id (text), or a range of them.
 * @param {any[][]} [column] Column of the applied layer (default value, else the first numeric layer column).
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} The layer's value for the asset (one per row for ranges).
 * @cancelable
 * @requiresAddress
 */
export function layer(
  vector: any[][],
  portfolio: any[][],
  index: any[][],
  column: any[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return layerFormula(defaultEngine(), vector, portfolio, index, column, invocation);
}

/**
 * One summary number of a nature sub-project, found by id or name; ranges spill one result per row.
 * @customfunction NATURE
 * @helpurl https://localhost:3000/help.html#risknature
 * @param {any[][]} subproject Sub-project id or name (or a range of them).
 * @param {any[][]} metric Summary name, e.g. wildfire_ssp585_2050_mean or seismic_baseline_mean.
 * @param {CustomFunctions.CancelableInvocation} invocation Set by Excel; lets a cancelled cell stop waiting.
 * @returns {Promise<any[][]>} The summary value (one per row for ranges).
 * @cancelable
 * @requiresAddress
 */
export function nature(
  subproject: any[][],
  metric: any[][],
  invocation: CustomFunctions.CancelableInvocation,
): Promise<any[][]> {
  return natureFormula(defaultEngine(), subproject, metric, invocation);
}
