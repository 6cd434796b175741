/* The phone's rules engine in a dedicated Web Worker (docs/engine.md), started by
   static/engine.js as a module worker from /engine/worker.js: that response alone carries the
   Content-Security-Policy that lets Pyodide compile its WebAssembly.

   Messages from the page:
   - {type: "start", runtime, archive}: load Pyodide from `runtime` (this origin's
     /engine/pyodide/VERSION/) and unpack `archive` (the rules and the stateless answers, as
     the server runs them); answers {type: "ready", ms} or {type: "failed", message}.
   - {type: "ask", id, question, body, lang}: the JSON text `body` of the API question
     `question` ("score", "referee/meld", …) answered by scorekeeper.stateless.answer_json in
     `lang`; answers {type: "answer", id, text} (the JSON text [status, body]) or
     {type: "answer", id, error}. */
let answering = null;

/* Pyodide fetches its files side by side: when the network goes while it loads, the fetches it
   no longer waits for fail unheard. The load fails once, as "failed" below; the rest is no
   error of the page's. */
self.addEventListener("unhandledrejection", (event) => {
  if (answering) event.preventDefault();
});

async function load(runtime, archive) {
  const started = performance.now();
  const [{ loadPyodide }, zip] = await Promise.all([
    import(runtime + "pyodide.mjs"),
    fetch(archive, { credentials: "same-origin" }).then((answer) => {
      if (!answer.ok) throw new Error("engine archive: HTTP " + answer.status);
      return answer.arrayBuffer();
    }),
  ]);
  const fetched = performance.now();
  const pyodide = await loadPyodide({ indexURL: runtime, packages: [] });
  const loaded = performance.now();
  pyodide.unpackArchive(new Uint8Array(zip), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/engine')");
  const answer = pyodide.pyimport("scorekeeper.stateless").answer_json;
  const done = performance.now();
  return {
    answer,
    ms: done - started,
    steps: { fetch: fetched - started, runtime: loaded - fetched, engine: done - loaded },
  };
}

self.addEventListener("message", async (event) => {
  const message = event.data || {};
  if (message.type === "start") {
    if (!answering) answering = load(message.runtime, message.archive);
    try {
      const { ms, steps } = await answering;
      self.postMessage({ type: "ready", ms, steps });
    } catch (error) {
      self.postMessage({ type: "failed", message: String((error && error.message) || error) });
    }
    return;
  }
  if (message.type === "ask") {
    try {
      if (!answering) throw new Error("the engine was not started");
      const { answer } = await answering;
      const text = answer(String(message.question), String(message.body), String(message.lang));
      self.postMessage({ type: "answer", id: message.id, text });
    } catch (error) {
      self.postMessage({ type: "answer", id: message.id, error: String((error && error.message) || error) });
    }
  }
});
