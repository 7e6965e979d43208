/**
 * The Climate Risk tab drawn from manifest.xml above the grid (plain DOM): the CustomTab's groups,
 * each button with its 32 px icon, label and supertip, enabled as Office.ribbon.requestUpdate last
 * said. A click runs the action the manifest's ExecuteFunction names, through the function the page
 * associated with it; a key combination of shortcuts.json runs its action the same way, unless
 * the focus is in the pane (Office on the web ignores add-in shortcuts there, and so does this).
 */
import type { OfficeCommandsStandIn } from "./office-commands";
import { HARNESS_TEST_IDS } from "./test-ids";

/** One button as the manifest declares it. */
export interface DrawnButton {
  controlId: string;
  label: string;
  tip: string;
  icon: string;
  action: string;
}

/** The tab as the manifest declares it. */
export interface DrawnTab {
  label: string;
  groups: { id: string; label: string; buttons: DrawnButton[] }[];
}

/** A shortcut of shortcuts.json. */
export interface DrawnShortcut {
  action: string;
  key: string;
}

/** The path part of a manifest URL, so the page's own server answers it (the manifest names localhost:3000). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

const byTag = (parent: Element | Document, tag: string) => [...parent.getElementsByTagNameNS("*", tag)];

/**
 * The manifest's resources (Images, Urls, Strings) by id, as Office resolves them for `locale`:
 * the Override whose Locale is that locale (compared without case, as culture names are), else
 * the DefaultValue ("Localization for Office Add-ins", "Control localization from the manifest").
 */
export function manifestResources(doc: Document, locale = "en-US"): Map<string, string> {
  const resource = new Map<string, string>();
  for (const tag of ["Image", "Url", "String"])
    for (const element of byTag(doc, tag)) {
      const id = element.getAttribute("id");
      if (!id) continue;
      const override = byTag(element, "Override").find(
        (o) => o.getAttribute("Locale")?.toLowerCase() === locale.toLowerCase(),
      );
      resource.set(id, (override ?? element).getAttribute(override ? "Value" : "DefaultValue") ?? "");
    }
  return resource;
}

/** The custom functions' metadata URL for `locale` (the page's own path: functions.de.json in German). */
export function metadataUrlOf(xml: string, locale = "en-US"): string {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const point = byTag(doc, "ExtensionPoint").find((e) => e.getAttribute("xsi:type") === "CustomFunctions");
  const resid = point ? byTag(point, "Metadata")[0]?.getElementsByTagNameNS("*", "SourceLocation")[0] : undefined;
  const url = manifestResources(doc, locale).get(resid?.getAttribute("resid") ?? "");
  return url ? pathOf(url).replace(/^\//, "") : "functions.json";
}

/** Reads the CustomTab of manifest.xml text (resids resolved through its Resources, for `locale`). */
export function parseManifestTab(xml: string, locale = "en-US"): DrawnTab {
  const doc = new DOMParser().parseFromString(xml, "application/xml");
  const resource = manifestResources(doc, locale);
  const resid = (element: Element | undefined) => resource.get(element?.getAttribute("resid") ?? "") ?? "";
  const child = (parent: Element, tag: string) => byTag(parent, tag).find((e) => e.parentElement === parent);
  const tab = byTag(doc, "CustomTab")[0];
  if (!tab) throw new Error("manifest.xml has no CustomTab");
  return {
    label: resid(child(tab, "Label")),
    groups: byTag(tab, "Group").map((group) => ({
      id: group.getAttribute("id") ?? "",
      label: resid(child(group, "Label")),
      buttons: byTag(group, "Control").map((control) => {
        const icon = byTag(control, "Image").find((image) => image.getAttribute("size") === "32");
        return {
          controlId: control.getAttribute("id") ?? "",
          label: resid(child(control, "Label")),
          tip: resid(byTag(control, "Description")[0]),
          icon: pathOf(resid(icon)),
          action: byTag(control, "FunctionName")[0]?.textContent?.trim() ?? "",
        };
      }),
    })),
  };
}

/** The combination a key event makes, in shortcuts.json's spelling ("Ctrl+Alt+Shift+1"). */
export function combinationOf(event: KeyboardEvent): string | undefined {
  const key = /^Digit(\d)$/.exec(event.code)?.[1] ?? /^Key([A-Z])$/.exec(event.code)?.[1];
  if (!key) return undefined;
  const parts = [event.ctrlKey ? "Ctrl" : "", event.altKey ? "Alt" : "", event.shiftKey ? "Shift" : ""].filter(Boolean);
  return parts.length > 0 ? [...parts, key].join("+") : undefined;
}

/** Draws the tab into `container` and wires clicks and shortcuts to the stand-in's actions. */
export class RibbonView {
  private readonly buttons = new Map<string, HTMLButtonElement>();

  constructor(
    private readonly container: HTMLElement,
    private readonly tab: DrawnTab,
    private readonly shortcuts: readonly DrawnShortcut[],
    private readonly office: OfficeCommandsStandIn,
    private readonly onProblem: (text: string) => void,
  ) {
    this.draw();
    office.onRibbonChange(() => this.refreshEnabled());
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  /** Clicks a button as the analyst would (by control id or label). */
  click(controlIdOrLabel: string): Promise<void> {
    const button = this.find(controlIdOrLabel);
    if (!button) throw new Error(`No button "${controlIdOrLabel}" on the ${this.tab.label} tab`);
    if (!this.office.isEnabled(button.controlId)) throw new Error(`The button "${button.label}" is disabled`);
    return this.office.invoke(button.action, "click");
  }

  /** The drawn button with this control id or label. */
  find(controlIdOrLabel: string): DrawnButton | undefined {
    return this.tab.groups
      .flatMap((g) => g.buttons)
      .find((b) => b.controlId === controlIdOrLabel || b.label === controlIdOrLabel);
  }

  private draw(): void {
    this.container.replaceChildren();
    const title = document.createElement("div");
    title.className = "ribbon-tab";
    title.textContent = this.tab.label;
    title.setAttribute("role", "tab");
    title.setAttribute("aria-selected", "true");
    const strip = document.createElement("div");
    strip.className = "ribbon-groups";
    strip.setAttribute("role", "toolbar");
    strip.setAttribute("aria-label", `${this.tab.label} tab (drawn from manifest.xml)`);
    for (const group of this.tab.groups) {
      const box = document.createElement("div");
      box.className = "ribbon-group";
      box.dataset.testid = HARNESS_TEST_IDS.ribbonGroup(group.id);
      const row = document.createElement("div");
      row.className = "ribbon-buttons";
      for (const spec of group.buttons) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "ribbon-button";
        button.dataset.testid = HARNESS_TEST_IDS.ribbonButton(spec.controlId);
        const shortcut = this.shortcuts.find((s) => s.action === spec.action)?.key;
        button.title = `${spec.label}\n${spec.tip}${shortcut ? `\nShortcut: ${shortcut}` : ""}`;
        const icon = document.createElement("img");
        icon.src = spec.icon;
        icon.alt = "";
        icon.width = 32;
        icon.height = 32;
        const label = document.createElement("span");
        label.textContent = spec.label;
        button.append(icon, label);
        button.addEventListener("click", () => {
          this.click(spec.controlId).catch((error: unknown) => this.onProblem(String(error)));
        });
        this.buttons.set(spec.controlId, button);
        row.appendChild(button);
      }
      const caption = document.createElement("div");
      caption.className = "ribbon-group-label";
      caption.textContent = group.label;
      box.append(row, caption);
      strip.appendChild(box);
    }
    this.container.append(title, strip);
    this.refreshEnabled();
  }

  private refreshEnabled(): void {
    for (const [controlId, button] of this.buttons) button.disabled = !this.office.isEnabled(controlId);
  }

  private onKey(event: KeyboardEvent): void {
    const combination = combinationOf(event);
    if (!combination) return;
    const shortcut = this.shortcuts.find((s) => s.key === combination);
    if (!shortcut) return;
    // Office on the web: "custom keyboard shortcuts don't work when the task pane has focus".
    if (event.target instanceof Node && document.getElementById("taskpane-panel")?.contains(event.target)) return;
    event.preventDefault();
    this.office.invoke(shortcut.action, "shortcut").catch((error: unknown) => this.onProblem(String(error)));
  }
}

/**
 * Fetches manifest.xml and shortcuts.json from the page's server and draws the tab in `locale`'s
 * words (the manifest's Overrides, as Office picks them for its UI language).
 */
export async function loadRibbon(
  container: HTMLElement,
  office: OfficeCommandsStandIn,
  onProblem: (text: string) => void,
  locale = "en-US",
): Promise<RibbonView> {
  const [manifest, shortcuts] = await Promise.all([
    fetch("manifest.xml").then((r) => {
      if (!r.ok) throw new Error(`manifest.xml: HTTP ${r.status}`);
      return r.text();
    }),
    fetch("shortcuts.json").then((r) => {
      if (!r.ok) throw new Error(`shortcuts.json: HTTP ${r.status}`);
      return r.json() as Promise<{ shortcuts: { action: string; key: { default: string } }[] }>;
    }),
  ]);
  return new RibbonView(
    container,
    parseManifestTab(manifest, locale),
    shortcuts.shortcuts.map((s) => ({ action: s.action, key: s.key.default })),
    office,
    onProblem,
  );
}
