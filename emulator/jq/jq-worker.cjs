/*
 * jq sandbox worker (plain CommonJS so it runs the same under tsx, jest and node).
 * Loads jq-web (real jq 1.7.1) once, then evaluates jobs {id, input, program, maxOutput}.
 * The parent enforces the time limit by terminating this worker; the memory limit comes from
 * the worker's resourceLimits; the output cap is checked here.
 */
"use strict";
const { parentPort } = require("node:worker_threads");

(async () => {
  const jq = await require("jq-web");
  parentPort.on("message", (job) => {
    try {
      const output = jq.raw(job.input, job.program, ["-c"]);
      if (output.length > job.maxOutput) {
        parentPort.postMessage({ id: job.id, ok: false, kind: "output", error: `output of ${output.length} characters exceeds the limit of ${job.maxOutput}` });
      } else {
        parentPort.postMessage({ id: job.id, ok: true, output });
      }
    } catch (e) {
      const stderr = e && typeof e.stderr === "string" ? e.stderr.trim() : "";
      parentPort.postMessage({ id: job.id, ok: false, kind: "jq", error: stderr || String((e && e.message) || e) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => {
  parentPort.postMessage({ ready: false, error: String(e) });
});
