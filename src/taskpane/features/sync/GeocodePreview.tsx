import { Badge, mergeClasses, Text } from "@fluentui/react-components";
import type { PreviewRow } from "./model/geocode/preview";
import { usePaneStyles } from "../../ui/styles";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";
import { formatPoint } from "./format-point";

/**
 * The preview of what a geocoder found, row by row (a list: the pane is narrow), before anything
 * is written: the address, the place found, lat/lng, the precision, a confidence only where the
 * geocoder gave one, the flags (ambiguous, low confidence, coarser than street) and the hazards
 * whose grid is finer than the point's precision. Text from the geocoder is shown as text (React
 * escapes it).
 */
export function GeocodePreview(props: { rows: readonly PreviewRow[]; cellsFrom: string | undefined }) {
  const css = usePaneStyles();
  const { t, format } = useI18n();
  return (
    <div data-testid={TEST_IDS.sync.geocodePreview}>
      <ul className={css.scrollingList}>
        {props.rows.map((row) => (
          <li
            key={row.index}
            className={css.listItem}
            data-testid={TEST_IDS.sync.geocodePreviewRow}
            data-row={row.sheetRow}
            data-flags={row.flags.join(",")}
          >
            <div className={css.breakWord}>
              <Text weight="semibold">{t("sync.geocode.row", { row: row.sheetRow })}</Text> · {row.address}
            </div>
            {row.place ? <FoundLine row={{ ...row, place: row.place }} /> : null}
            {row.place ? null : (
              <Text size={200} data-testid={TEST_IDS.sync.geocodeMissing}>
                {row.missing ? format(row.missing) : null}
              </Text>
            )}
          </li>
        ))}
      </ul>
      {props.cellsFrom ? (
        <Text size={200} data-testid={TEST_IDS.sync.geocodeCellsFrom}>
          {t("sync.geocode.cellsFrom", { portfolio: props.cellsFrom })}
        </Text>
      ) : (
        <Text size={200} data-testid={TEST_IDS.sync.geocodeCellsUnknown}>
          {t("sync.geocode.cellsUnknown")}
        </Text>
      )}
    </div>
  );
}

/** The place found for one row: where, how precise, how sure, and the flags. */
function FoundLine(props: { row: PreviewRow & { place: NonNullable<PreviewRow["place"]> } }) {
  const css = usePaneStyles();
  const i18n = useI18n();
  const { t } = i18n;
  const { row } = props;
  return (
    <>
      <div className={css.breakWord}>
        <Text size={200}>
          {t("sync.geocode.found", { label: row.place.label, point: formatPoint(row.place, i18n, 5) })}
        </Text>
      </div>
      <div className={mergeClasses(css.itemRow, css.wrapCentered)}>
        <Badge size="small" appearance="outline" data-testid={TEST_IDS.sync.geocodePrecision}>
          {row.place.precision}
        </Badge>
        {row.place.confidence === undefined ? null : (
          <Text size={200}>
            {t("sync.geocode.confidence", {
              value: i18n.number(row.place.confidence, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
            })}
          </Text>
        )}
        {row.flags.map((flag) => (
          <Badge key={flag} size="small" appearance="tint" color="warning">
            {flag}
          </Badge>
        ))}
      </div>
      {row.tooCoarseFor.length > 0 ? (
        <Text size={200} data-testid={TEST_IDS.sync.geocodeTooCoarse}>
          {t("sync.geocode.tooCoarseFor", { hazards: row.tooCoarseFor.join(", ") })}
        </Text>
      ) : null}
    </>
  );
}
