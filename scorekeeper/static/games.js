/* Canasta hand entry: the card pad (cardpad.js) writes into the active card field; here are
   what only this page has: "count by card value" fills the points field, a new meld field
   appears when the last one is used, and "Next" runs through a side's melds and hands, then
   to the next side. Everything works without this file, only slower. */
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

  function next(field) {
    var side = field.closest(".side");
    var all = Array.prototype.slice.call(side.querySelectorAll(".cardfield"));
    var row = field.closest(".meld-row");
    if (row && !row.nextElementSibling && field.value.trim()) {
      addMeld(side.id.slice(5), true);
      return;
    }
    var target = all[all.indexOf(field) + 1], s = side.nextElementSibling;
    for (; !target && s; s = s.nextElementSibling) {
      if (!s.classList.contains("side")) continue;
      target = Array.prototype.filter.call(s.querySelectorAll(".cardfield"), pad.visible)[0];
    }
    if (target) pad.goTo(target);
  }

  var pad = window.scorekeeperCardPad({ form: "#hand-form", label: label, next: next, liftSaveBar: true });

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
