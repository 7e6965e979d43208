/*
 * jq sandbox worker (plain CommonJS so it runs the same under tsx, jest and node).
 * Loads jq-web (real jq 1.7.1) once, then evaluates jobs {id, input, program, maxOutput}.
 * The parent enforces the time limit by terminating this worker. Memory: the JS heap is bounded
 * by the worker's resourceLimits, and jq's own WebAssembly heap (outside those limits) by refusing
 * to grow it past workerData.maxWasmBytes. The output cap is checked here.
 */
"use strict";
const { parentPort, workerData } = require("node:worker_threads");

// jq-web grows its WebAssembly memory as jq allocates; refusing a growth makes jq's allocation
// fail, which ends the program. After that the engine's state is not trusted: the parent
// replaces this worker.
const maxWasmBytes = (workerData && workerData.maxWasmBytes) || 512 * 1024 * 1024;
let memoryRefused = false;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (pages) {
  if (this.buffer.byteLength + pages * 65536 > maxWasmBytes) {
    memoryRefused = true;
    throw new RangeError("jq memory limit reached");
  }
  return grow.call(this, pages);
};

// Emscripten reports the refused allocation as "Aborted()" on stderr; the parent reports it properly.
const printError = console.error;
console.error = (...args) => {
  if (args.length === 1 && /^Aborted\(/.test(String(args[0]))) return;
  printError(...args);
};

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
      if (memoryRefused) {
        parentPort.postMessage({ id: job.id, ok: false, kind: "memory", error: `jq program exceeded the memory limit of ${Math.round(maxWasmBytes / 1048576)} MB` });
        return;
      }
      const stderr = e && typeof e.stderr === "string" ? e.stderr.trim() : "";
      parentPort.postMessage({ id: job.id, ok: false, kind: "jq", error: stderr || String((e && e.message) || e) });
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => {
  parentPort.postMessage({ ready: false, error: String(e) });
});
