/* Canasta hand entry: the card pad (cardpad.js) writes into the active card field; here are
   what only this page has: "count by card value" fills the points field, a new meld field
   appears when the last one is used, "Next" runs through a side's melds, hands and red threes
   (the pad's red-three key counts them), then to the next side and at last to "Save"; the
   pad's header shows the side's running score; switching how a side is entered takes over
   what the other way already says (its score as the total, its counts as quick fields).
   Everything works without this file, only slower. */
(function () {
  "use strict";
  var d = document;
  /* Shows what needs this script (.js-only, such as "+ Meld"). */
  d.documentElement.classList.add("js");

  function label(field) {
    var l = field.id && d.querySelector('label[for="' + field.id + '"]');
    var side = field.closest(".side");
    var name = side && side.querySelector(".side-head h2");
    return (name ? name.textContent + ": " : "") + (l ? l.textContent.trim() : "");
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
    if (focus) pad.goTo(input);
    return input;
  }

  function detail(side) { return !!(side && side.querySelector("[value=detail]:checked")); }

  /* A side's red-three fields are filled from the pad while the side is entered card by card. */
  function countField(el) {
    return el.hasAttribute && el.hasAttribute("data-pad-count") && detail(el.closest(".side"));
  }

  /* The red-three key adds to the side's red threes: the player's own where each partner
     scores their own (cutthroat), else the side's one field. */
  function countInto(field, rank) {
    if (rank !== "3r" || !field.classList.contains("cardfield")) return null;
    var side = field.closest(".side"), reds = side && side.querySelectorAll("[data-pad-count]");
    if (!reds || !reds.length) return null;
    var hand = /-hand-(\d+)$/.exec(field.id || "");
    return reds[hand && reds[+hand[1]] ? +hand[1] : 0];
  }

  function padFields(side) {
    return Array.prototype.filter.call(side.querySelectorAll(".cardfield, [data-pad-count]"),
      function (f) { return pad.isField(f) && pad.visible(f); });
  }

  /* After the last field of the last side: the pad closes and "Save" is next. */
  function toSave() {
    pad.close();
    var save = d.querySelector('#hand-form .savebar button[value="save"]');
    if (!save) return;
    save.scrollIntoView({ block: "nearest" });
    save.focus();
  }

  function next(field) {
    var side = field.closest(".side");
    var all = padFields(side);
    var row = field.closest(".meld-row");
    if (row && !row.nextElementSibling && field.value.trim()) {
      addMeld(side.id.slice(5), true);
      return;
    }
    var target = all[all.indexOf(field) + 1], s = side.nextElementSibling;
    for (; !target && s; s = s.nextElementSibling) {
      if (!s.classList.contains("side")) continue;
      target = padFields(s)[0];
    }
    if (target) pad.goTo(target); else toSave();
  }

  /* The pad's header: the side's name and its score so far ("This hand +690 total 1,250",
     and each partner's own in cutthroat). */
  function score(field) {
    var side = field.closest(".side");
    if (!side) return "";
    var name = side.querySelector(".side-head h2");
    var parts = Array.prototype.map.call(side.querySelectorAll(".side-score .hand-score, .side-score > p"),
      function (el) { return el.textContent.replace(/\s+/g, " ").trim(); });
    return (name ? name.textContent + " \u00b7 " : "") + (parts.join(" \u00b7 ") || "\u2013");
  }

  var pad = window.scorekeeperCardPad({
    form: "#hand-form", label: label, next: next, liftSaveBar: true,
    score: score, countField: countField, countInto: countInto, last: toSave
  });

  /* Switching how a side is entered keeps what the other way says: the score it came to as the
     total, the canastas and points as quick fields (each only into an empty field). */
  d.addEventListener("change", function (e) {
    var t = e.target;
    if (!t.name || !/^t\d+-mode$/.test(t.name) || !t.checked) return;
    var side = t.closest(".side"), sc = side && side.querySelector(".side-score");
    var filled = false;
    if (sc) {
      side.querySelectorAll("[data-keep]").forEach(function (f) {
        var key = "keep" + f.getAttribute("data-keep").replace(/(^|_)([a-z])/g, function (m, u, c) { return c.toUpperCase(); });
        var value = sc.dataset[key];
        if (value === undefined || f.value.trim() || !pad.visible(f)) return;
        if (value === "0" && f.getAttribute("data-keep") !== "total") return;
        f.value = value;
        filled = true;
      });
    }
    pad.prepare(side);
    if (filled) {
      var fields = d.getElementById("hand-fields");
      if (fields) fields.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  /* ± turns a total negative (a phone's number keys may have no minus). */
  d.addEventListener("click", function (e) {
    var b = e.target.closest("[data-sign]");
    if (!b) return;
    var f = d.getElementById(b.getAttribute("data-sign"));
    if (!f) return;
    var v = f.value.trim().replace(/^\u2212/, "-");
    f.value = v.charAt(0) === "-" ? v.slice(1) : "-" + (v || "");
    pad.fire(f);
    f.focus();
  });

  d.addEventListener("click", function (e) {
    var add = e.target.closest("[data-add-meld]");
    if (add) addMeld(add.getAttribute("data-add-meld"), true);
  });

  function edited(e) {
    var t = e.target;
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
  }
  d.addEventListener("input", edited);
  d.addEventListener("change", edited);  /* card pad taps */

  window.scorekeeperDraft({
    form: "hand-form",
    fields: "hand-fields",
    structure: "lone",  /* another lone player gives the form other sides */
    grow: function (name, wanted) {  /* more melds than the form shows: add rows */
      var m = /^(t\d+)-meld$/.exec(name);
      if (!m) return;
      while (d.querySelectorAll('input[name="' + name + '"]').length < wanted &&
             addMeld(m[1], false)) { /* one more row */ }
    }
  });

  /* A refused save (409, 422) swaps the form back in: notices.js shows why. */
})();
