/**
 * Contract suite, part 3 (checked by `tsc --noEmit`, which covers test/): whatever the published
 * client accepts must fit the add-in's own types (src/api/types.ts), so the add-in never relies on
 * a field production may omit or type differently. A line here fails to compile when a client
 * type requires more, or something else, than the published record guarantees.
 */
import type { z } from "zod";
import type * as T from "../../src/api/types";
import type * as P from "./published";

type Infer<S extends z.ZodType> = z.infer<S>;

/** Each entry compiles only if a published record can be used as the client's type. */
export const CLIENT_TYPES_FIT_PUBLISHED_RECORDS = {
  Project: (record: Infer<typeof P.Project>): T.Project => record,
  Portfolio: (record: Infer<typeof P.Portfolio>): T.Portfolio => record,
  Asset: (record: Infer<typeof P.Asset>): T.Asset => record,
  SummaryItem: (record: Infer<typeof P.SummaryItem>): T.SummaryItem => record,
  ExtendedSummaryItem: (record: Infer<typeof P.ExtendedSummaryItem>): T.ExtendedSummaryItem => record,
  PhysicalItem: (record: Infer<typeof P.PhysicalItem>): T.PhysicalItemRecord => record,
  DatasetMetadata: (record: Infer<typeof P.DatasetMetadata>): T.DatasetMetadata => record,
  SearchResult: (record: Infer<typeof P.SearchResult>): T.SearchResult => record,
  Vector: (record: Infer<typeof P.Vector>): T.VectorRecord => record,
  VectorWithGeoJson: (record: Infer<typeof P.VectorWithGeoJson>): T.VectorWithGeoJson => record,
  Udf: (record: Infer<typeof P.Udf>): T.UdfRecord => record,
  UdfWithEquation: (record: Infer<typeof P.UdfWithEquation>): T.UdfWithEquation => record,
  ApplyResult: (record: Infer<typeof P.ApplyResult>): T.ApplyResult => record,
  SubProject: (record: Infer<typeof P.SubProject>): T.SubProject => record,
  SubProjectExport: (record: Infer<typeof P.SubProjectExport>): T.SubProjectExport => record,
};
