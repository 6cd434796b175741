/* window.scorekeeperEngine: the rules engine on the phone (docs/engine.md). The server's own
   Python (the rules and the stateless answers of the JSON API) runs under Pyodide in a Web
   Worker (static/engine-worker.js), so it never holds up the page or a tap, and answers as
   the API does without a network:

   - ready: a Promise, resolved with the engine once it answers (rejected if it cannot load;
     when the network went while it loaded, it loads again once the network is back, with a
     new `ready`);
   - score(request): the body POST /api/v1/score answers for `request`;
   - referee(kind, request): the body POST /api/v1/referee/<kind> answers ("meld",
     "initial-meld", "go-out", "discard-pile", "options", "three-is-fifty");
   - a refused request resolves with the problem body and its HTTP status as `status`;
     messages are in the page's language (<html lang>);
   - start(): load it now (see below); size: its download in bytes, compressed;
     state: "waiting" (for start() on a slow link), "loading", "ready" or "failed";
     automatic: whether it loads by itself here; kept: true once this phone keeps a snapshot
     of the started engine (the next start restores it: static/engine-worker.js).

   It needs no service worker and no secure context. This script runs once the page is
   complete (boot.js, data-run-later); the worker starts when the phone is idle, except on a
   slow or data-saving link, where it waits for start() (the page offers the download with its
   size). Each change of state is told as the document event "scorekeeper:engine"
   ({detail: {state}}) and shown as <html data-engine="state">. */
(function () {
  "use strict";
  var d = document;
  var link = d.querySelector("link[data-engine-worker]");
  if (!link || window.scorekeeperEngine) return;

  var worker = null;
  var asked = {};
  var next = 1;
  var settle = {};

  function promise() {
    var made = new Promise(function (resolve, reject) {
      settle.resolve = resolve;
      settle.reject = reject;
    });
    made.catch(function () { /* told by state "failed"; each question rejects on its own */ });
    return made;
  }

  function absolute(url) { return new URL(url, location.href).href; }

  function slowLink() {
    var c = navigator.connection;
    return !!(c && (c.saveData || /(^|-)2g$|^3g$/.test(c.effectiveType || "")));
  }

  function tell(state, extra) {
    engine.state = state;
    d.documentElement.setAttribute("data-engine", state);
    var detail = { state: state };
    for (var key in extra || {}) detail[key] = extra[key];
    d.dispatchEvent(new CustomEvent("scorekeeper:engine", { detail: detail }));
  }

  function fail(why) {
    if (engine.state === "failed") return;
    engine.error = String(why);
    if (worker) worker.terminate();
    worker = null;
    tell("failed", { error: engine.error });
    settle.reject(new Error(engine.error));
    Object.keys(asked).forEach(function (id) { asked[id].reject(new Error(engine.error)); });
    asked = {};
    /* The network went while the engine loaded: it loads again when the network is back
       (a new `ready`). */
    window.addEventListener("online", function () {
      engine.ready = promise();
      tell("waiting");
      start();
    }, { once: true });
  }

  function answered(message) {
    var waiting = asked[message.id];
    delete asked[message.id];
    if (!waiting) return;
    if (message.error) { waiting.reject(new Error(message.error)); return; }
    var pair = JSON.parse(message.text);
    var body = pair[1];
    if (pair[0] !== 200) body.status = pair[0];
    waiting.resolve(body);
  }

  function start() {
    if (worker || engine.state === "failed") return engine.ready;
    if (navigator.onLine === false &&
        !(navigator.serviceWorker && navigator.serviceWorker.controller)) {
      /* Nothing to fetch it from now (and no service worker that may keep it, static/sw.js):
         wait for the network. */
      window.addEventListener("online", start, { once: true });
      return engine.ready;
    }
    var began = performance.now();
    tell("loading");
    try {
      worker = new Worker(link.getAttribute("data-engine-worker"), { type: "module" });
    } catch (error) {
      fail(error && error.message || error);
      return engine.ready;
    }
    worker.addEventListener("message", function (event) {
      var message = event.data || {};
      if (message.type === "answer") answered(message);
      else if (message.type === "ready") {
        engine.loadMs = performance.now() - began;
        engine.steps = message.steps;
        if (performance.mark) performance.mark("scorekeeper-engine-ready");
        tell("ready", { ms: engine.loadMs });
        settle.resolve(engine);
      } else if (message.type === "kept") {
        /* the started engine is kept on this phone: the next page starts it from there */
        engine.kept = true;
        d.documentElement.setAttribute("data-engine-kept", "");
      } else if (message.type === "failed") fail(message.message);
    });
    worker.addEventListener("error", function (event) {
      fail(event.message || "the engine's worker did not start");
    });
    worker.postMessage({
      type: "start",
      runtime: absolute(link.getAttribute("data-engine-runtime")),
      archive: absolute(link.getAttribute("data-engine-archive"))
    });
    return engine.ready;
  }

  function ask(question, request) {
    return engine.ready.then(function () {
      return new Promise(function (resolve, reject) {
        var id = next++;
        asked[id] = { resolve: resolve, reject: reject };
        worker.postMessage({
          type: "ask",
          id: id,
          question: question,
          body: JSON.stringify(request),
          lang: (d.documentElement.lang || "en").slice(0, 2)
        });
      });
    });
  }

  var engine = {
    ready: promise(),
    state: "waiting",
    size: Number(link.getAttribute("data-engine-size")) || 0,
    automatic: !slowLink(),
    start: start,
    score: function (request) { return ask("score", request); },
    referee: function (kind, request) { return ask("referee/" + kind, request); }
  };
  window.scorekeeperEngine = engine;
  tell("waiting", { size: engine.size, automatic: engine.automatic });

  if (engine.automatic) {
    if (window.requestIdleCallback) requestIdleCallback(start, { timeout: 1000 });
    else setTimeout(start, 0);
  }
})();
