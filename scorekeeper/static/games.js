/* scorekeeper: only what htmx cannot do. The card pad writes into the active card field,
   "count by card value" fills the points field, Enter moves to the next field, and a new meld
   field appears when the last one is used. Everything works without this file, only slower. */
(function () {
  "use strict";
  var d = document, active = null, keyboard = false;

  function pad() { return d.getElementById("pad"); }
  function tokens(text) { return text.split(/[\s,;]+/).filter(Boolean); }
  function fire(el) { el.dispatchEvent(new Event("input", { bubbles: true })); }
  function label(field) {
    var l = field.id && d.querySelector('label[for="' + field.id + '"]');
    var side = field.closest(".side");
    var name = side && side.querySelector(".side-head h2");
    return (name ? name.textContent + ": " : "") + (l ? l.textContent.trim() : "");
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
    d.getElementById("pad-target").textContent = label(active) + " (" + list.length + ")";
  }

  function setActive(field) {
    if (active && active !== field) active.classList.remove("active");
    active = field;
    field.classList.add("active");
    var p = pad();
    if (!p) return;
    p.hidden = false;
    d.body.classList.add("pad-open");
    counts();
    var r = field.getBoundingClientRect();
    if (r.bottom + 48 > window.innerHeight - p.offsetHeight || r.top < 60) {
      field.scrollIntoView({ block: "center" });
    }
  }

  function closePad() {
    var p = pad();
    if (p) p.hidden = true;
    d.body.classList.remove("pad-open");
    if (active) active.classList.remove("active");
    active = null;
  }

  function prepare(root) {
    (root || d).querySelectorAll(".cardfield").forEach(function (f) {
      f.setAttribute("inputmode", keyboard ? "text" : "none");
    });
    if (active && !d.body.contains(active)) closePad();
  }

  function addMeld(prefix, focus) {
    var rows = d.querySelectorAll("#side-" + prefix + " .meld-row");
    var last = rows[rows.length - 1];
    if (!last || rows.length >= 30) return null;
    var n = rows.length, row = last.cloneNode(true);
    var input = row.querySelector("input"), lab = row.querySelector("label"), slot = row.querySelector(".slot");
    input.id = prefix + "-meld-" + n;
    input.value = "";
    input.classList.remove("active");
    lab.setAttribute("for", input.id);
    lab.lastChild.textContent = " " + (n + 1);
    slot.id = "n-" + prefix + "-m" + n;
    slot.innerHTML = "";
    last.after(row);
    if (focus) { input.focus(); setActive(input); }
    return input;
  }

  function next(field) {
    var side = field.closest(".side");
    var all = Array.prototype.slice.call(side.querySelectorAll(".cardfield"));
    var i = all.indexOf(field);
    var row = field.closest(".meld-row");
    if (row && !row.nextElementSibling && field.value.trim()) {
      addMeld(side.id.slice(5), true);
      return;
    }
    var target = all[i + 1], s = side.nextElementSibling;
    for (; !target && s; s = s.nextElementSibling) {
      if (!s.classList.contains("side")) continue;
      target = Array.prototype.filter.call(s.querySelectorAll(".cardfield"),
        function (f) { return f.offsetParent !== null; })[0];
    }
    if (target) { target.focus(); setActive(target); }
  }

  d.addEventListener("focusin", function (e) {
    var t = e.target;
    if (t.classList && t.classList.contains("cardfield")) setActive(t);
    else if (!t.closest("#pad")) closePad();
  });

  /* Pad buttons must not take the focus (and the caret) away from the field. */
  ["pointerdown", "mousedown"].forEach(function (type) {
    d.addEventListener(type, function (e) {
      if (e.target.closest && e.target.closest("#pad button")) e.preventDefault();
    });
  });

  d.addEventListener("click", function (e) {
    var add = e.target.closest("[data-add-meld]");
    if (add) { addMeld(add.getAttribute("data-add-meld"), true); return; }
    var b = e.target.closest("#pad button");
    if (!b) return;
    var action = b.getAttribute("data-pad"), card = b.getAttribute("data-card");
    if (action === "done") { closePad(); return; }
    if (action === "kbd") {
      keyboard = !keyboard;
      d.body.classList.toggle("kbd", keyboard);
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

  d.addEventListener("input", function (e) {
    var t = e.target;
    if (t === active) counts();
    var sum = t.getAttribute && t.getAttribute("data-sum");
    if (sum) {
      var total = 0, any = false;
      d.querySelectorAll('[data-sum="' + sum + '"]').forEach(function (c) {
        var n = parseInt(c.value, 10);
        if (n) { total += n * parseInt(c.getAttribute("data-value"), 10); any = true; }
      });
      var target = d.getElementById(sum);
      if (target) { target.value = any ? String(total) : ""; }
    }
    if (t.classList && t.classList.contains("cardfield") && t.value.trim()) {
      var row = t.closest(".meld-row");
      if (row && !row.nextElementSibling) addMeld(t.closest(".side").id.slice(5), false);
    }
  });

  /* Enter moves on instead of saving a half-entered hand. */
  d.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.key !== "Enter" || t.tagName !== "INPUT" || !t.closest("#hand-form")) return;
    e.preventDefault();
    if (t.classList.contains("cardfield")) { next(t); return; }
    var all = Array.prototype.slice.call(d.querySelectorAll("#hand-form input:not([type=hidden]):not([type=radio]):not([type=checkbox])"));
    var n = all[all.indexOf(t) + 1];
    if (n) n.focus();
  });

  d.addEventListener("htmx:load", function (e) { prepare(e.detail.elt); });
  /* A refused save (409, 422) swaps the form back in: show why. */
  d.addEventListener("htmx:afterSwap", function (e) {
    var form = d.getElementById("hand-form");
    if (!form || !e.detail.xhr || e.detail.xhr.status < 400) return;
    var why = form.querySelector("[role=alert], .problem");
    if (why) why.scrollIntoView({ block: "center" });
  });
  prepare();
})();
