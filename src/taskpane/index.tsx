/**
 * Task pane bootstrap: tiny on purpose. The functions chunk has already registered RISK.* by the
 * time this runs; the React UI is a separate chunk loaded only once Office is ready.
 */
Office.onReady(async (info) => {
  const root = document.getElementById("root");
  if (!root) return;
  const { mountTaskpane } = await import(/* webpackChunkName: "taskpane-ui" */ "./app");
  mountTaskpane(root, { host: info.host ?? null });
});
