/* The referee's card pad. Tapping a card types its letter into the card field in use; the
   field's "input" event then lets htmx ask the server for the answer. Without this file the
   fields are plain text inputs and the forms plain POST forms. No inline script (CSP). */
(function () {
  "use strict";
  var pad = document.querySelector("[data-cardpad]");
  var fields = Array.prototype.slice.call(document.querySelectorAll("input[data-cards]"));
  if (!pad || !fields.length) return;
  if (window.htmx) document.documentElement.classList.add("js");

  var active = null;
  var typing = false; // the reader asked for the phone's keyboard

  function tokens(value) {
    var text = value.trim();
    return text ? text.split(/\s+/) : [];
  }

  function changed() {  // a tap is a finished edit: "change" asks for the answer at once
    active.dispatchEvent(new Event("change", { bubbles: true }));
  }

  // The answer of the question in use, in one line above the pad: it stays in view while tapping.
  var strip = pad.querySelector("[data-pad=answer]");

  function slotOf(field) {
    var target = field.form && field.form.getAttribute("hx-target");
    return target ? document.querySelector(target) : null;
  }

  function mirror() {
    var slot = active && slotOf(active);
    var verdict = slot && slot.querySelector(".verdict");
    if (!strip) return;
    if (!verdict) { strip.hidden = true; return; }
    var answer = verdict.querySelector(".answer, .answer-title");
    var why = verdict.querySelector(".why");
    var strong = document.createElement("strong");
    var span = document.createElement("span");
    strong.textContent = answer ? answer.textContent.replace(/\s+/g, " ").trim() : "";
    span.textContent = why ? why.textContent.trim() : "";
    strip.className = "pad-verdict " + (verdict.dataset.verdict || "");
    strip.replaceChildren(strong, span);
    strip.hidden = false;
  }

  document.body.addEventListener("htmx:afterSwap", mirror);

  function use(field) {
    active = field;
    fields.forEach(function (f) { f.classList.toggle("pad-target", f === field); });
    var host = field.closest(".cardfield") || field;
    if (host.nextElementSibling !== pad) host.after(pad);
    pad.hidden = false;
    pad.querySelector("[data-pad=meld]").hidden = field.dataset.cards !== "melds";
    mirror();
  }

  fields.forEach(function (field) {
    // The pad replaces the phone's keyboard, which would cover it.
    field.setAttribute("inputmode", "none");
    field.addEventListener("focus", function () { use(field); });
    field.addEventListener("click", function () { use(field); });
  });

  // Keep the focus (and the caret) in the field while tapping the pad.
  pad.addEventListener("mousedown", function (event) {
    if (event.target.closest("button")) event.preventDefault();
  });

  pad.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button || !active) return;
    var card = button.dataset.card;
    var key = button.dataset.pad;
    var list = tokens(active.value);
    if (card) {
      if (active.dataset.cards === "single") list = [card];
      else list.push(card);
    } else if (key === "meld") {
      if (list.length && list[list.length - 1] !== "/") list.push("/");
    } else if (key === "undo") {
      list.pop();
      if (list.length && list[list.length - 1] === "/") list.pop();
    } else if (key === "clear") {
      list = [];
    } else if (key === "keyboard") {
      typing = true;
      fields.forEach(function (f) { f.removeAttribute("inputmode"); });
      active.blur();
      active.focus();
      return;
    } else if (key === "answer") {
      var slot = slotOf(active);
      if (slot) slot.scrollIntoView({ behavior: "smooth", block: "center" });
      return;
    } else if (key === "done") {
      pad.hidden = true;
      active.classList.remove("pad-target");
      active.blur();
      return;
    } else {
      return;
    }
    active.value = list.join(" ") + (list.length && active.dataset.cards !== "single" ? " " : "");
    if (!typing) active.focus({ preventScroll: true });
    changed();
  });
})();

/* Switching the rules or the player count loads the page for the new settings: what was typed
   into the questions is carried over (session storage, this tab only) and asked again, so a
   table that picked the wrong rules first loses nothing. Fields the new rules lack are skipped. */
(function () {
  "use strict";
  var KEY = "referee-entries:" + location.pathname;
  var forms = Array.prototype.slice.call(document.querySelectorAll("form[hx-post]"));
  if (!forms.length || !window.sessionStorage) return;

  function each(visit) {
    forms.forEach(function (form, f) {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
        var key = f + ":" + (el.id || el.name + "=" + el.value);
        visit(el, key, form);
      });
    });
  }

  function save() {
    var kept = {};
    each(function (el, key) {
      kept[key] = el.type === "checkbox" || el.type === "radio" ? el.checked : el.value;
    });
    try { sessionStorage.setItem(KEY, JSON.stringify(kept)); } catch (e) { /* full: forget */ }
  }

  document.querySelectorAll("a[data-keep-entries], [data-keep-entries] a").forEach(function (link) {
    link.addEventListener("click", save);
  });

  var raw;
  try { raw = sessionStorage.getItem(KEY); sessionStorage.removeItem(KEY); } catch (e) { raw = null; }
  if (!raw) return;
  var kept;
  try { kept = JSON.parse(raw); } catch (e) { return; }
  var ask = [];
  each(function (el, key, form) {
    if (!Object.prototype.hasOwnProperty.call(kept, key)) return;
    var value = kept[key];
    if (el.type === "checkbox" || el.type === "radio") {
      if (el.checked === !!value) return;
      el.checked = !!value;
    } else {
      if (el.value === String(value)) return;
      el.value = String(value);
    }
    if (ask.indexOf(el) < 0 && (el.type !== "number" || el.value)) ask.push(el);
  });
  // Ask each question again with what it holds now (htmx answers on "change").
  window.setTimeout(function () {
    var asked = [];
    ask.forEach(function (el) {
      if (asked.indexOf(el.form) >= 0) return;
      asked.push(el.form);
      el.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }, 0);
})();

/* Without the server (the phone offline, or no answer): the questions "Is this a legal
   meld?", "Is this initial meld enough?", "May I take the discard pile?" and "May I go out?"
   are answered by the phone's rules engine (window.scorekeeperEngine, static/engine.js) as the
   API answers them, from the same fields the server reads (web/referee/forms.py); the others
   say that they need the connection (docs/offline.md). */
(function () {
  "use strict";
  var d = document;
  var say = (d.getElementById("referee-offline") || {}).dataset;
  if (!say) return;
  var silent = false;

  function engine() {
    var e = window.scorekeeperEngine;
    return e && e.state === "ready" ? e : null;
  }
  function el(tag, cls, text) {
    var e = d.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function request(form) {
    var data = new FormData(form), r = { ruleset: data.get("ruleset"), players: Number(data.get("players")) || undefined };
    var options = data.get("options");
    if (options) { try { r.options = JSON.parse(options); } catch (err) { /* the server reads it */ } }
    return { data: data, request: r };
  }
  function score(text) {
    var t = String(text || "").replace(/[\s.,'\u00a0\u202f]/g, "").replace(/\u2212/g, "-");
    return /^-?\d{1,8}$/.test(t) ? parseInt(t, 10) : 0;
  }
  function text(data, name) { return String(data.get(name) || "").trim(); }
  function melds(data, name) {
    return text(data, name).split("/").map(function (m) { return m.trim(); }).filter(Boolean);
  }
  function flag(data, name) { return ["1", "on", "true", "yes"].indexOf(String(data.get(name))) >= 0; }
  /* Each question's request from its form, as web/referee/forms.py reads the form (false:
     nothing asked yet). */
  var OFFLINE = {
    "meld": function (data, r) {
      r.cards = text(data, "cards");
      r.going_out = flag(data, "going_out");
      return !!r.cards;
    },
    "initial-meld": function (data, r) {
      r.melds = melds(data, "melds");
      var top = text(data, "top_card");
      if (top) r.top_card = top;
      r.cumulative_score = score(data.get("score"));
      return r.melds.length > 0;
    },
    "discard-pile": function (data, r) {
      r.top_card = text(data, "top_card");
      r.hand = text(data, "hand");
      r.side_has_melded = data.get("side_has_melded") !== "no";
      r.side_melds = melds(data, "side_melds");
      r.pile_has_wild = flag(data, "pile_has_wild");
      r.red_three_upcard = flag(data, "red_three_upcard");
      r.going_out = flag(data, "going_out");
      r.cumulative_score = score(data.get("score"));
      return !!r.top_card;
    },
    "go-out": function (data, r) {
      r.side_canastas = {};
      ["natural", "mixed", "wild"].forEach(function (kind) {
        r.side_canastas[kind] = parseInt(text(data, kind) || "0", 10) || 0;
      });
      r.concealed = flag(data, "concealed");
      r.player_melded_before = flag(data, "melded_before");
      r.melds = melds(data, "melds");
      var side = melds(data, "side_melds");
      if (side.length) r.side_melds = side;
      return true;
    }
  };
  function ask(form, question) {
    var e = engine(), slot = d.getElementById("answer-" + question);
    if (!slot) return;
    slot.replaceChildren();
    if (!e || !OFFLINE[question]) {
      slot.append(el("p", "flash", say.needs));
      return;
    }
    var got = request(form), r = got.request;
    if (!OFFLINE[question](got.data, r)) return;
    e.referee(question, r).then(function (v) {
      slot.replaceChildren();
      var problems = v.status ? (v.problems || []) : [];
      var state = problems.length ? "check-input" : v.allowed ? "yes" : "no";
      var box = el("div", "verdict " + state);
      box.setAttribute("data-verdict", state);
      box.setAttribute("data-by-phone", "");
      box.append(el("p", problems.length ? "answer-title" : "answer",
        problems.length ? say.check : v.allowed ? say.yes : say.no));
      (problems.length ? problems : v.reasons || []).forEach(function (reason) {
        box.append(el("p", "why", reason.message || reason.code));
      });
      slot.append(box);
      slot.dispatchEvent(new CustomEvent("htmx:afterSwap", { bubbles: true }));  /* the pad's strip */
    });
  }
  d.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail && e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form[hx-post]");
    var m = form && /\/referee\/([a-z-]+)/.exec(form.getAttribute("hx-post") || "");
    if (!m || !(navigator.onLine === false || silent)) return;
    e.preventDefault();
    ask(form, m[1]);
  });
  d.addEventListener("htmx:sendError", function (e) {
    var form = e.detail && e.detail.elt && e.detail.elt.closest && e.detail.elt.closest("form[hx-post]");
    var m = form && /\/referee\/([a-z-]+)/.exec(form.getAttribute("hx-post") || "");
    if (!m) return;
    silent = true;
    ask(form, m[1]);
  });
  d.addEventListener("htmx:afterRequest", function (e) {
    if (e.detail && e.detail.successful) silent = false;
  });
})();
