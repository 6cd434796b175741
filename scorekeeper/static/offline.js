/* The table plays on without the server (docs/offline.md). On a Canasta game page and its
   entry page; nothing here needs the service worker, which a phone on the LAN (plain http on a
   private address: no secure context) never gets.

   1. The newest state this phone knows of each game (localStorage "scorekeeper-known:<page>"):
      written by every page the server sent (never by a copy the service worker kept), read
      when an entry is made offline. An entry's base is that state plus the hands waiting in
      the outbox: a phone that saved hand 1 itself enters hand 2 on top of it, with hand 2's
      number, dealer and minimums, and no 409 for its own save.
   2. The rules engine on the phone (window.scorekeeperEngine, static/engine.js, a Pyodide
      worker): loaded after the page, or on a tap where the link is slow; it scores a hand and
      answers the referee as the server's API does.
   3. The game page holds the entry form, fetched ahead while online. "Enter hand" without an
      answer from the server opens it in the page (no navigation, which would fail); its
      preview, breakdown, notes and minimums come from the engine; Save puts the hand in the
      outbox (static/notices.js). "Ask the referee" opens a panel of the page, answered by the
      engine.
   4. Hands waiting in the outbox count in the board's totals and the chart, marked waiting.
   5. A waiting hand that meets another phone's change: both side by side, and the scorer
      chooses (both as consecutive hands, mine, or theirs); nothing is dropped without a tap.
   6. The page says which holds: ready to play offline (a service worker keeps the pages and
      the engine) or offline while this page stays open. */
(function () {
  "use strict";
  var d = document, w = window;
  var root = d.documentElement;
  var sayEl = d.getElementById("offline-play");
  if (!sayEl) return;
  var say = sayEl.dataset;
  var holder = d.querySelector("[data-game]");
  if (!holder) return;
  var game;
  try { game = JSON.parse(holder.getAttribute("data-game")); } catch (err) { return; }
  var KNOWN = "scorekeeper-known:" + game.page;
  var OUTBOX = "scorekeeper-outbox";
  var kept = root.hasAttribute("data-offline-at");  /* a copy the service worker kept */
  var lang = root.lang || "en";

  function store() { try { return w.localStorage; } catch (err) { return null; } }
  function read(key, fallback) {
    var s = store();
    if (!s) return fallback;
    try { var v = JSON.parse(s.getItem(key) || "null"); return v === null ? fallback : v; }
    catch (err) { return fallback; }
  }
  function write(key, value) {
    var s = store();
    if (!s) return;
    try { s.setItem(key, JSON.stringify(value)); } catch (err) { /* full */ }
  }
  function offline() { return navigator.onLine === false; }

  /* ---- 1. the newest state known ---- */
  function known() {
    var k = read(KNOWN, null);
    return k && k.version > game.version ? k : game;
  }
  if (!kept) {
    var before = read(KNOWN, null);
    if (!before || before.version <= game.version) write(KNOWN, game);
  }
  function waiting() {
    return read(OUTBOX, []).filter(function (item) {
      return item.page === game.page && item.state === "waiting";
    });
  }
  function newHands(list) {
    return list.filter(function (item) {
      return !item.fields.some(function (pair) { return pair[0] === "number"; });
    });
  }

  /* ---- numbers in the reader's language ---- */
  var fmt;
  /* grouped from 1,000 on, as the server writes numbers (Polish too: 1 500, not 1500) */
  try { fmt = new Intl.NumberFormat(lang, { useGrouping: "always" }); }
  catch (err) { try { fmt = new Intl.NumberFormat(lang); } catch (e2) { fmt = { format: String }; } }
  function number(n) { return fmt.format(n).replace(/^-/, "\u2212"); }
  function signed(n) { return (n > 0 ? "+" : "") + number(n); }
  function el(tag, cls, text) {
    var e = d.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* ---- 2. the engine ---- */
  /* static/engine.js runs after the page (boot.js, data-run-later) and tells each change of
     its state as the event "scorekeeper:engine": waiting (on a slow link, for start()),
     loading, ready, failed. Without it (a page that names no engine): missing. */
  var engineState = "missing";
  var engineReady = null;
  function engine() {
    var e = w.scorekeeperEngine;
    return e && engineState === "ready" ? e : null;
  }
  function watchEngine() {
    var e = w.scorekeeperEngine;
    if (!e || !e.ready) return;
    var was = engineState;
    engineState = e.state === "failed" ? "missing" : e.state || "loading";
    if (!engineReady) {
      engineReady = Promise.resolve(e.ready).then(function () {
        engineState = "ready";
        keepEngine();
        changed();
      }, function () {
        engineState = "missing";
        changed();
      });
    }
    if (was !== engineState) status();
  }
  d.addEventListener("scorekeeper:engine", watchEngine);
  function megabytes(bytes) {
    return say.megabytes.replace("{size}", number(Math.round(bytes / 100000) / 10));
  }

  /* ---- the form's fields as the API's teams (what web/games/hand_form.build_entry does on
     the server, read from the same field names) ---- */
  var QUICK = ["natural_canastas", "mixed_canastas", "wild_canastas", "meld_points", "hand_points",
    "black_threes_in_hand", "sevens_canastas", "aces_canastas", "wild_canastas_jokers",
    "wild_canastas_twos", "unfinished_sevens", "unfinished_aces", "unfinished_wild",
    "sevens_aces_held"];
  /* A number as a person types it (web/play/pages.read_int); what is none counts 0 and is
     said next to its field, as the server says it. */
  var unread = [];
  function whole(text, where) {
    var t = String(text || "").replace(/[\s.,'\u00a0\u202f]/g, "").replace(/\u2212/g, "-").replace(/^\+/, "");
    if (!t) return 0;
    if (/^-?\d{1,9}$/.test(t)) return parseInt(t, 10);
    unread.push({ code: "request.type", where: where, message: game.words.whole_number });
    return 0;
  }
  function teamsOf(pairs, count) {
    unread = [];
    var all = {};
    pairs.forEach(function (p) { (all[p[0]] = all[p[0]] || []).push(p[1]); });
    function one(name) { return (all[name] || [""])[0]; }
    var out = one("out"), concealed = one("concealed") === "1";
    var teams = [], fields = [];
    for (var i = 0; i < count; i++) {
      var p = "t" + i, team = {}, sent = [];
      var mode = one(p + "-mode") || "quick";
      if (mode === "total") {
        team.total = whole(one(p + "-total"), "teams[" + i + "].total");
      } else if (mode === "detail") {
        team.melds = [];
        (all[p + "-meld"] || []).forEach(function (text, f) {
          if (!text.trim()) return;
          team.melds.push(text);
          sent.push(f);
        });
        team.hands = (all[p + "-hand"] || []).map(function (text) { return text; });
      } else {
        var quick = {};
        QUICK.forEach(function (key) {
          if (all[p + "-" + key]) quick[key] = whole(one(p + "-" + key), "teams[" + i + "].quick." + key);
        });
        team.quick = quick;
      }
      if (mode !== "total") {
        var reds = (all[p + "-red"] || ["0"]).map(function (r) { return whole(r, "teams[" + i + "].red_threes"); });
        team.red_threes = reds.length > 1 ? reds : reds[0];
        if (all[p + "-black"]) team.black_threes = whole(one(p + "-black"), "teams[" + i + "].black_threes");
        if (one(p + "-special")) team.special_hand = one(p + "-special");
      }
      team.went_out = out === String(i);
      team.concealed = concealed && team.went_out;
      var points = all[p + "-adj-points"] || [], notes = all[p + "-adj-note"] || [];
      var adjustments = [];
      points.forEach(function (pt, k) {
        var note = notes[k] || "";
        if (!pt.trim() && !note.trim()) return;
        adjustments.push({ points: whole(pt, "teams[" + i + "].adjustments[" + adjustments.length + "].points"), note: note });
      });
      if (adjustments.length) team.adjustments = adjustments;
      teams.push(team);
      fields.push(sent);
    }
    return { teams: teams, meldFields: fields, problems: unread };
  }
  function request(teams) {
    var r = {};
    Object.keys(game.request).forEach(function (k) { r[k] = game.request[k]; });
    r.teams = teams;
    return r;
  }

  /* Each side's score columns' points of a scored hand (a side of partners scores one column,
     a cutthroat pair each partner their own). */
  function byColumn(answer, sides) {
    var cols = game.columns.map(function () { return 0; });
    (answer.teams || []).forEach(function (team, i) {
      (sides[i] || []).forEach(function (c, k) {
        var own = team.player_scores && team.player_scores[k];
        cols[c] += typeof own === "number" ? own : team.score;
      });
    });
    return cols;
  }

  /* ---- the state after the waiting hands (totals, minimums, next hand, dealer) ---- */
  var after = null;  /* {totals, scores: [[…] per waiting hand], minimums} once scored */
  /* The last state counted is kept ("scorekeeper-after:<page>", with the base's version and
     the waiting hands it counted): a page reloaded without a network shows the right totals
     at once, before the engine has started. */
  var AFTER = "scorekeeper-after:" + game.page;
  function stamp(list) {
    return known().version + ":" + list.map(function (item) { return item.id; }).join(",");
  }
  function remembered(list) {
    var last = read(AFTER, null);
    return last && last.stamp === stamp(list) ? last.after : null;
  }
  function scoreWaiting() {
    var e = engine();
    var base = known();
    var list = waiting();
    if (!list.length) { after = null; return Promise.resolve(null); }
    if (!e) { after = remembered(list); return Promise.resolve(after); }
    return Promise.all(list.map(function (item) {
      var t = teamsOf(item.fields, base.sides.length);
      return Promise.resolve(e.score(request(t.teams))).then(function (answer) {
        return answer && answer.teams && !answer.problems ? byColumn(answer, base.sides) : null;
      }, function () { return null; });
    })).then(function (scores) {
      var totals = base.columns.map(function (c) { return c.total; });
      scores.forEach(function (s) { if (s) s.forEach(function (v, c) { totals[c] += v; }); });
      return Promise.all(totals.map(function (total, c) {
        return Promise.resolve(e.referee("initial-meld", minimumRequest(total)))
          .then(function (answer) {
            return answer && typeof answer.required === "number" ? answer.required : base.columns[c].minimum;
          }, function () { return base.columns[c].minimum; });
      })).then(function (minimums) {
        after = { totals: totals, scores: scores, minimums: minimums, items: list };
        write(AFTER, { stamp: stamp(list), after: after });
        return after;
      });
    });
  }
  function minimumRequest(total) {
    var r = {};
    Object.keys(game.request).forEach(function (k) { r[k] = game.request[k]; });
    r.cumulative_score = total;
    r.melds = [];
    return r;
  }

  /* ---- 3. the entry form in the page ---- */
  var formHtml = null;
  function fetchForm() {
    if (!game.form || offline()) return Promise.resolve(null);
    var ctrl = w.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctrl) ctrl.abort(); }, 4000);
    return fetch(game.form, { credentials: "same-origin", cache: "no-store", signal: ctrl && ctrl.signal })
      .then(function (answer) {
        clearTimeout(timer);
        if (!answer.ok || answer.redirected) return null;
        return answer.text().then(function (html) { formHtml = html; return html; });
      }, function () { clearTimeout(timer); return null; });
  }

  /* The copy of the form a service worker kept (a page shown from its copy cannot fetch). */
  function keptForm() {
    if (formHtml || !w.caches || !game.form) return Promise.resolve(formHtml);
    return w.caches.match(game.form, { ignoreVary: true }).then(function (hit) {
      return hit ? hit.text().then(function (html) { formHtml = formHtml || html; return formHtml; }) : null;
    }, function () { return null; });
  }

  /* The form's head and base as the newest state known says, after the waiting hands. */
  function rebase(form) {
    var base = known();
    var list = waiting();
    var number = form.querySelector("input[name=number]");
    var version = form.querySelector("input[name=version]");
    if (number) return;  /* a correction: its own hand's numbers */
    if (version && Number(version.value) < base.version) version.value = String(base.version);
    var extra = newHands(list).length;
    var n = base.next_hand + extra;
    var dealer = base.dealers.length ? base.dealers[extra % base.dealers.length] : "";
    var h1 = form.querySelector("h1");
    if (h1 && h1.firstChild && h1.firstChild.nodeType === 3) {
      h1.firstChild.textContent = h1.firstChild.textContent.replace(/\d+/, String(n));
    }
    var who = h1 && h1.querySelector("small");
    if (who && dealer) who.textContent = say.deals.replace("{name}", dealer);
    form.setAttribute("data-hand", String(n));
    minimums(form, base);
  }
  function minimums(form, base) {
    var mins = after ? after.minimums : base.columns.map(function (c) { return c.minimum; });
    form.querySelectorAll(".side").forEach(function (side, i) {
      var nums = side.querySelectorAll(".need b.num");
      var cols = base.sides[i] || [];
      nums.forEach(function (b, k) {
        var c = cols[k] !== undefined ? cols[k] : cols[0];
        if (c !== undefined && mins[c] !== undefined) b.textContent = number(mins[c]);
      });
    });
  }

  /* ---- the preview from the engine ---- */
  var SLOTS = { natural_canastas: "q-canastas", mixed_canastas: "q-canastas", wild_canastas: "q-canastas",
    sevens_canastas: "q-canastas", aces_canastas: "q-canastas", wild_canastas_jokers: "q-canastas",
    wild_canastas_twos: "q-canastas", unfinished_sevens: "q-penalties", unfinished_aces: "q-penalties",
    unfinished_wild: "q-penalties", sevens_aces_held: "q-penalties", meld_points: "q-meld_points",
    hand_points: "q-hand_points", black_threes_in_hand: "q-black_threes_in_hand" };
  function slotFor(where, meldFields) {
    var m = /^teams\[(\d+)\](.*)$/.exec(where || "");
    if (!m) {
      if (/^lone_player/.test(where)) return "lone";
      if (/^(stock_out|concealed)/.test(where)) return "out";
      return "hand";
    }
    var p = "t" + m[1], rest = m[2], k;
    if ((k = /^\.melds\[(\d+)\]/.exec(rest))) {
      var sent = meldFields[+m[1]] || [];
      return sent[+k[1]] !== undefined ? p + "-m" + sent[+k[1]] : p;
    }
    if ((k = /^\.hands\[(\d+)\]/.exec(rest))) return p + "-h" + k[1];
    if (/^\.red_threes/.test(rest)) return p + "-red";
    if (/^\.black_threes/.test(rest)) return p + "-black";
    if (/^\.special_hand/.test(rest)) return p + "-special";
    if (/^\.total/.test(rest)) return p + "-total";
    if (/^\.adjustments/.test(rest)) return p + "-adj";
    if ((k = /^\.quick\.(\w+)/.exec(rest)) && SLOTS[k[1]]) return p + "-" + SLOTS[k[1]];
    if (/^\.(went_out|concealed)/.test(rest)) return "out";
    return p;
  }
  function note(form, id, text, kind) {
    var slot = form.querySelector("#n-" + id) || form.querySelector("#n-hand");
    if (slot) slot.append(el("p", "note " + kind, text));
  }
  var previewSeq = 0;
  /* the form's values whose preview the server drew last: the phone's answer for the same
     values, when it comes later (a busy phone, or a tap that moved on without a change), is
     not drawn over it (it would drop what switching the way of entry keeps) */
  var serverDrawn = null;
  function valuesOf(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") pairs.push(name + "=" + value);
    });
    return pairs.join("&");
  }
  function enginePreview(form) {
    var e = engine();
    var offlineNote = form.querySelector("[data-offline-note]");
    if (!e) {
      if (offlineNote) { offlineNote.textContent = say.needsEngine; offlineNote.hidden = false; }
      return Promise.resolve(null);
    }
    if (offlineNote) {
      offlineNote.textContent = say.fromPhone;
      offlineNote.hidden = !(offline() || serverSilent);
    }
    var sides = form.querySelectorAll(".side");
    var pairs = [];
    new FormData(form).forEach(function (value, name) { if (typeof value === "string") pairs.push([name, value]); });
    var t = teamsOf(pairs, sides.length);
    var seq = ++previewSeq;
    var values = valuesOf(form);
    var started = performance.now();
    return Promise.resolve(e.score(request(t.teams))).then(function (answer) {
      if (seq !== previewSeq || values === serverDrawn || !answer) return;
      drawPreview(form, answer, t);
      form.setAttribute("data-preview-ms", String(Math.round(performance.now() - started)));
      form.dispatchEvent(new CustomEvent("scorekeeper:preview", { bubbles: true }));
    });
  }
  function drawPreview(form, answer, t) {
    var words = game.words, base = known();
    var totals = after ? after.totals : base.columns.map(function (c) { return c.total; });
    form.querySelectorAll(".slot").forEach(function (s) { s.replaceChildren(); });
    var sums = form.querySelector("#hand-summary");
    if (sums) sums.replaceChildren();
    var teams = answer.teams || [];
    var said = [];  /* what a screen reader is told (notices.js, part 4) */
    form.querySelectorAll(".side").forEach(function (side, i) {
      var team = teams[i];
      var name = side.querySelector(".side-head h2");
      var box = side.querySelector(".side-score");
      if (sums) {
        var sum = el("span", "sum");
        sum.append(el("span", "sum-name", name ? name.textContent : ""), " ",
          el("b", "num", team && typeof team.score === "number" ? signed(team.score) : "\u2013"));
        sums.append(sum);
      }
      var cols = base.sides[i] || [];
      if (team && typeof team.score === "number") {
        said.push((name ? name.textContent + " " : "") + signed(team.score) +
          (cols.length === 1 ? ", " + words.total.replace("{total}", number(totals[cols[0]] + team.score)) : ""));
      }
      if (!box) return;
      box.replaceChildren();
      /* what switching the way of entry keeps (static/games.js) is the server's to say: an
         older answer's values go until its next preview */
      Array.prototype.slice.call(box.attributes).forEach(function (a) {
        if (a.name.indexOf("data-keep-") === 0) box.removeAttribute(a.name);
      });
      if (!team || typeof team.score !== "number") return;
      var head = el("div", "hand-score");
      head.append(el("span", "muted small", words.this_hand), " ", el("b", "num", signed(team.score)));
      if (cols.length === 1) {
        head.append(" ", el("span", "after", words.total.replace("{total}", number(totals[cols[0]] + team.score))));
      }
      box.append(head);
      var dl = el("dl", "items");
      words.order.forEach(function (key) {
        var v = team.items && team.items[key];
        if (!v) return;
        var row = el("div");
        row.append(el("dt", "", words.items[key]), el("dd", "num", signed(v)));
        dl.append(row);
      });
      box.append(dl);
    });
    var problems = (t.problems || []).concat(answer.problems || []);
    problems.forEach(function (p) {
      var slot = slotFor(p.where, t.meldFields);
      var text = p.message || p.code;
      var m = /^teams\[(\d+)\]/.exec(p.where || "");
      if (slot === "out" && m) {
        var h = form.querySelectorAll(".side .side-head h2")[+m[1]];
        if (h) text = h.textContent + ": " + text;
      }
      note(form, slot, text, "problem");
    });
    (answer.warnings || []).forEach(function (p) {
      note(form, slotFor(p.where, t.meldFields), p.message || p.code, "warning");
    });
    if (sums) sums.setAttribute("data-say", said.length ? said.join("; ") + "." : "");
    if (sums && problems.length) {
      var a = el("a", "sum-problem", words.check);
      a.href = "#hand-fields";
      a.setAttribute("data-first-problem", "");
      sums.append(a);
    }
  }
  /* The engine answers while there is no connection (the browser says so, or the server gave
     no answer to the last preview). Online too, once it is ready, the phone draws the preview
     at once, with no round trip (benchmarks/bench_engine_phone.py: about 15 ms from the key to
     the preview drawn, against about 270 ms for the server's); the server's preview still
     follows when typing pauses and, as the authority, draws over it (with what only the server
     draws: a side's players scored apart, what switching the way of entry keeps). Where a side
     scores its players apart (several columns), the preview stays the server's. */
  var serverSilent = false;
  function phoneFirst() {
    return !!engine() && known().sides.every(function (cols) { return cols.length === 1; });
  }
  function useEngine() { return offline() || serverSilent || phoneFirst(); }
  var timer = 0;
  d.addEventListener("input", schedule, true);
  d.addEventListener("change", schedule, true);
  function schedule(e) {
    var form = e.target && e.target.closest && e.target.closest("#hand-form");
    if (!form || !useEngine()) return;
    /* once the other handlers of this event have run (the card pad fills in what it
       counts), before the next frame */
    var mine = ++timer;
    Promise.resolve().then(function () { if (mine === timer) enginePreview(form); });
  }
  /* A server's preview of values the form no longer holds is not drawn over the phone's. */
  d.addEventListener("htmx:beforeSwap", function (e) {
    var config = e.detail && e.detail.requestConfig;
    var path = (config && config.path) || "";
    var form = d.getElementById("hand-form");
    if (/\/preview$/.test(path) && config.phoneValues !== undefined && form &&
        config.phoneValues !== valuesOf(form)) {
      e.detail.shouldSwap = false;
    }
  });
  d.addEventListener("htmx:afterSwap", function (e) {
    var config = e.detail && e.detail.requestConfig;
    var path = (config && config.path) || "";
    if (/\/preview$/.test(path) && config.phoneValues !== undefined) {
      serverDrawn = config.phoneValues;
    }
  });
  d.addEventListener("htmx:sendError", function (e) {
    var path = (e.detail && e.detail.requestConfig && e.detail.requestConfig.path) || "";
    if (!/\/preview$/.test(path)) return;
    serverSilent = true;
    var form = d.getElementById("hand-form");
    if (form) enginePreview(form);
  });
  d.addEventListener("htmx:afterRequest", function (e) {
    var path = (e.detail && e.detail.requestConfig && e.detail.requestConfig.path) || "";
    if (/\/preview$/.test(path) && e.detail.successful) serverSilent = false;
  });
  /* While the engine answers, htmx does not ask the server (it has no answer). */
  d.addEventListener("htmx:beforeRequest", function (e) {
    var path = (e.detail && e.detail.requestConfig && e.detail.requestConfig.path) || "";
    if (!/\/preview$/.test(path)) return;
    if (serverSilent && engine()) { e.preventDefault(); return; }
    var sent = d.getElementById("hand-form");
    if (e.detail.requestConfig && sent) e.detail.requestConfig.phoneValues = valuesOf(sent);
  });

  /* ---- the in-page panel (the entry form or the referee) ---- */
  var panel = null, hidden = [];
  function openPanel(content, kind) {
    closePanel();
    var main = d.getElementById("main");
    if (!main) return null;
    hidden = Array.prototype.filter.call(main.children, function (c) { return !c.classList.contains("set-aside"); });
    hidden.forEach(function (c) { c.classList.add("set-aside"); });
    panel = el("div", "in-page " + kind);
    panel.setAttribute("data-in-page", kind);
    var back = el("button", "link back-to-game", say.back);
    back.type = "button";
    back.setAttribute("data-close-panel", "");
    var crumbs = el("nav", "crumbs");
    crumbs.append(back);
    panel.append(crumbs, content);
    main.append(panel);
    w.scrollTo(0, 0);
    return panel;
  }
  function closePanel() {
    if (!panel) return;
    var pad = d.getElementById("pad");
    if (pad && panel.contains(pad)) pad.hidden = true;
    panel.remove();
    panel = null;
    hidden.forEach(function (c) { c.classList.remove("set-aside"); });
    hidden = [];
    render();
  }
  d.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("[data-close-panel]")) closePanel();
  });

  function openForm() {
    if (!formHtml) {
      var sorry = el("p", "flash flash-error", say.noForm);
      sorry.setAttribute("role", "alert");
      openPanel(sorry, "entry");
      return;
    }
    var doc = new DOMParser().parseFromString(formHtml, "text/html");
    var form = doc.getElementById("hand-form");
    if (!form) return;
    form = d.importNode(form, true);
    var box = el("div");
    box.append(form);
    var pad = doc.getElementById("pad");
    if (pad && !d.getElementById("pad")) box.append(d.importNode(pad, true));
    openPanel(box, "entry");
    /* a new entry: its own id (the fetched form's may be used already by an earlier one) */
    var id = form.querySelector("input[data-entry-id]");
    if (id) id.value = newId();
    rebase(form);
    if (w.htmx) w.htmx.process(form);
    var firstChip = form.querySelector("input[name=out]");
    if (firstChip) firstChip.focus({ preventScroll: true });
    if (useEngine()) enginePreview(form);
    root.setAttribute("data-entry-open", "1");
  }

  function newId() {
    var bytes = new Uint8Array(16);
    w.crypto.getRandomValues(bytes);
    var abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", out = "";
    for (var i = 0; i < bytes.length; i++) out += abc[bytes[i] & 63];
    return out;
  }

  /* A link that leads away: followed when the server answers (a quick probe), else its panel. */
  function probe(url) {
    if (offline()) return Promise.resolve(false);
    var ctrl = w.AbortController ? new AbortController() : null;
    var t = setTimeout(function () { if (ctrl) ctrl.abort(); }, 3000);
    return fetch(url, { method: "HEAD", credentials: "same-origin", cache: "no-store", signal: ctrl && ctrl.signal })
      .then(function (a) { clearTimeout(t); return a.ok || a.status < 500; }, function () { clearTimeout(t); return false; });
  }
  d.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var a = e.target.closest && e.target.closest("a[href]");
    if (!a || !holder || holder.tagName === "FORM") return;
    var enter = a.getAttribute("href") === game.form;
    var ask = a.classList.contains("ask-referee");
    if (!enter && !ask) return;
    e.preventDefault();
    probe(a.href).then(function (up) {
      if (up) { serverSilent = false; w.location.assign(a.href); return; }
      serverSilent = true;
      if (enter) keptForm().then(openForm); else openReferee(a);
    });
  });

  /* Saved into the outbox (static/notices.js): the panel closes, the game shows it waiting. */
  d.addEventListener("scorekeeper:kept", function (e) {
    if (!panel || !panel.contains(e.target)) return;
    root.removeAttribute("data-entry-open");
    closePanel();
    var box = d.getElementById("outbox");
    if (box) box.scrollIntoView({ block: "start" });
  });

  /* ---- the referee's panel ---- */
  function openReferee(link) {
    var col = Array.prototype.indexOf.call(d.querySelectorAll(".board .ask-referee"), link);
    var base = known();
    var total = after ? after.totals[col] : (base.columns[col] || {}).total || 0;
    var box = el("section", "card referee-panel");
    box.append(el("h1", "", say.refereeTitle));
    box.append(el("p", "small muted", say.refereeFor.replace("{name}", (base.columns[col] || {}).name || "")));
    var form = el("form", "referee-offline");
    form.setAttribute("novalidate", "");
    var kinds = el("div", "chips");
    [["meld", say.askMeld], ["initial-meld", say.askInitial], ["discard-pile", say.askPile],
      ["go-out", say.askOut]].forEach(function (k, i) {
      var l = el("label", "chip");
      var r = el("input");
      r.type = "radio"; r.name = "kind"; r.value = k[0]; r.checked = i === 0;
      l.append(r, " " + k[1]);
      kinds.append(l);
    });
    var lab = el("label", "qlabel", say.cards);
    var input = el("input", "cardfield");
    input.type = "text"; input.name = "cards"; input.id = "referee-cards";
    input.setAttribute("autocapitalize", "characters");
    input.setAttribute("spellcheck", "false");
    input.placeholder = say.cardsExample;
    lab.setAttribute("for", input.id);
    /* the discard pile's top card; going out: the side's canastas on the table */
    function field(id, label, type) {
      var l = el("label", "qlabel", label);
      var f = el("input", type === "text" ? "cardfield" : "");
      f.type = type; f.id = id; f.name = id;
      if (type === "number") { f.min = "0"; f.max = "30"; f.setAttribute("inputmode", "numeric"); }
      else { f.setAttribute("autocapitalize", "characters"); f.setAttribute("spellcheck", "false"); }
      l.setAttribute("for", id);
      var wrap = el("div", "referee-extra");
      wrap.append(l, f);
      return wrap;
    }
    var pile = field("referee-top", say.topCard, "text");
    var outs = el("fieldset", "referee-extra");
    outs.append(el("legend", "", say.canastas));
    var counts = el("div", "row counts");
    counts.append(field("referee-natural", say.natural, "number"), field("referee-mixed", say.mixed, "number"));
    outs.append(counts);
    function shown() {
      var kind = form.querySelector("input[name=kind]:checked").value;
      pile.hidden = kind !== "discard-pile";
      outs.hidden = kind !== "go-out";
      lab.textContent = kind === "discard-pile" ? say.hand : kind === "go-out" ? say.meldsNow : say.cards;
    }
    var answer = el("div", "referee-answer");
    answer.setAttribute("aria-live", "polite");
    answer.id = "referee-answer";
    form.append(kinds, pile, outs, lab, input, answer);
    shown();
    form.addEventListener("change", shown);
    box.append(form);
    openPanel(box, "referee");
    input.focus();
    function ask() {
      var e = engine();
      answer.replaceChildren();
      if (!e) { answer.append(el("p", "flash", say.needsEngineReferee)); return; }
      var kind = form.querySelector("input[name=kind]:checked").value;
      var text = input.value.trim();
      var top = form.querySelector("#referee-top").value.trim();
      if (kind === "discard-pile" ? !top : kind !== "go-out" && !text) return;
      var r = {};
      Object.keys(game.request).forEach(function (k) { r[k] = game.request[k]; });
      var melds = text.split(/[,;]/).map(function (m) { return m.trim(); }).filter(Boolean);
      if (kind === "meld") r.cards = text;
      else if (kind === "initial-meld") { r.melds = melds; r.cumulative_score = total; }
      else if (kind === "discard-pile") { r.top_card = top; r.hand = text; r.cumulative_score = total; }
      else {
        r.side_canastas = { natural: count("#referee-natural"), mixed: count("#referee-mixed"), wild: 0 };
        r.melds = melds;
      }
      Promise.resolve(e.referee(kind, r)).then(function (v) {
        answer.replaceChildren();
        if (!v) return;
        var ok = v.allowed === true;
        var verdict = el("div", "verdict " + (v.status ? "unknown" : ok ? "yes" : "no"));
        verdict.setAttribute("data-verdict", v.status ? "unknown" : ok ? "yes" : "no");
        verdict.append(el("p", "answer", v.status ? say.unreadable : ok ? say.allowed : say.notAllowed));
        (v.reasons || v.problems || []).forEach(function (reason) {
          verdict.append(el("p", "why", reason.message || reason.code));
        });
        answer.append(verdict);
      });
    }
    function count(id) {
      var n = parseInt(form.querySelector(id).value, 10);
      return n >= 0 && n <= 30 ? n : 0;
    }
    form.addEventListener("input", ask);
    form.addEventListener("change", ask);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); ask(); });
  }

  /* ---- 4. waiting hands on the board ---- */
  function render() {
    if (holder.tagName === "FORM") return;
    var base = known();
    d.querySelectorAll(".waiting-total").forEach(function (n) { n.remove(); });
    var cta = d.querySelector('.cta a[href="' + game.form + '"]');
    var list = waiting();
    var extra = newHands(list).length;
    if (cta) {
      cta.textContent = cta.textContent.replace(/\d+/, String(base.next_hand + extra));
    }
    var next = d.querySelector(".meta [data-deals-next]");
    if (next && base.dealers.length) {
      next.textContent = say.dealsNext.replace("{name}", base.dealers[extra % base.dealers.length]);
    }
    /* A kept copy of the page dims its totals until they are counted (app.css) */
    if (!list.length || after) root.setAttribute("data-board-counted", "");
    else root.removeAttribute("data-board-counted");
    if (!list.length) return;
    if (!after) {
      /* not counted yet: said, not shown wrong */
      d.querySelectorAll(".board .col .total").forEach(function (total) {
        var line = el("div", "waiting-total small", say.uncounted);
        line.setAttribute("data-waiting", "uncounted");
        total.after(line);
      });
      return;
    }
    d.querySelectorAll(".board .col").forEach(function (col, c) {
      var total = col.querySelector(".total");
      if (!total || after.totals[c] === undefined) return;
      var added = after.totals[c] - base.columns[c].total;
      var line = el("div", "waiting-total small");
      line.setAttribute("data-waiting", "");
      line.textContent = say.withWaiting.replace("{points}", signed(added)).replace("{total}", number(after.totals[c]));
      total.after(line);
      var min = col.querySelector(".minimum b");
      if (min && after.minimums[c] !== undefined) min.textContent = number(after.minimums[c]);
    });
    points();
    chart();
  }
  /* each waiting hand's points in the outbox */
  function points() {
    if (!after) return;
    d.querySelectorAll("#outbox .outbox-item").forEach(function (li) {
      var i = -1;
      after.items.forEach(function (item, k) { if (item.id === li.dataset.entryId) i = k; });
      var s = i >= 0 ? after.scores[i] : null;
      if (!s || li.querySelector(".waiting-points")) return;
      li.append(el("p", "waiting-points small", s.map(function (v, c) {
        return game.columns[c].name + " " + signed(v);
      }).join(" \u00b7 ")));
    });
  }
  /* The running-totals chart (server-drawn SVG, templates/_chart.html): each side's line goes
     on, dashed and with a hollow marker, through the waiting hands. The scale is read from the
     chart's own grid lines and their numbers. */
  function chart() {
    var svg = d.querySelector("figure.chart svg");
    if (!svg || !after) return;
    svg.querySelectorAll(".waiting").forEach(function (n) { n.remove(); });
    var grid = [];
    svg.querySelectorAll("line.grid").forEach(function (line) {
      var label = line.nextElementSibling;
      var value = label ? parseInt(label.textContent.replace(/[^0-9\u2212-]/g, "").replace("\u2212", "-"), 10) : NaN;
      if (!isNaN(value)) grid.push([value, Number(line.getAttribute("y1"))]);
    });
    if (grid.length < 2 || grid[0][0] === grid[1][0]) return;
    var k = (grid[1][1] - grid[0][1]) / (grid[1][0] - grid[0][0]);
    function y(v) { return Math.round((grid[0][1] + k * (v - grid[0][0])) * 10) / 10; }
    var base = known();
    svg.querySelectorAll("g[class^=s] > path").forEach(function (path, c) {
      if (c >= base.columns.length) return;
      var pts = (path.getAttribute("d") || "").match(/-?[\d.]+,-?[\d.]+/g);
      if (!pts) return;
      var last = pts[pts.length - 1].split(",").map(Number);
      var x = last[0], run = base.columns[c].total, out = [last[0] + "," + last[1]];
      after.scores.forEach(function (s) {
        if (!s) return;
        run += s[c];
        x += 12;
        out.push(x + "," + y(run));
      });
      if (out.length < 2) return;
      var ns = "http://www.w3.org/2000/svg";
      var line = d.createElementNS(ns, "path");
      line.setAttribute("d", "M" + out.join(" L"));
      line.setAttribute("class", "waiting");
      line.setAttribute("stroke-dasharray", "2 3");
      var end = out[out.length - 1].split(",");
      var dot = d.createElementNS(ns, "circle");
      dot.setAttribute("cx", end[0]);
      dot.setAttribute("cy", end[1]);
      dot.setAttribute("r", "4");
      dot.setAttribute("class", "waiting");
      path.after(line, dot);
    });
  }

  /* ---- 6. what holds ---- */
  function changed() {
    status();
    scoreWaiting().then(function () {
      render();
      var form = d.getElementById("hand-form");
      if (form) {
        if (holder.tagName === "FORM" || panel && panel.contains(form)) rebase(form);
        /* online, the server's preview stands until the scorer types */
        if (offline() || serverSilent) enginePreview(form);
      }
    });
  }
  function status() {
    var line = d.getElementById("offline-status");
    if (!line) return;
    var worker = !!(navigator.serviceWorker && navigator.serviceWorker.controller) && engineKept;
    line.replaceChildren();
    var holds = el("b", "", worker && engineState === "ready" ? say.ready : say.whileOpen);
    holds.setAttribute("data-holds", worker && engineState === "ready" ? "ready" : "open");
    line.append(holds);
    var text = { loading: say.engineLoading, ready: say.engineReady, missing: say.engineMissing }[engineState];
    if (text) line.append(" " + text);
    var e = w.scorekeeperEngine;
    if (engineState === "waiting" && e && !e.automatic) {
      line.append(" " + say.engineSlow + " ");
      var b = el("button", "link", say.engineDownload.replace("{size}", megabytes(e.size || 0)));
      b.type = "button";
      b.setAttribute("data-engine-download", "");
      line.append(b);
    }
    if (root.getAttribute("data-wake-lock") === "none" && !root.hasAttribute("data-screen-on")) {
      line.append(" " + say.noWakeLock);
    }
    line.hidden = false;
  }
  /* Where a service worker runs, it keeps the engine's files (the engine may have loaded
     before the worker took the page): "ready to play offline" once all are in its cache. */
  var engineKept = false;
  function keepEngine() {
    var sw = navigator.serviceWorker && navigator.serviceWorker.controller;
    var files = [];
    try { files = JSON.parse(say.engineFiles || "[]"); } catch (err) { files = []; }
    if (!sw || !files.length || !w.caches || engineState !== "ready") return;
    sw.postMessage({ cache: files });
    var tries = 0;
    (function check() {
      Promise.all(files.map(function (url) { return w.caches.match(url, { ignoreSearch: true }); }))
        .then(function (hits) {
          if (hits.every(Boolean)) { engineKept = true; status(); return; }
          if (++tries < 60) setTimeout(check, 1000);
        }, function () {});
    })();
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", function () { keepEngine(); status(); });
  }
  d.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("[data-engine-download]") && w.scorekeeperEngine) {
      w.scorekeeperEngine.start();
    }
  });

  /* ---- 5. a conflict: both versions side by side ---- */
  function compare(item, li) {
    var key = game.page.split("/").pop();
    Promise.all([
      fetch("/api/v1/games/" + encodeURIComponent(key), { credentials: "same-origin", cache: "no-store" })
        .then(function (a) { return a.ok ? a.json() : null; }),
      fetch("/api/v1/score", {
        method: "POST", credentials: "same-origin", cache: "no-store",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request(teamsOf(item.fields, known().sides.length).teams))
      }).then(function (a) { return a.json(); }).catch(function () { return null; })
    ]).then(function (got) {
      var now = got[0], mine = got[1];
      if (!now) return;
      var old = li.querySelector(".both");
      if (old) old.remove();
      var box = el("div", "both");
      box.setAttribute("data-both", "");
      var theirs = el("section", "theirs");
      theirs.append(el("h3", "", say.theirs));
      var base = item.version, hands = (now.hands || []).filter(function (h) { return h.number >= item.number; });
      if (!hands.length) theirs.append(el("p", "small", say.theirsOther));
      hands.forEach(function (h) {
        theirs.append(el("p", "", say.handN.replace("{num}", h.number) + ": " +
          h.sides.map(function (s, c) { return now.sides[c].name + " " + signed(s.score); }).join(" \u00b7 ")));
      });
      var ours = el("section", "mine");
      ours.append(el("h3", "", say.mine));
      ours.append(el("p", "", item.title + ": " + (mine && mine.teams ? mine.teams.map(function (t, c) {
        return now.sides[c] ? now.sides[c].name + " " + signed(t.score) : signed(t.score);
      }).join(" \u00b7 ") : item.summary)));
      var pair = el("div", "side-by-side");
      pair.append(theirs, ours);
      box.append(pair);
      var choices = el("div", "buttons");
      [["both", say.keepBoth], ["mine", say.keepMine], ["theirs", say.keepTheirs]].forEach(function (c) {
        var b = el("button", c[0] === "both" ? "primary" : c[0] === "theirs" ? "danger" : "", c[1]);
        b.type = "button";
        b.setAttribute("data-choose", c[0]);
        b.addEventListener("click", function () { choose(item, c[0], now, hands); });
        choices.append(b);
      });
      box.append(choices);
      li.append(box);
      void base;
    });
  }
  function choose(item, what, now, hands) {
    var list = read(OUTBOX, []);
    var target = null;
    list.forEach(function (it) { if (it.id === item.id) target = it; });
    if (!target) return;
    /* The hands this phone entered after this one, on top of it, follow the choice: each goes
       on top of the game as it will be (every change moves the version on by one), so the
       scorer chooses once, not once per waiting hand. */
    var later = 0, past = false;
    list.forEach(function (it) {
      if (it === target) { past = true; return; }
      if (!past || it.page !== target.page || it.state !== "waiting") return;
      later += 1;
      it.version = now.version + (what === "theirs" ? later - 1 : later);
      if (!it.fields.some(function (p) { return p[0] === "number"; })) {
        it.title = say.handN.replace("{num}", now.next_hand + (what === "both" ? later : later - 1));
      }
    });
    if (what === "theirs") {
      write(OUTBOX, list.filter(function (it) { return it.id !== item.id; }));
      w.location.reload();
      return;
    }
    target.version = now.version;
    target.state = "waiting";
    target.fields = target.fields.filter(function (p) { return p[0] !== "number"; });
    if (what === "mine" && hands.length) {
      /* mine in place of the hand the other phone entered under this number */
      var n = hands[0].number;
      target.fields.push(["number", String(n)]);
      target.url = game.page + "/hands/" + n;
      target.title = say.handN.replace("{num}", n);
    } else {
      target.url = game.page + "/hands";
      target.title = say.handN.replace("{num}", now.next_hand);
    }
    write(OUTBOX, list);
    var send = d.querySelector("[data-outbox-send]");
    if (send) send.click(); else w.location.reload();
  }
  /* the outbox (static/notices.js) draws its items; each conflict gets its comparison */
  function conflicts() {
    var items = read(OUTBOX, []);
    d.querySelectorAll("#outbox .outbox-item.conflict").forEach(function (li) {
      if (li.querySelector("[data-both]") || li.getAttribute("data-comparing")) return;
      var item = items.filter(function (it) { return it.id === li.dataset.entryId; })[0];
      if (!item || offline()) return;
      li.setAttribute("data-comparing", "1");
      if (item.number === undefined) {
        item.number = game.next_hand + newHands(items.filter(function (it) {
          return it.page === game.page && items.indexOf(it) < items.indexOf(item);
        })).length;
      }
      compare(item, li);
    });
  }
  /* static/notices.js has drawn the outbox anew */
  d.addEventListener("scorekeeper:outbox-drawn", function () {
    if (holder.tagName === "FORM") return;
    points();
    conflicts();
    /* an entry refused meanwhile no longer counts as waiting */
    if (after && after.items.length !== waiting().length) changed();
  });

  /* ---- start ---- */
  if (holder.tagName !== "FORM" && !kept && !game.finished) {
    fetchForm().then(function () {
      /* a service worker keeps the fresh form too (its older copy would carry an older base) */
      var sw = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (sw) sw.postMessage({ keep: game.form });
    });
  }
  if (holder.tagName === "FORM" && kept) {
    var f = d.getElementById("hand-form");
    if (f) rebase(f);
  }
  w.addEventListener("online", function () { serverSilent = false; status(); });
  w.addEventListener("offline", function () {
    var form = d.getElementById("hand-form");
    if (form) enginePreview(form);
    status();
  });
  d.addEventListener("scorekeeper:outbox", changed);
  /* static/wakelock.js runs after the page: what it finds is said then */
  if (w.MutationObserver) {
    new MutationObserver(status).observe(root, { attributes: true, attributeFilter: ["data-wake-lock"] });
  }
  watchEngine();
  conflicts();
  changed();
})();
