/* 3 ist 50, "What may I play?" without the server (the phone offline, or no answer): the
   phone's rules engine (window.scorekeeperEngine, static/engine.js) answers the question as
   POST /api/v1/referee/three-is-fifty answers it, from the same fields the server reads
   (web/referee/fifty.py read_referee), and the answer is drawn as fifty/_referee_answer.html
   draws it, in the words the page carries (fifty.py offline_words). */
(function () {
  "use strict";
  var d = document;
  var source = d.getElementById("fifty-referee-words");
  var form = d.getElementById("referee-form");
  if (!source || !form) return;
  var words;
  try { words = JSON.parse(source.dataset.words); } catch (err) { return; }
  var silent = false;
  var THREES = { "3h": "3", "3d": "3", "3s": "3", "3c": "3", "3r": "3", "3b": "3" };

  function el(tag, cls, text) {
    var e = d.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function rank(token) { return THREES[token] || token; }
  function label(token) { var r = rank(token); return words.labels[r] || r; }
  function fill(template, values) {
    return template.replace(/\{(card|taken|name)\}/g, function (all, key) { return values[key]; });
  }
  function engine() {
    var e = window.scorekeeperEngine;
    return e && e.state === "ready" ? e : null;
  }
  function read() {
    var data = new FormData(form);
    var players = parseInt(data.get("players"), 10) || 0;
    var player = parseInt(data.get("player"), 10) || 0;
    if (player < 0 || player >= players) player = 0;
    var piles = [];
    for (var i = 0; i < players; i++) piles.push(String(data.get("pile-" + i) || ""));
    var top = String(data.get("top") || "").trim();
    var r = { piles: piles, player: player, middle: String(data.get("middle") || ""),
      hand: String(data.get("hand") || "") };
    if (top) r.discard_top = top;
    var empty = !(r.hand.trim() || r.middle.trim() || top || piles.some(function (p) { return p.trim(); }));
    return { request: r, players: players, player: player, empty: empty };
  }
  function moveText(move, asked) {
    var left = (asked.player + 1) % asked.players;
    var card = label(move.card);
    if (move.kind === "middle") {
      return fill(words.middle, { card: card, name: words.names[left],
        taken: move.cards.slice(1).map(label).join(" ") });
    }
    if (move.kind === "own_pile") {
      var run = words.own_pile[Math.min(move.cards.length - 1, words.own_pile.length - 1)];
      return fill(run, { card: card, name: words.names[left] });
    }
    if (move.kind === "any_pile") {
      if (move.to_pile === asked.player) return fill(words.own, { card: card });
      var to = move.to_pile === null || move.to_pile === undefined ? left : move.to_pile;
      return fill(words.any_pile, { card: card, name: words.names[to] });
    }
    return fill(words.discard, { card: card });
  }
  function box() {
    var b = el("div", "answer-box");
    b.id = "answer";
    b.setAttribute("aria-live", "polite");
    b.setAttribute("data-by-phone", "");
    return b;
  }
  function verdict(v, hand, asked) {
    var b = box();
    if (v.status) {
      var check = el("div", "verdict check-input");
      check.setAttribute("data-verdict", "check-input");
      check.setAttribute("role", "alert");
      check.append(el("p", "answer-title", words.check));
      (v.problems || []).forEach(function (p) { check.append(el("p", "why", p.message || p.code)); });
      if (!(v.problems || []).length) check.append(el("p", "why", words.see_notes));
      b.append(check);
      return b;
    }
    var moves = v.moves || [];
    b.append(el("h2", "answer-q", words.question[asked.player]));
    hand.forEach(function (r) {
      var mine = moves.filter(function (m) { return rank(m.card) === r; });
      var c = el("div", "card-answer " + (mine.length ? "yes" : "no"));
      c.setAttribute("data-card", r);
      c.setAttribute("data-verdict", mine.length ? "yes" : "no");
      var head = el("p", "card-verdict");
      head.append(el("span", "playing-card", r === "X" ? words.joker : label(r)), " ",
        el("b", "yn", mine.length ? words.yes : words.no));
      c.append(head);
      if (mine.length) {
        var list = el("ul", "moves");
        mine.forEach(function (m) {
          var li = el("li");
          li.setAttribute("data-kind", m.kind);
          var a = el("a", "case", words.titles[m.kind]);
          a.href = "#rule-" + m.kind;
          li.append(a, " " + moveText(m, asked));
          list.append(li);
        });
        c.append(list);
      } else {
        c.append(el("p", "why", words.why_not));
      }
      b.append(c);
    });
    if (!hand.length) {
      var none = el("div", "card-answer no");
      none.setAttribute("data-verdict", "no");
      var p = el("p", "card-verdict");
      p.append(el("b", "yn", words.no));
      none.append(p);
      b.append(none);
    }
    (v.reasons || []).forEach(function (r) { b.append(el("p", "why reason", r.message || r.code)); });
    ["middle", "own_pile", "any_pile", "discard"].forEach(function (kind) {
      if (!moves.some(function (m) { return m.kind === kind; })) return;
      var q = el("blockquote", "rule-quote");
      q.setAttribute("cite", "#rule-" + kind);
      var link = el("a", "rule-link", words.rule.replace("{}", words.titles[kind]));
      link.href = "#rule-" + kind;
      q.append(el("p", "", words.rules[kind]), link);
      b.append(q);
    });
    return b;
  }
  function show(answer) {
    var old = d.getElementById("answer");
    if (old) old.replaceWith(answer);
    d.querySelectorAll("#referee-form .slot").forEach(function (s) { s.replaceChildren(); });
  }
  function ask() {
    var e = engine();
    if (!e) return false;
    var asked = read();
    if (asked.empty) {  /* the page's hint, as the server answers an empty table */
      var hint = box();
      hint.append(el("p", "answer-hint muted", words.hint));
      show(hint);
      return true;
    }
    /* The hand as the engine reads it, in its order: with nothing else on the table every
       hand card may go onto the discard pile, one move per card. */
    var alone = { piles: asked.request.piles.map(function () { return ""; }), player: asked.player,
      hand: asked.request.hand };
    Promise.all([e.referee("three-is-fifty", asked.request), e.referee("three-is-fifty", alone)])
      .then(function (got) {
        var hand = [];
        (got[1].moves || []).forEach(function (m) {
          var r = rank(m.card);
          if (hand.indexOf(r) < 0) hand.push(r);
        });
        show(verdict(got[0], hand, asked));
      });
    return true;
  }
  function ours(e) {
    var elt = e.detail && e.detail.elt;
    return elt && (elt === form || (elt.closest && elt.closest("#referee-form") === form));
  }
  d.addEventListener("htmx:beforeRequest", function (e) {
    if (!ours(e) || !(navigator.onLine === false || silent)) return;
    if (ask()) e.preventDefault();
  });
  d.addEventListener("htmx:sendError", function (e) {
    if (!ours(e)) return;
    silent = true;
    ask();
  });
  d.addEventListener("htmx:afterRequest", function (e) {
    if (ours(e) && e.detail.successful) silent = false;
  });
})();
