/* What the forms tell the reader, in two parts (one file: on a slow phone every file more
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
  var d = document;

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

  /* The live preview replaces the notes it brings (out of band): a note just focused may be
     swapped out under the reader; focus its successor instead of leaving focus nowhere. */
  d.addEventListener("htmx:oobAfterSwap", function () {
    if (Date.now() - shownAt > 3000) return;
    var active = d.activeElement;
    if (active && active !== d.body && d.contains(active)) return;
    show(d.querySelector("form.hand-form, form.entry-form"), true);
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
