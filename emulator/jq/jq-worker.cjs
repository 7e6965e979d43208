/*
 * jq sandbox worker (plain CommonJS so it runs the same under tsx, jest and node).
 * Loads jq-web (real jq 1.7.1) once, then evaluates jobs:
 * - {type: "jq", id, input, program, maxOutput, maxDepth}: jq's raw `-c` output;
 * - {type: "udf", id, program, scope, layers, maxOutput, maxDepth, maxResultChars, maxResultDepth}:
 *   a UDF from its input layers' JSON text to its result layer's JSON text
 *   (emulator/compositions/udf-result.ts, loaded through tsx), so that neither building jq's input
 *   nor reading its output nor serialising the result ever runs on the server's thread.
 * The parent enforces the time limit by terminating this worker. Memory: the JS heap is bounded
 * by the worker's resourceLimits, and jq's own WebAssembly heap (outside those limits) by refusing
 * to grow it past workerData.maxWasmBytes. Output depth and size are bounded inside jq itself, before
 * anything is printed (see sandboxLines). Any failure that is not jq's own error leaves the engine
 * in doubt: it is reported as "crash" and the parent replaces this worker.
 */
"use strict";
const { parentPort, workerData } = require("node:worker_threads");

// Nothing a tenant's program does may reach the emulator's stdout or stderr (start scripts parse
// the emulator's output). A worker's console writes to the parent's streams, and jq-web logs a
// program's stderr with console.warn and Emscripten its aborts with console.error: all of it is
// dropped here, before jq-web binds those functions. The program's error text still comes back
// to the caller through the thrown error's `stderr`.
for (const name of ["log", "info", "warn", "error", "debug", "trace"]) console[name] = () => undefined;

// jq-web takes its program name from process.argv[1], i.e. the host path of the emulator's entry
// script; it shows in `$ENV._` and `get_jq_origin`. Give it a neutral name.
process.argv = [process.argv[0], "jq"];

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

/**
 * The tenant's program inside the sandbox's own definitions (at the start of its first line, so
 * its lines keep their numbers in errors and in `$__loc__`) and output checks (a last line of their
 * own); jq's messages are cleaned of both (see jqMessage):
 * - `env`, `$ENV` are {} and `input_filename`, `get_jq_origin`, `get_prog_origin` null and
 *   `get_search_list` []: the host's environment and paths stay unseen;
 * - `debug` and `stderr` pass their input through and print nothing;
 * - every output is checked for depth (in jq's own interpreter, which does not recurse on the
 *   C stack; jq's printer does, and overruns jq-web's stack at 50 – 60 levels, corrupting the
 *   engine) and the running total of output characters is checked before the output is printed.
 */
function sandboxLines(maxDepth, maxOutput) {
  const depthError = `output nests deeper than the limit of ${maxDepth} levels of arrays and objects`;
  const prelude =
    "def env: {}; def input_filename: null; def get_jq_origin: null; def get_prog_origin: null; def get_search_list: []; " +
    "def debug: .; def debug(msg): .; def stderr: .; " +
    `def __sandbox_depth($n): if $n > ${maxDepth} then error("${depthError}") else (.[]? | select(type == "array" or type == "object") | __sandbox_depth($n + 1)) end; ` +
    "{} as $ENV | foreach ((";
  const postlude =
    ") | (__sandbox_depth(1), .)) as $__sandbox_out (0; . + ($__sandbox_out | tojson | length) + 1; " +
    `if . > ${maxOutput} then error("output exceeds the limit of ${maxOutput} characters") else $__sandbox_out end)`;
  return { prelude, postlude };
}

/** jq's message about the wrapped program, in terms of the tenant's program. */
function jqMessage(stderr, lines) {
  return stderr
    .split("\n")
    .filter((line) => line !== lines.postlude)
    .map((line) => (line.startsWith(lines.prelude) ? line.slice(lines.prelude.length) : line))
    .join("\n")
    .trim();
}

/** A failure of the sandbox or of jq, as the parent reports it: {kind, error}. */
class JqFailure extends Error {
  constructor(kind, error) {
    super(error);
    this.kind = kind;
  }
}

/** Runs one program over one input; answers jq's output or throws JqFailure. */
function evaluate(jq, input, program, job) {
  memoryRefused = false;
  let output;
  const lines = sandboxLines(job.maxDepth, job.maxOutput);
  try {
    output = jq.raw(input, `${lines.prelude}${program}\n${lines.postlude}`, ["-c"]) || "";
  } catch (e) {
    if (memoryRefused)
      throw new JqFailure("memory", `jq program exceeded the memory limit of ${Math.round(maxWasmBytes / 1048576)} MB`);
    if (e && typeof e.exitCode === "number") {
      // jq ended the program itself: a compile or runtime error, or halt_error.
      const stderr = typeof e.stderr === "string" ? jqMessage(e.stderr.trim(), lines) : "";
      const message =
        stderr.startsWith("jq: ") || stderr === ""
          ? stderr || `jq exited with status ${e.exitCode}`
          : `halt_error: ${stderr}`;
      throw new JqFailure("jq", message.slice(0, 2000));
    }
    // The engine's own words ("table index is out of bounds", "Aborted()") say nothing to the
    // program's author: name the likely cause in jq's terms instead.
    throw new JqFailure(
      "crash",
      "the program failed inside the jq engine (most often a value nested too deeply for tojson, tostring or printing); the engine was restarted",
    );
  }
  if (output.length > job.maxOutput)
    throw new JqFailure("output", `output of ${output.length} characters exceeds the limit of ${job.maxOutput}`);
  return output;
}

(async () => {
  const jq = await require("jq-web");
  // The UDF's mapping is TypeScript shared with the emulator; tsx compiles it here as it does there.
  require("tsx/cjs/api").register();
  const { evaluateUdfLayers, UdfRefusal } = require("../compositions/udf-result.ts");
  parentPort.on("message", (job) => {
    try {
      // Each distinct layer text arrives once (emulator/jq/sandbox.ts): give every input layer its own.
      if (job.type === "udf") job.layers = job.layers.map((l) => ({ name: l.name, text: job.texts[l.text] }));
      const output =
        job.type === "udf"
          ? evaluateUdfLayers(job, (input, program) => evaluate(jq, input, program, job))
          : evaluate(jq, job.input, job.program, job);
      parentPort.postMessage({ id: job.id, ok: true, output });
    } catch (e) {
      if (e instanceof JqFailure) parentPort.postMessage({ id: job.id, ok: false, kind: e.kind, error: e.message });
      else if (e instanceof UdfRefusal)
        parentPort.postMessage({ id: job.id, ok: false, kind: "result", errors: e.errors });
      else {
        // Serialising a result can run out of this worker's heap ("Invalid string length", a
        // RangeError), or a bug can throw: either way, the parent replaces the engine.
        const memory = e instanceof RangeError;
        parentPort.postMessage({
          id: job.id,
          ok: false,
          kind: memory ? "memory" : "crash",
          error: memory
            ? "the program's result exceeded the memory of the jq sandbox"
            : `evaluating the program failed: ${String((e && e.message) || e).slice(0, 500)}`,
        });
      }
    }
  });
  parentPort.postMessage({ ready: true });
})().catch((e) => {
  parentPort.postMessage({ ready: false, error: String(e) });
});
