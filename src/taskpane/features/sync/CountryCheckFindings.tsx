import { MessageBar, MessageBarBody, MessageBarTitle, Text, makeStyles } from "@fluentui/react-components";
import { useState } from "react";
import { useServices } from "../../ui/services";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { ProblemList } from "./ProblemList";
import { CellChangesOffer } from "./CellChangesTable";
import { applyCountryFixes, type CountryFindings } from "./country-check-actions";
import { ORIGINALS_HEADER, type CountryCheck, type CountryFindingKind } from "./model/country-check";
import { selectProblemCell } from "./sync-actions";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.sync;

const useStyles = makeStyles({
  column: { display: "flex", flexDirection: "column", gap: "6px" },
  actions: { display: "flex", gap: "8px", marginTop: "6px", flexWrap: "wrap" },
});

/**
 * The points checked against their row's country: how many were checked and lay inside; the ones
 * outside, with their cells; the swap and sign fixes previewed cell by cell (the original kept in
 * the column beside the range), written only on "Fix"; the ones within the tolerance of a border or
 * coast (not checked) and the rows whose country has no outline or names none. Test ids:
 * sync-country-summary, sync-country-outside, sync-country-fixes (rows sync-country-fixes-row,
 * button sync-country-fix), sync-country-fixed, sync-country-near, sync-country-unchecked,
 * sync-country-unavailable (the outlines did not load), sync-country-error.
 */
export function CountryCheckFindings(props: CountryFindings) {
  const styles = useStyles();
  const { t } = useI18n();
  const { run } = useServices();
  const [error, setError] = useState<unknown>(undefined);
  const select = (address: string) => run && void selectProblemCell(run, address).catch(setError);
  const { countryCheck: check, countryCheckError } = props;
  if (countryCheckError)
    return (
      <Text data-testid={IDS.countryUnavailable}>{t("sync.country.unavailable", { reason: countryCheckError })}</Text>
    );
  if (!check) return null;
  const of = (kind: CountryFindingKind) => check.findings.filter((f) => f.kind === kind).map((f) => f.problem);
  const outside = of("outside");
  const near = of("near-edge");
  const unchecked = [...of("no-outline"), ...of("not-a-country")];
  return (
    <div className={styles.column}>
      <Text size={200} data-testid={IDS.countrySummary}>
        {t("sync.country.summary", {
          checked: check.checked,
          tolerance: check.toleranceKm,
          inside: check.inside,
          outside: outside.length,
          near: near.length,
        })}
      </Text>
      {outside.length > 0 ? (
        <ProblemList
          problems={outside}
          intent="warning"
          title={t("sync.country.outside", { count: outside.length })}
          testId={IDS.countryOutside.id}
          onSelect={select}
        />
      ) : null}
      <FixOffer check={check} onError={setError} />
      {(
        [
          [near, t("sync.country.near", { count: near.length, tolerance: check.toleranceKm }), IDS.countryNear.id],
          [unchecked, t("sync.country.unchecked", { count: unchecked.length }), IDS.countryUnchecked.id],
        ] as const
      ).map(([problems, title, testId]) =>
        problems.length > 0 ? (
          <ProblemList key={testId} problems={problems} intent="info" title={title} testId={testId} onSelect={select} />
        ) : null,
      )}
      {error ? <ErrorNotice error={error} testId={IDS.countryError} /> : null}
    </div>
  );
}

/** The swap and sign fixes, previewed cell by cell; nothing changes until "Fix". */
function FixOffer(props: { check: CountryCheck; onError: (error: unknown) => void }) {
  const { t } = useI18n();
  const [fixed, setFixed] = useState<string | undefined>(undefined);
  const fixes = props.check.findings.flatMap((f) => (f.fix ? [f.fix] : []));
  if (fixed) return <Text data-testid={IDS.countryFixed}>{fixed}</Text>;
  if (fixes.length === 0) return null;
  const column = props.check.originalsHeader.cell.replace(/\d+$/, "");
  return (
    <MessageBar intent="info" layout="multiline" data-testid={IDS.countryFixes}>
      <MessageBarBody>
        <MessageBarTitle>{t("sync.country.fixTitle", { count: fixes.length })}</MessageBarTitle>
        <div>{t("sync.country.originals", { column, header: ORIGINALS_HEADER })}</div>
        <CellChangesOffer
          table={{
            label: t("sync.country.tableLabel"),
            columns: [t("sync.conversions.before"), t("sync.conversions.after")],
            rows: fixes.flatMap((f) => [f.lat, f.lng, f.original]),
            rowTestId: IDS.countryFixesRow,
          }}
          buttonTestId={IDS.countryFix}
          buttonText={t("sync.country.fix", { count: fixes.length })}
          apply={(runner) => applyCountryFixes(runner, props.check)}
          done={(n) => setFixed(t("sync.country.fixed", { count: n, column }))}
          onError={props.onError}
        />
      </MessageBarBody>
    </MessageBar>
  );
}
