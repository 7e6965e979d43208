/** Limits the task pane enforces before anything is sent to the service. */

/** At most this many assets per portfolio (docs/service.md#portfolios-and-assets). */
export const MAX_ASSETS = 5_000;

/** Longest entity id or entity name accepted. The service's own limit is not documented; this is ours. */
export const MAX_NAME_LENGTH = 255;

/** Longest label value accepted (our limit, as above). */
export const MAX_LABEL_LENGTH = 1_000;
