/* What the forms tell the reader, in four parts (one file: on a slow phone every file more
   than six waits for a connection, a whole round trip).

   1. What a refused or lost htmx request tells the reader: a 429 (too many
   requests, with the wait), a 503 (database busy), any other error page, or no answer at all
   (htmx:sendError, htmx:timeout) shows one translated sentence in the form's message area
   ([data-notice]: next to the save button in the save bar, under the new-game form), else at
   the top of what the request would have replaced. The form stays as it was: nothing is
   swapped in. The server sends the sentence (templates/_notice.html or the error page's
   [data-notice-text]); without an answer the page's own words are used (<body
   data-notice-offline>). The next answer that arrives takes the sentence away again.
   Without this file htmx shows nothing, and the server's "HX-Reswap: none" still keeps the
   form as it was. */
(function () {
  "use strict";
  var d = document, w = window;

  /* The message area of the request's form, made at the top of its target if it has none. */
  function area(detail, make) {
    var elt = detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    var found = (form || elt) && (form || elt).querySelector("[data-notice]");
    var target = detail.target || elt;
    if (!found && target && target.querySelector) found = target.querySelector("[data-notice]");
    if (found || !make || !target || !target.isConnected) return found || null;
    found = d.createElement("p");
    found.setAttribute("data-notice", "");
    target.prepend(found);
    return found;
  }

  function show(detail, text) {
    var box = area(detail, true);
    if (!box) return;
    box.className = "flash flash-error notice";
    box.setAttribute("role", "alert");
    box.textContent = text;
    box.hidden = false;
    box.noticeShownAt = performance.now();
    var active = d.activeElement;
    var typing = active && active.matches && active.matches("input, textarea") &&
      !active.matches("[type=radio], [type=checkbox]");
    /* While typing (the live preview) the page does not jump; after a tap it shows the note. */
    if (!typing && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
  }

  /* Only an answer to a request sent after the notice was shown takes it away: a tap on "Save"
     also ends the typing, so a live preview leaves with the save, and its answer, coming
     after the save's refusal, must not hide why nothing was saved. */
  d.addEventListener("htmx:beforeSend", function (e) {
    if (e.detail && e.detail.xhr) e.detail.xhr.noticeSentAt = performance.now();
  });

  function clear(detail) {
    var box = area(detail, false);
    var sent = detail.xhr && detail.xhr.noticeSentAt;
    if (box && !box.hidden && !(sent < box.noticeShownAt)) {
      box.hidden = true;
      box.textContent = "";
    }
  }

  /* The sentence of an answer: the server's own, else the page's fallback for its status. */
  function sentence(xhr) {
    var text = "";
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("text/html") === 0 && xhr.responseText) {
      var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var node = doc.querySelector("[data-notice-text]");
      text = node ? node.textContent.replace(/\s+/g, " ").trim() : "";
    }
    if (text) return text;
    var body = d.body.dataset;
    return (xhr.status >= 502 ? body.noticeOffline : body.noticeFailed) || "";
  }

  d.addEventListener("htmx:beforeSwap", function (e) {
    var detail = e.detail, xhr = detail.xhr;
    if (!xhr) return;
    if (xhr.status < 400) { clear(detail); return; }
    /* The form itself, sent back with its own notes (409, 422, the entry's 503): swapped in. */
    if (detail.shouldSwap && detail.swapOverride !== "none") return;
    detail.shouldSwap = false;
    show(detail, sentence(xhr));
  });

  function lost(e) {
    show(e.detail, d.body.dataset.noticeOffline || "");
  }
  d.addEventListener("htmx:sendError", lost);
  d.addEventListener("htmx:timeout", lost);

  /* Forms that leave the page (deleting a hand, undo, a table's or tournament's forms; htmx
     forms say their own failures above, a hand's save waits in the outbox, part 3):
     - offline, the browser would only open its error page: the page stays as it is, what was
       typed included, with the sentence that nothing was sent;
     - online, each is sent once: a second tap while the first is on its way (a thumb's double
       tap on "Delete hand" or "Undo") would reach the server after the first had changed the
       game, and be answered "someone else changed this game". The page the form leads to ends
       the wait; so do 10 s without one (a page kept in the browser's memory starts over). */
  var SENDING = 10000;
  d.addEventListener("submit", function (e) {
    var form = e.target;
    if (e.defaultPrevented || !form || form.tagName !== "FORM") return;
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") return;
    if (form.matches("[hx-post], [data-hx-post]") || form.closest("[hx-boost=true]")) return;
    if (navigator.onLine === false) {
      e.preventDefault();
      show({ elt: form, target: form }, d.body.dataset.noticeOffline || "");
      return;
    }
    var sent = Number(form.getAttribute("data-sent-at")) || 0;
    if (Date.now() - sent < SENDING) { e.preventDefault(); return; }
    form.setAttribute("data-sent-at", String(Date.now()));
  });
  w.addEventListener("pageshow", function (e) {
    if (!e.persisted) return;
    d.querySelectorAll("form[data-sent-at]").forEach(function (form) { form.removeAttribute("data-sent-at"); });
  });

  /* The same form sent while the server gave no answer: the service worker (static/sw.js)
     brings the reader back to the page the form was on, marked #not-sent. */
  if (w.location.hash === "#not-sent") {
    var main = d.getElementById("main");
    if (main) show({ elt: main, target: main }, d.body.dataset.noticeOffline || "");
    try { w.history.replaceState(null, "", w.location.pathname + w.location.search); } catch (err) { /* old browser */ }
  }
})();

/* 2. Entry forms: bring the first problem into view and focus it (the red hint sat at
   the bottom while the problem was at the top). Runs when a refused save (409, 422) swaps the
   form back in, and when the save bar's "Check the red notes" is tapped. Without this file the
   hint is a link to the top of the fields. */
(function () {
  "use strict";
  var d = document;

  function firstProblem(form) {
    var all = form.querySelectorAll("[role=alert], .note.problem");
    for (var i = 0; i < all.length; i++) {
      if (all[i].offsetParent !== null) return all[i];  /* visible only */
    }
    return null;
  }

  /* The field the note belongs to: the input of the row or fieldset the note's slot sits in,
     unless it is a card field (focusing it would open the card pad over the note). */
  function fieldOf(note) {
    var box = note.closest(".meld-row, .hand-row, .field, label, fieldset");
    var input = box && box.querySelector("input:not([type=hidden]), select, textarea");
    return input && !input.classList.contains("cardfield") ? input : null;
  }

  var shownAt = 0;

  function show(form, quiet) {
    var note = form && firstProblem(form);
    if (!note) return false;
    if (!quiet) note.scrollIntoView({ block: "center" });
    var target = fieldOf(note) || note;
    if (target === note) note.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
    shownAt = Date.now();
    return true;
  }

  function inView(element) {
    var box = element.getBoundingClientRect();
    return box.bottom > 0 && box.top < (window.innerHeight || d.documentElement.clientHeight);
  }

  /* The live preview replaces the notes it brings (out of band): a note just focused may be
     swapped out under the reader; focus its successor instead of leaving focus nowhere, and
     bring it back into view if the swap moved it away. */
  d.addEventListener("htmx:oobAfterSwap", function () {
    if (Date.now() - shownAt > 3000) return;
    var active = d.activeElement;
    if (active && active !== d.body && d.contains(active)) return;
    var form = d.querySelector("form.hand-form, form.entry-form");
    var note = form && firstProblem(form);
    show(form, !note || inView(note));
  });

  /* The live preview (target #hand-summary) brings only the note slots that have notes
     (on a slow phone each element swapped costs, and most slots are empty): empty
     every slot first, and the preview fills those it brings. */
  d.addEventListener("htmx:beforeSwap", function (e) {
    var detail = e.detail;
    if (!detail || !detail.shouldSwap || !detail.target || detail.target.id !== "hand-summary") return;
    var slots = d.querySelectorAll(".slot");
    for (var i = 0; i < slots.length; i++) {
      if (slots[i].firstChild) slots[i].replaceChildren();
    }
  });

  d.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("[data-first-problem]");
    if (link && show(link.closest("form"))) e.preventDefault();
  });

  d.addEventListener("htmx:afterSwap", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (!xhr || xhr.status < 400) return;
    var form = e.detail.target && e.detail.target.closest ? e.detail.target.closest("form") || e.detail.target : null;
    if (form && form.tagName !== "FORM") form = form.querySelector("form");
    show(form || d.querySelector("form.hand-form, form.entry-form"));
  });
})();

/* 3. When the network drops, the table plays on (with static/sw.js, the service worker).

   a. The worker is registered under an address that carries the release.
   b. A page the worker showed from the phone's copy (<html data-offline-at>), or any page once
      the connection drops, says so in a banner with the time of the state it shows.
   c. The outbox: a hand saved while the server cannot be reached (offline, no answer, a lost
      answer) is kept in localStorage (it survives closing the tab) with its entry_id, shown on
      its game page as waiting, and sent in order on page load, on "online", when the page
      becomes visible, from "Send now", and by itself after the wait the server asks for while
      it answers but cannot save (503: its database is down). The server recognises an entry_id it has taken and
      answers as the first time, so a hand sent twice is stored once. A refused entry (409:
      someone else saved first; 422: the rules) stays until the scorer opens it (the entry form
      with the other change or the problems) or discards it; the hands after it wait.
   Every form works without this file; the words come from the page (#offline-words). */
(function () {
  "use strict";
  var d = document, w = window;
  var KEY = "scorekeeper-outbox";
  var words = d.getElementById("offline-words");
  if (!words) return;
  var say = words.dataset;

  function storage() {
    try { return w.localStorage; } catch (err) { return null; }
  }

  function load() {
    var store = storage(), raw = store && store.getItem(KEY);
    if (!raw) return [];
    try { var list = JSON.parse(raw); return Array.isArray(list) ? list : []; } catch (err) { return []; }
  }

  function saveAll(list) {
    var store = storage();
    if (!store) return false;
    try { store.setItem(KEY, JSON.stringify(list)); return true; } catch (err) { return false; }
  }

  function clock(ms) {
    try {
      return new Intl.DateTimeFormat(d.documentElement.lang || undefined,
        { hour: "2-digit", minute: "2-digit" }).format(new Date(ms));
    } catch (err) {
      var t = new Date(ms);
      return t.getHours() + ":" + ("0" + t.getMinutes()).slice(-2);
    }
  }

  function newId() {
    var bytes = new Uint8Array(16);
    w.crypto.getRandomValues(bytes);
    var abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", out = "";
    for (var i = 0; i < bytes.length; i++) out += abc[bytes[i] & 63];
    return out;
  }

  function token() {
    try { return JSON.parse(d.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (err) { return ""; }
  }

  /* ---- a. the worker ---- */
  if ("serviceWorker" in navigator && say.worker) {
    var first = !navigator.serviceWorker.controller;
    navigator.serviceWorker.register(say.worker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      /* The page that installed the worker came without it: have it kept too. */
      if (first && registration.active) registration.active.postMessage({ keep: w.location.href });
    }).catch(function () {});
  }

  /* ---- b. the banner ---- */
  var keptAt = Number(d.documentElement.getAttribute("data-offline-at")) || 0;
  var loadedAt = Date.now();
  var banner = d.getElementById("offline-banner");

  function offline() { return navigator.onLine === false; }

  function showBanner() {
    var dropped = offline();
    if (banner) {
      banner.hidden = !(keptAt || dropped);
      banner.textContent = say.banner.replace("{time}", clock(keptAt || loadedAt));
    }
    d.querySelectorAll("[data-offline-note]").forEach(function (note) {
      note.hidden = !(keptAt || dropped);
    });
  }
  showBanner();

  /* ---- c. entry forms: a fresh entry_id for a page shown again ---- */
  function freshIds() {
    d.querySelectorAll("input[data-entry-id]").forEach(function (input) { input.value = newId(); });
  }
  /* A kept page (or one from the back button's memory) holds an id that may be used already:
     this entry gets its own. A page from the server has a fresh one. */
  if (keptAt) freshIds();
  /* A form the service worker kept may carry an older version of its game than this phone
     knows (its own save since): the newest known one is its base (static/offline.js keeps it
     and sets the form's head; the version is set here, before the tab's draft of the form,
     kept per version, is looked up). */
  if (keptAt) {
    d.querySelectorAll("form[data-game]").forEach(function (form) {
      var input = form.querySelector("input[name=version]");
      try {
        var game = JSON.parse(form.getAttribute("data-game"));
        var known = JSON.parse(storage().getItem("scorekeeper-known:" + game.page) || "null");
        if (input && known && known.version > Number(input.value)) input.value = String(known.version);
      } catch (err) { /* no storage, or not ours */ }
    });
  }
  w.addEventListener("pageshow", function (e) { if (e.persisted) freshIds(); });

  function entryForm(elt) {
    var form = elt && elt.closest ? elt.closest("form") : null;
    return form && form.querySelector("input[data-entry-id]") ? form : null;
  }

  function describe(form) {
    var parts = [];
    form.querySelectorAll("section").forEach(function (section) {
      var name = section.querySelector("h2");
      var values = [];
      section.querySelectorAll("input[type=text], input:not([type])").forEach(function (input) {
        if (!input.value.trim() || input.closest(".seg")) return;
        var box = input.closest("label, .qrow");
        var label = box ? (box.querySelector(".qlabel") || box).textContent : "";
        label = label.replace(input.value, "").replace(/\s+/g, " ").trim();
        values.push((label ? label + " " : "") + input.value.trim());
      });
      if (values.length) parts.push((name ? name.textContent.trim() + ": " : "") + values.join(", "));
    });
    var out = form.querySelector("input[name=out]:checked");
    if (out && out.closest("label")) {
      /* a side's own part says "We went out" by itself; the whole hand names who did */
      var said = out.closest("label").textContent.trim();
      parts.unshift(out.type === "checkbox" ? said : say.wentOut + ": " + said);
    }
    return parts.join(" · ").slice(0, 600);
  }

  function enqueue(form) {
    var page = (form.querySelector("[data-offline-note]") || {}).dataset;
    var gameUrl = page && page.gameUrl;
    if (!gameUrl) return false;
    var fields = [], version = 0, id = "";
    new FormData(form).forEach(function (value, name) {
      if (typeof value !== "string" || name === "csrf_token" || name === "action") return;
      if (name === "version") { version = Number(value) || 0; return; }
      if (name === "entry_id") { id = value; return; }
      fields.push([name, value]);
    });
    var list = load();
    if (list.some(function (item) { return item.id === id; })) return true;  /* queued already */
    /* Each change moves the game's version on by one: a hand queued after others of the same
       game builds on them. */
    list.forEach(function (item) {
      if (item.page === gameUrl && item.version >= version) version = item.version + 1;
    });
    var heading = form.querySelector("h1") || d.querySelector("main h1");
    var title = heading ? heading.firstChild.textContent.trim() : "";
    /* A form set to the newest state the phone knows (static/offline.js) names its hand. */
    var number = Number(form.getAttribute("data-hand")) || 0;
    if (!number && !fields.some(function (pair) { return pair[0] === "number"; })) {
      /* A new hand after those waiting: its number is theirs plus one. */
      var before = list.filter(function (item) {
        return item.page === gameUrl && !item.fields.some(function (pair) { return pair[0] === "number"; });
      }).length;
      title = title.replace(/\d+/, function (n) { number = Number(n) + before; return String(number); });
    }
    list.push({
      id: id, url: form.getAttribute("action"), page: gameUrl, version: version, fields: fields,
      title: title, summary: describe(form), number: number || undefined,
      at: Date.now(), state: "waiting"
    });
    if (!saveAll(list)) return false;
    /* The tab's draft of this form is the queued entry now: the next entry starts empty. */
    try {
      var v = form.querySelector("input[name=version]");
      w.sessionStorage.removeItem("scorekeeper-draft:" + form.getAttribute("action") + ":" + (v ? v.value : ""));
    } catch (err) { /* no session storage */ }
    return true;
  }

  function kept(form) {
    d.dispatchEvent(new CustomEvent("scorekeeper:outbox"));
    /* The form opened in the game page (static/offline.js) closes: the game shows it waiting. */
    if (form.closest("[data-in-page]")) {
      form.dispatchEvent(new CustomEvent("scorekeeper:kept", { bubbles: true }));
      /* Asked at once: a server that answers but cannot save (its database down) says when
         to ask again, and the outbox then asks by itself (retryLater). */
      if (!offline()) sendNow(false);
      return;
    }
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      var page = form.querySelector("[data-offline-note]").dataset.gameUrl;
      w.location.assign(page);
      return;
    }
    /* No kept game page to go to: the form empties for the next entry, under a new id. */
    form.reset();
    freshIds();
    var fields = form.querySelector("#hand-fields, #entry-fields");
    if (fields) fields.dispatchEvent(new Event("change", { bubbles: true }));  /* the preview */
    /* static/notices.js said "nothing was sent": this entry is kept, though. */
    var notice = form.querySelector("[data-notice]");
    if (notice) notice.hidden = true;
    var note = form.querySelector("[data-offline-note]");
    note.textContent = say.kept;
    note.hidden = false;
    note.scrollIntoView({ block: "center" });
  }

  /* Offline: the save is kept here at once (htmx would only fail). */
  d.addEventListener("submit", function (e) {
    var form = entryForm(e.target);
    var button = e.submitter;
    if (!form || !offline() || !button || button.name !== "action" || button.value !== "save") return;
    e.preventDefault();
    e.stopPropagation();
    if (enqueue(form)) kept(form);
  }, true);

  /* Online but no answer (the server is down, asleep, or the answer was lost): kept too, under
     the same entry_id, so that a save the server did make is not made twice. */
  function lost(e) {
    var detail = e.detail || {};
    var form = detail.elt && detail.elt.tagName === "FORM" ? entryForm(detail.elt) : null;
    var config = detail.requestConfig || {};
    var data = config.formData;
    var action = data && data.get ? data.get("action") : (config.parameters || {}).action;
    if (!form || action !== "save" || config.verb !== "post") return;
    if (enqueue(form)) kept(form);
  }
  d.addEventListener("htmx:sendError", lost);
  d.addEventListener("htmx:timeout", lost);
  /* The server answered that it cannot save now (503 with its message alone: it cannot reach
     its database): nothing was saved, and the hand is kept as when there is no answer. (A
     database only busy for a moment sends the form back with its note instead.) */
  d.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (xhr && xhr.status === 503 && xhr.getResponseHeader("HX-Reswap") === "none") lost(e);
  });

  /* No live preview offline: the note says the hand is checked when it is sent. */
  d.addEventListener("htmx:beforeRequest", function (e) {
    var path = (e.detail && e.detail.requestConfig && e.detail.requestConfig.path) || "";
    if (offline() && /\/preview$/.test(path)) e.preventDefault();
  });

  /* ---- the outbox on the game page ---- */
  var box = null;

  function here() { return w.location.pathname; }

  function button(text, cls) {
    var b = d.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    return b;
  }

  function render(note) {
    var mine = load().filter(function (item) { return item.page === here(); });
    if (!mine.length) {
      if (box) { box.remove(); box = null; }
      return;
    }
    var main = d.getElementById("main");
    if (!main) return;
    if (!box) {
      box = d.createElement("section");
      box.className = "card outbox";
      box.id = "outbox";
      box.setAttribute("aria-live", "polite");
      main.prepend(box);
    }
    box.replaceChildren();
    var h = d.createElement("h2");
    h.textContent = say.title + " (" + mine.length + ")";
    var intro = d.createElement("p");
    intro.className = "small";
    intro.textContent = note || say.intro;
    box.append(h, intro);
    var list = d.createElement("ol");
    list.className = "outbox-items";
    mine.forEach(function (item) {
      var li = d.createElement("li");
      li.className = "outbox-item " + item.state;
      li.dataset.entryId = item.id;
      var head = d.createElement("p");
      var b = d.createElement("b");
      b.textContent = item.title;
      head.append(b, " · " + say.entered.replace("{time}", clock(item.at)));
      li.append(head);
      if (item.summary) {
        var what = d.createElement("p");
        what.className = "small muted";
        what.textContent = item.summary;
        li.append(what);
      }
      if (item.state !== "waiting") {
        var why = d.createElement("p");
        why.className = "flash flash-error";
        why.setAttribute("role", "alert");
        why.textContent = item.state === "conflict" ? say.conflict : say.refused;
        li.append(why);
        var open = button(say.open, "primary");
        open.dataset.outboxOpen = item.id;
        li.append(open);
      }
      var discard = d.createElement("details");
      discard.className = "more";
      var summary = d.createElement("summary");
      summary.textContent = say.discard;
      var sure = button(say.discardSure, "danger");
      sure.dataset.outboxDiscard = item.id;
      discard.append(summary, sure);
      li.append(discard);
      list.append(li);
    });
    var send = button(say.send, "primary block");
    send.dataset.outboxSend = "";
    box.append(list, send);
    /* static/offline.js adds each entry's points, and both versions of a conflict */
    d.dispatchEvent(new CustomEvent("scorekeeper:outbox-drawn"));
  }

  function update(id, change) {
    var list = load();
    list.forEach(function (item) { if (item.id === id) change(item); });
    saveAll(list);
  }

  function remove(id) {
    saveAll(load().filter(function (item) { return item.id !== id; }));
  }

  function body(item, csrf) {
    var data = new URLSearchParams();
    item.fields.forEach(function (pair) { data.append(pair[0], pair[1]); });
    data.append("version", String(item.version));
    data.append("entry_id", item.id);
    data.append("csrf_token", csrf);
    data.append("action", "save");
    return data;
  }

  function post(item, csrf) {
    return fetch(item.url, {
      method: "POST", body: body(item, csrf), credentials: "same-origin", cache: "no-store",
      headers: { "HX-Request": "true", "X-CSRFToken": csrf }
    });
  }

  /* A token for this phone's session from the server (the page's own may be a kept one). */
  function freshToken(item) {
    return fetch(item.page, { credentials: "same-origin", cache: "no-store" }).then(function (answer) {
      return answer.text();
    }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      try { return JSON.parse(doc.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
      catch (err) { return ""; }
    });
  }

  var sending = false;

  /* Sends what waits, oldest first; a game whose entry was refused sends nothing after it.
     Resolves with how many were saved and for which game pages; stops at the first request
     without an answer. */
  function flush() {
    var done = { saved: 0, pages: {} };
    if (sending || offline()) return Promise.resolve(done);  /* the phone knows: no try */
    var queue = load();
    if (!queue.length) return Promise.resolve(done);
    sending = true;
    var blocked = {}, csrf = token(), retried = {};

    function step(i) {
      if (i >= queue.length) return Promise.resolve();
      var item = queue[i];
      if (blocked[item.page]) return step(i + 1);
      return post(item, csrf).then(function (answer) {
        if (answer.ok && (answer.headers.get("HX-Redirect") || answer.redirected)) {
          remove(item.id);
          done.saved += 1;
          done.pages[item.page] = true;
          return step(i + 1);
        }
        if (answer.status === 400 && !retried[item.id]) {  /* an expired form token */
          retried[item.id] = true;
          return freshToken(item).then(function (fresh) {
            if (fresh) csrf = fresh;
            return step(i);
          });
        }
        if (answer.status === 409 || answer.status === 410 || answer.status === 422 ||
            answer.status === 400 || answer.status === 404) {
          update(item.id, function (it) { it.state = answer.status === 409 ? "conflict" : "refused"; });
          /* newly refused: the page shows the game as it is now, beside the entry */
          if (answer.status === 409 && item.state === "waiting") done.pages[item.page] = true;
          blocked[item.page] = true;
          return step(i + 1);
        }
        /* busy, too many requests, the database down, a server error: later; when the
           server says how much later (Retry-After), by itself */
        var wait = Number(answer.headers.get("Retry-After"));
        if (wait > 0) done.later = wait;
        return null;
      });
    }

    return step(0).catch(function () { return null; }).then(function () {
      sending = false;
      return done;
    });
  }

  /* What waits is tried again by itself when the server answered but could not save it and
     said when to ask again (503 with Retry-After: its database is down; the "online" event
     never comes then): after that wait, then twice as long each time up to a minute; a send
     that ends otherwise, or the phone going offline, starts over. */
  var retryTimer = 0, retryWait = 0;
  function retryLater(seconds) {
    clearTimeout(retryTimer);
    retryWait = Math.min(60, Math.max(seconds, retryWait * 2));
    retryTimer = setTimeout(function () { sendNow(false); }, retryWait * 1000);
  }

  function sendNow(asked) {
    if (load().some(function (it) { return it.page === here(); })) render(say.sending);
    return flush().then(function (done) {
      if (done.later && !offline() && load().some(function (it) { return it.state === "waiting"; })) {
        retryLater(done.later);
      } else {
        retryWait = 0;
      }
      /* Saved: the page shows the game as it is now. */
      if ((done.saved || done.pages[here()]) && (done.pages[here()] || keptAt)) { w.location.reload(); return; }
      var waiting = load().some(function (it) { return it.page === here() && it.state === "waiting"; });
      render(waiting && (asked || offline()) ? say.stillOffline : "");
    });
  }

  d.addEventListener("click", function (e) {
    var t = e.target;
    if (!t.closest) return;
    var send = t.closest("[data-outbox-send]");
    if (send) { sendNow(true); return; }
    var gone = t.closest("[data-outbox-discard]");
    if (gone) { remove(gone.dataset.outboxDiscard); render(); return; }
    var open = t.closest("[data-outbox-open]");
    if (open) {
      /* The entry as a plain form post: the server's answer is the entry form with the other
         change (409) or the problems (422), or the game page once it is saved. */
      var item = load().filter(function (it) { return it.id === open.dataset.outboxOpen; })[0];
      if (!item) return;
      var form = d.createElement("form");
      form.method = "post";
      form.action = item.url;
      body(item, token()).forEach(function (value, name) {
        var input = d.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      });
      d.body.append(form);
      form.submit();
    }
  });

  /* Back online: what waits is sent; a page shown from the phone's copy is fetched anew. A
     connection that flickers (a new page may hear "online" while none is there) is given a
     moment to hold first. */
  var settling = 0;
  w.addEventListener("online", function () {
    clearTimeout(settling);
    settling = setTimeout(function () {
      showBanner();
      if (offline()) return;
      sendNow(false).then(function () { if (keptAt && !offline()) w.location.reload(); });
    }, 1500);
  });
  w.addEventListener("offline", function () {
    clearTimeout(settling);
    clearTimeout(retryTimer);
    retryWait = 0;
    showBanner();
  });
  d.addEventListener("visibilitychange", function () {
    if (d.visibilityState === "visible") sendNow(false);
  });
  d.addEventListener("scorekeeper:outbox", function () { render(); });
  render();
  sendNow(false);
})();

/* 4. A score change, told to screen readers: the page's polite live region (#score-news in
   base.html) says the new totals in the page's language. What to say comes from the server (or
   from offline.js when the phone scores) in a [data-say] attribute: the board's totals
   (games/_board.html: a saved hand, or a live update from another phone swapped in by htmx)
   and the entry form's live preview (#hand-summary: each side's score and total after the
   hand). A board's words are kept in this tab under its data-say-key (the game), so the game
   page opened after a save says the new totals, and a first visit says nothing (the page is
   read anyway). The preview is said after a pause in typing or tapping, and only when it
   changed. */
(function () {
  "use strict";
  var d = document, w = window;
  var region = d.getElementById("score-news");
  if (!region) return;
  var PAUSE = 1200;  /* ms without a new preview before it is said */
  var BOARD = 400;   /* ms: a board swapped in, or the page just opened */
  var memory = {};
  var timers = {};

  function keyOf(el) { return el.getAttribute("data-say-key") || el.id || "say"; }
  function kept(el) {
    var key = keyOf(el);
    if (el.hasAttribute("data-say-key")) {
      try { return w.sessionStorage.getItem("scorekeeper-said:" + key); } catch (e) { /* none */ }
    }
    /* a form's preview met for the first time (one opened in the page) starts empty */
    return key in memory ? memory[key] : el.hasAttribute("data-say-key") ? null : "";
  }
  function keep(el, text) {
    var key = keyOf(el);
    memory[key] = text;
    if (!el.hasAttribute("data-say-key")) return;
    try { w.sessionStorage.setItem("scorekeeper-said:" + key, text); } catch (e) { /* private mode */ }
  }
  function say(text) {
    /* emptied first, so that the same words twice are said twice */
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 60);
  }
  function check(el) {
    var text = el.getAttribute("data-say") || "";
    var before = kept(el);
    keep(el, text);
    if (text && before !== null && before !== text) say(text);
  }
  function later(el) {
    var key = keyOf(el), id = el.id;
    clearTimeout(timers[key]);
    timers[key] = setTimeout(function () {
      var now = el.isConnected ? el : id && d.getElementById(id);
      if (now) check(now);
    }, el.hasAttribute("data-say-key") ? BOARD : PAUSE);
  }
  function look() { d.querySelectorAll("[data-say]").forEach(later); }

  /* what the form holds when it opens is not news (a fresh form, or a draft brought back) */
  d.querySelectorAll("[data-say]:not([data-say-key])").forEach(function (el) {
    memory[keyOf(el)] = el.getAttribute("data-say") || "";
  });
  /* a board met for the first time in this tab is kept at once, not only once its pause is
     over: a page left sooner (straight on to the entry form) still counts as heard */
  d.querySelectorAll("[data-say][data-say-key]").forEach(function (el) {
    if (kept(el) === null) keep(el, el.getAttribute("data-say") || "");
  });
  d.addEventListener("htmx:afterSettle", look);
  d.addEventListener("scorekeeper:preview", look);  /* the phone's own preview (offline.js) */
  look();
})();
