import type { CallOptions, Transport } from "../http";
import type { Project } from "../types";

/** The projects the API key may use (only the key header is sent). */
export class Projects {
  constructor(private readonly transport: Transport) {}

  list(call?: CallOptions): Promise<Project[]> {
    return this.transport.get("projects.list", "/projects/", call, { project: false });
  }
}
