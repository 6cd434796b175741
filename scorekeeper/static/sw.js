/* The service worker: the table plays on when the connection drops.

   - The app's files (/static/…, versioned addresses) come from the phone once fetched. The
     worker's own address carries the release (/sw.js?v=…): a new release installs a new
     worker, which keeps the new files and drops the old ones.
   - Every page the phone opens (a game, its view, the rules, the start page) is fetched from
     the server first and kept; without an answer the kept copy is shown, marked with the time
     it was kept (<html data-offline-at>), and static/notices.js shows the banner. A page never
     opened shows /offline, in the reader's language. A page the server answers with 503 (it
     cannot reach its database) is shown from the kept copy too, when there is one.
   - Nothing else is touched: saving (POST), the live preview and the API always go to the
     server; a hand saved offline waits in the page's outbox (static/notices.js). A form that
     leaves the page and gets no answer brings the reader back to the page it was on
     (notSent below). */
"use strict";

var RELEASE = new URL(self.location.href).searchParams.get("v") || "dev";
var SHELL = "shell-" + RELEASE;
var PAGES = "pages";
var FALLBACK = "/offline";
var KEPT_AT = "X-Scorekeeper-Kept-At";
var MAX_PAGES = 80;       /* bounded: the oldest kept pages go first */
var PATIENCE = 8000;      /* ms: a laptop asleep never answers; show the kept page then */

function keep(cache, request, response) {
  /* A copy with the time it was kept (the banner shows it). */
  return response.clone().blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set(KEPT_AT, String(Date.now()));
    return cache.put(request, new Response(body, {
      status: response.status, statusText: response.statusText, headers: headers
    }));
  });
}

/* The addresses a page names under ``prefix`` (/static/: stylesheet, scripts, icons;
   /rules/: the rules page of the menu). */
function named(html, prefix) {
  var found = {}, re = /(?:href|src)="(\/[^"]+)"/g, m;
  while ((m = re.exec(html))) {
    if (m[1].indexOf(prefix) === 0) found[m[1].replace(/&amp;/g, "&")] = true;
  }
  return Object.keys(found);
}

/* The rules pages the menu names, kept at once: the table may want them before it ever opened
   them, and they change only with a release. */
function keepRules(html) {
  return caches.open(PAGES).then(function (pages) {
    return Promise.all(named(html, "/rules/").map(function (url) {
      return fetch(url, { credentials: "same-origin" }).then(function (answer) {
        return answer.ok ? keep(pages, url, answer) : null;
      }).catch(function () { return null; });
    }));
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (shell) {
    return fetch(FALLBACK, { credentials: "same-origin", cache: "no-store" }).then(function (answer) {
      if (!answer.ok) return null;
      return answer.clone().text().then(function (html) {
        return Promise.all([
          caches.open(PAGES).then(function (pages) { return keep(pages, FALLBACK, answer); }),
          shell.addAll(named(html, "/static/")),
          keepRules(html)
        ]);
      });
    });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("shell-") === 0 && name !== SHELL;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function fromShell(request) {
  return caches.open(SHELL).then(function (shell) {
    return shell.match(request).then(function (hit) {
      if (hit) return hit;
      return fetch(request).then(function (answer) {
        if (answer.ok) shell.put(request, answer.clone());
        return answer;
      }).catch(function () {
        /* A page kept under an older release names older addresses: the file of this
           release is the best there is. */
        return shell.match(request, { ignoreSearch: true }).then(function (near) {
          return near || Response.error();
        });
      });
    });
  });
}

function trim(cache) {
  return cache.keys().then(function (keys) {
    var extra = keys.length - MAX_PAGES;
    var gone = [];
    for (var i = 0; i < keys.length && extra > 0; i++) {
      if (new URL(keys[i].url).pathname === FALLBACK) continue;
      gone.push(cache.delete(keys[i]));
      extra -= 1;
    }
    return Promise.all(gone);
  });
}

/* The kept page, marked as shown offline with the time it was kept. */
function keptPage(request) {
  return caches.open(PAGES).then(function (pages) {
    return pages.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || pages.match(FALLBACK, { ignoreVary: true });
    });
  }).then(function (hit) {
    if (!hit) return Response.error();
    var at = hit.headers.get(KEPT_AT) || String(Date.now());
    return hit.text().then(function (html) {
      var headers = new Headers(hit.headers);
      headers.delete("Content-Length");
      return new Response(html.replace("<html", '<html data-offline-at="' + at + '"'), {
        status: 200, headers: headers
      });
    });
  });
}

/* The kept copy of this very page (not the fallback), marked as shown offline; null: none. */
function keptOnly(request) {
  return caches.open(PAGES).then(function (pages) {
    return pages.match(request, { ignoreVary: true });
  }).then(function (hit) {
    return hit ? keptPage(request) : null;
  });
}

function page(event) {
  var request = event.request;
  return new Promise(function (resolve) {
    var settled = false;
    function settle(answer) {
      if (!settled) { settled = true; resolve(answer); }
    }
    var timer = setTimeout(function () { keptPage(request).then(settle); }, PATIENCE);
    fetch(request).then(function (answer) {
      clearTimeout(timer);
      if (answer.status === 503) {
        /* The server is there but cannot reach its database: the phone's copy of this page,
           if it has one (the table plays on, its outbox keeps the hands), else the server's
           page saying so. */
        keptOnly(request).then(function (copy) { settle(copy || answer); });
        return;
      }
      var type = answer.headers.get("Content-Type") || "";
      if (answer.status === 200 && !answer.redirected && type.indexOf("text/html") === 0) {
        var copy = answer.clone();  /* now: the page reads the answer itself */
        event.waitUntil(caches.open(PAGES).then(function (pages) {
          return keep(pages, request, copy).then(function () { return trim(pages); });
        }));
      }
      settle(answer);
    }).catch(function () {
      clearTimeout(timer);
      keptPage(request).then(settle);
    });
  });
}

/* The rules engine's files (static/offline.js names them once the engine runs): kept with the
   app's files, so that the engine starts without a connection after a reload. Only this
   origin's /static/ and /engine/ files; one not fetched now is fetched when next asked for. */
function keepStatic(urls) {
  return caches.open(SHELL).then(function (shell) {
    return Promise.all(urls.slice(0, 200).map(function (href) {
      var url = new URL(href, self.location.href);
      if (url.origin !== self.location.origin ||
          !/^\/(static|engine)\//.test(url.pathname)) return null;
      return shell.match(url.href, { ignoreSearch: true }).then(function (hit) {
        if (hit) return null;
        return fetch(url.href, { credentials: "same-origin" }).then(function (answer) {
          return answer.ok ? shell.put(url.href, answer) : null;
        });
      }).catch(function () { return null; });
    }));
  });
}

/* The page that installed the worker was fetched without it: keep it now. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (Array.isArray(data.cache)) { event.waitUntil(keepStatic(data.cache)); return; }
  if (typeof data.keep !== "string") return;
  var url = new URL(data.keep, self.location.href);
  if (url.origin !== self.location.origin) return;
  event.waitUntil(fetch(url.href, { credentials: "same-origin" }).then(function (answer) {
    var type = answer.headers.get("Content-Type") || "";
    if (answer.status !== 200 || answer.redirected || type.indexOf("text/html") !== 0) return null;
    return caches.open(PAGES).then(function (pages) { return keep(pages, url.href, answer); });
  }).catch(function () { return null; }));
});

/* A form that leaves the page (deleting a hand, undo, a table's or tournament's forms; not
   htmx, not a hand's save) sent when the server gives no answer would open the browser's error
   page. The reader is brought back instead to the nearest kept page up the form's address
   (/games/x/hands/2/delete: /games/x), marked #not-sent: static/notices.js says that nothing
   was sent. Any answer of the server, a redirect included, passes untouched. */
function notSent(request) {
  var path = new URL(request.url).pathname.replace(/\/+$/, "");
  return caches.open(PAGES).then(function (pages) {
    function up(at) {
      var here = at || "/";
      return pages.match(here, { ignoreVary: true }).then(function (hit) {
        if (hit) return here;
        if (!at) return FALLBACK;
        return up(at.slice(0, at.lastIndexOf("/")));
      });
    }
    return up(path);
  }).then(function (back) {
    return Response.redirect(back + "#not-sent", 303);
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () { return notSent(request); }));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/engine/") === 0) {
    /* the app's files, and the rules engine's (web/engine: every address names its release) */
    event.respondWith(fromShell(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(event));
  }
});
