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
  var MAX_SCORE = 10000000;  /* rules/api.py MAX_SCORE */

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
  /* A score as web/referee/forms.py parse_score reads it: null when unreadable. */
  function readScore(raw) {
    var t = String(raw || "").trim().replace(/[\u2212\u2013]/g, "-").replace(/[\s\u00a0\u202f.,'\u2019]/g, "");
    if (!t) return 0;
    if (!/^[+-]?[0-9]{1,9}$/.test(t)) return null;
    var n = parseInt(t, 10);
    return Math.abs(n) <= MAX_SCORE ? n : null;
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
    },
    "options": function (data, r) {
      r.hand = text(data, "hand");
      r.side_has_melded = data.get("side_has_melded") !== "no";
      r.side_melds = r.side_has_melded ? melds(data, "side_melds") : [];
      var top = text(data, "top_card");
      if (top) r.top_card = top;
      r.pile_has_wild = flag(data, "frozen");
      r.drawn = flag(data, "drawn");
      r.player_melded_before = flag(data, "melded_before");
      if (flag(data, "stock_empty")) r.stock = 0;  /* seed 000:133: nothing left to draw */
      r.cumulative_score = readScore(data.get("score")) || 0;
      return !!r.hand;
    }
  };
  /* "What may I do?" drawn as referee/_options_answer.html draws it, in the words the page
     carries for it (web/referee/moves.py options_words). */
  var words = null;
  try { words = JSON.parse(((d.getElementById("referee-options-words") || {}).dataset || {}).words || "null"); } catch (err) { words = null; }
  var RANK_OF = { "3h": "3r", "3d": "3r", "3s": "3b", "3c": "3b" };
  function chips(tokens) {
    var span = el("span", "cards");
    tokens.forEach(function (token) {
      var rank = RANK_OF[token] || token, card;
      if (rank === "X") card = el("span", "playing-card wild", words.joker);
      else if (rank === "2") card = el("span", "playing-card wild", "2");
      else if (rank === "3r") { card = el("span", "playing-card red", "3\u2665"); card.title = words.red_three; }
      else if (rank === "3b") { card = el("span", "playing-card", "3\u2660"); card.title = words.black_three; }
      else card = el("span", "playing-card", words.labels[rank] || rank);
      span.append(card);
    });
    return span;
  }
  function moveTitle(move) {
    if (move.kind === "add") {
      var rank = move.reason && move.reason.params && move.reason.params.rank;
      return words.add[rank] || words.add[RANK_OF[rank] || ""] || "";
    }
    return words.titles[move.kind + ":" + (move.variant || "")] ||
      (move.kind === "initial_meld" || move.kind === "take_pile" || move.kind === "meld" ? words.titles[move.kind] : null) ||
      (move.variant === "concealed" ? words.titles["go_out:concealed"] : words.titles.go_out);
  }
  function optionsAnswer(v, form) {
    var stockEmpty = flag(new FormData(form), "stock_empty") && !flag(new FormData(form), "drawn");
    var moves = v.moves || [];
    var box = el("div", "verdict info options-answer");
    box.setAttribute("data-verdict", "info");
    box.setAttribute("data-by-phone", "");
    box.append(el("p", "answer", words.count[Math.min(moves.length, words.count.length - 1)]
      .replace(String(words.count.length - 1), String(moves.length))));
    if (v.required !== null && v.required !== undefined) {
      box.append(el("p", "why", words.required.replace("{}", new Intl.NumberFormat(words.lang).format(v.required))));
    }
    if (!moves.length) box.append(el("p", "why", stockEmpty ? words.stock_empty : words.nothing));
    var list = el("ol", "moves option-moves");
    moves.forEach(function (move) {
      var li = el("li", "option-move");
      li.setAttribute("data-move", move.kind);
      var title = el("p", "move-title");
      title.append(el("strong", "", moveTitle(move)));
      li.append(title, el("p", "move-text", (move.reason && move.reason.message) || ""));
      if (move.melds && move.melds.length) {
        var facts = el("div", "facts");
        move.melds.forEach(function (m) { facts.append(chips(m)); });
        li.append(facts);
      }
      var quote = words.items[move.rule_item];
      if (quote) {
        var url = words.rules_url + "#" + move.rule;
        var q = el("blockquote", "rule-quote");
        q.setAttribute("cite", url);
        var link = el("a", "rule-link", words.rule.replace("{}", words.sections[move.rule] || move.rule));
        link.href = url;
        q.append(el("p", "", quote), link);
        li.append(q);
      }
      list.append(li);
    });
    box.append(list);
    (v.notes || []).forEach(function (note) { box.append(el("p", "option-note small", note.message || note.code)); });
    return box;
  }
  function problemBox(problems) {
    var box = el("div", "verdict check-input");
    box.setAttribute("data-verdict", "check-input");
    box.setAttribute("data-by-phone", "");
    box.setAttribute("role", "alert");
    box.append(el("p", "answer-title", say.check));
    problems.forEach(function (p) { box.append(el("p", "why", p.message || p.code || p)); });
    return box;
  }
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
    if (question === "options" && !words) { slot.append(el("p", "flash", say.needs)); return; }
    if (question === "options" && readScore(got.data.get("score")) === null) {
      slot.append(problemBox([words.score]));
      return;
    }
    e.referee(question, r).then(function (v) {
      slot.replaceChildren();
      if (question === "options") {
        var impossible = (v.notes || []).filter(function (n) { return n.code === "card.too_many"; });
        slot.append(v.status ? problemBox((v.problems || []).slice(0, 6)) :
          impossible.length ? problemBox(impossible.slice(0, 6)) : optionsAnswer(v, form));
        slot.dispatchEvent(new CustomEvent("htmx:afterSwap", { bubbles: true }));
        return;
      }
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
