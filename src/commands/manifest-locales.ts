/**
 * The manifest's words in every language: which catalog message each string resource of
 * manifest.xml shows, the locales Office is given an Override for, and the pure rewrite that
 * writes those Overrides (and the shortcut names' resource files) from the catalogs.
 * `npm run i18n:manifest` runs the rewrite; test/manifest.test.ts fails when manifest.xml or the
 * shortcut files differ from what the catalogs say.
 *
 * Office picks an Override whose Locale is the UI language ("Localize your Office Add-in for
 * multiple languages", https://learn.microsoft.com/office/dev/add-ins/develop/localization,
 * "Control localization from the manifest"), which recommends "separate `Override` elements for
 * each area" (de-de, de-at): "the language name alone ... isn't supported across all combinations
 * of Office client applications and platforms". So each region is listed.
 */
import { RIBBON_COMMANDS, RIBBON_GROUPS, type CommandId } from "./catalogue";
import { LANGUAGES, type Language } from "../i18n/languages";
import type { MessageId } from "../i18n/messages";

/** The Office locales the manifest overrides, and the catalog each shows. */
export const MANIFEST_LOCALES: Readonly<Record<string, Exclude<Language, "en">>> = {
  "de-DE": "de",
  "de-AT": "de",
  "de-CH": "de",
  "fr-FR": "fr",
  "fr-BE": "fr",
  "fr-CA": "fr",
  "fr-CH": "fr",
};

/** Manifest limits (XML manifest reference): ShortStrings and DisplayName 125 characters. */
export const SHORT_STRING_MAX = 125;
/** Manifest limits: LongStrings and Description 250 characters. */
export const LONG_STRING_MAX = 250;

/** The part of a Control or Group id after "ClimateRisk." ("ClimateRisk.RefreshSelection" → "RefreshSelection"). */
function localName(controlId: string): string {
  return controlId.replace(/^ClimateRisk\./, "");
}

/** Each string resource id of manifest.xml (bt:String) to the message it shows. */
export function manifestStringIds(): Map<string, MessageId> {
  const ids = new Map<string, MessageId>([
    ["GetStarted.Title", "manifest.getStarted.title"],
    ["GetStarted.Description", "manifest.getStarted.description"],
    ["Group.Label", "manifest.homeGroup.label"],
    ["TaskpaneButton.Label", "manifest.taskpaneButton.label"],
    ["TaskpaneButton.Tooltip", "manifest.taskpaneButton.tip"],
    ["Tab.Label", "ribbon.tab"],
  ]);
  for (const group of RIBBON_GROUPS) ids.set(`Group.${localName(group.controlId)}`, `ribbon.group.${group.id}`);
  for (const command of RIBBON_COMMANDS) {
    ids.set(`Cmd.${localName(command.controlId)}.Label`, `ribbon.command.${command.id}.label`);
    ids.set(`Cmd.${localName(command.controlId)}.Tip`, `ribbon.command.${command.id}.tip`);
  }
  return ids;
}

/** The add-in's own elements with a DefaultValue (not resources) to the message they show. */
export const MANIFEST_ELEMENT_IDS: Readonly<Record<"DisplayName" | "Description", MessageId>> = {
  DisplayName: "manifest.displayName",
  Description: "manifest.description",
};

/** The resource id of the functions metadata URL, overridden per locale with functions.<language>.json. */
export const METADATA_URL_ID = "Functions.Metadata.Url";

/** The shortcut name's resource token in shortcuts.json ("${resource.refreshSelection_name}"). */
export function shortcutToken(action: CommandId | string): string {
  return `${action}_name`;
}

type Catalogs = Readonly<Record<Language, Readonly<Record<MessageId, string>>>>;

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** One element with its DefaultValue and an Override per locale whose text differs from it. */
function element(
  indent: string,
  tag: string,
  attributes: string,
  english: string,
  perLocale: (locale: string) => string,
): string {
  const overrideTag = tag.startsWith("bt:") ? "bt:Override" : "Override";
  const overrides = Object.keys(MANIFEST_LOCALES)
    .map((locale) => [locale, perLocale(locale)] as const)
    .filter(([, text]) => text !== english)
    .map(([locale, text]) => `${indent}  <${overrideTag} Locale="${locale}" Value="${escapeXml(text)}"/>`);
  const open = `${indent}<${tag}${attributes} DefaultValue="${escapeXml(english)}"`;
  return overrides.length === 0 ? `${open}/>` : `${open}>\n${overrides.join("\n")}\n${indent}</${tag}>`;
}

/**
 * manifest.xml with every string resource, the display name and the description taken from the
 * catalogs (English as DefaultValue, the others as Overrides), the functions metadata URL
 * overridden per locale, and the shortcut names' resource file named on ExtendedOverrides.
 */
export function localizeManifest(xml: string, catalogs: Catalogs): string {
  const stringIds = manifestStringIds();
  const text = (locale: string, id: MessageId) => catalogs[MANIFEST_LOCALES[locale]][id];
  let out = xml.replace(
    /^([ \t]*)<bt:(String|Url) id="([^"]+)" DefaultValue="([^"]*)"\s*(?:\/>|>[\s\S]*?<\/bt:\2>)/gm,
    (whole, indent: string, kind: string, resid: string, defaultValue: string) => {
      if (kind === "Url") {
        if (resid !== METADATA_URL_ID) return whole;
        const url = defaultValue.replace(/&amp;/g, "&");
        return element(indent, "bt:Url", ` id="${resid}"`, url, (locale) =>
          url.replace(/functions\.json$/, `functions.${MANIFEST_LOCALES[locale]}.json`),
        );
      }
      const id = stringIds.get(resid);
      if (!id) return whole;
      return element(indent, "bt:String", ` id="${resid}"`, catalogs.en[id], (locale) => text(locale, id));
    },
  );
  out = out.replace(
    /^([ \t]*)<(DisplayName|Description) DefaultValue="([^"]*)"\s*(?:\/>|>[\s\S]*?<\/\2>)/gm,
    (_whole, indent: string, tag: "DisplayName" | "Description") => {
      const id = MANIFEST_ELEMENT_IDS[tag];
      return element(indent, tag, "", catalogs.en[id], (locale) => text(locale, id));
    },
  );
  return out.replace(
    /^([ \t]*)<ExtendedOverrides Url="([^"]+)\/shortcuts\.json"[^>]*?(?:\/>|>[\s\S]*?<\/ExtendedOverrides>)/m,
    (_whole, indent: string, base: string) => extendedOverrides(indent, base),
  );
}

/** The value of the `locale` token where no Override matches: English (the defaults in shortcuts.json). */
export const SHORTCUT_RESOURCES_DEFAULT: Language = "en";

/**
 * The ExtendedOverrides element: shortcuts.json, and a resources file per language through a
 * `${token.locale}` URL template. Microsoft's keyboard-shortcuts page ("Create a localization
 * resource file", https://learn.microsoft.com/office/dev/add-ins/design/keyboard-shortcuts;
 * corrected in January 2026) says a localization resource file carries "one additional locale",
 * its tokens at the top level; the ExtendedOverrides reference
 * (https://learn.microsoft.com/javascript/api/manifest/extendedoverrides) says ResourcesUrl "could
 * be a URL template that uses tokens defined by the Tokens element", and the Token reference
 * (https://learn.microsoft.com/javascript/api/manifest/token) shows a `LocaleToken` whose
 * Overrides map the host's locale to the value put in the URL.
 */
function extendedOverrides(indent: string, base: string): string {
  const inner = `${indent}  `;
  const overrides = Object.entries(MANIFEST_LOCALES).map(
    ([locale, language]) => `${inner}    <Override Locale="${locale}" Value="${language}"/>`,
  );
  return [
    `${indent}<ExtendedOverrides Url="${base}/shortcuts.json" ResourcesUrl="${base}/shortcuts.resources.\${token.locale}.json">`,
    `${inner}<Tokens>`,
    `${inner}  <Token Name="locale" DefaultValue="${SHORTCUT_RESOURCES_DEFAULT}" xsi:type="LocaleToken">`,
    ...overrides,
    `${inner}  </Token>`,
    `${inner}</Tokens>`,
    `${indent}</ExtendedOverrides>`,
  ].join("\n");
}

/** shortcuts.json's shape (the manifest's ExtendedOverrides file). */
export interface ShortcutsFile {
  actions: { id: string; type: string; name: string }[];
  shortcuts: { action: string; key: { default: string; mac: string } }[];
  resources?: { default: Record<string, { value: string; comment?: string }> };
}

/** One language's shortcut names: shortcuts.resources.<language>.json, a token to its text. */
export type ShortcutResources = Record<string, { value: string; comment: string }>;

/**
 * shortcuts.json with each action's name a resource token whose English text it carries itself
 * (Office reads the defaults from this file, so English hosts never fetch a resources file), and
 * one resources file per language, as Microsoft's keyboard-shortcuts page shows one ("Create a
 * localization resource file": the tokens at the top level, each a value and a comment); the
 * manifest's `${token.locale}` picks the file (see extendedOverrides above). English has one too,
 * the token's default, so every URL the template can make names a file.
 */
export function localizeShortcuts(
  file: ShortcutsFile,
  catalogs: Catalogs,
): { shortcuts: ShortcutsFile; resources: Record<Language, ShortcutResources> } {
  const namesIn = (language: Language): ShortcutResources =>
    Object.fromEntries(
      file.actions.map((action) => [
        shortcutToken(action.id),
        {
          value: catalogs[language][`shortcut.${action.id}` as MessageId],
          comment: `The name Office shows for the ${action.id} shortcut.`,
        },
      ]),
    );
  const shortcuts: ShortcutsFile = {
    actions: file.actions.map((action) => ({ ...action, name: `\${resource.${shortcutToken(action.id)}}` })),
    shortcuts: file.shortcuts,
    resources: { default: namesIn("en") },
  };
  const resources = Object.fromEntries(LANGUAGES.map((language) => [language, namesIn(language)]));
  return { shortcuts, resources: resources as Record<Language, ShortcutResources> };
}
