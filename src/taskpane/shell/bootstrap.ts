/**
 * Task pane bootstrap: tiny on purpose. The functions chunk has already registered RISK.* by the
 * time this runs; the React UI is a separate chunk loaded only once Office is ready.
 */
// onReady's own promise is not needed: the callback does the work. A chunk that fails to load
// (a dropped connection to the add-in's host) says so in the pane instead of leaving it blank.
void Office.onReady((info) => {
  const root = document.getElementById("root");
  if (!root) return;
  import(/* webpackChunkName: "taskpane-ui" */ "./mount").then(
    ({ mountTaskpane }) => mountTaskpane(root, { host: info.host ?? null }),
    (error: unknown) => {
      root.textContent = `The task pane could not load (${error instanceof Error ? error.message : String(error)}). Close and reopen it.`;
    },
  );
});
