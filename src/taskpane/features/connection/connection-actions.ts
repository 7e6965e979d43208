import { RiskClient } from "../../../api/client";
import type { ConnectionConfig } from "../../../api/config";
import { explainNoAnswer, probeUrls } from "../../../api/no-answer";
import type { Project } from "../../../api/types";

/** What "Test connection" found out. */
export interface ConnectionCheck {
  /** The projects the key may use (GET /projects/). */
  projects: Project[];
  /** Whether the configured project is among them (by name or id); true when none is configured. */
  projectKnown: boolean;
  /** The nature superprojects, or the error that the nature URL gave (the base URL may work without it). */
  nature: { ok: true; superprojects: string[] } | { ok: false; error: unknown };
}

/**
 * Tests a connection without saving it: lists the projects (the key is checked by the base URL)
 * and the nature superprojects (the nature URL is checked separately, so one bad URL is named).
 * Throws the base URL's error (ConfigurationError before anything is sent, UnauthorizedError for a
 * refused key; when no answer came, explainNoAnswer's: CorsRefusedError when the service is
 * reachable but does not answer this add-in's origin, else NetworkError or TimeoutError). The
 * nature URL's error is explained the same way.
 */
export async function testConnection(
  config: ConnectionConfig,
  options: { signal?: AbortSignal } = {},
): Promise<ConnectionCheck> {
  const client = probeClient(config);
  const call = { signal: options.signal };
  const urls = probeUrls(client.connection);
  const [projects, nature] = await Promise.all([
    client.projects.list(call).catch(async (error: unknown) => {
      throw await explainNoAnswer(error, urls.risk);
    }),
    client.nature.superprojects(call).then(
      (superprojects) => ({ ok: true as const, superprojects }),
      async (error: unknown) => ({
        ok: false as const,
        error: await explainNoAnswer(error, urls.nature),
      }),
    ),
  ]);
  const project = client.connection.project;
  const projectKnown =
    project === undefined || projects.some((p) => p.project_name === project || p.project_id === project);
  return { projects, projectKnown, nature };
}

/**
 * Lists the projects for the project picker (GET /projects/ needs only the key). Async so that
 * unusable settings (e.g. nothing configured yet) reject rather than throw in the caller's effect.
 */
export async function listProjects(
  config: ConnectionConfig,
  options: { signal?: AbortSignal } = {},
): Promise<Project[]> {
  return probeClient(config).projects.list({ signal: options.signal });
}

/** A client for trying settings the user is still editing: answers quickly rather than retrying long. */
function probeClient(config: ConnectionConfig): RiskClient {
  return new RiskClient(config, { timeoutMs: 15_000, maxRetries: 1 });
}
