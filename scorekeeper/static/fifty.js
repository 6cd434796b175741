/* 3 ist 50: only what htmx cannot do. The card pad writes into the active card field (a minus
   pile, the middle cards, a hand), shows how many of each rank the field holds, and "Next"
   moves to the next visible card field. Everything works without this file: type the cards. */
(function () {
  "use strict";
  var d = document, active = null, keyboard = false;

  function pad() { return d.getElementById("pad"); }
  function tokens(text) { return text.split(/[\s,;]+/).filter(Boolean); }
  function fire(el) { el.dispatchEvent(new Event("input", { bubbles: true })); }
  function visible(f) { return f.offsetParent !== null; }
  function fields() {
    return Array.prototype.filter.call(d.querySelectorAll(".cardfield"), visible);
  }

  function counts() {
    var p = pad();
    if (!p || !active) return;
    var list = tokens(active.value.toUpperCase());
    p.querySelectorAll("[data-card]").forEach(function (b) {
      var t = b.getAttribute("data-card").toUpperCase(), n = 0;
      list.forEach(function (x) { if (x === t) n++; });
      b.querySelector(".cnt").textContent = n ? n : "";
    });
    d.getElementById("pad-target").textContent =
      (active.getAttribute("data-name") || "") + " (" + list.length + ")";
  }

  function setActive(field) {
    if (active && active !== field) active.classList.remove("active");
    active = field;
    field.classList.add("active");
    var p = pad();
    if (!p) return;
    p.hidden = false;
    d.body.classList.add("pad-open");
    lift(p.offsetHeight);
    counts();
    var r = field.getBoundingClientRect();
    if (r.bottom + 56 > window.innerHeight - p.offsetHeight || r.top < 60) {
      field.scrollIntoView({ block: "center" });
    }
  }

  function closePad() {
    var p = pad();
    if (p) p.hidden = true;
    d.body.classList.remove("pad-open");
    lift(0);
    if (active) active.classList.remove("active");
    active = null;
  }

  /* The save bar stays above the open pad, so "Save" is one tap away. */
  function lift(height) {
    var bar = d.querySelector(".savebar");
    if (bar) bar.style.bottom = height ? height + "px" : "";
  }

  function prepare(root) {
    (root || d).querySelectorAll(".cardfield").forEach(function (f) {
      f.setAttribute("inputmode", keyboard ? "text" : "none");
    });
    if (active && !d.body.contains(active)) closePad();
  }

  function next(field) {
    var all = fields(), target = all[all.indexOf(field) + 1];
    if (target) { target.focus(); setActive(target); } else closePad();
  }

  d.addEventListener("focusin", function (e) {
    var t = e.target;
    if (t.classList && t.classList.contains("cardfield")) setActive(t);
    /* A tapped button keeps the pad: closing it would move the page under the finger. */
    else if (!t.closest("#pad") && t.tagName !== "BUTTON") closePad();
  });

  /* Pad buttons must not take the focus (and the caret) away from the field. */
  ["pointerdown", "mousedown"].forEach(function (type) {
    d.addEventListener(type, function (e) {
      if (e.target.closest && e.target.closest("#pad button")) e.preventDefault();
    });
  });

  d.addEventListener("click", function (e) {
    var b = e.target.closest("#pad button");
    if (!b) return;
    var action = b.getAttribute("data-pad"), card = b.getAttribute("data-card");
    if (action === "done") { closePad(); return; }
    if (action === "kbd") {
      keyboard = !keyboard;
      prepare();
      if (active) { var f = active; f.blur(); f.focus(); }
      return;
    }
    if (!active) return;
    if (card) {
      active.value = (active.value.replace(/\s+$/, "") + " " + card).replace(/^\s+/, "");
      fire(active);
    } else if (action === "undo") {
      var list = tokens(active.value);
      list.pop();
      active.value = list.join(" ");
      fire(active);
    } else if (action === "next") {
      next(active);
      return;
    }
    counts();
  });

  d.addEventListener("input", function (e) { if (e.target === active) counts(); });

  /* Enter moves on instead of saving a half-entered game. */
  d.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key !== "Enter" || t.tagName !== "INPUT" || !t.closest("#entry-form")) return;
    e.preventDefault();
    if (t.classList.contains("cardfield")) { next(t); return; }
    var all = Array.prototype.filter.call(
      d.querySelectorAll("#entry-form input[type=text]"), visible);
    var n = all[all.indexOf(t) + 1];
    if (n) n.focus();
  });

  d.addEventListener("htmx:load", function (e) { prepare(e.detail.elt); });
  prepare();
})();
