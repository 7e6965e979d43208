import type { ConnectionConfig } from "./config";
import { Transport, type TransportOptions } from "./http";
import { Compositions } from "./resources/compositions";
import { Datasets } from "./resources/datasets";
import { Nature } from "./resources/nature";
import { Portfolios } from "./resources/portfolios";
import { Projects } from "./resources/projects";
import { Search } from "./resources/search";

/**
 * The one client of the service, shared by the custom functions, the task pane, the tests and the
 * benchmarks. It knows nothing about its callers. Construction validates the connection (https
 * unless loopback) and throws ConfigurationError before anything is sent.
 */
export class RiskClient {
  readonly transport: Transport;
  readonly compositions: Compositions;
  readonly projects: Projects;
  readonly portfolios: Portfolios;
  readonly datasets: Datasets;
  readonly search: Search;
  readonly nature: Nature;

  constructor(connection: ConnectionConfig, options: TransportOptions = {}) {
    this.transport = new Transport(connection, options);
    this.compositions = new Compositions(this.transport);
    this.projects = new Projects(this.transport);
    this.portfolios = new Portfolios(this.transport);
    this.datasets = new Datasets(this.transport);
    this.search = new Search(this.transport);
    this.nature = new Nature(this.transport);
  }

  /** The validated connection this client talks to. */
  get connection(): ConnectionConfig {
    return this.transport.connection;
  }
}
