import type { CallOptions, Transport } from "../http";
import type { Project } from "../types";

/** The projects the API key may use (only the key header is sent). */
export class Projects {
  constructor(private readonly transport: Transport) {}

  list(call?: CallOptions): Promise<Project[]> {
    return this.transport.send(
      { operation: "projects.list", method: "GET", area: "base", path: "/projects/", responseType: "json" },
      call,
    );
  }
}
