import { segment, type CallOptions, type Transport } from "../http";
import type { CreateSubProjectInput, SubProject, SubProjectExport } from "../types";

/** Under the nature URL, with no project header unless a call names a superproject. */
const NO_PROJECT = { area: "nature", project: false } as const;

/** Under the nature URL: nature-based carbon sub-projects and their durability summaries. */
export class Nature {
  constructor(private readonly transport: Transport) {}

  /** Names of the top-level projects the key may use (only the key header is sent). */
  superprojects(call?: CallOptions): Promise<string[]> {
    return this.transport.get("nature.superprojects", "/superprojects", call, NO_PROJECT);
  }

  /** Sub-projects of one superproject (its name goes in the project header). */
  subprojects(superproject: string, call?: CallOptions): Promise<SubProject[]> {
    return this.transport.get("nature.subprojects", "/projects", call, { area: "nature", project: superproject });
  }

  /**
   * Creates a sub-project named `projectName` in `superproject` (the header names the superproject,
   * the body's `projectName` the new sub-project: published guide). ConflictError when the
   * superproject already has a sub-project of that name.
   */
  createSubproject(input: CreateSubProjectInput, call?: CallOptions): Promise<SubProject> {
    const { superproject, ...body } = input;
    return this.transport.post("nature.createSubproject", "/projects", call, {
      area: "nature",
      project: superproject,
      json: body,
    });
  }

  /** Geometry, metadata and summary numbers of one sub-project. */
  exportSubproject(id: string, call?: CallOptions): Promise<SubProjectExport> {
    return this.transport.get("nature.exportSubproject", `/projects/${segment(id)}/export`, call, NO_PROJECT);
  }
}
