import { Button, Input, Field, Radio, RadioGroup, Text } from "@fluentui/react-components";
import { useEffect, useState } from "react";
import {
  forgetGeocoder,
  isPublicNominatim,
  loadGeocoder,
  PUBLIC_NOMINATIM_HOST,
  saveGeocoder,
  type GeocoderSettings,
} from "../../../shared/geocoder-connection";
import { useTask } from "../../ui/hooks/use-task";
import { ErrorNotice } from "../../ui/ErrorNotice";
import { Row, Stack } from "../../ui/layout";
import { TEST_IDS } from "../../ui/test-ids";
import { useI18n } from "../../ui/i18n";

/** This section's test ids. */
const IDS = TEST_IDS.geocoder;

const EMPTY: GeocoderSettings = { kind: "pelias", url: "", apiKey: "", email: "", perSecond: 5, concurrency: 2 };

/**
 * The geocoder the sync pane may send addresses to: none is preset. Its format (Pelias or
 * Nominatim), URL (https unless this machine), key (a password field, kept by the connection store
 * outside the workbook and sent in a header, never in a URL), contact email (Nominatim's `email=`)
 * and pace. The public nominatim.openstreetmap.org is held to its usage policy.
 */
export function GeocoderSettingsPanel() {
  const { t } = useI18n();
  const [form, setForm] = useState<GeocoderSettings>(EMPTY);
  const [saved, setSaved] = useState<GeocoderSettings | undefined>(undefined);
  const save = useTask<GeocoderSettings | undefined>();
  useEffect(() => {
    void loadGeocoder().then((stored) => {
      setSaved(stored);
      if (stored) setForm({ ...stored, apiKey: stored.apiKey ?? "", email: stored.email ?? "" });
    });
  }, []);
  const set = (key: keyof GeocoderSettings) => (_: unknown, data: { value: string }) =>
    setForm((f) => ({ ...f, [key]: key === "perSecond" || key === "concurrency" ? Number(data.value) : data.value }));
  const store = (work: () => Promise<GeocoderSettings | undefined>) =>
    save.start(async () => {
      const result = await work();
      setSaved(result);
      if (!result) setForm(EMPTY);
      return result;
    });

  return (
    <Stack>
      <Text weight="semibold">{t("geocoder.title")}</Text>
      <Text size={200} data-testid={IDS.saved}>
        {saved ? t("geocoder.saved", { host: new URL(saved.url).host, kind: saved.kind }) : t("geocoder.none")}
      </Text>
      <RadioGroup
        layout="horizontal"
        value={form.kind}
        onChange={(_, d) => setForm((f) => ({ ...f, kind: d.value as GeocoderSettings["kind"] }))}
        aria-label={t("geocoder.format")}
      >
        <Radio value="pelias" label="Pelias" data-testid={IDS.kindPelias} />
        <Radio value="nominatim" label="Nominatim" data-testid={IDS.kindNominatim} />
      </RadioGroup>
      <Field label={t("geocoder.url.label")} hint={t("geocoder.url.hint")}>
        <Input value={form.url} onChange={set("url")} type="url" data-testid={IDS.url} />
      </Field>
      <Field label={t("geocoder.key.label")} hint={t("geocoder.key.hint")}>
        <Input
          value={form.apiKey ?? ""}
          onChange={set("apiKey")}
          type="password"
          autoComplete="off"
          data-testid={IDS.key}
        />
      </Field>
      {form.kind === "nominatim" ? (
        <Field label={t("geocoder.email.label")} hint={t("geocoder.email.hint")}>
          <Input value={form.email ?? ""} onChange={set("email")} type="email" data-testid={IDS.email} />
        </Field>
      ) : null}
      <Row wrap>
        <Field label={t("geocoder.rate")}>
          <Input value={String(form.perSecond)} onChange={set("perSecond")} type="number" data-testid={IDS.rate} />
        </Field>
        <Field label={t("geocoder.concurrency")}>
          <Input
            value={String(form.concurrency)}
            onChange={set("concurrency")}
            type="number"
            data-testid={IDS.concurrency}
          />
        </Field>
      </Row>
      {isPublicNominatim(form) ? (
        <Text size={200} data-testid={IDS.publicPolicy}>
          {t("geocoder.publicPolicy", { host: PUBLIC_NOMINATIM_HOST })}
        </Text>
      ) : null}
      <Row wrap>
        <Button onClick={() => store(() => saveGeocoder(form))} disabled={save.running} data-testid={IDS.save}>
          {t("geocoder.save")}
        </Button>
        <Button
          onClick={() => store(async () => (await forgetGeocoder(), undefined))}
          disabled={save.running || !saved}
          data-testid={IDS.forget}
        >
          {t("geocoder.forget")}
        </Button>
      </Row>
      {save.state.status === "failed" ? <ErrorNotice error={save.state.error} testId={IDS.saveError} /> : null}
    </Stack>
  );
}
