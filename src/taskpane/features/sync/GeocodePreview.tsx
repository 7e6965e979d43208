import { Badge, Text } from "@fluentui/react-components";
import type { PreviewRow } from "./model/geocode/preview";
import { usePaneStyles } from "../../ui/styles";

/**
 * The preview of what a geocoder found, row by row, before anything is written: the address, the
 * place found, lat/lng, the precision, a confidence only where the geocoder gave one, the flags
 * (ambiguous, low confidence, coarser than street) and the hazards whose grid is finer than the
 * point's precision. Text from the geocoder is shown as text (React escapes it).
 */
export function GeocodePreview(props: { rows: readonly PreviewRow[]; cellsFrom: string | undefined }) {
  const css = usePaneStyles();
  return (
    <div className={css.scrollX} data-testid="geocode-preview">
      <table className={css.sampleTable}>
        <thead>
          <tr>
            {["Row", "Address", "Place found", "Lat, lng", "Precision", "Confidence", "Flags"].map((h) => (
              <th key={h} className={css.sampleHeader}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr
              key={row.index}
              data-testid="geocode-preview-row"
              data-row={row.sheetRow}
              data-flags={row.flags.join(",")}
            >
              <td className={css.sampleCell}>{row.sheetRow}</td>
              <td className={css.sampleCell}>{row.address}</td>
              {row.place ? (
                <>
                  <td className={css.sampleCell}>{row.place.label}</td>
                  <td className={css.sampleCell}>
                    {row.place.lat.toFixed(5)}, {row.place.lng.toFixed(5)}
                  </td>
                  <td className={css.sampleCell} data-testid="geocode-precision">
                    {row.place.precision}
                  </td>
                  <td className={css.sampleCell}>
                    {row.place.confidence === undefined ? "" : row.place.confidence.toFixed(2)}
                  </td>
                  <td className={css.sampleCell}>
                    {row.flags.map((flag) => (
                      <Badge key={flag} size="small" appearance="tint" color="warning" className={css.above4}>
                        {flag}
                      </Badge>
                    ))}
                    {row.tooCoarseFor.length > 0 ? (
                      <Text size={100} data-testid="geocode-too-coarse">
                        {" "}
                        too coarse for {row.tooCoarseFor.join(", ")}
                      </Text>
                    ) : null}
                  </td>
                </>
              ) : (
                <td className={css.sampleCell} colSpan={5} data-testid="geocode-missing">
                  {row.missing}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {props.cellsFrom ? (
        <Text size={200} data-testid="geocode-cells-from">
          Too coarse: the point may lie farther from the asset than a hazard's grid cell (sizes from {props.cellsFrom}
          &apos;s dataset metadata).
        </Text>
      ) : (
        <Text size={200} data-testid="geocode-cells-unknown">
          No portfolio has dataset metadata yet: which hazards each precision is too coarse for is shown once one
          exists.
        </Text>
      )}
    </div>
  );
}
