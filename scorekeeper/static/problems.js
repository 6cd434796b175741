/* Entry forms: bring the first problem into view and focus it (issue 15: the red hint sat at
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

  /* The live preview replaces the notes it brings (out of band): a note just focused may be
     swapped out under the reader; focus its successor instead of leaving focus nowhere. */
  d.addEventListener("htmx:oobAfterSwap", function () {
    if (Date.now() - shownAt > 3000) return;
    var active = d.activeElement;
    if (active && active !== d.body && d.contains(active)) return;
    show(d.querySelector("form.hand-form, form.entry-form"), true);
  });

  /* The live preview (target #hand-summary) brings only the note slots that have notes
     (issue 16: on a slow phone each element swapped costs, and most slots are empty): empty
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
