/* The phone's rules engine in a dedicated Web Worker (docs/engine.md), started by
   static/engine.js as a module worker from /engine/worker.js: that response alone carries the
   Content-Security-Policy that lets Pyodide compile its WebAssembly.

   Messages from the page:
   - {type: "start", runtime, archive}: load Pyodide from `runtime` (this origin's
     /engine/pyodide/VERSION/) and unpack `archive` (the rules and the stateless answers, as
     the server runs them); answers {type: "ready", ms, steps} or {type: "failed", message},
     and later {type: "kept"} once a snapshot of the started engine is kept (below).
   - {type: "ask", id, question, body, lang}: the JSON text `body` of the API question
     `question` ("score", "referee/meld", …) answered by scorekeeper.stateless.questions.answer_json in
     `lang`; answers {type: "answer", id, text} (the JSON text [status, body]) or
     {type: "answer", id, error}.

   Starting Python is most of a start (measured in benchmarks/bench_engine_phone.py: the
   WebAssembly comes back compiled from the browser's cache in about half a second, while
   Python's own start and the engine's imports take seconds on a busy phone). So the first
   start keeps a snapshot of the started engine's memory (Pyodide's memory snapshot, about
   31 MB) in this phone's IndexedDB, under the runtime's and the archive's addresses (both name
   their release); each later start restores it instead of starting Python again. It is made
   on the phone, never downloaded, and a snapshot that does not restore is dropped and the
   engine started afresh. IndexedDB needs no secure context: this holds on the LAN too. */
let answering = null;
let kept = false;

/* Pyodide fetches its files side by side: when the network goes while it loads, the fetches it
   no longer waits for fail unheard. The load fails once, as "failed" below; the rest is no
   error of the page's. */
self.addEventListener("unhandledrejection", (event) => {
  if (answering) event.preventDefault();
});

const DB = "scorekeeper-engine";
const SNAPSHOTS = "snapshots";

function request(made) {
  return new Promise((resolve) => {
    made.onsuccess = () => resolve(made.result);
    made.onerror = () => resolve(null);
  });
}

async function database() {
  try {
    if (!self.indexedDB) return null;
    const opening = indexedDB.open(DB, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(SNAPSHOTS);
    opening.onblocked = () => {};
    return await request(opening);
  } catch (error) {
    return null; /* storage refused (private mode, quota): start without a snapshot */
  }
}

async function snapshotFor(db, key) {
  if (!db) return null;
  try {
    const found = await request(db.transaction(SNAPSHOTS).objectStore(SNAPSHOTS).get(key));
    return found instanceof ArrayBuffer ? new Uint8Array(found) : null;
  } catch (error) {
    return null;
  }
}

/* Only this release's snapshot is kept: the older ones go. */
async function keepSnapshot(db, key, bytes) {
  const store = db.transaction(SNAPSHOTS, "readwrite").objectStore(SNAPSHOTS);
  store.clear();
  const done = new Promise((resolve, reject) => {
    store.transaction.oncomplete = resolve;
    store.transaction.onerror = () => reject(store.transaction.error);
    store.transaction.onabort = () => reject(store.transaction.error);
  });
  store.put(bytes.buffer.byteLength === bytes.length ? bytes.buffer : bytes.slice().buffer, key);
  await done;
}

async function dropSnapshots(db) {
  try {
    db.transaction(SNAPSHOTS, "readwrite").objectStore(SNAPSHOTS).clear();
  } catch (error) {
    /* nothing kept */
  }
}

const PROBE = ["referee/meld", '{"ruleset": "german", "cards": "K K K"}', "en"];

/* Python started (afresh, or restored from a snapshot) with the engine imported. */
async function python(loadPyodide, runtime, zip, options) {
  const pyodide = await loadPyodide({ indexURL: runtime, packages: [], ...options });
  const loaded = performance.now();
  /* The modules restored with a snapshot read their catalogues from these files too. */
  pyodide.unpackArchive(new Uint8Array(zip), "zip", { extractDir: "/engine" });
  pyodide.runPython("import sys\nif '/engine' not in sys.path: sys.path.insert(0, '/engine')");
  return { pyodide, loaded, answer: pyodide.pyimport("scorekeeper.stateless.questions").answer_json };
}

async function load(runtime, archive) {
  const started = performance.now();
  const key = runtime + " " + archive;
  const [{ loadPyodide }, zip, db] = await Promise.all([
    import(runtime + "pyodide.mjs"),
    fetch(archive, { credentials: "same-origin" }).then((answer) => {
      if (!answer.ok) throw new Error("engine archive: HTTP " + answer.status);
      return answer.arrayBuffer();
    }),
    database(),
  ]);
  const snapshot = await snapshotFor(db, key);
  const fetched = performance.now();
  let made = null;
  if (snapshot) {
    try {
      made = await python(loadPyodide, runtime, zip, { _loadSnapshot: snapshot });
      if (!String(made.answer(...PROBE)).startsWith("[200,")) throw new Error("no answer");
    } catch (error) {
      /* a kept snapshot that does not restore or answer: dropped, and a fresh start */
      made = null;
      await dropSnapshots(db);
    }
  }
  const restored = !!made;
  if (!made) made = await python(loadPyodide, runtime, zip, { _makeSnapshot: true });
  const { pyodide, answer, loaded } = made;
  const done = performance.now();
  return {
    answer,
    keep: restored || !db ? null : () => keepSnapshot(db, key, pyodide.makeMemorySnapshot()),
    ms: done - started,
    steps: {
      fetch: fetched - started,
      runtime: loaded - fetched,
      engine: done - loaded,
      snapshot: restored,
    },
  };
}

self.addEventListener("message", async (event) => {
  const message = event.data || {};
  if (message.type === "start") {
    if (!answering) answering = load(message.runtime, message.archive);
    try {
      const { ms, steps, keep } = await answering;
      self.postMessage({ type: "ready", ms, steps });
      if (keep && !kept) {
        kept = true;
        /* after the first previews had their turn */
        setTimeout(() => {
          keep().then(
            () => self.postMessage({ type: "kept" }),
            () => {},
          );
        }, 1000);
      }
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
